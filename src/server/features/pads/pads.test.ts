import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE, ISSUANCE_STATUS, PAD_STATUS } from '../../../shared/lookups.ts';
import { MSG } from '../../../shared/messages.ts';
import { PAD_MSG } from '../../../shared/schemas/pads.ts';
import { invoicePads, invoices } from '../../db/schema/invoices.ts';
import { padCustody, pads } from '../../db/schema/pads.ts';
import { createBranch, createRoute, signedIn, storedPadRows } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

type Headers = { authorization: string };
let t: TestApp;
let headOfficeId: number;
const as: Record<number, { id: number; headers: Headers }> = {};

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  headOfficeId = headOffice.id;
  t.ctx.config.headOfficeBranchId = headOffice.id;
  for (const role of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]) {
    const { user, headers } = await signedIn(t, { role_id: role, branch_id: headOffice.id });
    as[role] = { id: user.id, headers };
  }
});
afterAll(async () => {
  await t.close();
});

const addPad = (payload: Record<string, unknown>, role = 3) =>
  t.app.inject({ method: 'POST', url: '/api/add-pad', headers: as[role].headers, payload });

const updatePad = (id: number, payload: Record<string, unknown>, role = 3) =>
  t.app.inject({ method: 'PUT', url: `/api/update-pad/${id}`, headers: as[role].headers, payload });

const storedPads = (routeId: number) => storedPadRows(t.db).where(eq(pads.route_id, routeId)).orderBy(asc(pads.number));

async function routeWithPads(from: number, to: number, padSize?: number) {
  const route = await createRoute(t.db);
  const res = await addPad({ route_id: route.id, series_from: from, series_to: to, ...(padSize ? { pad_size: padSize } : {}) });
  expect(res.statusCode).toBe(201);
  return { route, pads: await storedPads(route.id) };
}

/** The pad as get-pad returns it, in the shape the edit form sends back. */
async function editable(id: number) {
  const res = await t.app.inject({ method: 'GET', url: `/api/get-pad/${id}`, headers: as[3].headers });
  const pad = res.json().data;
  return {
    number: pad.number,
    pad_status_id: pad.pad_status_id,
    issuance_status_id: pad.issuance_status_id,
    remarks: pad.remarks,
    series: pad.series as Array<{ number: number; status: number }>,
  };
}

