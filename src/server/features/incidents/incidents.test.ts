import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { INVOICE_TYPE } from '../../../shared/lookups.ts';
import { INCIDENT_MSG, MAX_ATTACHMENT_BYTES } from '../../../shared/schemas/incidents.ts';
import { USAGE_MSG } from '../../../shared/schemas/pads.ts';
import { idempotencyKeys } from '../../db/schema/idempotency.ts';
import { lossIncidentPads, lossIncidents } from '../../db/schema/incidents.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { pdfToText } from '../../test/pdf.ts';
import { startSmtp } from '../../test/smtp.ts';
import { incidentListColumns } from '../../../shared/list-columns.ts';
import { exportCells, pagesAsCells } from '../../test/export.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { expectLedgerVerified } from '../../test/ledger.ts';
import { apiCalls } from '../../test/inject.ts';

interface Who {
  id: number;
  email: string;
  headers: { authorization: string };
}
interface PadBody {
  id: number;
  number: number;
  series: Array<{ number: number; status: number }>;
  pad_status_id: number;
  issuance_status_id: number;
  remarks: string | null;
  holder_user_id: number | null;
  locked_by_invoice_id: number | null;
}

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let headOfficeId: number;
const role: Record<number, Who> = {};
let holder: Who;
let stranger: Who;
let courier: Who;
let branchCustodian: Who;
let routeId: number;
let padIds: number[];

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);

const { call, ok } = apiCalls(() => t);

