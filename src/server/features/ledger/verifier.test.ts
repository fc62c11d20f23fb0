import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { padEvents } from '../../db/schema/ledger.ts';
import { padCustody } from '../../db/schema/pads.ts';
import { verifierGround } from '../../test/ledger.ts';
import type { TestApp } from '../../test/test-app.ts';

type Ground = Awaited<ReturnType<typeof verifierGround>>;

let t: TestApp;
let custodian: { id: number; headers: { authorization: string } };
let freshPads: Ground['freshPads'];
let mark: Ground['markUsed'];
let verify: () => ReturnType<Ground['verify']>;
let tamper: Ground['tamper'];

beforeAll(async () => {
  const ground = await verifierGround();
  ({ t, custodian, freshPads, markUsed: mark, tamper } = ground);
  verify = () => ground.verify();
});
afterAll(async () => {
  await t.close();
});

describe('ledger verifier', () => {
  it('when pads are generated and marked, then every pad has a received event and the verifier passes', async () => {
    const [pad] = await freshPads(7_000_001, 7_000_100);
    expect((await mark(pad.id, [7_000_003, 7_000_004])).statusCode).toBe(200);
    expect((await mark(pad.id, [7_000_004])).statusCode).toBe(200);
    const events = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, pad.id)).orderBy(asc(padEvents.seq));
    expect(events.map((e) => [e.kind, e.from_number, e.to_number, e.holder_branch_id])).toEqual([
      ['received', 7_000_001, 7_000_050, t.ctx.config.headOfficeBranchId],
      ['used', 7_000_003, 7_000_004, t.ctx.config.headOfficeBranchId],
      ['used_reverted', 7_000_003, 7_000_003, t.ctx.config.headOfficeBranchId],
    ]);
    expect(events[1].prev_hash).toBe(events[0].hash);
    expect(await verify()).toMatchObject({ code: 0 });
  });

  it('when anyone updates or deletes an event, then the database refuses it', async () => {
    const [pad] = await freshPads(7_100_001, 7_100_050);
    await expect(t.db.execute(sql`update pad_events set qty = qty where pad_id = ${pad.id}`)).rejects.toThrow();
    await expect(t.db.execute(sql`delete from pad_events where pad_id = ${pad.id}`)).rejects.toThrow();
    const events = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, pad.id));
    expect(events).toHaveLength(1);
  });

  it('when 20 marks of one pad run in parallel, then all succeed and the chain still verifies', async () => {
    const [pad] = await freshPads(7_200_001, 7_200_050);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => mark(pad.id, [7_200_001 + i])));
    expect(results.map((res) => res.statusCode)).toEqual(new Array(20).fill(200));
    const events = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, pad.id)).orderBy(asc(padEvents.seq));
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(await verify()).toMatchObject({ code: 0 });
  });

  it("when an event's range is changed behind the trigger, then the verifier names the pad and fails", async () => {
    const [pad] = await freshPads(7_300_001, 7_300_050);
    await mark(pad.id, [7_300_010]);
    await tamper(sql`update pad_events set from_number = 7300011, to_number = 7300011 where pad_id = ${pad.id} and kind = 'used'`);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.output).toContain(`pad ${pad.id} (route ${pad.route_id}, pad no. 1, 7300001-7300050):`);
    expect(result.output).toMatch(/was altered: its hash does not match its content/);
    await tamper(sql`update pad_events set from_number = 7300010, to_number = 7300010 where pad_id = ${pad.id} and kind = 'used'`);
    expect((await verify()).code).toBe(0);
  });

  it('when an event is deleted, then the verifier names the pad and the missing event', async () => {
    const [pad] = await freshPads(7_400_001, 7_400_050);
    await mark(pad.id, [7_400_001]);
    await mark(pad.id, [7_400_001, 7_400_002]);
    await tamper(sql`delete from pad_events where pad_id = ${pad.id} and seq = 2`);
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.output).toContain(`pad ${pad.id} (route ${pad.route_id}`);
    expect(result.output).toContain('event seq 2 is missing');
    expect(result.output).toMatch(/Ledger verification FAILED/);
  });

  it('when a pad changes holder without an event, then the verifier names the pad and both holders', async () => {
    const [, second] = await freshPads(7_500_001, 7_500_100);
    await t.db.update(padCustody).set({ holder_user_id: custodian.id }).where(eq(padCustody.pad_id, second.id));
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.output).toContain(`pad ${second.id} (route ${second.route_id}, pad no. 2, 7500051-7500100):`);
    expect(result.output).toContain(
      `held by user ${custodian.id} (branch ${t.ctx.config.headOfficeBranchId}) on the pad but by branch ${t.ctx.config.headOfficeBranchId} in the ledger`,
    );
  });
});
