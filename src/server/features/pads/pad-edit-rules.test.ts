import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ISSUANCE_STATUS, PAD_STATUS, SERIES_ENTRY } from '../../../shared/lookups.ts';
import { can } from '../../../shared/permissions.ts';
import { MAX_PADS_PER_ADD, PAD_MSG, type Pad } from '../../../shared/schemas/pads.ts';
import { padCustody, pads } from '../../db/schema/pads.ts';
import { createBranch, createRoute, signedIn, storedPadRows } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

type Headers = Record<string, string>;
let t: TestApp;
let headOfficeId: number;
let otherBranchId: number;
const as: Record<string, { id: number; branch_id: number; headers: Headers }> = {};

beforeAll(async () => {
  t = await createTestApp();
  headOfficeId = (await createBranch(t.db)).id;
  otherBranchId = (await createBranch(t.db)).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  for (const [key, role_id, branch_id] of [
    ['custodian', 3, headOfficeId],
    ['accounting', 8, headOfficeId],
    ['headOfficeClerk', 7, headOfficeId],
    ['branchHead', 5, otherBranchId],
  ] as const) {
    const { user, headers } = await signedIn(t, { role_id, branch_id });
    as[key] = { id: user.id, branch_id, headers };
  }
});
afterAll(async () => {
  await t.close();
});

async function newPad(size = 50): Promise<Pad> {
  const route = await createRoute(t.db);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/add-pad',
    headers: as.custodian.headers,
    payload: { route_id: route.id, series_from: 1, series_to: size, pad_size: size },
  });
  expect(res.statusCode).toBe(201);
  const [row] = await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, route.id));
  return getPad(row.id);
}

const getPad = async (id: number): Promise<Pad> =>
  (await t.app.inject({ method: 'GET', url: `/api/get-pad/${id}`, headers: as.custodian.headers })).json().data;

const update = (pad: Pad, who: string, changes: Record<string, unknown> = {}) =>
  t.app
    .inject({
      method: 'PUT',
      url: `/api/update-pad/${pad.id}`,
      headers: as[who].headers,
      payload: {
        pad_status_id: pad.pad_status_id,
        issuance_status_id: pad.issuance_status_id,
        remarks: pad.remarks,
        series: pad.series,
        updated_at: pad.updated_at,
        ...changes,
      },
    })
    .then((res) => res);

const marked = (pad: Pad, index: number) => pad.series.map((entry, i) => (i === index ? { ...entry, status: SERIES_ENTRY.USED } : entry));

describe('pad edit rules', () => {
  it('when 20 clerks mark different receipts of one pad from the same loaded version, then one wins, 19 get 409 to reload, and retries lose nothing (docs/SECURITY.md "Who may do what")', async () => {
    const pad = await newPad(20);
    const first = await Promise.all(Array.from({ length: 20 }, (_, i) => update(pad, 'headOfficeClerk', { series: marked(pad, i) })));
    const statuses = first.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([200, ...Array.from({ length: 19 }, () => 409)]);
    for (const res of first.filter((r) => r.statusCode === 409)) expect(res.json()).toEqual({ message: PAD_MSG.stale });

    const pending = new Set(first.map((r, i) => (r.statusCode === 409 ? i : -1)).filter((i) => i >= 0));
    const clerk = async (index: number) => {
      for (let attempt = 0; attempt < 40; attempt += 1) {
        const fresh = await getPad(pad.id);
        const res = await update(fresh, 'headOfficeClerk', { series: marked(fresh, index) });
        if (res.statusCode === 200) return;
        expect(res.statusCode).toBe(409);
      }
      throw new Error(`clerk ${index} never saved`);
    };
    await Promise.all([...pending].map(clerk));
    const stored = await getPad(pad.id);
    expect(stored.series.every((entry) => entry.status === SERIES_ENTRY.USED)).toBe(true);
    expect(stored.pad_status_id).toBe(PAD_STATUS.USED);
  });

  it('when roles 5–7 edit a pad their branch does not hold, then 403; their own branch’s pad, and roles 3 and 8 any pad, save (docs/SECURITY.md "Who may do what")', async () => {
    const pad = await newPad();
    const refused = await update(pad, 'branchHead', { remarks: 'not ours' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: PAD_MSG.notYourBranch });
    expect((await update(pad, 'headOfficeClerk', { remarks: 'ours' })).statusCode).toBe(200);
    expect((await update(await getPad(pad.id), 'custodian', { remarks: 'custodian' })).statusCode).toBe(200);

    await t.db
      .update(padCustody)
      .set({ holder_branch_id: otherBranchId, issuance_status_id: ISSUANCE_STATUS.ISSUED })
      .where(eq(padCustody.pad_id, pad.id));
    const held = await getPad(pad.id);
    expect((await update(held, 'headOfficeClerk', { remarks: 'gone' })).statusCode).toBe(403);
    expect((await update(held, 'branchHead', { remarks: 'now ours' })).statusCode).toBe(200);
    expect((await update(await getPad(pad.id), 'accounting', { remarks: 'accounting' })).statusCode).toBe(200);
    expect((await getPad(pad.id)).remarks).toBe('accounting');

    expect(can({ id: 1, role_id: 5, branch_id: otherBranchId }, 'pad.editThis', held)).toBe(true);
    expect(can({ id: 1, role_id: 5, branch_id: headOfficeId }, 'pad.editThis', held)).toBe(false);
    expect(can({ id: 1, role_id: 3, branch_id: null }, 'pad.editThis', { ...held, locked_by_invoice_id: 7 })).toBe(false);
  });

  it('when a held pad is set back to Not Issued, then 409 points to Return and the holder stays; a locked pad cannot be edited (docs/SECURITY.md "Who may do what")', async () => {
    const pad = await newPad();
    await t.db
      .update(padCustody)
      .set({ holder_branch_id: otherBranchId, issuance_status_id: ISSUANCE_STATUS.ISSUED })
      .where(eq(padCustody.pad_id, pad.id));
    const held = await getPad(pad.id);
    const back = await update(held, 'accounting', { issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toEqual({ message: PAD_MSG.returnInstead });
    const [row] = await storedPadRows(t.db).where(eq(pads.id, pad.id));
    expect(row).toMatchObject({ holder_branch_id: otherBranchId, issuance_status_id: ISSUANCE_STATUS.ISSUED });

    const atHeadOffice = await newPad();
    expect((await update(atHeadOffice, 'custodian', { issuance_status_id: ISSUANCE_STATUS.ISSUED })).statusCode).toBe(200);
    expect((await update(await getPad(atHeadOffice.id), 'custodian', { issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED })).statusCode).toBe(
      200,
    );
  });

  it('when one add-pad would make more pads than the cap, then 422 on Series To and nothing is created (docs/design.md §5 "Pads")', async () => {
    const route = await createRoute(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/add-pad',
      headers: as.custodian.headers,
      payload: { route_id: route.id, series_from: 1, series_to: 1_000_000, pad_size: 1 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.series_to).toEqual([PAD_MSG.tooManyPads(1_000_000)]);
    expect(await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, route.id))).toEqual([]);

    const atCap = await t.app.inject({
      method: 'POST',
      url: '/api/add-pad',
      headers: as.custodian.headers,
      payload: { route_id: route.id, series_from: 1, series_to: MAX_PADS_PER_ADD * 2, pad_size: 2 },
    });
    expect(atCap.statusCode).toBe(201);
    expect(atCap.json().data.pads_created).toBe(MAX_PADS_PER_ADD);
  });
});