describe('pad generation', () => {
  it('when a bulk generation is answered, then the planner statistics of pads are refreshed without waiting for autovacuum (docs/operations.md "PostgreSQL and its two roles")', async () => {
    const route = await createRoute(t.db);
    const res = await addPad({ route_id: route.id, series_from: 70_000_001, series_to: 70_060_000 });
    expect(res.statusCode).toBe(201);
    const estimate = async () => {
      const result = (await t.db.execute(sql`select reltuples::float8 as rows from pg_class where relname = 'pads'`)) as unknown as {
        rows: Array<{ rows: number }>;
      };
      return Number(result.rows[0].rows);
    };
    await expect.poll(estimate, { timeout: 30_000 }).toBeGreaterThanOrEqual(1200);
  });

  it('when a custodian generates 1001..1120, then three pads of 50, 50 and 20 unused entries are held by the head office', async () => {
    const route = await createRoute(t.db);
    const res = await addPad({ route_id: route.id, series_from: 1001, series_to: 1120, user_id: 999 });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: '3 pads generated successfully',
      data: { route_id: route.id, pads_created: 3, pad_size: 50, first_pad_number: 1, last_pad_number: 3 },
    });

    const rows = await storedPads(route.id);
    expect(rows.map((p) => [p.number, p.series_from, p.series_to])).toEqual([
      [1, 1001, 1050],
      [2, 1051, 1100],
      [3, 1101, 1120],
    ]);
    for (const p of rows) {
      expect(p.series_status).toBe('1'.repeat(p.series_to - p.series_from + 1));
      expect(p).toMatchObject({
        pad_status_id: PAD_STATUS.UNUSED,
        issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED,
        holder_branch_id: headOfficeId,
        holder_user_id: null,
        locked_by_invoice_id: null,
        created_by: as[3].id,
      });
    }

    const list = await t.app.inject({ method: 'GET', url: `/api/get-pads?route=${route.id}&per_page=10`, headers: as[9].headers });
    expect(list.statusCode).toBe(200);
    const body = list.json();
    expect(body).toMatchObject({ current_page: 1, last_page: 1, per_page: 10, total: 3 });
    const third = body.data.find((p: { number: number }) => p.number === 3);
    expect(third).toMatchObject({
      route_id: route.id,
      route: { id: route.id, name: route.name, tin: route.tin, company: { id: route.company_id } },
      series_number: '1101-1120',
      pad_status: { id: 3, name: 'Unused' },
      issuance_status: { id: 1, name: 'Not Issued' },
      remarks: null,
    });
    expect(third.series).toHaveLength(20);
    expect(third.series[0]).toEqual({ number: 1101, status: 1 });
    expect(third.series[19]).toEqual({ number: 1120, status: 1 });
  });

  it('when pad_size is given and the route already has pads, then pads follow that size and numbering continues', async () => {
    const { route } = await routeWithPads(1, 100);
    const res = await addPad({ route_id: route.id, series_from: '201', series_to: '210', pad_size: 3 });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ pads_created: 4, pad_size: 3, first_pad_number: 3, last_pad_number: 6 });
    const rows = await storedPads(route.id);
    expect(rows.map((p) => `${p.number}:${p.series_from}-${p.series_to}`)).toEqual([
      '1:1-50',
      '2:51-100',
      '3:201-203',
      '4:204-206',
      '5:207-209',
      '6:210-210',
    ]);
  });

  it('when numbers pass 10^12, then they are stored and returned exactly', async () => {
    const { pads: rows } = await routeWithPads(999_999_999_951, 1_000_000_000_050);
    expect(rows.map((p) => `${p.series_from}-${p.series_to}`)).toEqual(['999999999951-1000000000000', '1000000000001-1000000000050']);
    const res = await t.app.inject({ method: 'GET', url: `/api/get-pad/${rows[1].id}`, headers: as[3].headers });
    expect(res.json().data.series_number).toBe('1000000000001-1000000000050');
    expect(res.json().data.series.at(-1)).toEqual({ number: 1_000_000_000_050, status: 1 });
  });

  it('when Series To is not greater than Series From, then 422 on series_to in the spec words and nothing is created', async () => {
    const route = await createRoute(t.db);
    for (const [from, to] of [
      [500, 400],
      [500, 500],
    ]) {
      const res = await addPad({ route_id: route.id, series_from: from, series_to: to });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ series_to: [MSG.seriesToGreater] });
    }
    expect(await storedPads(route.id)).toHaveLength(0);
  });

  it('when one request asks for more than 1,000,000 numbers, then 422 and nothing is created', async () => {
    const route = await createRoute(t.db);
    const res = await addPad({ route_id: route.id, series_from: 1, series_to: 1_000_001 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ series_to: [PAD_MSG.tooManyNumbers] });
    expect(await storedPads(route.id)).toHaveLength(0);
  });

  it('when fields are missing, not numbers or the route does not exist, then each field says why', async () => {
    const empty = await addPad({ route_id: '', series_from: '', series_to: 'abc' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      route_id: ['Route is required'],
      series_from: ['Series From is required'],
      series_to: ['Series To must be a whole number'],
    });
    const missing = await addPad({});
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).sort()).toEqual(['route_id', 'series_from', 'series_to']);
    const huge = await addPad({ route_id: 1, series_from: 1, series_to: 1e21 });
    expect(huge.statusCode).toBe(422);
    const noRoute = await addPad({ route_id: 2_000_000_000, series_from: 1, series_to: 10 });
    expect(noRoute.statusCode).toBe(422);
    expect(noRoute.json().errors).toEqual({ route_id: [PAD_MSG.routeMissing] });
  });

  it('when the pad numbers of a route would pass the largest pad number, then 422 instead of a failure', async () => {
    const { route, pads: rows } = await routeWithPads(1, 50);
    await t.db.update(pads).set({ number: 2_147_483_647 }).where(eq(pads.id, rows[0].id));
    const res = await addPad({ route_id: route.id, series_from: 100, series_to: 149 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ series_from: [PAD_MSG.padNumbersExhausted] });
  });

  it('when a range overlaps numbers already on the route, then 422 on series_from names the pad and nothing is created', async () => {
    const { route, pads: before } = await routeWithPads(1001, 1120);
    const res = await addPad({ route_id: route.id, series_from: 1100, series_to: 1300 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ series_from: [PAD_MSG.overlap({ number: 2, series_number: '1051-1100' })] });
    expect(res.json().message).toBe('These numbers overlap pad 2 (1051-1100) on this route.');
    expect(await storedPads(route.id)).toEqual(before);
  });

  it('when the same numbers are generated on another route, then they are accepted', async () => {
    const { pads: first } = await routeWithPads(1001, 1120);
    const { pads: second } = await routeWithPads(1001, 1120);
    expect(second.map((p) => p.series_from)).toEqual(first.map((p) => p.series_from));
  });

  it('when 10 overlapping generations run at once, then exactly one range exists afterwards', async () => {
    const route = await createRoute(t.db);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => addPad({ route_id: route.id, series_from: 5001 + i * 10, series_to: 5100 + i * 10 })),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 422, 422, 422, 422, 422, 422, 422, 422, 422]);
    const winner = results.findIndex((r) => r.statusCode === 201);
    const rows = await storedPads(route.id);
    expect(rows.map((p) => [p.number, p.series_from, p.series_to])).toEqual([
      [1, 5001 + winner * 10, 5050 + winner * 10],
      [2, 5051 + winner * 10, 5100 + winner * 10],
    ]);
  });

  it('when disjoint generations on one route run at once, then all succeed with sequential pad numbers', async () => {
    const route = await createRoute(t.db);
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => addPad({ route_id: route.id, series_from: 1 + i * 100, series_to: 100 + i * 100 })),
    );
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201, 201, 201]);
    const rows = await storedPads(route.id);
    expect(rows.map((p) => p.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const sortedRanges = rows.map((p) => p.series_from).sort((a, b) => a - b);
    expect(sortedRanges).toEqual([1, 51, 101, 151, 201, 251, 301, 351, 401, 451]);
  });

  it('when roles other than 1, 2 and 3 generate pads, then 403; signed out, 401', async () => {
    const route = await createRoute(t.db);
    for (const role of [1, 2]) {
      const ok = await addPad({ route_id: route.id, series_from: role * 1000, series_to: role * 1000 + 9 }, role);
      expect(ok.statusCode).toBe(201);
    }
    for (const role of [4, 5, 6, 7, 8, 9, 10]) {
      const res = await addPad({ route_id: route.id, series_from: 5000, series_to: 5009 }, role);
      expect(res.statusCode).toBe(403);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/add-pad',
      payload: { route_id: route.id, series_from: 1, series_to: 2 },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await storedPads(route.id)).toHaveLength(2);
  });
});