/** A multipart body as a browser's FormData sends it. */
function multipart(fields: Record<string, string>, files: Array<{ field: string; name: string; type: string; content: Buffer }>) {
  const boundary = '----padtrack' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const report = (
  who: Who,
  padsField: object[],
  files: Parameters<typeof multipart>[1] = [],
  extra: Record<string, string> = {},
  key?: string,
) => {
  const body = multipart(
    {
      pads: JSON.stringify(padsField),
      place: 'Calapan pier',
      occurred_at: '2026-11-20T08:30:00+08:00',
      circumstances: 'Bag fell into the sea while boarding.',
      ...extra,
    },
    files,
  );
  const headers = { ...who.headers, ...body.headers, ...(key ? { 'idempotency-key': key } : {}) };
  return t.app.inject({ method: 'POST', url: '/api/loss-incidents', headers, payload: body.payload });
};

const getPad = async (padId: number) => (await ok(call(role[3], 'GET', `/api/get-pad/${padId}`))).data as PadBody;

const verified = () => expectLedgerVerified(t.db);

async function latest(typeId: number) {
  const [row] = await t.db.select().from(invoices).where(eq(invoices.invoice_type_id, typeId)).orderBy(desc(invoices.id)).limit(1);
  return row;
}

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ SMTP_URL: smtp.url });
  headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  const branchId = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  for (const r of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
    const { user, headers } = await signedIn(t, { role_id: r, branch_id: headOfficeId });
    role[r] = { id: user.id, email: user.email, headers };
  }
  const h = await signedIn(t, { role_id: 7, branch_id: branchId, first_name: 'Ana', last_name: 'Cruz' });
  holder = { id: h.user.id, email: h.user.email, headers: h.headers };
  const s = await signedIn(t, { role_id: 7, branch_id: headOfficeId });
  stranger = { id: s.user.id, email: s.user.email, headers: s.headers };
  const c = await signedIn(t, { role_id: 11, branch_id: headOfficeId, first_name: 'Mario', last_name: 'Messenger' });
  courier = { id: c.user.id, email: c.user.email, headers: c.headers };
  const bc = await signedIn(t, { role_id: 4, branch_id: branchId });
  branchCustodian = { id: bc.user.id, email: bc.user.email, headers: bc.headers };
  routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  await ok(call(role[3], 'POST', '/api/add-pad', { route_id: routeId, series_from: 5001, series_to: 5400, pad_size: 50 }), 201);
  padIds = (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map((p) => p.id);
  const request = await ok(call(holder, 'POST', '/api/create-request-invoice', { route_id: routeId, pads: 4 }), 201);
  await ok(
    call(role[3], 'POST', '/api/issue-invoice', {
      invoice_id: request.data.id,
      pads: padIds.slice(0, 4),
      assigned_user_id: courier.id,
      expected_return: 3,
    }),
    201,
  );
  await ok(call(holder, 'POST', `/api/accept-invoice/${(await latest(INVOICE_TYPE.ISSUED)).id}`));
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('reporting a loss', () => {
  let incident: { id: number; number: string };

  it('when the holder reports numbers with an affidavit and a police report, then 201 with LOSS-YYYY-NNNN, status reported, files stored', async () => {
    const res = await report(
      holder,
      [{ pad_id: padIds[0], from: 5011, to: 5020 }],
      [
        { field: 'affidavit', name: 'affidavit.pdf', type: 'application/pdf', content: PDF },
        { field: 'police_report', name: 'blotter.png', type: 'image/png', content: PNG },
      ],
      { affidavit_notarised_on: '2026-11-21' },
    );
    expect(res.statusCode, res.body).toBe(201);
    incident = res.json().data;
    expect(incident).toMatchObject({ number: expect.stringMatching(/^LOSS-\d{4}-\d{4}$/), status: 'reported' });
    const detail = (await ok(call(role[9], 'GET', `/api/loss-incidents/${incident.id}`))).data;
    expect(detail.attachments).toEqual([
      expect.objectContaining({ kind: 'affidavit', content_type: 'application/pdf', size: PDF.length, document_date: '2026-11-21' }),
      expect.objectContaining({ kind: 'police_report', content_type: 'image/png' }),
    ]);
    const file = await t.app.inject({ method: 'GET', url: detail.attachments[0].url });
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(PDF)).toBe(true);
    expect(detail.notice_url).toBeNull();
  });

  it('when a file is not a PDF or image by content, or too large, then 422 on its field and no incident is made', async () => {
    const before = (await ok(call(role[1], 'GET', '/api/loss-incidents'))).total;
    const fake = await report(
      holder,
      [{ pad_id: padIds[1] }],
      [{ field: 'affidavit', name: 'affidavit.pdf', type: 'application/pdf', content: Buffer.from('MZ not a pdf') }],
    );
    expect(fake.statusCode).toBe(422);
    expect(fake.json().errors).toEqual({ affidavit: [INCIDENT_MSG.fileType('affidavit.pdf')] });
    const big = await report(
      holder,
      [{ pad_id: padIds[1] }],
      [{ field: 'other', name: 'scan.pdf', type: 'application/pdf', content: Buffer.concat([PDF, Buffer.alloc(MAX_ATTACHMENT_BYTES)]) }],
    );
    expect(big.statusCode).toBe(422);
    expect(big.json().errors).toEqual({ other: [INCIDENT_MSG.fileTooLarge('scan.pdf')] });
    expect((await report(holder, [], [])).statusCode).toBe(422);
    expect((await ok(call(role[1], 'GET', '/api/loss-incidents'))).total).toBe(before);
  });

  it('when someone who neither holds nor carries the pad reports it, then 403; the same numbers twice, 409', async () => {
    expect((await report(stranger, [{ pad_id: padIds[1] }])).statusCode).toBe(403);
    expect((await report(role[9], [{ pad_id: padIds[1] }])).statusCode).toBe(403);
    const twice = await report(holder, [{ pad_id: padIds[0], from: 5015, to: 5016 }]);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(INCIDENT_MSG.alreadyReported(5015, incident.number));
  });

  it('when the reporter or a role without the right confirms, then 403; Accounting confirms, then lost events, the Notice of Loss and its mails', async () => {
    expect((await call(holder, 'POST', `/api/loss-incidents/${incident.id}/confirm`)).statusCode).toBe(403);
    expect((await call(role[9], 'POST', `/api/loss-incidents/${incident.id}/confirm`)).statusCode).toBe(403);
    const body = await ok(call(role[8], 'POST', `/api/loss-incidents/${incident.id}/confirm`));
    expect(body.data.status).toBe('confirmed');
    const pad = await getPad(padIds[0]);
    expect(pad.series.filter((e) => e.status === 4).map((e) => e.number)).toEqual(Array.from({ length: 10 }, (_, i) => 5011 + i));
    const [lost] = await t.db.select().from(padEvents).where(eq(padEvents.kind, 'lost'));
    expect(lost).toMatchObject({
      from_number: 5011,
      to_number: 5020,
      holder_user_id: holder.id,
      actor_user_id: holder.id,
      approver_user_id: role[8].id,
      incident_id: incident.id,
    });
    const notice = await t.app.inject({ method: 'GET', url: `/api/loss-incidents/${incident.id}/notice`, headers: role[9].headers });
    expect(notice.headers['content-type']).toBe('application/pdf');
    const text = pdfToText(notice.rawPayload).replace(/\s+/g, ' ');
    for (const element of [
      'NOTICE OF LOSS OF ACCOUNTABLE FORMS',
      `Notice No. ${incident.number}`,
      'Kind of forms Official Receipts / Invoices',
      'Quantity 10 forms',
      '5011 to 5020 10',
      'Place of loss Calapan pier',
      `About 20 Nov 2026 08:30 (${t.ctx.config.timeZone})`,
      'Papers attached Kind File Date Affidavit of loss affidavit.pdf Notarised 21 Nov 2026 Police report blotter.png',
      'Reported by Loss confirmed by For the operator',
    ]) {
      expect(text).toContain(element);
    }
    expect(text).not.toContain('No affidavit of loss attached');
    for (const who of [branchCustodian, role[4], role[3], role[8], role[9]]) {
      const mail = await smtp.mailTo(who.email);
      expect(mail.raw).toContain(`Notice of Loss ${incident.number}`);
      expect(mail.raw).toContain('application/pdf');
    }
    expect(smtp.received.some((m) => m.to.includes(role[1].email) || m.to.includes(holder.email))).toBe(false);
    await verified();
  });

  it('when a lost number meets usage, the grid toggle, cancelling or issuing, then every flow refuses it', async () => {
    const used = await call(holder, 'POST', `/api/pads/${padIds[0]}/usage`, { from: 5001, to: 5012 });
    expect(used.statusCode).toBe(409);
    expect(used.json().message).toBe(USAGE_MSG.lost(5011));
    const pad = await getPad(padIds[0]);
    const toggle = await call(holder, 'PUT', `/api/update-pad/${pad.id}`, {
      pad_status_id: pad.pad_status_id,
      issuance_status_id: pad.issuance_status_id,
      remarks: pad.remarks,
      series: pad.series.map((e) => (e.number === 5011 ? { ...e, status: 2 } : e)),
    });
    expect(toggle.json().message).toBe(USAGE_MSG.lost(5011));
    expect(
      (
        await call(role[3], 'POST', `/api/pads/${padIds[0]}/outcome`, {
          from: 5011,
          outcome: 'cancelled',
          reason: 'Other',
          details: 'x',
          copies_retained: false,
        })
      ).statusCode,
    ).toBe(409);
    const found = (await ok(call(role[9], 'GET', '/api/find-receipt?number=5012'))).data;
    expect(found[0]).toMatchObject({ status: 'lost', outcome: { state: 'lost', incident: { number: incident.number } } });
  });

  it('when the incident list is searched by incident or receipt number, then it finds it; couriers may not list', async () => {
    expect((await ok(call(role[5], 'GET', `/api/loss-incidents?search=${incident.number}`))).data.map((r: { id: number }) => r.id)).toEqual(
      [incident.id],
    );
    expect((await ok(call(role[5], 'GET', '/api/loss-incidents?search=5017'))).data.map((r: { id: number }) => r.id)).toEqual([
      incident.id,
    ]);
    expect((await ok(call(role[5], 'GET', '/api/loss-incidents?search=5099'))).data).toEqual([]);
    expect((await call(role[10], 'GET', '/api/loss-incidents')).statusCode).toBe(403);
  });

  it('when numbers are found, then two different users of roles 3 and 8 are needed and the history keeps both steps', async () => {
    expect(
      (
        await call(holder, 'POST', `/api/loss-incidents/${incident.id}/found`, {
          pad_id: padIds[0],
          from: 5011,
          to: 5012,
          reason: 'In a jacket',
        })
      ).statusCode,
    ).toBe(403);
    const first = await ok(
      call(role[3], 'POST', `/api/loss-incidents/${incident.id}/found`, { pad_id: padIds[0], from: 5011, to: 5012, reason: 'In a jacket' }),
    );
    const foundId = first.data.found[0].id as number;
    expect((await call(role[3], 'POST', `/api/loss-incidents/${incident.id}/found/${foundId}/confirm`)).json().message).toBe(
      INCIDENT_MSG.ownFound,
    );
    const actions = (await ok(call(role[8], 'GET', '/api/my-actions'))).data as { groups: Array<{ kind: string; count: number }> };
    expect(actions.groups.find((g) => g.kind === 'confirm_found')?.count).toBe(1);
    const second = await ok(call(role[8], 'POST', `/api/loss-incidents/${incident.id}/found/${foundId}/confirm`));
    expect(second.data.found[0]).toMatchObject({ status: 'confirmed', recorded_by: { id: role[3].id }, confirmed_by: { id: role[8].id } });
    const pad = await getPad(padIds[0]);
    expect(pad.series.filter((e) => e.status === 4).map((e) => e.number)).toEqual(Array.from({ length: 8 }, (_, i) => 5013 + i));
    const history = (await ok(call(role[9], 'GET', `/api/pad-history/${padIds[0]}`))).data.events as Array<{
      kind: string;
      approver: { id: number } | null;
    }>;
    expect(history.map((e) => e.kind).slice(-2)).toEqual(['lost', 'found']);
    expect(history.at(-1)?.approver?.id).toBe(role[8].id);
    expect((await call(role[8], 'POST', `/api/loss-incidents/${incident.id}/found/${foundId}/confirm`)).statusCode).toBe(409);
    await verified();
  });

  it('when anyone edits or deletes a decided incident, its pads, papers or found numbers in the database, then the triggers refuse it', async () => {
    const attempts = [
      sql`update loss_incidents set place = 'Elsewhere' where id = ${incident.id}`,
      sql`update loss_incidents set status = 'reported', decided_by = null where id = ${incident.id}`,
      sql`delete from loss_incidents where id = ${incident.id}`,
      sql`update loss_incident_pads set to_number = to_number - 1 where incident_id = ${incident.id}`,
      sql`delete from loss_incident_pads where incident_id = ${incident.id}`,
      sql`update loss_incident_attachments set content = ''::bytea where incident_id = ${incident.id}`,
      sql`delete from loss_incident_attachments where incident_id = ${incident.id}`,
      sql`update loss_incident_found set confirmed_by = null, confirmed_at = null where incident_id = ${incident.id}`,
      sql`delete from loss_incident_found where incident_id = ${incident.id}`,
      sql`truncate loss_incidents cascade`,
    ];
    for (const attempt of attempts) {
      const failure = await t.db.execute(attempt).then(
        () => 'applied',
        (error: Error & { cause?: Error }) => `${error.message} ${error.cause?.message ?? ''}`,
      );
      expect(failure).toMatch(/append-only/);
    }
    const stored = (await ok(call(role[9], 'GET', `/api/loss-incidents/${incident.id}`))).data;
    expect(stored).toMatchObject({ id: incident.id, status: 'confirmed' });
    expect(stored.found.length).toBeGreaterThan(0);
  });

  it('when an incident is rejected, then its numbers stay unused and a second decision is 409', async () => {
    const res = await report(holder, [{ pad_id: padIds[1], from: 5051, to: 5052 }]);
    const id = res.json().data.id as number;
    const actions = (await ok(call(role[1], 'GET', '/api/my-actions'))).data as { groups: Array<{ kind: string; count: number }> };
    expect(actions.groups.find((g) => g.kind === 'confirm_loss')?.count).toBeGreaterThan(0);
    const body = await ok(call(role[1], 'POST', `/api/loss-incidents/${id}/reject`, { reason: 'Found before confirmation' }));
    expect(body.data).toMatchObject({ status: 'rejected', rejection_reason: 'Found before confirmation' });
    expect((await call(role[3], 'POST', `/api/loss-incidents/${id}/confirm`)).statusCode).toBe(409);
    expect((await getPad(padIds[1])).series.every((e) => e.status === 1)).toBe(true);
  });
});

