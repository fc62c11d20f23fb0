import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, desc, eq } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import { INCIDENT_MSG } from '../../../shared/schemas/incidents.ts';
import { USAGE_MSG } from '../../../shared/schemas/pads.ts';
import { lossIncidents } from '../../db/schema/incidents.ts';
import { invoicePads, invoices } from '../../db/schema/invoices.ts';
import { padEvents } from '../../db/schema/ledger.ts';
import { pads } from '../../db/schema/pads.ts';
import { operatorIdentity } from '../../db/schema/settings.ts';
import { createBranch, createRoute, signedIn, storedPadRows } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { expectLedgerVerified } from '../../test/ledger.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let headOfficeId: number;
let admin: Who;
let custodian: Who;
let accounting: Who;
let holder: Who;
let courier: Who;
let receiver: Who;
let padIds: number[];
let padNumbers: number[];

const { call, ok } = apiCalls(() => t);
const ATP = '0412AU20260000012';

const person = async (values: Parameters<typeof signedIn>[1]): Promise<Who> => {
  const { user, headers } = await signedIn(t, values);
  return { id: user.id, headers };
};

const reportLoss = (who: Who, line: { pad_id: number; from?: number; to?: number }) =>
  ok(
    call(who, 'POST', '/api/loss-incidents', {
      pads: [line],
      place: 'Calapan pier, gangway 2',
      occurred_at: '2026-11-20T08:30:00+08:00',
      circumstances: 'The bag with the booklet fell between the ship and the pier.',
    }),
    201,
  ) as Promise<{ data: { id: number; number: string } }>;

const noticeText = async (id: number) => {
  const res = await call(admin, 'GET', `/api/loss-incidents/${id}/notice`);
  expect(res.headers['content-type']).toBe('application/pdf');
  return pdfToText(res.rawPayload);
};

const flat = (text: string) => text.replace(/\s+/g, ' ');

async function latest(typeId: number) {
  const [row] = await t.db.select().from(invoices).where(eq(invoices.invoice_type_id, typeId)).orderBy(desc(invoices.id)).limit(1);
  return row;
}

beforeAll(async () => {
  t = await createTestApp();
  headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  const calapan = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  admin = await person({ role_id: 1, branch_id: headOfficeId });
  custodian = await person({ role_id: 3, branch_id: headOfficeId });
  accounting = await person({ role_id: 8, branch_id: headOfficeId, first_name: 'Alma', last_name: 'Accounting' });
  holder = await person({ role_id: 7, branch_id: calapan, first_name: 'Ana', last_name: 'Cruz' });
  courier = await person({ role_id: 11, branch_id: calapan, first_name: 'Mario', last_name: 'Messenger' });
  receiver = await person({ role_id: 4, branch_id: headOfficeId, first_name: 'Rita', last_name: 'Receiver' });
  const routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  await ok(
    call(admin, 'POST', '/api/registered-series', {
      route_id: routeId,
      branch_id: calapan,
      form_type: 'invoice',
      atp_number: ATP,
      atp_date: '2026-01-10',
      printer: 'Pier Printers Inc.',
      series_from: 7001,
      series_to: 7200,
    }),
    201,
  );
  await ok(call(custodian, 'POST', '/api/add-pad', { route_id: routeId, series_from: 7001, series_to: 7200, pad_size: 50 }), 201);
  const made = await storedPadRows(t.db).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number));
  padIds = made.map((pad) => pad.id);
  padNumbers = made.map((pad) => pad.number);
  const request = await ok(call(holder, 'POST', '/api/create-request-invoice', { route_id: routeId, pads: 3 }), 201);
  await ok(
    call(custodian, 'POST', '/api/issue-invoice', {
      invoice_id: request.data.id,
      pads: padIds.slice(0, 3),
      assigned_user_id: courier.id,
      expected_return: 3,
    }),
    201,
  );
  await ok(call(holder, 'POST', `/api/accept-invoice/${(await latest(INVOICE_TYPE.ISSUED)).id}`));
  await t.db.insert(operatorIdentity).values({
    registered_name: 'Ocean Fast Ferries Inc.',
    tin: '004-512-889',
    branch_code: '000',
    address: 'Pier 4, North Harbor, Manila',
    signatories: { notice_of_loss: { name: 'Teresa Signatory', position: 'Head of Accounting' } },
  });
});
afterAll(async () => {
  await t.close();
});

