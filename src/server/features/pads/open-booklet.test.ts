import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAD_STATUS } from '../../../shared/lookups.ts';
import { USAGE_MSG } from '../../../shared/schemas/pads.ts';
import { buildPads, createBranch, createRoute, createUser } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { otherPartlyUsedPad } from './repo.ts';

let t: TestApp;
let routeId: number;
let otherRouteId: number;
let branchId: number;
let holderId: number;

const partlyUsed = { pad_status_id: PAD_STATUS.PARTIALLY_USED, series_status: `2${'1'.repeat(49)}` };

beforeAll(async () => {
  t = await createTestApp();
  branchId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  holderId = (await createUser(t.db, { branch_id: branchId })).id;
  routeId = (await createRoute(t.db, { name: 'Busy Route' })).id;
  otherRouteId = (await createRoute(t.db, { name: 'Quiet Route' })).id;
});
afterAll(async () => {
  await t.close();
});

describe('one booklet at a time', () => {
  it('when the holder has another partly used pad of the route among many unused ones, then the message names it', async () => {
    const heldBy = { userId: holderId, branchId };
    await buildPads(t.db, routeId, 40, { heldBy });
    const [open] = await buildPads(t.db, routeId, 1, { heldBy, ...partlyUsed });
    const [later] = await buildPads(t.db, routeId, 1, { heldBy, ...partlyUsed });
    await buildPads(t.db, otherRouteId, 1, { heldBy, ...partlyUsed });
    const [current] = await buildPads(t.db, routeId, 1, { heldBy, ...partlyUsed });

    const other = await otherPartlyUsedPad(t.db, current);
    expect(other).toBe(open.number);
    expect(USAGE_MSG.oneBookletAtATime(other ?? 0)).toContain(`pad ${open.number} of this route`);
    expect(await otherPartlyUsedPad(t.db, open)).toBe(later.number);
  });

  it('when the only other partly used pads are on another route or with another holder, then there is no warning', async () => {
    const heldBy = { userId: (await createUser(t.db, { branch_id: branchId })).id, branchId };
    const [current] = await buildPads(t.db, routeId, 1, { heldBy, ...partlyUsed });
    await buildPads(t.db, otherRouteId, 1, { heldBy, ...partlyUsed });
    expect(await otherPartlyUsedPad(t.db, current)).toBeNull();
  });

  it("when a branch's own stock holds another partly used pad of the route, then the message names it, not a user's pad", async () => {
    const stockBranchId = (await createBranch(t.db, { name: 'Roxas Port' })).id;
    const [open] = await buildPads(t.db, routeId, 1, { holder_branch_id: stockBranchId, ...partlyUsed });
    await buildPads(t.db, routeId, 1, { heldBy: { userId: holderId, branchId: stockBranchId }, ...partlyUsed });
    const [current] = await buildPads(t.db, routeId, 1, { holder_branch_id: stockBranchId, ...partlyUsed });
    expect(await otherPartlyUsedPad(t.db, current)).toBe(open.number);
  });
});
