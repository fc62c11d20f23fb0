import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import { INVOICE_MSG } from '../../../shared/schemas/invoices.ts';
import { buildInvoice, buildIssuedInvoice, signedIn } from '../../test/factories.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let custodian: { headers: { authorization: string } };
let stranger: { headers: { authorization: string } };

beforeAll(async () => {
  t = await createTestApp();
  custodian = await signedIn(t, { role_id: 3 });
  stranger = await signedIn(t, { role_id: 7 });
});
afterAll(async () => {
  await t.close();
});

describe('transmittal slip', () => {
  it('when the slip of an Issued invoice is printed, then one page names the invoice, both ends, the pads and counts in their columns, and the people by name and position', async () => {
    const {
      invoice,
      requester,
      courier,
      custodian: issuer,
      fromBranch,
      toBranch,
      pads,
    } = await buildIssuedInvoice(t.db, {
      padCount: 2,
      padSize: 50,
    });
    const res = await t.app.inject({ method: 'GET', url: `/api/invoice-slip/${invoice.id}`, headers: custodian.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfToText(res.rawPayload);
    expect(text).toContain('Transmittal Slip');
    expect(text).toContain(`Issued invoice #${invoice.id}`);
    expect(text).toMatch(new RegExp(`From\\s+${fromBranch.name}\\s+To\\s+${toBranch.name}`));
    expect(text).toMatch(/Route\s+Pad no\.\s+Series range\s+Pads\s+Receipts/);
    expect(text).toMatch(new RegExp(`${pads[0].number}\\s+${pads[0].series_from}-${pads[0].series_to}\\s+1\\s+50`));
    expect(text).toMatch(/Total\s+2\s+100/);
    expect(text).toMatch(/Released by\s+Carried by\s+Received by/);
    const names = [issuer, courier, requester].map((who) => `${who.first_name} ${who.last_name}`);
    expect(text).toMatch(new RegExp(names.join('\\s+')));
    expect(text).toMatch(new RegExp(`Custodian, ${fromBranch.name}\\s+Driver\\s+Branch Head, ${toBranch.name}`));
    const zone = t.ctx.config.timeZone.replace('/', '\\/');
    expect(text).toMatch(new RegExp(`Written\\s+\\d{2} \\w{3} \\d{4} \\d{2}:\\d{2} \\(${zone}\\)`));
    expect(text.match(new RegExp(`\\d{2}:\\d{2} \\(${zone}\\)`, 'g'))).toHaveLength(4);
    expect(text.match(/\d{2} \w{3} \d{4} \d{2}:\d{2}(?! \()/g) ?? []).toEqual([]);
    expect(text.split('\f').filter((page) => page.trim() !== '')).toHaveLength(1);
  });

  it('when a Turnover is still on its way, then the receiver is named by office with lines to write the name and the time', async () => {
    const { invoice, toBranch } = await buildIssuedInvoice(t.db, {
      type: INVOICE_TYPE.TURNOVER,
      status: INVOICE_STATUS.IN_TRANSIT,
      padCount: 1,
    });
    const res = await t.app.inject({ method: 'GET', url: `/api/invoice-slip/${invoice.id}`, headers: custodian.headers });
    const text = pdfToText(res.rawPayload);
    expect(text.replace(/\s+/g, ' ')).toContain(`Receiving officer, ${toBranch.name}`);
    expect(text).toContain('Name: ____');
    expect(text.match(/Date and time: _+/g)).toHaveLength(2);
  });

  it('when the invoice is a Request, or not visible to the caller, then 409 or 404', async () => {
    const { requester } = await buildIssuedInvoice(t.db, { padCount: 1 });
    const request = await buildInvoice(t.db, { user_id: requester.id, type: INVOICE_TYPE.REQUEST });
    const res = await t.app.inject({ method: 'GET', url: `/api/invoice-slip/${request.id}`, headers: custodian.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(INVOICE_MSG.slipOnlyTransfers);
    const { invoice } = await buildIssuedInvoice(t.db, { padCount: 1 });
    expect((await t.app.inject({ method: 'GET', url: `/api/invoice-slip/${invoice.id}`, headers: stranger.headers })).statusCode).toBe(404);
  });
});
