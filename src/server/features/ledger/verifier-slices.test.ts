import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { verifierGround } from '../../test/ledger.ts';
import type { VerifySlice } from './verifier.ts';

let ground: Awaited<ReturnType<typeof verifierGround>>;

beforeAll(async () => {
  ground = await verifierGround();
});
afterAll(async () => {
  await ground.t.close();
});

describe('the verifier in slices', () => {
  it('when a full run may read 3 events a slice, then no slice reads more, pads split between slices stay whole, and it finds what one slice finds', async () => {
    const { freshPads, markUsed, tamper, verify } = ground;
    const [altered, chained, sound] = await freshPads(9_300_001, 9_300_150);
    for (const pad of [altered, chained, sound]) {
      for (let n = 1; n <= 3; n += 1) expect((await markUsed(pad.id, [pad.series_from + n])).statusCode).toBe(200);
    }
    await tamper(sql`update pad_events set reason = 'edited' where pad_id = ${altered.id} and seq = 2`);
    await tamper(sql`update pad_events set prev_hash = ${'f'.repeat(64)} where pad_id = ${chained.id} and seq = 3`);

    const whole = await verify({ mode: 'full', balances: 'all' });
    const slices: VerifySlice[] = [];
    const sliced = await verify({ mode: 'full', balances: 'all', sliceEvents: 3, onSlice: (slice) => slices.push(slice) });

    expect(slices.length).toBeGreaterThan(4);
    expect(Math.max(...slices.map((slice) => slice.events))).toBeLessThanOrEqual(3);
    expect(sliced).toEqual(whole);
    expect(sliced.code).toBe(1);
    expect(sliced.output).toMatch(
      new RegExp(
        `pad ${altered.id} \\(route \\d+[^\\n]*\\n  - event \\d+ \\(seq 2, used\\) was altered: its hash does not match its content`,
      ),
    );
    expect(sliced.output).toMatch(
      new RegExp(
        `pad ${chained.id} \\(route \\d+[^\\n]*\\n  - event \\d+ \\(seq 3\\) does not chain onto the event before it\\n  - event \\d+ \\(seq 3, \\w+\\) was altered`,
      ),
    );
    expect(sliced.output).not.toContain(`pad ${sound.id} (`);
  });

  it('when a run is told of its progress, then the last word counts every pad and event it checked', async () => {
    const progress: Array<{ pads: number; events: number; pads_total: number }> = [];
    const result = await ground.verify({ mode: 'full', sliceEvents: 2, onProgress: (done) => progress.push(done) });
    const last = progress[progress.length - 1];
    expect(progress.length).toBeGreaterThan(1);
    expect(last.pads).toBe(last.pads_total);
    expect(result.output).toContain(`${last.pads} pads, ${last.events} events`);
  });
});
