import { asc, eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../db/client.ts';
import { padCustody, pads } from '../db/schema/pads.ts';
import { custodyOfPad, padRecordColumns } from '../features/pads/read-model.ts';
import { runLedgerVerify, verifyLedger, type VerifyOptions } from '../features/ledger/verifier.ts';
import { createBranch, createRoute, signedIn } from './factories.ts';
import { createTestApp } from './test-app.ts';

/** Any feature's test may ask the ledger's verifier whether the whole database still folds (docs/design.md §8). */
export async function expectLedgerVerified(db: Db): Promise<void> {
  expect((await verifyLedger(db)).problems).toEqual([]);
}

/**
 * The verifier's tests' ground: an app whose head office custodian generates pads and marks receipts through the API,
 * the verifier's printed run, and tampering with the ledger as an attacker with database rights could.
 */
export async function verifierGround(env: Record<string, string> = {}) {
  const t = await createTestApp(env);
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const signed = await signedIn(t, { role_id: 3, branch_id: headOffice.id });
  const custodian = { id: signed.user.id, headers: signed.headers };

  async function freshPads(from: number, to: number) {
    const route = await createRoute(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/add-pad',
      headers: custodian.headers,
      payload: { route_id: route.id, series_from: from, series_to: to },
    });
    expect(res.statusCode).toBe(201);
    return t.db
      .select(padRecordColumns)
      .from(pads)
      .innerJoin(padCustody, custodyOfPad)
      .where(eq(pads.route_id, route.id))
      .orderBy(asc(pads.number));
  }

  /** Saves the pad with exactly these receipts used, through the Edit Pad form's API; answers its response. */
  async function markUsed(padId: number, used: number[]) {
    const get = await t.app.inject({ method: 'GET', url: `/api/get-pad/${padId}`, headers: custodian.headers });
    // -- the pad route's answer; its response schema fixes this shape.
    const pad = get.json().data as {
      number: number;
      pad_status_id: number;
      issuance_status_id: number;
      remarks: string | null;
      series: Array<{ number: number; status: number }>;
    };
    const series = pad.series.map((entry) => ({ number: entry.number, status: used.includes(entry.number) ? 2 : 1 }));
    return t.app.inject({
      method: 'PUT',
      url: `/api/update-pad/${padId}`,
      headers: custodian.headers,
      payload: {
        number: pad.number,
        pad_status_id: pad.pad_status_id,
        issuance_status_id: pad.issuance_status_id,
        remarks: pad.remarks,
        series,
      },
    });
  }

  async function verify(options?: VerifyOptions) {
    const lines: string[] = [];
    const code = await runLedgerVerify(t.db, (line) => lines.push(line), options);
    return { code, output: lines.join('\n') };
  }

  /** Runs a statement on pad_events with its append-only trigger off. */
  async function tamper(statement: ReturnType<typeof sql>) {
    await t.db.execute(sql`alter table pad_events disable trigger pad_events_no_update_delete`);
    try {
      await t.db.execute(statement);
    } finally {
      await t.db.execute(sql`alter table pad_events enable trigger pad_events_no_update_delete`);
    }
  }

  return { t, custodian, freshPads, markUsed, verify, tamper };
}
