import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { LEDGER_MSG, monthOutsideLedger } from '../../../shared/schemas/ledger.ts';
import { raafCertificates } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { signedQueryFor, urlKey } from '../../lib/signed-url.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { certificateContentHash } from './certificate-check.ts';
import { runLedgerVerify } from './verifier.ts';
import { apiCalls } from '../../test/inject.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let headOfficeId: number;
const role: Record<number, Who> = {};
let routeId: number;
let padIds: number[];
let certificateId: number;

const { call, ok } = apiCalls(() => t);

async function setUsed(who: Who, padId: number, used: number[]) {
  const pad = (await ok(call(who, 'GET', `/api/get-pad/${padId}`))).data as {
    number: number;
    pad_status_id: number;
    issuance_status_id: number;
    remarks: string | null;
    series: Array<{ number: number }>;
  };
  const series = pad.series.map((entry) => ({ number: entry.number, status: used.includes(entry.number) ? 2 : 1 }));
  return ok(
    call(who, 'PUT', `/api/update-pad/${padId}`, {
      number: pad.number,
      pad_status_id: pad.pad_status_id,
      issuance_status_id: pad.issuance_status_id,
      remarks: pad.remarks,
      series,
    }),
  );
}

/** Every check, every stored balance included, so no run depends on which pads the sample picks. */
async function verify() {
  const lines: string[] = [];
  const code = await runLedgerVerify(t.db, (line) => lines.push(line), { mode: 'full', balances: 'all' });
  return { code, output: lines.join('\n') };
}

/** What an attacker holding the owner's rights could do: switch a table's triggers off, change rows, switch them on. */
async function asOwner(table: 'pad_events' | 'raaf_certificates', statement: ReturnType<typeof sql>) {
  await t.db.execute(sql.raw(`alter table ${table} disable trigger user`));
  try {
    await t.db.execute(statement);
  } finally {
    await t.db.execute(sql.raw(`alter table ${table} enable trigger user`));
  }
}

