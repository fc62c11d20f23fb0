import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { dateInZone, seriesRange } from '../../../shared/format.ts';
import { INVOICE_STATUS, INVOICE_TYPE, ROLE, USER_STATUS } from '../../../shared/lookups.ts';
import { reportInvoices, reports } from '../../db/schema/reports.ts';
import { users } from '../../db/schema/users.ts';
import { buildIssuedInvoice, signedIn } from '../../test/factories.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { REPORT_MSG } from '../../../shared/schemas/reports.ts';
import { previewUrl, reportUrlKey, savedReportUrl } from './signed-url.ts';

let t: TestApp;
let accounting: Awaited<ReturnType<typeof signedIn>>;

beforeAll(async () => {
  t = await createTestApp();
  accounting = await signedIn(t, { role_id: ROLE.ACCOUNTING, first_name: 'Ana', last_name: 'Reyes' });
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: unknown, headers: Record<string, string> = accounting.headers) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

async function offeredIds(search?: string): Promise<number[]> {
  const query = new URLSearchParams({ per_page: '100', ...(search ? { search } : {}) });
  const res = await get(`/api/completed-invoices?${query}`, accounting.headers);
  expect(res.statusCode).toBe(200);
  return res.json().data.map((row: { id: number }) => row.id);
}

describe('reports', () => {
  it('when roles 1, 2, 8 and 9 call the report endpoints, then they pass; every other role gets 403 and no token 401', async () => {
    const { invoice } = await buildIssuedInvoice(t.db);
    for (const role of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, null]) {
      const { headers } = await signedIn(t, { role_id: role });
      const allowed = role !== null && [1, 2, 8, 9].includes(role);
      const expected = allowed ? 200 : 403;
      expect((await get('/api/completed-invoices', headers)).statusCode, `role ${role}`).toBe(expected);
      expect((await get('/api/get-completed-issued-invoice', headers)).statusCode, `role ${role}`).toBe(expected);
      expect((await get('/api/reports', headers)).statusCode, `role ${role}`).toBe(expected);
      expect((await post('/api/reports/view', { invoice_ids: [invoice.id] }, headers)).statusCode, `role ${role}`).toBe(expected);
      if (!allowed) expect((await post('/api/reports', { invoice_ids: [invoice.id] }, headers)).statusCode, `role ${role}`).toBe(403);
    }
    expect((await get('/api/completed-invoices')).statusCode).toBe(401);
    expect((await get('/api/reports')).statusCode).toBe(401);
    expect((await post('/api/reports', { invoice_ids: [invoice.id] }, {})).statusCode).toBe(401);
    const [stored] = await t.db.select().from(reportInvoices).where(eq(reportInvoices.invoice_id, invoice.id));
    expect(stored).toBeUndefined();
  });

  it('when the Generate modal lists invoices, then only completed Issued ones outside any report come, shaped like invoice rows', async () => {
    const ready = await buildIssuedInvoice(t.db, { padCount: 3 });
    const inTransit = await buildIssuedInvoice(t.db, { status: INVOICE_STATUS.IN_TRANSIT });
    const returned = await buildIssuedInvoice(t.db, { type: INVOICE_TYPE.RETURN });
    const request = await buildIssuedInvoice(t.db, { type: INVOICE_TYPE.REQUEST, status: INVOICE_STATUS.COMPLETED, padCount: 0 });
    const reported = await buildIssuedInvoice(t.db);
    expect((await post('/api/reports', { invoice_ids: [reported.invoice.id] })).statusCode).toBe(201);

    const ids = await offeredIds();
    expect(ids).toContain(ready.invoice.id);
    for (const other of [inTransit, returned, request, reported]) expect(ids).not.toContain(other.invoice.id);

    const res = await get(`/api/get-completed-issued-invoice?search=${ready.invoice.id}&per_page=100`, accounting.headers);
    const row = res.json().data.find((r: { id: number }) => r.id === ready.invoice.id);
    expect(row).toMatchObject({
      id: ready.invoice.id,
      invoice_type: { id: INVOICE_TYPE.ISSUED, name: 'Issued' },
      invoice_status: { id: INVOICE_STATUS.COMPLETED, name: 'Completed' },
      pads: 3,
      route: { id: ready.route.id, name: ready.route.name, tin: ready.route.tin, company: { name: expect.stringMatching(/^Ferry Lines/) } },
      from_branch: { id: ready.fromBranch.id, name: ready.fromBranch.name },
      branch: { id: ready.toBranch.id, name: ready.toBranch.name },
      user: { id: ready.requester.id, branch: { id: ready.toBranch.id, name: ready.toBranch.name } },
      assigned_user: { id: ready.courier.id, full_name: `Carlo ${ready.courier.last_name}` },
      assigned_to: `Carlo ${ready.courier.last_name}`,
      expected_return_date: '2026-12-31',
    });
    expect(Date.parse(row.created_at)).toBe(ready.invoice.created_at.getTime());
    expect(res.json()).toMatchObject({ current_page: 1, per_page: 100 });
  });

  it('when searching by invoice number, then only matching invoices come; text without digits matches none', async () => {
    const a = await buildIssuedInvoice(t.db);
    const b = await buildIssuedInvoice(t.db);
    expect(await offeredIds(String(a.invoice.id))).toContain(a.invoice.id);
    expect(await offeredIds(String(a.invoice.id))).not.toContain(b.invoice.id);
    expect(await offeredIds(`#${b.invoice.id}`)).toContain(b.invoice.id);
    expect(await offeredIds('Batangas')).toEqual([]);
    const paged = await get('/api/completed-invoices?per_page=1&page=2', accounting.headers);
    expect(paged.json()).toMatchObject({ current_page: 2, per_page: 1 });
    expect(paged.json().data).toHaveLength(1);
    expect(paged.json().last_page).toBe(paged.json().total);
  });

  it('when a preview is asked for, then a signed address serves a PDF of exactly those invoices without a Bearer header', async () => {
    const one = await buildIssuedInvoice(t.db);
    const two = await buildIssuedInvoice(t.db);
    const res = await post('/api/reports/view', { invoice_ids: [two.invoice.id, one.invoice.id, one.invoice.id] });
    expect(res.statusCode).toBe(200);
    const { preview_url } = res.json();
    expect(preview_url).toMatch(/^\/api\/reports\/preview\?ids=.+&user=\d+&expires=\d+&signature=[\w-]+$/);

    const pdf = await get(preview_url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['cache-control']).toBe('private, no-store');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfToText(pdf.rawPayload);
    expect(text).toContain('PREVIEW');
    expect(text).toContain(`Invoice No. ${one.invoice.id}`);
    expect(text).toContain(`Invoice No. ${two.invoice.id}`);
    expect(text).toMatch(/Page 1 of \d+/);

    const [stored] = await t.db
      .select()
      .from(reportInvoices)
      .where(inArray(reportInvoices.invoice_id, [one.invoice.id, two.invoice.id]));
    expect(stored).toBeUndefined();
  });

  it('when a preview is asked for, then it is streamed as it is drawn: chunked, without a length, "Page N of Y" on every page', async () => {
    const { invoice } = await buildIssuedInvoice(t.db);
    const { preview_url } = (await post('/api/reports/view', { invoice_ids: [invoice.id] })).json();

    const pdf = await get(preview_url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['transfer-encoding']).toBe('chunked');
    expect(pdf.headers['content-length']).toBeUndefined();
    expect(pdf.headers['content-disposition']).toBe('inline; filename="report-preview.pdf"');
    expect(pdf.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'self'");
    const pages = pdfToText(pdf.rawPayload)
      .split('\f')
      .filter((page) => page.trim());
    pages.forEach((page, i) => expect(page).toMatch(new RegExp(`Page ${i + 1} of ${pages.length}\\n`)));
  });

  it('when a preview address is altered, expired or missing its signature, then the PDF is refused', async () => {
    const { invoice } = await buildIssuedInvoice(t.db);
    const other = await buildIssuedInvoice(t.db);
    const { preview_url } = (await post('/api/reports/view', { invoice_ids: [invoice.id] })).json();
    const url = new URL(preview_url, 'http://x');

    const swapped = new URL(url);
    swapped.searchParams.set('ids', other.invoice.id.toString(36));
    expect((await get(swapped.pathname + swapped.search)).statusCode).toBe(403);

    const unsigned = new URL(url);
    unsigned.searchParams.delete('signature');
    expect((await get(unsigned.pathname + unsigned.search)).statusCode).toBe(401);

    const key = reportUrlKey(t.ctx.badgeSecret);
    const expired = previewUrl(key, [invoice.id], accounting.user.id, Date.now() - 11 * 60 * 1000);
    const refused = await get(expired);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(REPORT_MSG.linkExpired);

    expect((await get('/api/reports/preview?ids=zzz!&user=1&expires=1&signature=x')).statusCode).toBe(403);
  });

  it('when the preview or save names invoices a report may not take, then 422 on invoice_ids says which and why', async () => {
    const inTransit = await buildIssuedInvoice(t.db, { status: INVOICE_STATUS.IN_TRANSIT });
    const turnover = await buildIssuedInvoice(t.db, { type: INVOICE_TYPE.TURNOVER });
    const good = await buildIssuedInvoice(t.db);
    for (const url of ['/api/reports/view', '/api/reports']) {
      const res = await post(url, { invoice_ids: [good.invoice.id, inTransit.invoice.id, turnover.invoice.id, 2_000_000_000] });
      expect(res.statusCode, url).toBe(422);
      expect(res.json().errors.invoice_ids).toEqual([
        `Invoice ${inTransit.invoice.id} is not a completed Issued invoice.`,
        `Invoice ${turnover.invoice.id} is not a completed Issued invoice.`,
        'Invoice 2000000000 does not exist.',
      ]);
      const empty = await post(url, { invoice_ids: [] });
      expect(empty.statusCode).toBe(422);
      expect(empty.json().errors.invoice_ids).toEqual(['Please select at least one invoice']);
      for (const bad of [
        {},
        { invoice_ids: 'x' },
        { invoice_ids: [0] },
        { invoice_ids: [-1] },
        { invoice_ids: [99_999_999_999] },
        { invoice_ids: ['a'] },
      ]) {
        expect((await post(url, bad)).statusCode, JSON.stringify(bad)).toBe(422);
      }
    }
    expect((await post('/api/reports', { invoice_ids: [good.invoice.id], remarks: 'x'.repeat(2001) })).statusCode).toBe(422);
    expect(await t.db.select().from(reportInvoices).where(eq(reportInvoices.invoice_id, good.invoice.id))).toEqual([]);
  });

  it('when a report is saved, then it is numbered, holds the server-rendered PDF and its invoices, and is listed with a working address', async () => {
    const one = await buildIssuedInvoice(t.db, { padCount: 2 });
    const two = await buildIssuedInvoice(t.db, { padCount: 1 });
    const res = await post('/api/reports', {
      invoice_ids: [one.invoice.id, two.invoice.id],
      remarks: '  November batch  ',
      data: 'data:application/pdf;base64,JVBERi0xLjQKJSBmb3JnZWQ=',
    });
    expect(res.statusCode).toBe(201);
    const { message, data } = res.json();
    expect(message).toBe(REPORT_MSG.created);
    expect(data).toMatchObject({
      number: expect.stringMatching(/^RPT-\d{4}-\d{6}$/),
      total_invoice: 2,
      remarks: 'November batch',
      generated_by_user: { id: accounting.user.id, full_name: 'Ana Reyes' },
    });
    const next = (await post('/api/reports', { invoice_ids: [(await buildIssuedInvoice(t.db)).invoice.id] })).json().data;
    const sequence = (n: string) => Number(n.slice(-6));
    expect(next.number.slice(0, 9)).toBe(data.number.slice(0, 9));
    expect(sequence(next.number)).toBe(sequence(data.number) + 1);

    const [stored] = await t.db.select().from(reports).where(eq(reports.id, data.id));
    expect(stored).toMatchObject({ number: data.number, total_invoice: 2, remarks: 'November batch', generated_by: accounting.user.id });
    expect(stored.pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(stored.pdf.toString('latin1')).not.toContain('forged');
    const issued = Math.min(one.invoice.created_at.getTime(), two.invoice.created_at.getTime());
    const accepted = Math.max(one.invoice.accepted_at?.getTime() ?? 0, two.invoice.accepted_at?.getTime() ?? 0);
    expect(stored.period_from).toBe(dateInZone(new Date(issued), 'Asia/Manila'));
    expect(stored.period_to).toBe(dateInZone(new Date(accepted), 'Asia/Manila'));
    const links = await t.db.select().from(reportInvoices).where(eq(reportInvoices.report_id, data.id));
    expect(links.map((l) => l.invoice_id).sort()).toEqual([one.invoice.id, two.invoice.id].sort());

    const offered = await offeredIds();
    expect(offered).not.toContain(one.invoice.id);
    expect(offered).not.toContain(two.invoice.id);

    const list = await get(`/api/reports?search=${data.number}`, accounting.headers);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, current_page: 1, last_page: 1, per_page: 10 });
    const listed = list.json().data[0];
    expect(listed).toMatchObject({ id: data.id, number: data.number, total_invoice: 2, generated_by_user: { full_name: 'Ana Reyes' } });
    expect(listed.data).toMatch(new RegExp(`^/api/reports/${data.id}/pdf\\?user=${accounting.user.id}&expires=\\d+&signature=`));

    const served = await get(listed.data);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe(`inline; filename="${data.number}.pdf"`);
    expect(Buffer.compare(served.rawPayload, stored.pdf)).toBe(0);

    const byBearer = await get(`/api/reports/${data.id}/pdf`, accounting.headers);
    expect(byBearer.statusCode).toBe(200);
    expect(Buffer.compare(byBearer.rawPayload, stored.pdf)).toBe(0);

    const again = await post('/api/reports', { invoice_ids: [one.invoice.id] });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.invoice_ids).toEqual([`Invoice ${one.invoice.id} is already in report ${data.number}.`]);
  });

  it('when a saved PDF is fetched without auth, with a bad or expired signature, or by a role without reports, then it is refused', async () => {
    const { invoice } = await buildIssuedInvoice(t.db);
    const { data } = (await post('/api/reports', { invoice_ids: [invoice.id] })).json();
    const key = reportUrlKey(t.ctx.badgeSecret);

    expect((await get(`/api/reports/${data.id}/pdf`)).statusCode).toBe(401);
    const expired = await get(savedReportUrl(key, data.id, accounting.user.id, Date.now() - 10 * 60 * 1000 - 1000));
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe(REPORT_MSG.linkExpired);

    const forOther = savedReportUrl(key, data.id + 1, accounting.user.id).replace(`/reports/${data.id + 1}/`, `/reports/${data.id}/`);
    expect((await get(forOther)).statusCode).toBe(403);
    const tampered = data.data.replace(`user=${accounting.user.id}`, `user=${accounting.user.id + 1}`);
    expect((await get(tampered)).statusCode).toBe(403);
    expect((await get(savedReportUrl(reportUrlKey('another-secret'), data.id, accounting.user.id))).statusCode).toBe(403);

    const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN });
    expect((await get(`/api/reports/${data.id}/pdf`, custodian.headers)).statusCode).toBe(403);
    expect((await get(savedReportUrl(key, data.id, custodian.user.id))).statusCode).toBe(403);
    expect((await get('/api/reports/2000000000/pdf', accounting.headers)).statusCode).toBe(404);
    expect((await get('/api/reports/abc/pdf', accounting.headers)).statusCode).toBe(422);

    const leaver = await signedIn(t, { role_id: ROLE.AUDITOR });
    const leaverUrl = savedReportUrl(key, data.id, leaver.user.id);
    expect((await get(leaverUrl)).statusCode).toBe(200);
    await t.db.update(users).set({ user_status_id: USER_STATUS.INACTIVE }).where(eq(users.id, leaver.user.id));
    expect((await get(leaverUrl)).statusCode).toBe(403);
  });

  it('when the saved PDF is read with pdftotext, then it names the route, branches, users, every series and the remark as literal text', async () => {
    const item = await buildIssuedInvoice(t.db, { padCount: 3 });
    const remark = '<script>alert(1)</script> ) \\ /JS';
    const { data } = (await post('/api/reports', { invoice_ids: [item.invoice.id], remarks: remark })).json();
    const [stored] = await t.db.select().from(reports).where(eq(reports.id, data.id));
    const text = pdfToText(stored.pdf);
    const company = text.match(/Ferry Lines \d+/)?.[0];
    expect(company).toBeDefined();
    expect(text).toContain(`${company} - ${item.route.name} - ${item.route.tin}`);
    expect(text).toContain(data.number);
    expect(text).toContain(item.fromBranch.name);
    expect(text).toContain(item.toBranch.name);
    expect(text).toContain(`Rosa ${item.requester.last_name}`);
    expect(text).toContain(`Carlo ${item.courier.last_name}`);
    expect(text).toContain('Generated by');
    expect(text).toContain('Ana Reyes (Accounting)');
    for (const pad of item.pads) expect(text).toContain(seriesRange(pad.series_from, pad.series_to));
    expect(text).toContain(remark);
    expect(text).toMatch(/Receipt numbers\s+150/);
    expect(text).toContain('Page 1 of 1');
    expect(stored.pdf.toString('latin1')).not.toMatch(/\/JavaScript|\/JS\s*\(|\/OpenAction|\/URI/);
  });

  it('when two reports race for the same invoice, then exactly one gets it and the other is refused without a 500', async () => {
    const shared = await buildIssuedInvoice(t.db);
    const a = await buildIssuedInvoice(t.db);
    const b = await buildIssuedInvoice(t.db);
    const [first, second] = await Promise.all([
      post('/api/reports', { invoice_ids: [shared.invoice.id, a.invoice.id] }),
      post('/api/reports', { invoice_ids: [shared.invoice.id, b.invoice.id] }),
    ]);
    const statuses = [first.statusCode, second.statusCode].sort();
    expect(statuses[0]).toBe(201);
    expect([409, 422]).toContain(statuses[1]);
    const links = await t.db.select().from(reportInvoices).where(eq(reportInvoices.invoice_id, shared.invoice.id));
    expect(links).toHaveLength(1);
    const loser = first.statusCode === 201 ? b : a;
    expect(await t.db.select().from(reportInvoices).where(eq(reportInvoices.invoice_id, loser.invoice.id))).toEqual([]);
  });

  it('when several reports are saved at once, then each gets its own number and the year has no gaps', async () => {
    const invoices = await Promise.all([0, 1, 2, 3].map(() => buildIssuedInvoice(t.db)));
    const results = await Promise.all(invoices.map((item) => post('/api/reports', { invoice_ids: [item.invoice.id] })));
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201]);
    const year = dateInZone(new Date(), 'Asia/Manila').slice(0, 4);
    const numbers = results.map((r) => r.json().data.number as string).sort();
    for (const number of numbers) expect(number.startsWith(`RPT-${year}-`)).toBe(true);
    const sequence = numbers.map((n) => Number(n.slice(-6)));
    expect(sequence).toEqual([sequence[0], sequence[0] + 1, sequence[0] + 2, sequence[0] + 3]);
    const all = await t.db.select({ number: reports.number }).from(reports);
    const taken = all.map((r) => Number(r.number.slice(-6))).sort((a, b) => a - b);
    expect(taken).toEqual(Array.from({ length: taken.length }, (_, i) => i + 1));
  });

  it('when the list is searched by generator name or filtered by dates, then only matching reports come, by the operator day', async () => {
    const auditor = await signedIn(t, { role_id: ROLE.AUDITOR, first_name: 'Benedicto', middle_name: 'Cruz', last_name: 'Villanueva' });
    const made: Array<{ id: number; number: string }> = [];
    for (const at of ['2026-03-01T15:59:00Z', '2026-03-01T16:00:00Z', '2026-03-05T10:00:00Z']) {
      const { invoice } = await buildIssuedInvoice(t.db);
      const res = await post('/api/reports', { invoice_ids: [invoice.id] }, auditor.headers);
      expect(res.statusCode).toBe(201);
      made.push(res.json().data);
      await t.db
        .update(reports)
        .set({ created_at: new Date(at) })
        .where(eq(reports.id, res.json().data.id));
    }
    const numbers = async (query: string) =>
      (await get(`/api/reports?per_page=100&${query}`, auditor.headers)).json().data.map((r: { number: string }) => r.number);

    expect(await numbers('search=Benedicto Villanueva')).toEqual([made[2].number, made[1].number, made[0].number]);
    expect(await numbers('search=benedicto cruz')).toHaveLength(3);
    expect(await numbers(`search=${made[1].number.toLowerCase()}`)).toEqual([made[1].number]);
    expect(await numbers('search=Nobody Here')).toEqual([]);
    expect(await numbers('search=Benedicto&start_date=2026-03-02&end_date=2026-03-02')).toEqual([made[1].number]);
    expect(await numbers('search=Benedicto&start_date=2026-03-01&end_date=2026-03-01')).toEqual([made[0].number]);
    expect(await numbers('search=Benedicto&start_date=2026-03-02')).toEqual([made[2].number, made[1].number]);
    expect(await numbers('search=Benedicto&end_date=2026-03-04')).toEqual([made[1].number, made[0].number]);
    expect(await numbers('search=Benedicto&start_date=&end_date=')).toHaveLength(3);

    for (const bad of [
      'start_date=2026-02-30',
      'end_date=yesterday',
      'start_date=2026-03-05&end_date=2026-03-01',
      'page=0',
      'per_page=1000',
    ]) {
      const res = await get(`/api/reports?${bad}`, auditor.headers);
      expect(res.statusCode, bad).toBe(422);
    }
    const backwards = await get('/api/reports?start_date=2026-03-05&end_date=2026-03-01', auditor.headers);
    expect(backwards.json().errors.end_date).toEqual(['End Date must not be before Start Date']);
  });

  it('when a signed preview names invoices that were reported since, then it answers 409 instead of a PDF', async () => {
    const { invoice } = await buildIssuedInvoice(t.db);
    const { preview_url } = (await post('/api/reports/view', { invoice_ids: [invoice.id] })).json();
    expect((await post('/api/reports', { invoice_ids: [invoice.id] })).statusCode).toBe(201);
    const res = await get(preview_url);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(REPORT_MSG.previewStale);
  });

  it('when the API docs are read, then the report endpoints are listed', async () => {
    const res = await get('/api/docs/json');
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/api/completed-invoices',
      '/api/get-completed-issued-invoice',
      '/api/reports',
      '/api/reports/view',
      '/api/reports/{id}/pdf',
    ]) {
      expect(paths).toContain(p);
    }
  });
});
