import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { INVOICE_TYPE } from '../../../shared/lookups.ts';
import { pads } from '../../db/schema/pads.ts';
import { issueAndAccept, latestInvoice } from '../../test/custody.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { pdfToText } from '../../test/pdf.ts';
import { certificateListColumns } from '../../../shared/list-columns.ts';
import { exportCells, pagesAsCells } from '../../test/export.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { runLedgerVerify } from './verifier.ts';
import { apiCalls } from '../../test/inject.ts';

type Headers = { authorization: string };
interface Who {
  id: number;
  headers: Headers;
}
interface Group {
  qty: number;
  ranges: Array<[number, number]>;
}
interface RaafBody {
  rows: Array<{
    route: { id: number };
    beginning: Group;
    receipt: Group;
    issued: Group & { by_kind: Record<string, number> };
    ending: Group;
    remarks: string[];
  }>;
  totals: { beginning: number; receipt: number; issued: number; ending: number };
  certificate: { id: number; number: string } | null;
}

let t: TestApp;
let headOfficeId: number;
let otherBranchId: number;
let thirdBranchId: number;
const role: Record<number, Who> = {};
let holderA: Who;
let holderC: Who;
let courier: Who;
let routeId: number;
let padIds: number[];

const { call, ok, at } = apiCalls(() => t);

async function setUsed(who: Who, padId: number, used: number[], extra: Record<string, unknown> = {}) {
  const pad = (await ok(call(who, 'GET', `/api/get-pad/${padId}`))).data as {
    number: number;
    pad_status_id: number;
    issuance_status_id: number;
    remarks: string | null;
    series: Array<{ number: number; status: number }>;
  };
  const series = pad.series.map((entry) => ({ number: entry.number, status: used.includes(entry.number) ? 2 : 1 }));
  return ok(
    call(who, 'PUT', `/api/update-pad/${padId}`, {
      number: pad.number,
      pad_status_id: pad.pad_status_id,
      issuance_status_id: pad.issuance_status_id,
      remarks: pad.remarks,
      series,
      ...extra,
    }),
  );
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const raaf = async (who: Who, month: string, holder: string) =>
  (await ok(call(who, 'GET', `/api/raaf?month=${month}&${holder}`))).data as RaafBody;

function routeRow(body: RaafBody) {
  const row = body.rows.find((r) => r.route.id === routeId);
  if (!row) throw new Error('route row missing');
  return row;
}

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  headOfficeId = headOffice.id;
  t.ctx.config.headOfficeBranchId = headOffice.id;
  otherBranchId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  thirdBranchId = (await createBranch(t.db, { name: 'Batangas Port' })).id;
  for (const r of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
    const { user, headers } = await signedIn(t, { role_id: r, branch_id: headOffice.id });
    role[r] = { id: user.id, headers };
  }
  const a = await signedIn(t, { role_id: 7, branch_id: otherBranchId, first_name: 'Ana', last_name: 'Cruz' });
  holderA = { id: a.user.id, headers: a.headers };
  const c = await signedIn(t, { role_id: 6, branch_id: thirdBranchId, first_name: 'Carla', last_name: 'Reyes' });
  holderC = { id: c.user.id, headers: c.headers };
  const d = await signedIn(t, { role_id: 10, branch_id: headOffice.id });
  courier = { id: d.user.id, headers: d.headers };
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;

  at('2026-09-05T02:00:00Z');
  await ok(call(role[3], 'POST', '/api/add-pad', { route_id: routeId, series_from: 1, series_to: 200 }), 201);
  padIds = (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map((p) => p.id);

  at('2026-09-06T02:00:00Z');
  await issueAndAccept(t, { holder: holderA, custodian: role[3], courier, routeId, padIds: [padIds[0], padIds[1]] });

  at('2026-09-07T02:00:00Z');
  await setUsed(holderA, padIds[0], range(1, 5));
  at('2026-09-08T02:00:00Z');
  await setUsed(holderA, padIds[0], range(1, 4));

  at('2026-10-03T02:00:00Z');
  await setUsed(holderA, padIds[0], [1, 2, 3, 4, 6]);
  await setUsed(holderA, padIds[0], [1, 2, 3, 6]);
  at('2026-10-04T02:00:00Z');
  await ok(call(holderA, 'POST', '/api/create-return-invoice', { pads: [padIds[0]], assigned_user_id: courier.id }), 201);
  const returned = await latestInvoice(t, INVOICE_TYPE.RETURN);
  await ok(call(role[8], 'POST', `/api/accept-invoice/${returned.id}`));
  at('2026-10-05T02:00:00Z');
  await ok(
    call(holderA, 'POST', '/api/create-turnover-invoice', { pads: [padIds[1]], branch_id: thirdBranchId, assigned_user_id: courier.id }),
    201,
  );
  const turnover = await latestInvoice(t, INVOICE_TYPE.TURNOVER);
  await ok(call(holderC, 'POST', `/api/accept-invoice/${turnover.id}`));
  at('2026-10-06T02:00:00Z');
  await setUsed(role[3], padIds[2], [], { pad_status_id: 5, remarks: 'Lost at sea' });
  t.ctx.ledgerClock = undefined;
});
afterAll(async () => {
  await t.close();
});