const refusal = async (statement: ReturnType<typeof sql>) => {
  try {
    await t.db.execute(statement);
    return null;
  } catch (error) {
    return String((error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message);
  }
};

beforeAll(async () => {
  t = await createTestApp();
  headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  for (const r of [1, 3, 8, 9]) {
    const { user, headers } = await signedIn(t, { role_id: r, branch_id: headOfficeId });
    role[r] = { id: user.id, headers };
  }
  routeId = (await createRoute(t.db, { name: 'Roxas - Caticlan' })).id;
  t.ctx.ledgerClock = () => new Date('2026-09-10T02:00:00Z');
  await ok(call(role[3], 'POST', '/api/add-pad', { route_id: routeId, series_from: 1, series_to: 100 }), 201);
  padIds = (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map((p) => p.id);
  t.ctx.ledgerClock = () => new Date('2026-09-20T02:00:00Z');
  await setUsed(role[3], padIds[0], [1, 2, 3]);
  t.ctx.ledgerClock = undefined;
  const certified = await ok(call(role[1], 'POST', '/api/raaf/certify', { month: '2026-09', branch_id: headOfficeId }), 201);
  certificateId = certified.data.id;
});
afterAll(async () => {
  await t.close();
});

describe('certificates anchor the ledger', () => {
  it('when nothing was touched, then the verifier checks the certificate and passes', async () => {
    const result = await verify();
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('Certificates verified: 1 certificate(s), each intact and every event it froze still in the ledger.');
  });

  it('when a certificate is edited, deleted or truncated, then the database refuses; marking it reviewed still works, once', async () => {
    expect(await refusal(sql`update raaf_certificates set report_json = '{}' where id = ${certificateId}`)).toMatch(/append-only/);
    expect(await refusal(sql`update raaf_certificates set certified_by = ${role[8].id} where id = ${certificateId}`)).toMatch(
      /append-only/,
    );
    expect(await refusal(sql`delete from raaf_certificates where id = ${certificateId}`)).toMatch(/append-only/);
    expect(await refusal(sql`truncate raaf_certificates`)).toMatch(/append-only/);
    const reviewed = await ok(call(role[8], 'POST', `/api/raaf/${certificateId}/review`));
    expect(reviewed.data.reviewed_by).toMatchObject({ id: role[8].id });
    expect(await refusal(sql`update raaf_certificates set reviewed_at = null, reviewed_by = null where id = ${certificateId}`)).toMatch(
      /append-only/,
    );
    expect(await refusal(sql`update raaf_certificates set reviewed_at = now() where id = ${certificateId}`)).toMatch(/append-only/);
    expect((await call(role[8], 'POST', `/api/raaf/${certificateId}/review`)).statusCode).toBe(409);
    const [row] = await t.db.select().from(raafCertificates).where(eq(raafCertificates.id, certificateId));
    expect(JSON.parse(row.report_json)).toMatchObject({ month: '2026-09' });
    expect((await verify()).code).toBe(0);
  });

  it('when migration 0006 hashes a certificate made before it, then the SQL gives the hash the verifier computes', async () => {
    const [row] = await t.db.select().from(raafCertificates).where(eq(raafCertificates.id, certificateId));
    const result = (await t.db.execute(sql`select encode(sha256(convert_to(concat_ws('|', "number", "month", "holder_type", "holder_id",
      encode(sha256(convert_to("report_json", 'UTF8')), 'hex'), encode(sha256(convert_to("pad_hashes", 'UTF8')), 'hex'), encode(sha256("pdf"), 'hex'),
      "certified_by", floor(extract(epoch FROM "certified_at") * 1000)::bigint), 'UTF8')), 'hex') as hash from raaf_certificates where id = ${certificateId}`)) as unknown as {
      rows: Array<{ hash: string }>;
    };
    expect(result.rows[0].hash).toBe(certificateContentHash(row));
    expect(row.content_hash).toBe(certificateContentHash(row));
  });

  it('when the Auditor certifies their own month, then it is refused with 403 and no certificate is numbered', async () => {
    const res = await call(role[9], 'POST', '/api/raaf/certify', { month: '2026-09', user_id: role[9].id });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(LEDGER_MSG.certifyOwn);
    const rows = await t.db.select({ number: raafCertificates.number }).from(raafCertificates);
    expect(rows.map((row) => row.number)).toEqual(['RAAF-2026-09-0001']);
  });
});

describe('months are bounded by the ledger', () => {
  it('when a RAAF or the consolidated RAAF asks for a month of any year outside the ledger, then 422 names the months there are', async () => {
    const current = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Manila', year: 'numeric', month: '2-digit' })
      .format(new Date())
      .slice(0, 7);
    const message = monthOutsideLedger('2026-09', current);
    for (const month of ['0000-01', '0001-01', '1969-12', '2026-08', '2100-01', '9999-12']) {
      const raaf = await call(role[1], 'GET', `/api/raaf?month=${month}&branch_id=${headOfficeId}`);
      expect(raaf.statusCode, `${month}: ${raaf.body}`).toBe(422);
      expect(raaf.json().errors.month).toEqual([message]);
      const summary = await call(role[8], 'GET', `/api/raaf-summary?month=${month}`);
      expect(summary.statusCode, month).toBe(422);
      expect(summary.json().errors.month).toEqual([message]);
    }
    expect((await call(role[1], 'GET', `/api/raaf?month=2026-09&branch_id=${headOfficeId}`)).statusCode).toBe(200);
    expect((await call(role[1], 'GET', `/api/raaf?month=${current}&branch_id=${headOfficeId}`)).statusCode).toBe(200);
  });

  it('when a month that has not ended, or one before the ledger, is certified, then 422 and no certificate number is used up', async () => {
    for (const month of ['9999-12', '2100-01']) {
      const res = await call(role[3], 'POST', '/api/raaf/certify', { month, user_id: role[3].id });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.month).toEqual([LEDGER_MSG.monthNotEnded]);
    }
    for (const month of ['0000-01', '1999-01', '2026-08']) {
      const res = await call(role[3], 'POST', '/api/raaf/certify', { month, user_id: role[3].id });
      expect(res.statusCode, month).toBe(422);
      expect(res.json().errors.month[0]).toMatch(/^Choose a month from 2026-09 to /);
    }
    expect(await t.db.select({ id: raafCertificates.id }).from(raafCertificates)).toHaveLength(1);
  });
});

describe('signed certificate links', () => {
  it('when a signed link claims an expiry more than 15 minutes ahead, then it is refused even with a valid signature', async () => {
    const list = await ok(call(role[1], 'GET', '/api/raaf-certificates'));
    const good = list.data[0].pdf_url as string;
    expect((await t.app.inject({ method: 'GET', url: good })).statusCode).toBe(200);
    const key = urlKey(t.ctx.badgeSecret, 'raaf-pdf-url');
    const far = signedQueryFor(key, `raaf:${certificateId}`, role[1].id, Date.now() + 10 * 60 * 1000);
    const res = await t.app.inject({ method: 'GET', url: `/api/raaf-certificates/${certificateId}/pdf?${far}` });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This link is not valid.');
    const near = signedQueryFor(key, `raaf:${certificateId}`, role[1].id, Date.now() + 4 * 60 * 1000);
    expect((await t.app.inject({ method: 'GET', url: `/api/raaf-certificates/${certificateId}/pdf?${near}` })).statusCode).toBe(200);
  });
});

describe('an attacker with the owner role', () => {
  it('when a certificate is rewritten with its triggers off, then the verifier reports it altered', async () => {
    await asOwner(
      'raaf_certificates',
      sql`update raaf_certificates set report_json = replace(report_json, '"month":"2026-09"', '"month":"2026-09" ') where id = ${certificateId}`,
    );
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.output).toContain('certificate RAAF-2026-09-0001 (branch');
    expect(result.output).toContain('was altered: its content does not match its hash');
    await asOwner(
      'raaf_certificates',
      sql`update raaf_certificates set report_json = replace(report_json, '"month":"2026-09" ', '"month":"2026-09"') where id = ${certificateId}`,
    );
    expect((await verify()).code).toBe(0);
  });

  it('when a pad chain is cut back (its last event deleted, the pad row set back, its stored month-end balances rewritten to match), then only the certificate check reports it', async () => {
    await asOwner('pad_events', sql`delete from pad_events where pad_id = ${padIds[0]} and seq = 2`);
    await t.db.execute(sql`update raaf_month_balances set ranges = '1-50' where pad_id = ${padIds[0]}`);
    await t.db
      .update(pads)
      .set({ series_status: '1'.repeat(50) })
      .where(eq(pads.id, padIds[0]));
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/Ledger verified: \d+ pads, \d+ events, no problems\./);
    expect(result.output).toContain(`froze event seq 2 of pad ${padIds[0]}, which is no longer in the ledger: the chain was cut back`);
  });
});