describe('pad lists', () => {
  it('when get-pads is searched by pad number, series text or a receipt number, then the matching pads come back', async () => {
    const { route, pads: rows } = await routeWithPads(770_001, 770_500);
    const get = (query: string) =>
      t.app.inject({ method: 'GET', url: `/api/get-pads?route=${route.id}&${query}`, headers: as[5].headers }).then((r) => r.json());

    const pageTwo = await get('page=2&per_page=4');
    expect(pageTwo).toMatchObject({ current_page: 2, last_page: 3, per_page: 4, total: 10 });
    expect(pageTwo.data).toHaveLength(4);

    expect((await get('search=770451')).data.map((p: { number: number }) => p.number)).toEqual([10]);
    expect((await get('search=770480')).data.map((p: { number: number }) => p.number)).toEqual([10]);
    expect((await get('search=770101-770150')).data.map((p: { number: number }) => p.number)).toEqual([3]);
    expect((await get('search=%25')).total).toBe(0);
    expect((await get('search=nothing')).total).toBe(0);
    expect(rows).toHaveLength(10);

    const byNumber = await get('search=7');
    expect(byNumber.data.map((p: { number: number }) => p.number)).toContain(7);
  });

  it('when get-pads is searched by digits inside the series text or across its hyphen, then exactly the pads whose text contains them come back', async () => {
    const { route, pads: rows } = await routeWithPads(9_080_901, 9_081_300, 40);
    const expected = (term: string) =>
      rows
        .filter(
          (p) =>
            `${p.series_from}-${p.series_to}`.includes(term) ||
            (/^\d+$/.test(term) && (p.number === Number(term) || (p.series_from <= Number(term) && Number(term) <= p.series_to))),
        )
        .map((p) => p.id)
        .sort((a, b) => b - a);
    for (const term of ['0809', '81', '940-9', '0901-90', '-908', '0-', '9081300', '08100', '3', '9-9', '--', '1 2']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/get-pads?route=${route.id}&per_page=100&search=${encodeURIComponent(term)}`,
        headers: as[5].headers,
      });
      expect(res.statusCode).toBe(200);
      expect({ term, ids: res.json().data.map((p: { id: number }) => p.id), total: res.json().total }).toEqual({
        term,
        ids: expected(term),
        total: expected(term).length,
      });
    }
  });

  it('when roles 10 and 11 or a signed-out caller ask for pads, then they are refused', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/get-pads', headers: as[10].headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/get-pads' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/get-pads?per_page=1000', headers: as[3].headers })).statusCode).toBe(422);
  });

  it('when available-pads is asked for a route, then only Not Issued, Unused or Partially Used, unlocked pads come back', async () => {
    const { route, pads: rows } = await routeWithPads(1, 300);
    const [unused, partly, used, issued, cancelled, locked] = rows;
    const invoice = await newInvoice(INVOICE_STATUS.IN_TRANSIT);
    await t.db.update(pads).set({ pad_status_id: PAD_STATUS.PARTIALLY_USED }).where(eq(pads.id, partly.id));
    await t.db.update(pads).set({ pad_status_id: PAD_STATUS.USED }).where(eq(pads.id, used.id));
    await t.db.update(padCustody).set({ issuance_status_id: ISSUANCE_STATUS.ISSUED }).where(eq(padCustody.pad_id, issued.id));
    await t.db.update(pads).set({ pad_status_id: PAD_STATUS.CANCELLED }).where(eq(pads.id, cancelled.id));
    await t.db.update(padCustody).set({ locked_by_invoice_id: invoice.id }).where(eq(padCustody.pad_id, locked.id));

    const res = await t.app.inject({ method: 'GET', url: `/api/available-pads?route_id=${route.id}`, headers: as[3].headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((p: { id: number }) => p.id)).toEqual([unused.id, partly.id]);
    expect(res.json().total).toBe(2);

    const searched = await t.app.inject({
      method: 'GET',
      url: `/api/available-pads?route_id=${route.id}&search=60`,
      headers: as[3].headers,
    });
    expect(searched.json().data.map((p: { id: number }) => p.id)).toEqual([partly.id]);
  });

  it('when the status lookups are asked for, then the seeded names come back', async () => {
    const padStatuses = await t.app.inject({ method: 'GET', url: '/api/pad-statuses', headers: as[7].headers });
    expect(padStatuses.json().data).toEqual([
      { id: 1, name: 'Used' },
      { id: 2, name: 'Partially Used' },
      { id: 3, name: 'Unused' },
      { id: 4, name: 'Cancelled' },
      { id: 5, name: 'Lost' },
    ]);
    const issuance = await t.app.inject({ method: 'GET', url: '/api/issuance-statuses', headers: as[7].headers });
    expect(issuance.json().data).toEqual([
      { id: 1, name: 'Not Issued' },
      { id: 2, name: 'Issued' },
    ]);
  });
});

async function newInvoice(statusId: number) {
  const [row] = await t.db
    .insert(invoices)
    .values({
      invoice_type_id: INVOICE_TYPE.ISSUED,
      invoice_status_id: statusId,
      user_id: as[5].id,
      created_by: as[3].id,
      pad_count: 1,
    })
    .returning();
  return row;
}

describe('pad editing', () => {
  const FIELDS = ['number', 'issuance_status_id', 'pad_status_id', 'remarks', 'series'] as const;
  type Field = (typeof FIELDS)[number];
  const ALLOWED: Record<number, Field[]> = {
    1: ['number'],
    2: ['number'],
    3: ['number', 'issuance_status_id', 'pad_status_id', 'remarks', 'series'],
    4: [],
    5: ['pad_status_id', 'remarks', 'series'],
    6: ['pad_status_id', 'remarks', 'series'],
    7: ['pad_status_id', 'remarks', 'series'],
    8: ['number', 'issuance_status_id', 'pad_status_id', 'remarks', 'series'],
    9: [],
  };

  function changed(pad: Awaited<ReturnType<typeof editable>>, field: Field) {
    switch (field) {
      case 'number':
        return { ...pad, number: pad.number + 100 };
      case 'issuance_status_id':
        return { ...pad, issuance_status_id: ISSUANCE_STATUS.ISSUED };
      case 'pad_status_id':
        return { ...pad, pad_status_id: PAD_STATUS.LOST };
      case 'remarks':
        return { ...pad, remarks: 'Water damage on cover' };
      case 'series':
        return { ...pad, series: pad.series.map((e, i) => (i === 0 ? { ...e, status: 2 } : e)) };
    }
  }

  for (const role of [1, 2, 3, 4, 5, 6, 7, 8, 9]) {
    it(`when role ${role} changes each pad field, then exactly the docs/spec.md §6 fields are accepted and the rest refused with 403`, async () => {
      const { pads: rows } = await routeWithPads(1, 50 * FIELDS.length);
      for (const [i, field] of FIELDS.entries()) {
        const before = (await storedPadRows(t.db).where(eq(pads.id, rows[i].id)))[0];
        const res = await updatePad(rows[i].id, changed(await editable(rows[i].id), field), role);
        const after = (await storedPadRows(t.db).where(eq(pads.id, rows[i].id)))[0];
        if (ALLOWED[role].includes(field)) {
          expect(res.statusCode, `${field} by role ${role}`).toBe(200);
          expect(after, `${field} by role ${role}`).not.toEqual(before);
        } else {
          expect(res.statusCode, `${field} by role ${role}`).toBe(403);
          expect(after, `${field} by role ${role}`).toEqual(before);
        }
      }
    });
  }

  it('when a role sends the stored values unchanged with one permitted change, then it is not refused for the others', async () => {
    const { pads: rows } = await routeWithPads(1, 50);
    const pad = await editable(rows[0].id);
    const res = await updatePad(rows[0].id, { ...pad, remarks: 'Checked', route_id: rows[0].route_id, series_number: '1-50' }, 5);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: PAD_MSG.updated, data: { remarks: 'Checked', number: pad.number } });
  });

  it('when optional fields are left out, then they keep their stored values', async () => {
    const { pads: rows } = await routeWithPads(1, 50);
    await t.db.update(pads).set({ remarks: 'Kept' }).where(eq(pads.id, rows[0].id));
    const res = await updatePad(
      rows[0].id,
      { number: 500, pad_status_id: PAD_STATUS.UNUSED, issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED },
      1,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ number: 500, remarks: 'Kept' });
    const cleared = await updatePad(rows[0].id, { ...(await editable(rows[0].id)), remarks: '  ' }, 5);
    expect(cleared.json().data.remarks).toBeNull();
  });

  it('when a pad number change is refused, then nothing else of that request is saved either', async () => {
    const { pads: rows } = await routeWithPads(1, 50);
    const pad = await editable(rows[0].id);
    const res = await updatePad(rows[0].id, { ...pad, number: 77, remarks: 'Should not be saved' }, 5);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(PAD_MSG.fieldNotAllowed('pad number'));
    const [after] = await storedPadRows(t.db).where(eq(pads.id, rows[0].id));
    expect(after).toMatchObject({ number: rows[0].number, remarks: null });
  });

  it('when anyone tries to change the route or the series number, then 403 and nothing changes', async () => {
    const { pads: rows } = await routeWithPads(1, 50);
    const other = await createRoute(t.db);
    const pad = await editable(rows[0].id);
    expect((await updatePad(rows[0].id, { ...pad, route_id: other.id }, 3)).statusCode).toBe(403);
    expect((await updatePad(rows[0].id, { ...pad, series_number: '1-60' }, 8)).statusCode).toBe(403);
    const [after] = await storedPadRows(t.db).where(eq(pads.id, rows[0].id));
    expect(after).toEqual(rows[0]);
  });

  it('when series entries are added, removed or renumbered, then 422 on series and nothing changes', async () => {
    const { pads: rows } = await routeWithPads(1, 50);
    const pad = await editable(rows[0].id);
    const attempts = [
      [...pad.series, { number: 51, status: 1 }],
      pad.series.slice(1),
      pad.series.map((e, i) => (i === 3 ? { number: 999, status: 2 } : e)),
    ];
    for (const series of attempts) {
      const res = await updatePad(rows[0].id, { ...pad, series }, 3);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ series: [PAD_MSG.seriesFixed] });
    }
    const [after] = await storedPadRows(t.db).where(eq(pads.id, rows[0].id));
    expect(after).toEqual(rows[0]);
  });

  it('when a role-5 user toggles entries, then the pad status is derived: some used 2, all used 1, none used 3', async () => {
    const { pads: rows } = await routeWithPads(1, 50);
    const id = rows[0].id;
    const pad = await editable(id);
    const mark = (used: (i: number) => boolean) => pad.series.map((e, i) => ({ number: e.number, status: used(i) ? 2 : 1 }));

    const some = await updatePad(id, { ...pad, series: mark((i) => i < 5) }, 5);
    expect(some.statusCode).toBe(200);
    expect(some.json().data).toMatchObject({ pad_status_id: 2, pad_status: { name: 'Partially Used' } });
    expect((await storedPadRows(t.db).where(eq(pads.id, id)))[0].series_status).toBe('2'.repeat(5) + '1'.repeat(45));

    const all = await updatePad(id, { ...pad, pad_status_id: 2, series: JSON.stringify(mark(() => true)) }, 6);
    expect(all.statusCode).toBe(200);
    expect(all.json().data.pad_status_id).toBe(PAD_STATUS.USED);

    const none = await updatePad(id, { ...pad, pad_status_id: 1, series: mark(() => false) }, 7);
    expect(none.json().data.pad_status_id).toBe(PAD_STATUS.UNUSED);
  });

  it('when the pad is Cancelled or Lost and its series changes, then the status stays as set', async () => {
    const { pads: rows } = await routeWithPads(1, 100);
    for (const [i, status] of [PAD_STATUS.CANCELLED, PAD_STATUS.LOST].entries()) {
      const pad = await editable(rows[i].id);
      const res = await updatePad(rows[i].id, { ...pad, pad_status_id: status, series: pad.series.map((e) => ({ ...e, status: 2 })) }, 8);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.pad_status_id).toBe(status);
      expect((await storedPadRows(t.db).where(eq(pads.id, rows[i].id)))[0].pad_status_id).toBe(status);
    }
  });

  it('when the new pad number is taken on the route, then 422 on number', async () => {
    const { pads: rows } = await routeWithPads(1, 100);
    const pad = await editable(rows[0].id);
    const res = await updatePad(rows[0].id, { ...pad, number: rows[1].number }, 8);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ number: [PAD_MSG.numberTaken(rows[1].number)] });
  });

  it('when a pad is on an in-transit invoice, then a change is refused with 409', async () => {
    const { pads: rows } = await routeWithPads(1, 50);
    const invoice = await newInvoice(INVOICE_STATUS.IN_TRANSIT);
    await t.db.update(padCustody).set({ locked_by_invoice_id: invoice.id }).where(eq(padCustody.pad_id, rows[0].id));
    const pad = await editable(rows[0].id);
    const res = await updatePad(rows[0].id, { ...pad, remarks: 'late' }, 3);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(PAD_MSG.locked);
  });

  it('when the input is malformed, then 4xx with a message, never 500', async () => {
    const { pads: rows } = await routeWithPads(1, 50);
    const pad = await editable(rows[0].id);
    const bad = [
      { ...pad, pad_status_id: 99 },
      { ...pad, issuance_status_id: '' },
      { ...pad, series: 'not json' },
      { ...pad, series: [{ number: 1, status: 7 }] },
      { ...pad, number: -4 },
      { ...pad, remarks: 'x'.repeat(1001) },
    ];
    for (const payload of bad) {
      const res = await updatePad(rows[0].id, payload, 3);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(422);
      expect(res.json().message).toBeTruthy();
    }
    expect((await updatePad(2_000_000_000, pad, 3)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: '/api/update-pad/abc', headers: as[3].headers, payload: pad })).statusCode).toBe(422);
    const missing = await updatePad(rows[0].id, { remarks: 'x' }, 3);
    expect(missing.json().errors).toMatchObject({
      pad_status_id: ['Pad Status is required'],
      issuance_status_id: ['Issuance Status is required'],
    });
  });
});

describe('pad deletion', () => {
  const del = (id: number, role = 3) => t.app.inject({ method: 'DELETE', url: `/api/delete-pad/${id}`, headers: as[role].headers });

  it('when roles 1 to 3 delete a pad no invoice ever carried, then it is gone; other roles get 403', async () => {
    const { route, pads: rows } = await routeWithPads(1, 200);
    for (const role of [4, 5, 8, 9]) expect((await del(rows[0].id, role)).statusCode).toBe(403);
    for (const [i, role] of [1, 2, 3].entries()) {
      const res = await del(rows[i].id, role);
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(PAD_MSG.deleted);
    }
    expect((await storedPads(route.id)).map((p) => p.id)).toEqual([rows[3].id]);
    expect((await del(rows[0].id)).statusCode).toBe(404);
  });

  it('when the pad was ever on an invoice, then 409 and the pad stays', async () => {
    const { route, pads: rows } = await routeWithPads(1, 50);
    const invoice = await newInvoice(INVOICE_STATUS.COMPLETED);
    await t.db.insert(invoicePads).values({ invoice_id: invoice.id, pad_id: rows[0].id });
    const res = await del(rows[0].id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(PAD_MSG.onInvoice);
    expect(await storedPads(route.id)).toHaveLength(1);
  });
});
