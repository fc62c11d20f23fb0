import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ADMIN_MSG, MSG } from '../../shared/messages.ts';
import { containsNul } from '../../shared/schemas/common.ts';
import { branches, companies, locations, routes, users } from '../db/schema.ts';
import { createCompany, createLocation, signedIn } from '../test/factories.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';

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
