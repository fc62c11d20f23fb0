import { expect } from 'vitest';
import { INVOICE_STATUS, INVOICE_TYPE, ISSUANCE_STATUS, PAD_STATUS } from '../../shared/lookups.ts';
import type { Db } from '../db/client.ts';
import { activities, invoices, pads, reports } from '../db/schema.ts';
import { signedIn } from './factories.ts';
import type { TestApp } from './test-app.ts';

type Headers = Record<string, string>;
export interface Sessions {
  admin: Headers;
  itAdmin: Headers;
  /** One signed-in user per role 3 to 11, and one without a role (a fresh registration). */
  others: Array<{ role_id: number | null; headers: Headers }>;
}

/** A signed-in user for every role, to prove who may call the administration endpoints. */
export async function sessionsForAllRoles(t: TestApp): Promise<Sessions> {
  const admin = await signedIn(t, { role_id: 1 });
  const itAdmin = await signedIn(t, { role_id: 2 });
  const others: Sessions['others'] = [];
  for (let role_id = 3; role_id <= 11; role_id += 1) others.push({ role_id, headers: (await signedIn(t, { role_id })).headers });
  others.push({ role_id: null, headers: (await signedIn(t, { role_id: null })).headers });
  return { admin: admin.headers, itAdmin: itAdmin.headers, others };
}

export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  payload?: Record<string, unknown>;
}

/** 401 without a token and 403 for roles 3 to 11 and for a user without a role, before any body validation. */
export async function expectAdminsOnly(t: TestApp, sessions: Sessions, call: Call): Promise<void> {
  const anonymous = await t.app.inject({ method: call.method, url: call.url, payload: call.payload });
  expect(anonymous.statusCode, `${call.method} ${call.url} without a token`).toBe(401);
  expect(anonymous.json()).toEqual({ message: 'Unauthenticated.' });
  for (const { role_id, headers } of sessions.others) {
    const res = await t.app.inject({ method: call.method, url: call.url, payload: call.payload, headers });
    expect(res.statusCode, `${call.method} ${call.url} as role ${role_id}`).toBe(403);
  }
}

/** 401 without a token; 200 for every role (the lookups behind other screens' selects). */
export async function expectAnySignedIn(t: TestApp, sessions: Sessions, url: string): Promise<void> {
  expect((await t.app.inject({ method: 'GET', url })).statusCode, `${url} without a token`).toBe(401);
  for (const { role_id, headers } of [...sessions.others, { role_id: 1, headers: sessions.admin }]) {
    const res = await t.app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, `${url} as role ${role_id}`).toBe(200);
  }
}

let nextNumber = 1;

/** A pad of a route, held by a user and branch when given. */
export async function insertPad(db: Db, values: Partial<typeof pads.$inferInsert> & { route_id: number }) {
  const n = nextNumber++;
  const from = 9_000_000 + n * 100;
  const [row] = await db
    .insert(pads)
    .values({
      number: n,
      series_from: from,
      series_to: from + 9,
      series_status: '1'.repeat(10),
      pad_status_id: PAD_STATUS.UNUSED,
      issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED,
      ...values,
    })
    .returning();
  return row;
}

/** A Pending request invoice of a user. */
export async function insertInvoice(db: Db, values: Partial<typeof invoices.$inferInsert> & { user_id: number }) {
  const [row] = await db
    .insert(invoices)
    .values({ invoice_type_id: INVOICE_TYPE.REQUEST, invoice_status_id: INVOICE_STATUS.PENDING, created_by: values.user_id, pad_count: 1, ...values })
    .returning();
  return row;
}

export async function insertActivity(db: Db, values: { invoice_id: number; user_id?: number; assigned_user_id?: number }) {
  const [row] = await db.insert(activities).values({ invoice_status_id: INVOICE_STATUS.PENDING, description: 'Requested', ...values }).returning();
  return row;
}

export async function insertReport(db: Db, generatedBy: number) {
  const [row] = await db
    .insert(reports)
    .values({ number: `R-${nextNumber++}-${Date.now()}`, total_invoice: 0, pdf: Buffer.from('%PDF-1.4'), generated_by: generatedBy })
    .returning();
  return row;
}
