import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAD_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import { buildPads, createCompany, createRoute, signedIn } from '../../test/factories.ts';
import { exportCells, pagesAsCells } from '../../test/export.ts';
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
    expect(screen[0]).toEqual(['Route', 'Pad Number', 'Series Number', 'Next', 'Pad Status', 'Issuance Status', 'Remarks']);
    expect(screen[1][0]).toBe(`Ferry, "Lines" - Batangas - Calapan - ${route.tin}`);
    expect(await exportCells(t, url, headers, 'csv')).toEqual(screen);
    expect(await exportCells(t, url, headers, 'xlsx')).toEqual(screen);
    const sorted = `${url}&sort=number&order=asc`;
    expect(await exportCells(t, sorted, headers, 'csv')).toEqual(await pagesAsCells(t, sorted, headers, PAD_LIST_COLUMNS));
  });

  it('when a search matches nothing, then the export is the header line alone; a bad format is refused with 422', async () => {
    expect(await exportCells(t, '/api/get-pads?search=zzz-none', headers, 'csv')).toEqual([PAD_LIST_COLUMNS.map((c) => c.header)]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/get-pads?format=pdf', headers });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.format).toEqual(['The format must be csv or xlsx.']);
  });
});