describe('losses in transit and numbering', () => {
  it('when the courier of a Return reports one pad lost and it is confirmed, then the rest is accepted and the lost pad stays with the sender', async () => {
    await ok(call(holder, 'POST', '/api/create-return-invoice', { pads: [padIds[2], padIds[3]], assigned_user_id: courier.id }), 201);
    const returned = await latest(INVOICE_TYPE.RETURN);
    const res = await report(courier, [{ pad_id: padIds[2] }]);
    expect(res.statusCode, res.body).toBe(201);
    expect((await report(role[10], [{ pad_id: padIds[3] }])).statusCode).toBe(403);
    await ok(call(role[1], 'POST', `/api/loss-incidents/${res.json().data.id}/confirm`, { no_affidavit_reason: 'Affidavit to follow' }));
    const refused = await call(holder, 'POST', '/api/create-turnover-invoice', {
      pads: [padIds[2]],
      branch_id: headOfficeId,
      assigned_user_id: courier.id,
    });
    expect(refused.statusCode).toBe(409);
    await ok(call(role[8], 'POST', `/api/accept-invoice/${returned.id}`));
    const lostPad = await getPad(padIds[2]);
    expect(lostPad).toMatchObject({ holder_user_id: holder.id, locked_by_invoice_id: null });
    expect(lostPad.series.every((e) => e.status === 4)).toBe(true);
    expect((await getPad(padIds[3])).holder_user_id).toBeNull();
    await verified();
  });

  it('when the head office issues a pad with a lost number, then 409 names the number and the pad stays', async () => {
    const res = await report(role[3], [{ pad_id: padIds[6], from: 5301, to: 5302 }]);
    await ok(call(role[8], 'POST', `/api/loss-incidents/${res.json().data.id}/confirm`, { no_affidavit_reason: 'Affidavit to follow' }));
    const request = await ok(call(holder, 'POST', '/api/create-request-invoice', { route_id: routeId, pads: 1 }), 201);
    const issue = await call(role[3], 'POST', '/api/issue-invoice', {
      invoice_id: request.data.id,
      pads: [padIds[6]],
      assigned_user_id: courier.id,
      expected_return: 3,
    });
    expect(issue.statusCode).toBe(409);
    expect(issue.json().message).toBe(USAGE_MSG.lost(5301));
    expect((await getPad(padIds[6])).issuance_status_id).toBe(1);
    const available = (await ok(call(role[3], 'GET', `/api/available-pads?route_id=${routeId}&per_page=100`))).data.map(
      (p: { id: number }) => p.id,
    );
    expect(available).not.toContain(padIds[6]);
  });

  it('when 20 losses are reported in parallel, then their numbers are consecutive with no gap and no repeat', async () => {
    const before = (await ok(call(role[1], 'GET', '/api/loss-incidents?per_page=100'))).data.map(
      (r: { number: string }) => r.number,
    ) as string[];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => report(role[3], [{ pad_id: padIds[5], from: 5251 + i, to: 5251 + i }])),
    );
    for (const res of results) expect(res.statusCode, res.body).toBe(201);
    const seqs = results.map((res) => Number((res.json().data.number as string).slice(-4))).sort((a, b) => a - b);
    const start = before.length + 1;
    expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => start + i));
  });

  it('when the incidents are exported, then the CSV and .xlsx equal every page of the list, also for a status filter', async () => {
    const columns = incidentListColumns(t.ctx.config.timeZone);
    for (const url of ['/api/loss-incidents', '/api/loss-incidents?status=reported']) {
      const screen = await pagesAsCells(t, url, role[1].headers, columns);
      expect(screen.length).toBeGreaterThan(11);
      expect(await exportCells(t, url, role[1].headers, 'csv')).toEqual(screen);
      expect(await exportCells(t, url, role[1].headers, 'xlsx')).toEqual(screen);
    }
  });
});