describe('confirming a loss without an affidavit', () => {
  it('when neither an affidavit nor a reason is given, then 422 asks for the reason and nothing is written off', async () => {
    const { data } = await reportLoss(holder, { pad_id: padIds[0], from: 7001, to: 7010 });
    for (const body of [undefined, {}, { no_affidavit_reason: '   ' }]) {
      const res = await call(accounting, 'POST', `/api/loss-incidents/${data.id}/confirm`, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ no_affidavit_reason: [INCIDENT_MSG.noAffidavitReasonRequired] });
    }
    const [stored] = await t.db.select().from(lossIncidents).where(eq(lossIncidents.id, data.id));
    expect(stored).toMatchObject({ status: 'reported', no_affidavit_reason: null, notice_pdf: null });
    expect(await t.db.select().from(padEvents).where(eq(padEvents.incident_id, data.id))).toEqual([]);
  });

  it('when the approver gives "Affidavit to follow", then it is stored, answered and printed with the ATP, the letterhead and the signatories', async () => {
    const [{ id }] = await t.db.select({ id: lossIncidents.id }).from(lossIncidents).where(eq(lossIncidents.status, 'reported'));
    const body = await ok(call(accounting, 'POST', `/api/loss-incidents/${id}/confirm`, { no_affidavit_reason: 'Affidavit to follow' }));
    expect(body.data).toMatchObject({ status: 'confirmed', no_affidavit_reason: 'Affidavit to follow', attachments: [] });
    const [stored] = await t.db.select().from(lossIncidents).where(eq(lossIncidents.id, id));
    expect(stored.no_affidavit_reason).toBe('Affidavit to follow');
    const text = await noticeText(id);
    const zone = `(${t.ctx.config.timeZone})`;
    for (const element of [
      'Ocean Fast Ferries Inc.',
      'TIN 004-512-889-000',
      `Notice No. ${body.data.number}`,
      '7001 to 7010 10',
      `ATP ${ATP}`,
      'Papers attached No papers attached.',
      'No affidavit of loss attached. Reason given on confirmation: Affidavit to follow',
      'Reported by Loss confirmed by For the operator',
      'Ana Cruz Alma Accounting Teresa Signatory',
      'Ticketing Officer Accounting Head of Accounting',
      `About 20 Nov 2026 08:30 ${zone}`,
    ]) {
      expect(flat(text)).toContain(element);
    }
    expect(flat(text)).toMatch(/10 Jan 2026/);
    expect(text.match(/\d{2} \w{3} \d{4} \d{2}:\d{2}(?! \()/g) ?? []).toEqual([]);
  });
});

