import fs from 'node:fs';
import net from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ADMIN_MSG, MSG } from '../../shared/messages.ts';
import { containsNul } from '../../shared/schemas/common.ts';
import { MAX_DATE, MIN_DATE } from '../../shared/schemas/fields.ts';
import { branches, companies, locations, routes } from '../db/schema/reference.ts';
import { registeredSeries } from '../db/schema/registered-series.ts';
import { users } from '../db/schema/users.ts';
import { createBranch, createCompany, createLocation, createRoute, signedIn } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { FRAMEWORK_MSG, registerErrorHandler } from './errors.ts';

let t: TestApp;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signedIn(t, { role_id: 1 })).headers;
});
afterAll(async () => {
  await t.close();
});

const PARALLEL = 20;

async function inParallel(call: () => Promise<{ statusCode: number; json: () => { message: string; errors?: Record<string, string[]> } }>) {
  const results = await Promise.all(Array.from({ length: PARALLEL }, call));
  return {
    statuses: results.map((r) => r.statusCode).sort(),
    refusals: results.filter((r) => r.statusCode === 422).map((r) => r.json()),
  };
}

const expectOneCreated = (statuses: number[], created: number) => {
  expect(statuses).toEqual([created, ...Array.from({ length: PARALLEL - 1 }, () => 422)]);
};

