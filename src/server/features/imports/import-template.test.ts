import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../../shared/lookups.ts';
import { IMPORT_MSG } from '../../../shared/schemas/imports.ts';
import { createBranch, createRoute, signedIn } from '../../test/factories.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

let t: TestApp;
let custodian: { headers: { authorization: string } };

function upload(content: Buffer) {
  const boundary = '----padtrack' + Math.random().toString(16).slice(2);
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\npads\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="template.csv"\r\nContent-Type: text/csv\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/imports',
    headers: { ...custodian.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

beforeAll(async () => {
  t = await createTestApp();
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  custodian = await signedIn(t, { role_id: ROLE.CUSTODIAN, branch_id: headOffice.id });
  const route = await createRoute(t.db, { name: 'Batangas - Calapan' });
  const added = await t.app.inject({
    method: 'POST',
    url: '/api/add-pad',
    headers: custodian.headers,
    payload: { route_id: route.id, series_from: 1201, series_to: 1300, pad_size: 50 },
  });
  expect(added.statusCode, added.body).toBe(201);
});

afterAll(async () => {
  await t.close();
});

describe('the pads template (issue 36)', () => {
  it('when the numbers of the sample are taken on the route, then the sample row names free ones and passes its own dry run', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/imports/templates/pads', headers: custodian.headers });
    expect(res.statusCode).toBe(200);
    const [, sample] = res.body.replace(/^\uFEFF/, '').split('\r\n');
    const [route, from, to, , holder, used, cancelled] = sample.split(',');
    expect({ route, holder }).toEqual({ route: 'Batangas - Calapan', holder: 'Head Office' });
    expect(Number(from)).toBeGreaterThan(1300);
    expect(Number(to) - Number(from)).toBe(49);
    expect(used).toBe(`${from}-${Number(from) + 36}`);
    expect(cancelled).toBe(String(Number(from) + 37));
    const dry = await upload(Buffer.from(res.body));
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json().message).toBe(IMPORT_MSG.dryRunOk(1));
    expect(dry.json().data.errors).toEqual([]);
  });
});