describe('a pad lost on the way', () => {
  let turnover: typeof invoices.$inferSelect;
  let incident: { id: number; number: string };

  it('when the courier of a Turnover reports a whole pad lost and it is confirmed, then the invoice no longer carries it and the notice names the invoice', async () => {
    await ok(
      call(holder, 'POST', '/api/create-turnover-invoice', {
        pads: [padIds[1], padIds[2]],
        branch_id: headOfficeId,
        assigned_user_id: courier.id,
      }),
      201,
    );
    turnover = await latest(INVOICE_TYPE.TURNOVER);
    incident = (await reportLoss(courier, { pad_id: padIds[1] })).data;
    await ok(call(accounting, 'POST', `/api/loss-incidents/${incident.id}/confirm`, { no_affidavit_reason: 'Affidavit to follow' }));

    const [lostPad] = await storedPadRows(t.db).where(eq(pads.id, padIds[1]));
    expect(lostPad).toMatchObject({ locked_by_invoice_id: null, holder_user_id: holder.id, series_status: '4'.repeat(50) });
    const links = await t.db.select().from(invoicePads).where(eq(invoicePads.invoice_id, turnover.id)).orderBy(asc(invoicePads.pad_id));
    expect(links).toEqual([
      expect.objectContaining({ pad_id: padIds[1], lost_incident_id: incident.id, left_at: expect.any(Date) }),
      expect.objectContaining({ pad_id: padIds[2], lost_incident_id: null, left_at: null }),
    ]);
    const [stillOnTheWay] = await t.db.select().from(invoices).where(eq(invoices.id, turnover.id));
    expect(stillOnTheWay).toMatchObject({ invoice_status_id: INVOICE_STATUS.IN_TRANSIT, pad_count: 1 });
    const carried = await ok(call(admin, 'GET', `/api/pads-belong-to-invoice/${turnover.id}`));
    expect(carried.data.map((pad: { id: number }) => pad.id)).toEqual([padIds[2]]);
    const detail = await ok(call(admin, 'GET', `/api/get-invoice/${turnover.id}`));
    expect(detail.data.pads).toBe(1);
    expect(detail.data.activities.map((a: { description: string }) => a.description)).toContain(
      `Pad ${padNumbers[1]} lost on the way (${incident.number}): this invoice no longer carries it; the rest can still be accepted.`,
    );

    const slip = flat(pdfToText((await call(admin, 'GET', `/api/invoice-slip/${turnover.id}`)).rawPayload));
    expect(slip).toContain(`Pad ${padNumbers[1]} (7051-7100, Batangas - Calapan) was lost on the way and left this invoice on`);
    expect(slip).toContain('it is not carried and cannot be accepted.');
    expect(slip).toMatch(/Total 1 50 /);

    const text = flat(await noticeText(incident.id));
    expect(text).toContain(
      `Pad ${padNumbers[1]} was in transit on Turnover #${turnover.id} from Calapan Terminal to Head Office, carried by Mario Messenger.`,
    );
    expect(text).toContain('That invoice no longer carries it: the rest of the invoice can be accepted, this pad cannot.');
    expect(text).toMatch(new RegExp(`7051 to 7100 50 ATP ${ATP}.* Turnover #${turnover.id}`));
    await expectLedgerVerified(t.db);
  });

  it('when the rest of the Turnover is accepted, then only the pad still carried moves; the lost pad stays, unlocked, with the sender', async () => {
    const accepted = await ok(call(receiver, 'POST', `/api/accept-invoice/${turnover.id}`));
    expect(accepted.data.invoice_status_id).toBe(INVOICE_STATUS.COMPLETED);
    const [kept] = await storedPadRows(t.db).where(eq(pads.id, padIds[1]));
    const [moved] = await storedPadRows(t.db).where(eq(pads.id, padIds[2]));
    expect(kept).toMatchObject({ holder_user_id: holder.id, locked_by_invoice_id: null });
    expect(moved).toMatchObject({ holder_user_id: receiver.id, holder_branch_id: headOfficeId, locked_by_invoice_id: null });
    const transfers = await t.db
      .select({ pad_id: padEvents.pad_id, kind: padEvents.kind })
      .from(padEvents)
      .where(and(eq(padEvents.invoice_id, turnover.id)));
    expect(transfers.map((e) => e.pad_id)).not.toContain(padIds[1]);
    expect(transfers).toEqual(
      expect.arrayContaining([
        { pad_id: padIds[2], kind: 'transfer_out' },
        { pad_id: padIds[2], kind: 'transfer_in' },
      ]),
    );
    const again = await call(holder, 'POST', '/api/create-turnover-invoice', {
      pads: [padIds[1]],
      branch_id: headOfficeId,
      assigned_user_id: courier.id,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(USAGE_MSG.lost(7051));
    await expectLedgerVerified(t.db);
  });
});
