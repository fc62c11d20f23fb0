import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAD_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import { PAD_STATUS } from '../../../shared/lookups.ts';
import { PAD_MSG } from '../../../shared/schemas/pads.ts';
import { buildPads, createBranch, createCompany, createRoute, createUser, signedIn } from '../../test/factories.ts';
import { exportCells, pagesAsCells, readExport } from '../../test/export.ts';
import { zipEntries } from '../../lib/zip.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let headers: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  headers = (await signedIn(t, { role_id: 3 })).headers;
});
afterAll(async () => {
  await t.close();
});

describe('Inventories export (docs/design.md §10)', () => {
  it('when pads of a route span three pages, then the CSV and the .xlsx hold exactly the rows of all pages, in order, with the screen columns', async () => {
    const company = await createCompany(t.db, { name: 'Ferry, "Lines"' });
    const route = await createRoute(t.db, { company_id: company.id, name: 'Batangas - Calapan' });
    await buildPads(t.db, route.id, 23, { remarks: 'kept at the "front" desk,\nshelf 2' });
    await buildPads(t.db, (await createRoute(t.db)).id, 4);
    const url = `/api/get-pads?route=${route.id}`;
    const screen = await pagesAsCells(t, url, headers, PAD_LIST_COLUMNS);
    expect(screen).toHaveLength(24);
    expect(screen[0]).toEqual(['Route', 'Pad Number', 'Series Number', 'Next', 'Pad Status', 'Issuance Status', 'Held by', 'Remarks']);
    expect(screen[1][0]).toBe(`Ferry, "Lines" - Batangas - Calapan - ${route.tin}`);
    expect(await exportCells(t, url, headers, 'csv')).toEqual(screen);
    expect(await exportCells(t, url, headers, 'xlsx')).toEqual(screen);
    const sorted = `${url}&sort=number&order=asc`;
    expect(await exportCells(t, sorted, headers, 'csv')).toEqual(await pagesAsCells(t, sorted, headers, PAD_LIST_COLUMNS));
  });

  it('when pads are held by a user or a branch, then Held by names them, and holder=mine / holder=branch narrow the list and its export', async () => {
    const branch = await createBranch(t.db, { name: 'Calapan Agency' });
    const other = await createBranch(t.db, { name: 'Lipa Office' });
    const me = await signedIn(t, { role_id: 7, branch_id: branch.id, first_name: 'Tessa', last_name: 'Teller' });
    const colleague = await createUser(t.db, { role_id: 6, branch_id: branch.id, first_name: 'Carla', last_name: 'Clerk' });
    const route = await createRoute(t.db, { name: 'Held Route' });
    const mine = await buildPads(t.db, route.id, 12, { heldBy: { userId: me.user.id, branchId: branch.id } });
    const theirs = await buildPads(t.db, route.id, 2, { heldBy: { userId: colleague.id, branchId: branch.id } });
    const stock = await buildPads(t.db, route.id, 1, { holder_branch_id: branch.id });
    await buildPads(t.db, route.id, 3, { holder_branch_id: other.id });
    const ids = async (url: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: me.headers });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { data: Array<{ id: number; held_by: string }>; total: number };
    };
    const own = await ids(`/api/get-pads?route=${route.id}&holder=mine&per_page=100`);
    expect(own.data.map((pad) => pad.id).sort((a, b) => a - b)).toEqual(mine.map((pad) => pad.id));
    expect(new Set(own.data.map((pad) => pad.held_by))).toEqual(new Set(['Tessa Teller (Calapan Agency)']));
    const branchPads = await ids(`/api/get-pads?route=${route.id}&holder=branch&per_page=100`);
    expect(branchPads.data.map((pad) => pad.id).sort((a, b) => a - b)).toEqual([...mine, ...theirs, ...stock].map((pad) => pad.id));
    expect(branchPads.data.find((pad) => pad.id === stock[0].id)?.held_by).toBe('Calapan Agency');
    expect((await ids(`/api/get-pads?route=${route.id}`)).total).toBe(18);
    const url = `/api/get-pads?route=${route.id}&holder=mine`;
    const screen = await pagesAsCells(t, url, me.headers, PAD_LIST_COLUMNS);
    expect(screen).toHaveLength(13);
    expect(await exportCells(t, url, me.headers, 'csv')).toEqual(screen);
    expect(screen[1][6]).toBe('Tessa Teller (Calapan Agency)');
    const bad = await t.app.inject({ method: 'GET', url: '/api/get-pads?holder=everyone', headers: me.headers });
    expect(bad.statusCode).toBe(422);
  });

  it('when the head office picks any branch or person, then the list and its export narrow to them; a branch user asking so is refused', async () => {
    const branch = await createBranch(t.db, { name: 'Roxas Agency' });
    const driver = await createUser(t.db, { role_id: 10, branch_id: branch.id, first_name: 'Dario', last_name: 'Driver' });
    const route = await createRoute(t.db, { name: 'Any Holder Route' });
    const carried = await buildPads(t.db, route.id, 2, { heldBy: { userId: driver.id, branchId: branch.id } });
    const stock = await buildPads(t.db, route.id, 1, { holder_branch_id: branch.id });
    await buildPads(t.db, route.id, 3);
    const idsFor = async (query: string, as = headers) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/get-pads?route=${route.id}&per_page=100&${query}`, headers: as });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: Array<{ id: number }> }).data.map((pad) => pad.id).sort((a, b) => a - b);
    };
    expect(await idsFor(`holder_user=${driver.id}`)).toEqual(carried.map((pad) => pad.id));
    expect(await idsFor(`holder_branch=${branch.id}`)).toEqual([...carried, ...stock].map((pad) => pad.id));
    const auditor = await signedIn(t, { role_id: 9 });
    expect(await idsFor(`holder_branch=${branch.id}`, auditor.headers)).toHaveLength(3);
    const exported = await exportCells(t, `/api/get-pads?route=${route.id}&holder_user=${driver.id}`, headers, 'csv');
    expect(exported.slice(1).map((cells) => cells[6])).toEqual(['Dario Driver (Roxas Agency)', 'Dario Driver (Roxas Agency)']);
    const clerk = await signedIn(t, { role_id: 7, branch_id: branch.id });
    const refused = await t.app.inject({ method: 'GET', url: `/api/get-pads?holder_branch=${branch.id}`, headers: clerk.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(PAD_MSG.holderFilterForbidden);
    const bad = await t.app.inject({ method: 'GET', url: '/api/get-pads?holder_user=x', headers });
    expect(bad.statusCode).toBe(422);
  });

  it('when a route has more pads than the export reads at once, then the CSV still holds every pad once, in the list order', async () => {
    const route = await createRoute(t.db, { name: 'Long Route' });
    const made = await buildPads(t.db, route.id, 1_050, {
      series_status: '2'.repeat(7) + '1'.repeat(43),
      pad_status_id: PAD_STATUS.PARTIALLY_USED,
    });
    const url = `/api/get-pads?route=${route.id}`;
    const exported = await exportCells(t, url, headers, 'csv');
    expect(exported).toHaveLength(1_051);
    expect(new Set(exported.slice(1).map((cells) => cells[1]))).toEqual(new Set(made.map((pad) => String(pad.number))));
    expect(exported[1][3]).toBe(String(made[made.length - 1].series_from + 7));
    expect(exported).toEqual(await pagesAsCells(t, url, headers, PAD_LIST_COLUMNS));
    const byNumber = `${url}&sort=number&order=asc`;
    expect((await exportCells(t, byNumber, headers, 'csv')).slice(1).map((cells) => Number(cells[1]))).toEqual(
      made.map((pad) => pad.number),
    );
  });

  it('when 12,000 pads are exported as .xlsx, then the file is a sound zip whose sheet reads back with every pad, in the CSV order', async () => {
    const route = await createRoute(t.db, { name: 'Big Export Route' });
    const count = 12_000;
    await t.db.execute(sql`with made as (insert into pads (route_id, number, series_from, series_to, series_status, pad_status_id, remarks)
      select ${route.id}, n, n::bigint * 50 + 1, n::bigint * 50 + 50, repeat('1', 50), ${PAD_STATUS.UNUSED},
        case when n % 7 = 0 then 'shelf ' || n end
      from generate_series(1, ${count}) n returning id)
      insert into pad_custody (pad_id, issuance_status_id) select id, 1 from made`);
    const url = `/api/get-pads?route=${route.id}`;
    const res = await t.app.inject({ method: 'GET', url: `${url}&format=xlsx`, headers });
    expect(res.statusCode).toBe(200);
    expect(zipEntries(res.rawPayload).map((entry) => entry.name)).toContain('xl/worksheets/sheet1.xml');
    const sheet = await readExport(res.rawPayload, 'xlsx');
    expect(sheet).toHaveLength(count + 1);
    const csv = await exportCells(t, url, headers, 'csv');
    expect(sheet[1]).toEqual(csv[1]);
    expect(sheet[count]).toEqual(csv[count]);
    expect(sheet.filter((cells) => cells[7].startsWith('shelf'))).toHaveLength(Math.floor(count / 7));
  }, 120_000);

  it('when a search matches nothing, then the export is the header line alone; a bad format is refused with 422', async () => {
    expect(await exportCells(t, '/api/get-pads?search=zzz-none', headers, 'csv')).toEqual([PAD_LIST_COLUMNS.map((c) => c.header)]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/get-pads?format=pdf', headers });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.format).toEqual(['The format must be csv or xlsx.']);
  });
});
