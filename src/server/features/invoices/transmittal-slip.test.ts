import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_TYPE } from '../../../shared/lookups.ts';
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
  it('when the slip of an Issued invoice is printed, then one page names the invoice, both ends, the pads, the courier and the signers', async () => {
    const { invoice, requester, courier, fromBranch, toBranch, pads } = await buildIssuedInvoice(t.db, { padCount: 2, padSize: 50 });
    const res = await t.app.inject({ method: 'GET', url: `/api/invoice-slip/${invoice.id}`, headers: custodian.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfToText(res.rawPayload);
    expect(text).toContain('Transmittal Slip');
    expect(text).toContain(`Issued invoice #${invoice.id}`);
    expect(text).toMatch(new RegExp(`From\\s+${fromBranch.name}\\s+To\\s+${toBranch.name}`));
    expect(text).toContain(`${courier.first_name} ${courier.last_name}`);
    expect(text).toContain(`${requester.first_name} ${requester.last_name}`);
    expect(text).toMatch(new RegExp(`${pads[0].series_from}-${pads[0].series_to}\\s+50`));
    expect(text).toMatch(/Total\s+2\s+100/);
    expect(text).toMatch(/Released by\s+Carried by\s+Received by/);
    expect(text.match(/Date: _+/g)).toHaveLength(3);
    expect(text.split('\f').filter((page) => page.trim() !== '')).toHaveLength(1);
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