describe('a loss report queued offline and sent with an Idempotency-Key', () => {
  const incidentsOf = (padId: number) =>
    t.db.select({ id: lossIncidentPads.incident_id }).from(lossIncidentPads).where(eq(lossIncidentPads.pad_id, padId));
  const keyRows = (key: string) => t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));

  it('when the same queued report arrives 5 times in parallel and once more later, then one incident is made with the phone time and every copy gets its answer', async () => {
    const key = `loss-${Math.random().toString(36).slice(2)}-queued`;
    const line = [{ pad_id: padIds[7], from: 5351, to: 5355 }];
    const phoneTime = { device_at: '2026-11-26T06:02:00.000Z' };
    const results = await Promise.all(Array.from({ length: 5 }, () => report(role[3], line, [], phoneTime, key)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(5).fill(201));
    for (const r of results) expect(r.json()).toEqual(results[0].json());
    const later = await report(role[3], line, [], phoneTime, key);
    expect(later.statusCode).toBe(201);
    expect(later.json()).toEqual(results[0].json());
    const made = await incidentsOf(padIds[7]);
    expect(made).toHaveLength(1);
    const [row] = await t.db.select().from(lossIncidents).where(eq(lossIncidents.id, made[0].id));
    expect(row.number).toBe(results[0].json().data.number);
    expect(row.device_at?.toISOString()).toBe(phoneTime.device_at);
    expect(row.reported_at.getTime()).toBeGreaterThan(row.device_at?.getTime() ?? Infinity);
    expect(await keyRows(key)).toEqual([expect.objectContaining({ user_id: role[3].id, status: 201, operation: 'loss-report' })]);
  });

  it('when a queued report is no longer valid (the numbers were reported meanwhile), then it is refused with the reason, nothing changes and no answer is kept', async () => {
    const before = await incidentsOf(padIds[7]);
    const [first] = await t.db.select().from(lossIncidents).where(eq(lossIncidents.id, before[0].id));
    const key = `loss-${Math.random().toString(36).slice(2)}-stale`;
    const res = await report(role[3], [{ pad_id: padIds[7], from: 5353, to: 5354 }], [], {}, key);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(INCIDENT_MSG.alreadyReported(5353, first.number));
    expect(await incidentsOf(padIds[7])).toEqual(before);
    expect(await keyRows(key)).toEqual([]);
  });

  it('when the phone time is not a date, then 422 names it and no incident is made', async () => {
    const res = await report(role[3], [{ pad_id: padIds[7], from: 5390, to: 5391 }], [], { device_at: 'yesterday' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.device_at).toEqual(['The device time must be an ISO date and time']);
    expect(await incidentsOf(padIds[7])).toHaveLength(1);
  });
});
