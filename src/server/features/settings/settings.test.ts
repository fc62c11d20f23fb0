import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../../shared/lookups.ts';
import { operatorIdentity as identityTable } from '../../db/schema/settings.ts';
import { qrPng } from '../../lib/qr.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { frozenIdentity } from './lifecycle.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
let headOfficeId: number;

const URL = '/api/settings/operator-identity';
const OCEAN = {
  registered_name: 'Ocean Fast Ferries Inc.',
  trade_name: 'OceanJet',
  tin: '004512889',
  branch_code: '000',
  address: 'Pier 4, North Harbor, Tondo, Manila',
  signatories: {
    raaf: { name: 'Maria Santos', position: 'Chief Accountant' },
    report: { name: '', position: '' },
  },
};

const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t, { role_id: ROLE.ADMIN, branch_id: null });
  headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  const custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOfficeId });
  const route = await createRoute(t.db, { name: 'Batangas - Calapan' });
  t.ctx.ledgerClock = () => new Date('2026-10-05T02:00:00Z');
  const added = await send('POST', '/api/add-pad', custodian.headers, { route_id: route.id, series_from: 1, series_to: 50 });
  expect(added.statusCode, added.body).toBe(201);
});
afterAll(async () => {
  await t.close();
});

describe('operator identity', () => {
  it('when nothing is set, then every field is null and a RAAF prints the application name', async () => {
    const res = await send('GET', URL, admin.headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ registered_name: null, tin: null, logo: null, signatories: {} });
    const pdf = await send('GET', `/api/raaf?month=2026-10&branch_id=${headOfficeId}&format=pdf`, admin.headers);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdfToText(pdf.rawPayload)).toContain('PadTrack');
  });

  it('when anyone but the Admin asks, then 403, IT Admin included', async () => {
    for (const role_id of [ROLE.IT_ADMIN, ROLE.CUSTODIAN, ROLE.ACCOUNTING, ROLE.AUDITOR]) {
      const other = await signedIn(t, { role_id, branch_id: headOfficeId });
      expect((await send('GET', URL, other.headers)).statusCode).toBe(403);
      expect((await send('PUT', URL, other.headers, OCEAN)).statusCode).toBe(403);
    }
  });

  it('when the logo comes before the identity, then 409 asks for the identity first', async () => {
    const png = (await qrPng('logo')).toString('base64');
    const res = await send('PUT', `${URL}/logo`, admin.headers, { png });
    expect(res.statusCode, res.body).toBe(409);
  });

  it('when the Admin saves it, then the answer and the stored row hold it, the TIN formatted and blank signatories left out', async () => {
    const res = await send('PUT', URL, admin.headers, OCEAN);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Operator identity saved',
      data: {
        registered_name: 'Ocean Fast Ferries Inc.',
        tin: '004-512-889',
        branch_code: '000',
        signatories: { raaf: { name: 'Maria Santos' } },
      },
    });
    expect(res.json().data.signatories.report).toBeUndefined();
    const [row] = await t.db.select().from(identityTable);
    expect(row).toMatchObject({ id: 1, registered_name: 'Ocean Fast Ferries Inc.', tin: '004-512-889', updated_by: admin.user.id });
  });

  it('when the TIN, branch code or a half signatory is wrong, then 422 names the field', async () => {
    const res = await send('PUT', URL, admin.headers, {
      ...OCEAN,
      tin: '12-34',
      branch_code: 'AB',
      signatories: { raaf: { name: 'Maria', position: '' } },
    });
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors as Record<string, string[]>;
    expect(errors.tin).toEqual(['TIN must be nine digits, as 004-512-889']);
    expect(errors.branch_code).toEqual(['Branch code must be 3 to 5 digits, as 000']);
    expect(errors['signatories.raaf.position']).toEqual(['Give both the name and the position of the signatory, or neither.']);
  });

  it('when the logo is not a PNG, is too large or is broken, then 422 and the stored logo stays', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64');
    const broken = Buffer.concat([(await qrPng('x')).subarray(0, 40), Buffer.alloc(40)]).toString('base64');
    const huge = Buffer.concat([await qrPng('x'), Buffer.alloc(300 * 1024)]).toString('base64');
    for (const [png, message] of [
      [svg, 'The logo must be a PNG image (an SVG is converted to PNG before it is sent).'],
      [broken, 'The logo could not be read as a PNG image.'],
      [huge, 'The logo may not be larger than 256 KB.'],
    ]) {
      const res = await send('PUT', `${URL}/logo`, admin.headers, { png });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.png).toEqual([message]);
    }
    const [row] = await t.db.select().from(identityTable);
    expect(row.logo).toBeNull();
  });

  it('when a PNG logo is uploaded, then it is stored, shown back as a data URL and printed; removing it clears it', async () => {
    const png = await qrPng('Ocean Fast Ferries');
    const res = await send('PUT', `${URL}/logo`, admin.headers, { png: `data:image/png;base64,${png.toString('base64')}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.logo).toBe(`data:image/png;base64,${png.toString('base64')}`);
    const [row] = await t.db.select().from(identityTable);
    expect(row.logo?.equals(png)).toBe(true);
    const pdf = await send('GET', `/api/raaf?month=2026-10&branch_id=${headOfficeId}&format=pdf`, admin.headers);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.rawPayload.toString('latin1')).toContain('/Subtype /Image');
    const removed = await send('DELETE', `${URL}/logo`, admin.headers);
    expect(removed.json().data.logo).toBeNull();
  });

  it('when a final document is first printed and the identity then changes, then it keeps printing the identity of its first print', async () => {
    expect((await send('PUT', URL, admin.headers, OCEAN)).statusCode).toBe(200);
    expect((await frozenIdentity(t.db, 'count_certificate', 7)).registeredName).toBe('Ocean Fast Ferries Inc.');
    expect((await send('PUT', URL, admin.headers, { ...OCEAN, registered_name: 'Later Name Corp.' })).statusCode).toBe(200);
    expect((await frozenIdentity(t.db, 'count_certificate', 7)).registeredName).toBe('Ocean Fast Ferries Inc.');
    expect((await frozenIdentity(t.db, 'count_certificate', 8)).registeredName).toBe('Later Name Corp.');
    expect((await send('PUT', URL, admin.headers, OCEAN)).statusCode).toBe(200);
  });

  it('when a RAAF is certified and the identity then changes, then the certified copy keeps the old name and a new download prints the new one', async () => {
    const certify = await send('POST', '/api/raaf/certify', admin.headers, { month: '2026-10', branch_id: headOfficeId });
    expect(certify.statusCode, certify.body).toBe(201);
    const pdfUrl = certify.json().data.pdf_url as string;
    const before = pdfToText((await send('GET', pdfUrl, {})).rawPayload);
    expect(before).toContain('Ocean Fast Ferries Inc.');
    expect(before).toContain('TIN 004-512-889-000');

    expect((await send('PUT', URL, admin.headers, { ...OCEAN, registered_name: 'Blue Water Shipping Corp.' })).statusCode).toBe(200);
    const again = pdfToText((await send('GET', pdfUrl, {})).rawPayload);
    expect(again).toContain('Ocean Fast Ferries Inc.');
    expect(again).not.toContain('Blue Water Shipping Corp.');
    const live = await send('GET', `/api/raaf?month=2026-10&branch_id=${headOfficeId}&format=pdf`, admin.headers);
    expect(pdfToText(live.rawPayload)).toContain('Blue Water Shipping Corp.');
  });
});
