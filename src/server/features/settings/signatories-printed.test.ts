import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../../shared/lookups.ts';
import { pads } from '../../db/schema/pads.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedIn>>;
let custodian: Awaited<ReturnType<typeof signedIn>>;
let headOfficeId: number;

const URL = '/api/settings/operator-identity';
const OCEAN = {
  registered_name: 'Ocean Fast Ferries Inc.',
  trade_name: 'OceanJet',
  tin: '004512889',
  branch_code: '000',
  address: 'Pier 4, North Harbor, Tondo, Manila',
  signatories: { raaf: { name: 'Teresita M. Villanueva', position: 'Chief Accountant' } },
};

const send = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

const raafText = async () => {
  const res = await send('GET', `/api/raaf?month=2026-10&branch_id=${headOfficeId}&format=pdf`, admin.headers);
  expect(res.statusCode, res.body).toBe(200);
  return pdfToText(res.rawPayload);
};

const labelsText = async () => {
  const [pad] = await t.db.select({ id: pads.id }).from(pads);
  const res = await send('GET', `/api/pad-labels?ids=${pad.id}&size=a4`, custodian.headers);
  expect(res.statusCode, res.body).toBe(200);
  return pdfToText(res.rawPayload);
};

const badgeText = async () => {
  const link = await send('GET', `/api/user-badge/${custodian.user.id}`, admin.headers);
  expect(link.statusCode, link.body).toBe(200);
  return pdfToText((await send('GET', link.json().data.url as string, {})).rawPayload);
};

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedIn(t, { role_id: ROLE.ADMIN, branch_id: null });
  headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOfficeId });
  const route = await createRoute(t.db, { name: 'Batangas - Calapan' });
  t.ctx.ledgerClock = () => new Date('2026-10-05T02:00:00Z');
  const added = await send('POST', '/api/add-pad', custodian.headers, { route_id: route.id, series_from: 1, series_to: 50 });
  expect(added.statusCode, added.body).toBe(201);
});
afterAll(async () => {
  await t.close();
});

describe('the operator identity on signature lines, labels and badges', () => {
  it('when no identity is set, then labels and badges print "PadTrack" and the RAAF reviewer line stands over "Accounting"', async () => {
    expect(await labelsText()).toMatch(/^\s*PadTrack\b/);
    expect(await badgeText()).toMatch(/^\s*PadTrack\b/);
    expect(await raafText()).toMatch(/Accountable Office\s+Accounting/);
  });

  it('when the Admin sets it, then labels and badges print the trade name and the RAAF the signatory, name and position, as reviewer', async () => {
    expect((await send('PUT', URL, admin.headers, OCEAN)).statusCode).toBe(200);

    expect(await labelsText()).toMatch(/^\s*OceanJet\b/);
    expect(await badgeText()).toMatch(/^\s*OceanJet\b/);
    const raaf = await raafText();
    expect(raaf).toMatch(/Head Office\s+Teresita M\. Villanueva/);
    expect(raaf).toMatch(/Accountable Office\s+Chief Accountant/);
    expect(raaf).toContain('Reviewed and noted by / Date');
  });

  it('when a RAAF is certified and the signatory then changes, then the certified copy keeps its signatory and a new download prints the new one', async () => {
    const certify = await send('POST', '/api/raaf/certify', admin.headers, { month: '2026-10', branch_id: headOfficeId });
    expect(certify.statusCode, certify.body).toBe(201);
    const pdfUrl = certify.json().data.pdf_url as string;

    const changed = { raaf: { name: 'Lorna S. Bautista', position: 'Comptroller' } };
    expect((await send('PUT', URL, admin.headers, { ...OCEAN, signatories: changed })).statusCode).toBe(200);
    const certified = pdfToText((await send('GET', pdfUrl, {})).rawPayload);
    expect(certified).toMatch(/Teresita M\. Villanueva[\s\S]*Chief Accountant/);
    expect(certified).not.toContain('Lorna S. Bautista');
    expect(await raafText()).toMatch(/Lorna S\. Bautista[\s\S]*Comptroller/);
  });
});