describe('RAAF over a scripted month', () => {
  it('when September is read for the holder, then receipt 1-100, uses 1-4 (5 was reverted the same month) and ending 5-100', async () => {
    const row = routeRow(await raaf(holderA, '2026-09', `user_id=${holderA.id}`));
    expect(row.beginning).toEqual({ qty: 0, ranges: [] });
    expect(row.receipt).toEqual({ qty: 100, ranges: [[1, 100]] });
    expect(row.issued).toEqual({ qty: 4, ranges: [[1, 4]], by_kind: { used: 4, cancelled: 0, lost: 0, transferred: 0 } });
    expect(row.ending).toEqual({ qty: 96, ranges: [[5, 100]] });
  });

  it('when October is read for each holder, then every number is where the events put it and each balances', async () => {
    const a = await raaf(holderA, '2026-10', `user_id=${holderA.id}`);
    const rowA = routeRow(a);
    expect(rowA.beginning).toEqual({ qty: 96, ranges: [[5, 100]] });
    expect(rowA.receipt).toEqual({ qty: 1, ranges: [[4, 4]] });
    expect(rowA.issued).toEqual({ qty: 97, ranges: [[4, 100]], by_kind: { used: 1, cancelled: 0, lost: 0, transferred: 96 } });
    expect(rowA.ending).toEqual({ qty: 0, ranges: [] });
    expect(rowA.remarks).toEqual(
      expect.arrayContaining([
        'Correction: 4 (1) unmarked, used in an earlier month',
        expect.stringMatching(/^Transferred 51-100 \(50\) to Carla Reyes \(Batangas Port\) on invoice #\d+$/),
        expect.stringMatching(/^Transferred 7-50 \(44\) to Head Office on invoice #\d+$/),
      ]),
    );

    const head = routeRow(await raaf(role[1], '2026-10', `branch_id=${headOfficeId}`));
    expect(head.beginning).toEqual({ qty: 100, ranges: [[101, 200]] });
    expect(head.receipt).toEqual({
      qty: 46,
      ranges: [
        [4, 5],
        [7, 50],
      ],
    });
    expect(head.issued).toEqual({ qty: 50, ranges: [[101, 150]], by_kind: { used: 0, cancelled: 0, lost: 50, transferred: 0 } });
    expect(head.ending).toEqual({
      qty: 96,
      ranges: [
        [4, 5],
        [7, 50],
        [151, 200],
      ],
    });
    expect(head.remarks).toContain('Lost 101-150 (50): Lost at sea');

    const c = routeRow(await raaf(holderC, '2026-10', `user_id=${holderC.id}`));
    expect(c).toMatchObject({
      beginning: { qty: 0 },
      receipt: { qty: 50, ranges: [[51, 100]] },
      issued: { qty: 0 },
      ending: { qty: 50, ranges: [[51, 100]] },
    });

    for (const row of [rowA, head, c]) expect(row.beginning.qty + row.receipt.qty - row.issued.qty).toBe(row.ending.qty);
  });

  it('when the consolidated October is read, then each column is the sum of the holders and holders show their certificate state', async () => {
    const summary = (await ok(call(role[8], 'GET', '/api/raaf-summary?month=2026-10'))).data as {
      rows: Array<{ route: { id: number }; beginning: Group; receipt: Group; issued: Group; ending: Group }>;
      holders: Array<{ holder: { type: string; id: number }; totals: RaafBody['totals']; certificate: unknown }>;
    };
    const row = summary.rows.find((r) => r.route.id === routeId);
    expect(row).toMatchObject({ beginning: { qty: 196 }, receipt: { qty: 97 }, issued: { qty: 147 }, ending: { qty: 146 } });
    const sum = summary.holders.reduce(
      (acc, h) => ({
        beginning: acc.beginning + h.totals.beginning,
        receipt: acc.receipt + h.totals.receipt,
        issued: acc.issued + h.totals.issued,
        ending: acc.ending + h.totals.ending,
      }),
      { beginning: 0, receipt: 0, issued: 0, ending: 0 },
    );
    expect(sum).toEqual({ beginning: 196, receipt: 97, issued: 147, ending: 146 });
    expect(summary.holders.map((h) => `${h.holder.type}:${h.holder.id}`).sort()).toEqual(
      [`branch:${headOfficeId}`, `user:${holderA.id}`, `user:${holderC.id}`].sort(),
    );
  });

  it('when the CSV is asked for, then it has a header row and one line per range group', async () => {
    const res = await call(role[9], 'GET', `/api/raaf?month=2026-10&branch_id=${headOfficeId}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'Company,Route,TIN,Beginning Qty,Beginning From,Beginning To,Receipt Qty,Receipt From,Receipt To,Issued Qty,Issued From,Issued To,Ending Qty,Ending From,Ending To,Remarks',
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(',100,101,200,2,4,5,50,101,150,2,4,5,');
    expect(lines[3]).toContain(',,,,,,,,,,50,151,200,');
  });

  it('when the PDF is asked for, then it is the COA layout with the month, holder, columns and certification text', async () => {
    const res = await call(holderA, 'GET', `/api/raaf?month=2026-10&user_id=${holderA.id}&format=pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfToText(res.rawPayload);
    expect(text).toContain('REPORT OF ACCOUNTABILITY FOR ACCOUNTABLE FORMS');
    expect(text).toContain('For the Month of October 2026');
    expect(text).toContain('Ana Cruz');
    expect(text).toMatch(/Beginning Balance[\s\S]*Receipt[\s\S]*Issued[\s\S]*Ending Balance/);
    expect(text).toContain('I hereby certify that the foregoing is a true statement of all accountable forms received');
    expect(text).toContain('Not certified');
    expect(text).toMatch(/96\s+5\s+100\s+1\s+4\s+4\s+97\s+4\s+100\s+0/);
    expect(text).toContain('Page 1 of 1');
    expect(res.rawPayload.toString('latin1').match(/\/Type \/Page\b/g)).toHaveLength(1);
  });

  it('when the PDF or the consolidated PDF is asked for, then it is streamed as it is drawn: chunked, without a length, "Page N of Y" on every page', async () => {
    for (const [who, url] of [
      [holderA, `/api/raaf?month=2026-10&user_id=${holderA.id}&format=pdf`],
      [role[8], '/api/raaf-summary?month=2026-10&format=pdf'],
    ] as const) {
      const res = await call(who, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['transfer-encoding'], url).toBe('chunked');
      expect(res.headers['content-length'], url).toBeUndefined();
      expect(res.headers['content-disposition'], url).toMatch(/^inline; filename="raaf-(summary-)?2026-10.*\.pdf"$/);
      const pages = pdfToText(res.rawPayload)
        .split('\f')
        .filter((page) => page.trim());
      pages.forEach((page, i) => expect(page, url).toMatch(new RegExp(`Page ${i + 1} of ${pages.length}\\n`)));
    }
  });

  it('when the ledger is verified after the month, then it passes', async () => {
    const lines: string[] = [];
    expect(await runLedgerVerify(t.db, (line) => lines.push(line))).toBe(0);
  });
});

describe('certification', () => {
  it('when a month has not ended, then certifying it is refused with 422', async () => {
    const res = await call(holderA, 'POST', '/api/raaf/certify', { month: '2099-01', user_id: holderA.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.month).toEqual(['A month can be certified only after it has ended.']);
  });

  it('when someone else certifies a holder, then 403; the holder certifies once (201), a second time 409', async () => {
    expect((await call(role[1], 'POST', '/api/raaf/certify', { month: '2026-10', user_id: holderA.id })).statusCode).toBe(403);
    const first = await ok(call(holderA, 'POST', '/api/raaf/certify', { month: '2026-10', user_id: holderA.id }), 201);
    expect(first.data).toMatchObject({
      number: 'RAAF-2026-10-0001',
      month: '2026-10',
      holder: { type: 'user', id: holderA.id },
      reviewed_at: null,
    });
    expect((await call(holderA, 'POST', '/api/raaf/certify', { month: '2026-10', user_id: holderA.id })).statusCode).toBe(409);
    expect((await raaf(holderA, '2026-10', `user_id=${holderA.id}`)).certificate).toMatchObject({ number: 'RAAF-2026-10-0001' });

    const pdf = await call(null, 'GET', first.data.pdf_url);
    expect(pdf.statusCode).toBe(200);
    const text = pdfToText(pdf.rawPayload);
    expect(text).toContain('Certificate No. RAAF-2026-10-0001');
    expect((await call(null, 'GET', first.data.pdf_url.replace(/signature=[^&]+/, 'signature=forged'))).statusCode).toBe(403);
  });

  it('when branch holders certify in parallel, then the numbers follow each other without gaps', async () => {
    const results = await Promise.all([
      call(role[1], 'POST', '/api/raaf/certify', { month: '2026-09', branch_id: headOfficeId }),
      call(holderA, 'POST', '/api/raaf/certify', { month: '2026-09', user_id: holderA.id }),
      call(holderC, 'POST', '/api/raaf/certify', { month: '2026-09', user_id: holderC.id }),
    ]);
    expect(results.map((res) => res.statusCode)).toEqual([201, 201, 201]);
    expect(results.map((res) => res.json().data.number).sort()).toEqual(['RAAF-2026-09-0001', 'RAAF-2026-09-0002', 'RAAF-2026-09-0003']);
  });

  it('when Accounting reviews, then 200 once and 409 again; other roles get 403', async () => {
    const list = await ok(call(role[8], 'GET', '/api/raaf-certificates?month=2026-10'));
    expect(list.total).toBe(1);
    const id = list.data[0].id as number;
    for (const r of [1, 2, 3, 9]) expect((await call(role[r], 'POST', `/api/raaf/${id}/review`)).statusCode).toBe(403);
    const reviewed = await ok(call(role[8], 'POST', `/api/raaf/${id}/review`));
    expect(reviewed.data.reviewed_at).not.toBeNull();
    expect(reviewed.data.reviewed_by).toEqual({ id: role[8].id, full_name: expect.any(String) });
    expect((await call(role[8], 'POST', `/api/raaf/${id}/review`)).statusCode).toBe(409);
  });

  it("when a holder lists certificates, then they see their own and not another branch's", async () => {
    const own = await ok(call(holderC, 'GET', '/api/raaf-certificates'));
    expect(own.data.map((c: { holder: { id: number } }) => c.holder.id)).toEqual(expect.arrayContaining([holderC.id]));
    expect(own.data.some((c: { holder: { type: string } }) => c.holder.type === 'branch')).toBe(false);
  });

  it('when the certificates are exported, then the CSV and .xlsx equal the list (all pages) as its columns word it, for each reader', async () => {
    const columns = certificateListColumns(t.ctx.config.timeZone);
    for (const who of [role[8], holderC]) {
      const screen = await pagesAsCells(t, '/api/raaf-certificates', who.headers, columns);
      expect(screen.length).toBeGreaterThan(1);
      expect(await exportCells(t, '/api/raaf-certificates', who.headers, 'csv')).toEqual(screen);
      expect(await exportCells(t, '/api/raaf-certificates', who.headers, 'xlsx')).toEqual(screen);
    }
    const reviewed = await exportCells(t, '/api/raaf-certificates?month=2026-10', role[8].headers, 'csv');
    expect(reviewed.map((row) => row[6])).toEqual(['State', 'Reviewed']);
  });
});

describe('pad history and find receipt', () => {
  it('when a pad history is read, then its events come oldest first with names, invoices and the holder', async () => {
    const body = (await ok(call(role[9], 'GET', `/api/pad-history/${padIds[1]}`))).data;
    expect(body.pad).toMatchObject({ id: padIds[1], series_number: '51-100', route: { id: routeId } });
    expect(body.holder).toEqual({
      user: { id: holderC.id, full_name: 'Carla Reyes' },
      branch: { id: thirdBranchId, name: 'Batangas Port' },
    });
    expect(body.in_transit_invoice).toBeNull();
    expect(body.events.map((e: { kind: string }) => e.kind)).toEqual([
      'received',
      'transfer_out',
      'transfer_in',
      'transfer_out',
      'transfer_in',
    ]);
    expect(body.events[2]).toMatchObject({
      holder_user: { id: holderA.id, full_name: 'Ana Cruz' },
      counterparty_branch: { id: headOfficeId },
      business_date: '2026-09-06',
      invoice_id: expect.any(Number),
    });
  });

  it('when a receipt number is found, then each route holding it answers with its status, holder and own events; unknown numbers answer []', async () => {
    const other = await createRoute(t.db);
    await ok(call(role[3], 'POST', '/api/add-pad', { route_id: other.id, series_from: 1, series_to: 50 }), 201);
    const found = (await ok(call(role[7], 'GET', '/api/find-receipt?number=6'))).data as Array<{
      route: { id: number };
      status: string;
      events: Array<{ kind: string }>;
    }>;
    const ours = found.find((f) => f.route.id === routeId);
    expect(ours).toMatchObject({ status: 'used', holder: { user: null, branch: { id: headOfficeId } } });
    expect(ours?.events.map((e) => e.kind)).toEqual(['received', 'transfer_out', 'transfer_in', 'used']);
    expect(found.find((f) => f.route.id === other.id)).toMatchObject({ status: 'not_used' });
    expect((await ok(call(role[7], 'GET', `/api/find-receipt?number=6&route_id=${other.id}`))).data).toHaveLength(1);
    expect((await ok(call(role[7], 'GET', '/api/find-receipt?number=999999999'))).data).toEqual([]);
    expect((await call(role[7], 'GET', '/api/find-receipt?number=abc')).statusCode).toBe(422);
  });
});

describe('permissions', () => {
  it('when each role reads the ledger paths, then roles 1-9 may, couriers get 403, strangers 401', async () => {
    for (const r of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
      expect((await call(role[r], 'GET', `/api/pad-history/${padIds[0]}`)).statusCode, `role ${r}`).toBe(200);
      expect((await call(role[r], 'GET', '/api/find-receipt?number=1')).statusCode, `role ${r}`).toBe(200);
      expect((await call(role[r], 'GET', `/api/raaf?month=2026-10&user_id=${role[r].id}`)).statusCode, `role ${r}`).toBe(200);
    }
    for (const r of [10, 11]) {
      expect((await call(role[r], 'GET', `/api/pad-history/${padIds[0]}`)).statusCode).toBe(403);
      expect((await call(role[r], 'GET', '/api/find-receipt?number=1')).statusCode).toBe(403);
    }
    expect((await call(null, 'GET', '/api/find-receipt?number=1')).statusCode).toBe(401);
  });

  it("when roles read another holder's RAAF, then 1, 2, 3, 8, 9 may; 4-6 only within their branch; 7 never", async () => {
    const url = `/api/raaf?month=2026-10&user_id=${holderA.id}`;
    for (const r of [1, 2, 3, 8, 9]) expect((await call(role[r], 'GET', url)).statusCode, `role ${r}`).toBe(200);
    for (const r of [4, 5, 6, 7]) expect((await call(role[r], 'GET', url)).statusCode, `role ${r}`).toBe(403);
    const sameBranchHead = await signedIn(t, { role_id: 5, branch_id: otherBranchId });
    expect((await call({ id: sameBranchHead.user.id, headers: sameBranchHead.headers }, 'GET', url)).statusCode).toBe(200);
    expect((await call(holderC, 'GET', url)).statusCode).toBe(403);
    expect((await call(role[4], 'GET', `/api/raaf?month=2026-10&branch_id=${headOfficeId}`)).statusCode).toBe(200);
  });

  it('when roles ask for the consolidated RAAF, then only 1, 2, 8 and 9 get it', async () => {
    for (const r of [1, 2, 8, 9]) expect((await call(role[r], 'GET', '/api/raaf-summary?month=2026-10')).statusCode).toBe(200);
    for (const r of [3, 4, 5, 6, 7, 10, 11]) expect((await call(role[r], 'GET', '/api/raaf-summary?month=2026-10')).statusCode).toBe(403);
  });

  it('when the query is malformed, then 422 names the field', async () => {
    const res = await call(role[1], 'GET', '/api/raaf?month=2026-13&user_id=1');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.month).toEqual(['Month must be YYYY-MM']);
    const both = await call(role[1], 'GET', `/api/raaf?month=2026-10&user_id=${holderA.id}&branch_id=${headOfficeId}`);
    expect(both.statusCode).toBe(422);
    expect((await call(role[1], 'GET', '/api/raaf?month=2026-10')).statusCode).toBe(422);
  });
});
