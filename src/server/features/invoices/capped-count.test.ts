import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import { COUNT_CAP, EXACT_COUNT } from '../../../shared/schemas/common.ts';
import { buildInvoice, createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let admin: { authorization: string };
let routeId: number;
let otherRouteId: number;

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const signed = await signedIn(t, { role_id: 1, branch_id: headOffice.id });
  admin = signed.headers;
  routeId = (await createRoute(t.db, { name: 'Busy Route' })).id;
  otherRouteId = (await createRoute(t.db, { name: 'Quiet Route' })).id;
  const seed = await buildInvoice(t.db, {
    user_id: signed.user.id,
    type: INVOICE_TYPE.REQUEST,
    status: INVOICE_STATUS.PENDING,
    route_id: routeId,
  });
  await t.db.execute(sql`insert into invoices (invoice_type_id, invoice_status_id, user_id, created_by, route_id, pad_count, created_at)
    select invoice_type_id, invoice_status_id, user_id, created_by, route_id, pad_count, created_at - make_interval(secs => g)
    from invoices, generate_series(1, ${COUNT_CAP + 4}) g where id = ${seed.id}`);
  await t.db.execute(sql`insert into invoices (invoice_type_id, invoice_status_id, user_id, created_by, route_id, pad_count, created_at)
    select invoice_type_id, ${INVOICE_STATUS.ISSUED}, user_id, created_by, route_id, pad_count, created_at - make_interval(secs => g)
    from invoices, generate_series(1, ${EXACT_COUNT + 500}) g where id = ${seed.id}`);
  await buildInvoice(t.db, {
    user_id: signed.user.id,
    type: INVOICE_TYPE.TURNOVER,
    status: INVOICE_STATUS.COMPLETED,
    route_id: otherRouteId,
  });
  await t.db.execute(sql`analyze invoices`);
});
afterAll(async () => {
  await t.close();
});

const list = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/get-invoices?${query}`, headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    data: Array<{ id: number }>;
    current_page: number;
    last_page: number;
    per_page: number;
    total: number;
    total_capped: boolean;
    total_is_estimate: boolean;
  };
};

describe('counts up to a bound', () => {
  it('when more invoices match than the bound, then the total is the bound with total_capped and the pages run up to it', async () => {
    const first = await list('page=1&per_page=10');
    expect(first).toMatchObject({ total: COUNT_CAP, total_capped: true, total_is_estimate: true, last_page: COUNT_CAP / 10, per_page: 10 });
    expect(first.data).toHaveLength(10);
    const last = await list(`page=${COUNT_CAP / 10}&per_page=10`);
    expect(last).toMatchObject({ current_page: COUNT_CAP / 10, last_page: COUNT_CAP / 10, total_capped: true });
    expect(last.data).toHaveLength(10);
    expect(new Set([...first.data, ...last.data].map((row) => row.id)).size).toBe(20);
  });

  it('when a filter lets fewer through than the bound, then the total is exact and not capped', async () => {
    const few = await list(`page=1&per_page=10&invoice_type=${INVOICE_TYPE.TURNOVER}`);
    expect(few.total).toBe(1);
    expect(few.last_page).toBe(1);
    expect(few.total_capped).toBe(false);
    expect(few.total_is_estimate).toBe(false);
  });

  it('when more match than are counted exactly but fewer than the bound, then the total is the estimate, flagged, and pages run up to it', async () => {
    const issued = await list(`page=1&per_page=10&invoice_status=${INVOICE_STATUS.ISSUED}`);
    expect(issued).toMatchObject({ total_capped: false, total_is_estimate: true });
    expect(issued.total).toBeGreaterThan(EXACT_COUNT);
    expect(Math.abs(issued.total - (EXACT_COUNT + 500))).toBeLessThan(200);
    expect(issued.last_page).toBe(Math.ceil(issued.total / 10));
  });

  it('when a page past the exact count is read, then the total is never below the rows up to it', async () => {
    const late = await list(`page=140&per_page=10&invoice_status=${INVOICE_STATUS.ISSUED}`);
    expect(late.data).toHaveLength(10);
    expect(late.total).toBeGreaterThanOrEqual(1_400);
  });
});
