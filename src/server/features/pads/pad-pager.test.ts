import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { pads } from '../../db/schema/pads.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

type Headers = { authorization: string };
let t: TestApp;
let headers: Headers;
let routeA: number;
let routeB: number;

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  ({ headers } = await signedIn(t, { role_id: 1, branch_id: headOffice.id }));
  routeA = (await createRoute(t.db)).id;
  routeB = (await createRoute(t.db)).id;
});
afterAll(async () => {
  await t.close();
});

async function generate(routeId: number, from: number, count: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/add-pad',
    headers,
    payload: { route_id: routeId, series_from: from, series_to: from + count - 1, pad_size: 1 },
  });
  expect(res.statusCode).toBe(201);
}

async function storedIds(routeId?: number): Promise<number[]> {
  const rows = await t.db
    .select({ id: pads.id })
    .from(pads)
    .where(routeId ? eq(pads.route_id, routeId) : undefined)
    .orderBy(desc(pads.id));
  return rows.map((r) => r.id);
}

/** Every page of get-pads at this page size, checked against the stored pads newest first. */
async function expectEveryPage(perPage: number, routeId?: number) {
  const expected = await storedIds(routeId);
  const lastPage = Math.max(1, Math.ceil(expected.length / perPage));
  for (let page = 1; page <= lastPage + 1; page += 1) {
    const route = routeId ? `&route=${routeId}` : '';
    const res = await t.app.inject({ method: 'GET', url: `/api/get-pads?page=${page}&per_page=${perPage}${route}`, headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect({ page, ids: body.data.map((p: { id: number }) => p.id), total: body.total, last_page: body.last_page }).toEqual({
      page,
      ids: expected.slice((page - 1) * perPage, page * perPage),
      total: expected.length,
      last_page: lastPage,
    });
  }
}

describe('pad pager', () => {
  it('when pads of two routes span several id blocks with gaps, then every page, total and last_page match the stored pads', async () => {
    await generate(routeA, 1, 1500);
    await generate(routeB, 1, 800);
    await generate(routeA, 5001, 600);
    const ids = await storedIds();
    const lowest = ids[ids.length - 1];
    const gone = [1023, 1024, 1025, 2047, 2048, ...Array.from({ length: 12 }, (_, i) => 1100 + i)].map((n) => lowest - 1 + n);
    for (const id of gone) {
      const res = await t.app.inject({ method: 'DELETE', url: `/api/delete-pad/${id}`, headers });
      expect(res.statusCode).toBe(200);
    }

    for (const perPage of [100, 37]) {
      await expectEveryPage(perPage);
      await expectEveryPage(perPage, routeA);
      await expectEveryPage(perPage, routeB);
    }
  });

  it('when pads are added after deletions or moved to another route in the database, then the pages still match', async () => {
    await generate(routeB, 9001, 1100);
    await t.db.execute(
      sql`update pads set route_id = ${routeA}, number = number + 100000 where id in (select id from pads where route_id = ${routeB} order by id desc limit 5)`,
    );

    await expectEveryPage(100);
    await expectEveryPage(100, routeA);
    await expectEveryPage(100, routeB);
  });

  it('when the page is far past the end, then no pads and the exact total', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/get-pads?page=100000', headers });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: [], current_page: 100000, total: (await storedIds()).length });
  });
});