describe('error mapping', () => {
  it('when 20 registrations of one e-mail race, then 1 is created and 19 get the taken-e-mail 422 (docs/SECURITY.md "Bad input and database faults")', async () => {
    const email = 'race@example.com';
    const { statuses, refusals } = await inParallel(() =>
      t.app.inject({
        method: 'POST',
        url: '/api/register-account',
        payload: {
          first_name: 'Rae',
          last_name: 'Cruz',
          email,
          mobile_number: '09171234567',
          password: 'Strong@123',
          password_confirmation: 'Strong@123',
        },
      }),
    );
    expectOneCreated(statuses, 201);
    for (const body of refusals) expect(body).toEqual({ message: MSG.emailTaken, errors: { email: [MSG.emailTaken] } });
    expect(
      await t.db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`),
    ).toHaveLength(1);
  });

  it('when 20 creates of one company, branch, location or route name race, then exactly 1 row each and 19 × 422 (docs/SECURITY.md "Bad input and database faults")', async () => {
    const company = await createCompany(t.db);
    const location = await createLocation(t.db);
    const cases = [
      { url: '/api/add-company', payload: { name: 'Race Lines', company_type_id: 1 }, table: companies, message: ADMIN_MSG.nameTaken },
      { url: '/api/add-location', payload: { name: 'Race Pier' }, table: locations, message: ADMIN_MSG.nameTaken },
      {
        url: '/api/add-branch',
        payload: { name: 'Race Desk', company_id: company.id, location_id: location.id },
        table: branches,
        message: ADMIN_MSG.nameTaken,
      },
      {
        url: '/api/add-route',
        payload: { name: 'Race Route', company_id: company.id, tin: '000-111' },
        table: routes,
        message: ADMIN_MSG.routeNameTaken,
      },
    ];
    for (const c of cases) {
      const { statuses, refusals } = await inParallel(() =>
        t.app.inject({ method: 'POST', url: c.url, headers: admin, payload: c.payload }),
      );
      expectOneCreated(statuses, 201);
      for (const body of refusals) expect(body, c.url).toEqual({ message: c.message, errors: { name: [c.message] } });
      const rows = await t.db.select({ id: c.table.id }).from(c.table).where(eq(c.table.name, c.payload.name));
      expect(rows, c.url).toHaveLength(1);
    }
  });

  it('when a database already holds duplicate names, then migration 0001 refuses with a message listing them (docs/SECURITY.md "Bad input and database faults")', async () => {
    const migration = fs.readFileSync(new URL('../db/migrations/0001_unique_reference_names.sql', import.meta.url), 'utf8');
    const check = migration.split('--> statement-breakpoint')[0];
    await t.db.execute(sql`drop index companies_name_lower_uq`);
    const first = await createCompany(t.db, { name: 'Twin Ferries' });
    const second = await createCompany(t.db, { name: 'TWIN FERRIES' });
    try {
      await expect(t.db.execute(sql.raw(check))).rejects.toMatchObject({
        cause: {
          message: `Migration 0001_unique_reference_names cannot make names unique: rename or merge these duplicates first: company "TWIN FERRIES" (ids ${first.id}, ${second.id})`,
        },
      });
    } finally {
      await t.db.delete(companies).where(eq(companies.id, second.id));
      await t.db.execute(sql`create unique index companies_name_lower_uq on companies (lower(name))`);
    }
    await t.db.execute(sql.raw(check));
  });

  it('when a text field or search holds a NUL byte, then 422 names the field; an impossible date is 422 too (docs/SECURITY.md "Bad input and database faults")', async () => {
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/register-account',
      payload: {
        first_name: 'Nu\u0000ll',
        last_name: 'Cruz',
        email: 'nul@example.com',
        mobile_number: '09171234567',
        password: 'Strong@123',
        password_confirmation: 'Strong@123',
      },
    });
    expect(register.statusCode).toBe(422);
    expect(register.json().errors.first_name).toEqual([containsNul('First name')]);

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { email: 'a\u0000@example.com', password: 'Strong@123' },
    });
    expect(login.statusCode).toBe(422);
    expect(login.json().errors.email).toEqual([containsNul('Email')]);

    const search = await t.app.inject({ method: 'GET', url: '/api/get-companies-with-search?search=a%00b', headers: admin });
    expect(search.statusCode).toBe(422);
    expect(search.json().errors.search).toEqual([containsNul('Search')]);

    const date = await t.app.inject({ method: 'GET', url: '/api/get-invoices?start_date=2026-02-30', headers: admin });
    expect(date.statusCode).toBe(422);
    expect(Object.keys(date.json().errors)).toEqual(['start_date']);
  });
});

/** One raw HTTP exchange on a fresh connection: the status line, the body, and whether the server closed the connection. */
function rawExchange(address: string, request: string): Promise<{ statusLine: string; body: string; closed: boolean }> {
  const { hostname, port } = new URL(address);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body = ''] = data.split('\r\n\r\n');
      resolve({ statusLine: head.split('\r\n')[0], body, closed: true });
    });
  });
}

describe('input beyond what the database or the HTTP layer holds (docs/SECURITY.md "Bad input and database faults")', () => {
  it('when a lookup id is 32768 or more, an id 2147483648 or a year 0000, then 422 naming the field and nothing is stored', async () => {
    const branch = await createBranch(t.db);
    const route = await createRoute(t.db);
    const company = await t.app.inject({
      method: 'POST',
      url: '/api/add-company',
      headers: admin,
      payload: { name: 'Overflow Lines', company_type_id: 32_768 },
    });
    expect(company.statusCode, company.body).toBe(422);
    expect(Object.keys(company.json().errors)).toEqual(['company_type_id']);
    expect(await t.db.select().from(companies).where(eq(companies.name, 'Overflow Lines'))).toEqual([]);

    const user = await t.app.inject({
      method: 'POST',
      url: '/api/add-user',
      headers: admin,
      payload: {
        first_name: 'Over',
        last_name: 'Flow',
        email: 'overflow@example.com',
        contact_number: '09171234567',
        branch_id: branch.id,
        role_id: 7,
        user_status_id: 32_768,
        password: 'Strong@123',
      },
    });
    expect(user.statusCode, user.body).toBe(422);
    expect(Object.keys(user.json().errors)).toEqual(['user_status_id']);
    expect(await t.db.select().from(users).where(eq(users.email, 'overflow@example.com'))).toEqual([]);

    const series = await t.app.inject({
      method: 'POST',
      url: '/api/registered-series',
      headers: admin,
      payload: {
        route_id: route.id,
        branch_id: branch.id,
        form_type: 'invoice',
        atp_number: 'Y0',
        atp_date: '0000-01-01',
        printer: 'P',
        series_from: 1,
        series_to: 10,
      },
    });
    expect(series.statusCode, series.body).toBe(422);
    expect(series.json().errors.atp_date).toEqual([`ATP Date must be between ${MIN_DATE} and ${MAX_DATE}`]);
    expect(await t.db.select().from(registeredSeries).where(eq(registeredSeries.atp_number, 'Y0'))).toEqual([]);

    for (const [url, field] of [
      ['/api/get-invoices?invoice_type=40000', 'invoice_type'],
      ['/api/get-invoices?invoice_status=32768', 'invoice_status'],
      ['/api/get-invoices?issuance_status=32768', 'issuance_status'],
      ['/api/get-in-transit-invoices?invoice_type=32768', 'invoice_type'],
      ['/api/get-companies-with-search?company_type_id=40000', 'company_type_id'],
      ['/api/pad-labels?ids=2147483648', 'ids'],
      ['/api/pad-labels?ids=1,0', 'ids'],
      ['/api/unused-forms?date=0000-03-28', 'date'],
      ['/api/get-invoices?start_date=0000-01-01', 'start_date'],
      ['/api/get-invoices?end_date=10000-01-01', 'end_date'],
      ['/api/reports?start_date=0000-01-01', 'start_date'],
      ['/api/reports?end_date=1899-12-31', 'end_date'],
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: admin });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(422);
      expect(Object.keys(res.json().errors), url).toEqual([field]);
    }
    for (const url of [
      '/api/get-invoices?start_date=1900-01-01&end_date=9999-12-31',
      '/api/reports?start_date=1900-01-01',
      '/api/get-invoices?invoice_type=32767',
    ])
      expect((await t.app.inject({ method: 'GET', url, headers: admin })).statusCode, url).toBe(200);
  });

  it('when a path parameter is longer than the router takes, badly percent-encoded, or a multipart body is cut short, then 414 or 400 with { message }, as the error handler answers', async () => {
    const long = await t.app.inject({ method: 'GET', url: `/api/get-pad/${'1'.repeat(101)}`, headers: admin });
    expect(long.statusCode).toBe(414);
    expect(long.headers['content-type']).toContain('application/json');
    expect(long.json()).toEqual({ message: FRAMEWORK_MSG.pathTooLong });
    const atLimit = await t.app.inject({ method: 'GET', url: `/api/get-pad/${'1'.repeat(100)}`, headers: admin });
    expect(atLimit.statusCode).toBe(422);
    const malformed = await t.app.inject({ method: 'GET', url: '/api/get-pad/%E0%A4%A', headers: admin });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: FRAMEWORK_MSG.badPath });
    for (const [contentType, payload] of [
      ['multipart/form-data', 'kind=pads'],
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="kind"\r\n\r\npads'],
    ]) {
      const form = await t.app.inject({ method: 'POST', url: '/api/imports', headers: { ...admin, 'content-type': contentType }, payload });
      expect(form.statusCode, contentType).toBe(400);
      expect(form.json(), contentType).toEqual({ message: FRAMEWORK_MSG.badMultipart });
    }
  });

  it("when the request headers pass Node's 16 KiB limit, then 431 with { message } on the wire and the connection is closed", async () => {
    const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const answer = await rawExchange(
        address,
        `GET /api/health HTTP/1.1\r\nHost: padtrack.test\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(answer.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      expect(JSON.parse(answer.body)).toEqual({ message: FRAMEWORK_MSG.headersTooLarge });
      expect(answer.closed).toBe(true);
      const garbage = await rawExchange(address, 'NOT HTTP AT ALL\r\n\r\n');
      expect(garbage.statusLine).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(garbage.body)).toEqual({ message: FRAMEWORK_MSG.badRequest });
      const health = await fetch(`${address}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      await t.app.server.close();
    }
  });

  it('when the database itself refuses a value as out of range (22003, 22008, 22007) that no schema bounded, then 422 { message } instead of 500', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/smallint', async () => t.db.execute(sql`select ${40_000}::smallint as n`));
    app.get('/year-zero', async () => t.db.execute(sql`select ${'0000-03-28'}::date as d`));
    app.get('/not-a-date', async () => t.db.execute(sql`select ${'yesterday-ish'}::date as d`));
    await app.ready();
    try {
      for (const url of ['/smallint', '/year-zero', '/not-a-date']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(422);
        expect(res.json(), url).toEqual({ message: MSG.invalidData });
      }
    } finally {
      await app.close();
    }
  });
});
