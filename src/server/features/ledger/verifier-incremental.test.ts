import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { ledgerVerifiedHeads, ledgerVerifyRuns, padEvents, raafMonthBalances } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { verifierGround } from '../../test/ledger.ts';
import type { TestApp } from '../../test/test-app.ts';
import { closeEndedMonths } from './month-balances.ts';

type Ground = Awaited<ReturnType<typeof verifierGround>>;

let t: TestApp;
let freshPads: Ground['freshPads'];
let verify: Ground['verify'];
let tamper: Ground['tamper'];
let mark: (padId: number, used: number[]) => Promise<void>;

beforeAll(async () => {
  const ground = await verifierGround();
  ({ t, freshPads, verify, tamper } = ground);
  mark = async (padId, used) => {
    expect((await ground.markUsed(padId, used)).statusCode).toBe(200);
  };
});
afterAll(async () => {
  await t.close();
});

const lastRun = async () => (await t.db.select().from(ledgerVerifyRuns).orderBy(desc(ledgerVerifyRuns.id)).limit(1))[0];

describe('incremental ledger verifier', () => {
  it('when a full run has verified every pad, then an incremental run reads only the pads whose chain grew and records their new heads', async () => {
    const padsA = await freshPads(8_000_001, 8_000_500);
    expect(await verify({ mode: 'full' })).toMatchObject({ code: 0 });
    expect(await lastRun()).toMatchObject({ mode: 'full', pads: padsA.length, problems: 0 });
    expect((await t.db.select().from(ledgerVerifiedHeads)).length).toBe(padsA.length);

    await mark(padsA[3].id, [8_000_151, 8_000_152]);
    await mark(padsA[7].id, [8_000_360]);
    const result = await verify({ mode: 'incremental' });
    expect(result.output).toBe('Ledger verified: 2 pads, 4 events, no problems.');
    expect(await lastRun()).toMatchObject({ mode: 'incremental', pads: 2, events: 4, problems: 0 });
    const [head] = await t.db.select().from(ledgerVerifiedHeads).where(eq(ledgerVerifiedHeads.pad_id, padsA[3].id));
    const [lastEvent] = await t.db.select().from(padEvents).where(eq(padEvents.pad_id, padsA[3].id)).orderBy(desc(padEvents.seq)).limit(1);
    expect(head).toMatchObject({ seq: 2, hash: lastEvent.hash });

    expect((await verify({ mode: 'incremental' })).output).toBe('Ledger verified: 0 pads, 0 events, no problems.');
  });

  it('when a new pad has a broken chain, then every incremental run names it until it is sound, while untouched history is left to --full', async () => {
    const [older] = await t.db.select().from(pads).orderBy(asc(pads.id)).limit(1);
    await tamper(sql`update pad_events set reason = 'rewritten' where pad_id = ${older.id} and seq = 1`);
    const [fresh] = await freshPads(8_100_001, 8_100_050);
    await mark(fresh.id, [8_100_001]);
    await tamper(sql`update pad_events set to_number = 8100002, qty = 2 where pad_id = ${fresh.id} and seq = 2`);

    for (let run = 0; run < 2; run += 1) {
      const result = await verify({ mode: 'incremental' });
      expect(result.code).toBe(1);
      expect(result.output).toContain(`pad ${fresh.id} (route ${fresh.route_id}`);
      expect(result.output).not.toContain(`pad ${older.id} (`);
    }
    const full = await verify({ mode: 'full' });
    expect(full.code).toBe(1);
    expect(full.output).toContain(`pad ${older.id} (route ${older.route_id}`);
    expect(full.output).toContain(`pad ${fresh.id} (route ${fresh.route_id}`);

    await tamper(sql`update pad_events set reason = null where pad_id = ${older.id} and seq = 1`);
    await tamper(sql`update pad_events set to_number = 8100001, qty = 1 where pad_id = ${fresh.id} and seq = 2`);
    expect(await verify({ mode: 'incremental' })).toMatchObject({ code: 0 });
    expect(await verify({ mode: 'full' })).toMatchObject({ code: 0 });
  });

  it('when a stored month-end balance differs from the events, then a run over all balances names the pad and the month', async () => {
    t.ctx.ledgerClock = () => new Date('2030-02-03T02:00:00Z');
    const [pad] = await freshPads(8_200_001, 8_200_050);
    t.ctx.ledgerClock = () => new Date('2030-03-03T02:00:00Z');
    await mark(pad.id, [8_200_010]);
    t.ctx.ledgerClock = () => new Date('2030-04-03T02:00:00Z');
    await closeEndedMonths(t.ctx);
    t.ctx.ledgerClock = undefined;
    expect(await verify({ mode: 'full', balances: 'all' })).toMatchObject({ code: 0 });

    await t.db
      .update(raafMonthBalances)
      .set({ ranges: '8200001-8200050' })
      .where(sql`${raafMonthBalances.pad_id} = ${pad.id} and ${raafMonthBalances.month} = '2030-03'`);
    const result = await verify({ mode: 'full', balances: 'all' });
    expect(result.code).toBe(1);
    expect(result.output).toContain(`pad ${pad.id} (route ${pad.route_id}`);
    expect(result.output).toContain(
      `stored balances at the end of 2030-03 differ from its events (stored b${t.ctx.config.headOfficeBranchId}: 8200001-8200050, events b${t.ctx.config.headOfficeBranchId}: 8200001-8200009,8200011-8200050)`,
    );
  });
});
