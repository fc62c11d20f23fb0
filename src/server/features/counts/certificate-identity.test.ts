import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, desc, eq } from 'drizzle-orm';
import { INVOICE_TYPE, ROLE } from '../../../shared/lookups.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { pads } from '../../db/schema/pads.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { apiCalls } from '../../test/inject.ts';
import { pdfToText } from '../../test/pdf.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

interface Who {
  id: number;
  headers: { authorization: string };
}

let t: TestApp;
let admin: Who;
let counter: Who;
let holder: Who;
let padIds: number[];

const { call, ok } = apiCalls(() => t);

const identity = (registered_name: string, signatory: string) => ({
  registered_name,
  tin: '004-512-889',
  branch_code: '000',
  address: 'Pier 8, North Harbor, Tondo, Manila',
  signatories: { count_certificate: { name: signatory, position: 'Property Custodian' } },
});

const person = async (values: Parameters<typeof signedIn>[1]): Promise<Who> => {
  const { user, headers } = await signedIn(t, values);
  return { id: user.id, headers };
};

const certificateText = async (countId: number) => {
  const res = await call(holder, 'GET', `/api/counts/${countId}/certificate`);
  expect(res.statusCode, res.body).toBe(200);
  return pdfToText(res.rawPayload).replace(/\s+/g, ' ');
};

beforeAll(async () => {
  t = await createTestApp();
  const headOfficeId = (await createBranch(t.db, { name: 'Head Office' })).id;
  t.ctx.config.headOfficeBranchId = headOfficeId;
  const calapan = (await createBranch(t.db, { name: 'Calapan Terminal' })).id;
  admin = await person({ role_id: ROLE.ADMIN, branch_id: headOfficeId });
  counter = await person({ role_id: ROLE.CUSTODIAN, branch_id: headOfficeId });
  holder = await person({ role_id: ROLE.TICKETING_OFFICER, branch_id: calapan, first_name: 'Ana', last_name: 'Cruz' });
  const courier = await person({ role_id: ROLE.DRIVER, branch_id: headOfficeId });
  const routeId = (await createRoute(t.db, { name: 'Batangas - Calapan' })).id;
  await ok(call(counter, 'POST', '/api/add-pad', { route_id: routeId, series_from: 1001, series_to: 1100, pad_size: 50 }), 201);
  padIds = (await t.db.select({ id: pads.id }).from(pads).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number))).map((p) => p.id);
  const request = await ok(call(holder, 'POST', '/api/create-request-invoice', { route_id: routeId, pads: 2 }), 201);
  await ok(
    call(counter, 'POST', '/api/issue-invoice', {
      invoice_id: request.data.id,
      pads: padIds,
      assigned_user_id: courier.id,
      expected_return: 3,
    }),
    201,
  );
  const [issued] = await t.db
    .select()
    .from(invoices)
    .where(eq(invoices.invoice_type_id, INVOICE_TYPE.ISSUED))
    .orderBy(desc(invoices.id))
    .limit(1);
  await ok(call(holder, 'POST', `/api/accept-invoice/${issued.id}`));
  await ok(call(admin, 'PUT', '/api/settings/operator-identity', identity('Ocean Fast Ferries Inc.', 'Lorna S. Bautista')));
});
afterAll(async () => {
  await t.close();
});

describe('the count certificate', () => {
  let countId: number;

  it('when a pad is not yet scanned, then the certificate says so as the count screen does; after End scan it reads Missing', async () => {
    countId = (await ok(call(counter, 'POST', '/api/counts', { user_id: holder.id }), 201)).data.id;
    await ok(call(counter, 'POST', `/api/counts/${countId}/items`, { pad_id: padIds[0], first_unused: 1001 }));
    const open = await certificateText(countId);
    expect(open).toMatch(/1051-1100 Not yet scanned/);
    expect(open).not.toContain('Not found');
    await ok(call(counter, 'POST', `/api/counts/${countId}/end-scan`));
    expect(await certificateText(countId)).toMatch(/1051-1100 Missing/);
  });

  it('when the count is closed and the operator identity then changes, then the certificate keeps the name it had at closing', async () => {
    const [missing] = (await ok(call(counter, 'GET', `/api/counts/${countId}/variances`))).data as Array<{ id: number }>;
    await ok(
      call(counter, 'POST', `/api/counts/${countId}/variances/${missing.id}/resolve`, { action: 'accept', reason: 'in the office safe' }),
    );
    await ok(call(holder, 'POST', `/api/counts/${countId}/sign-off`, {}));
    await ok(call(counter, 'POST', `/api/counts/${countId}/close`));
    await ok(call(admin, 'PUT', '/api/settings/operator-identity', identity('Renamed Shipping Corporation', 'Pedro Q. Newname')));
    const closed = await certificateText(countId);
    expect(closed).toContain('Ocean Fast Ferries Inc.');
    expect(closed).not.toContain('Renamed Shipping Corporation');
    expect(closed).toContain('Physical Count Certificate');
  });
});
