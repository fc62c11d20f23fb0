import { randomBytes } from 'node:crypto';
import { COMPANY_TYPE, USER_STATUS } from '../../shared/lookups.ts';
import type { Db } from '../db/client.ts';
import { branches, companies, locations, routes, users } from '../db/schema.ts';
import { hashPassword } from '../lib/passwords.ts';
import type { TestApp } from './test-app.ts';

export const TEST_PASSWORD = 'Secret@123';
const uid = () => randomBytes(4).toString('hex');
let cachedHash: Promise<string> | null = null;
const testPasswordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD));

export async function createLocation(db: Db, values: Partial<typeof locations.$inferInsert> = {}) {
  const [row] = await db.insert(locations).values({ name: `Location ${uid()}`, ...values }).returning();
  return row;
}

export async function createCompany(db: Db, values: Partial<typeof companies.$inferInsert> = {}) {
  const [row] = await db.insert(companies).values({ name: `Company ${uid()}`, company_type_id: COMPANY_TYPE.SHIPPING_LINE, ...values }).returning();
  return row;
}

export async function createRoute(db: Db, values: Partial<typeof routes.$inferInsert> = {}) {
  const company_id = values.company_id ?? (await createCompany(db)).id;
  const [row] = await db.insert(routes).values({ name: `Route ${uid()}`, tin: `TIN-${uid()}`, ...values, company_id }).returning();
  return row;
}

export async function createBranch(db: Db, values: Partial<typeof branches.$inferInsert> = {}) {
  const company_id = values.company_id ?? (await createCompany(db)).id;
  const location_id = values.location_id ?? (await createLocation(db)).id;
  const [row] = await db.insert(branches).values({ name: `Branch ${uid()}`, ...values, company_id, location_id }).returning();
  return row;
}

/** A user whose password is TEST_PASSWORD. */
export async function createUser(db: Db, values: Partial<typeof users.$inferInsert> = {}) {
  const [row] = await db
    .insert(users)
    .values({
      first_name: 'Test',
      last_name: `User${uid()}`,
      email: `user-${uid()}@padtrack.test`,
      password_hash: await testPasswordHash(),
      user_status_id: USER_STATUS.ACTIVE,
      ...values,
    })
    .returning();
  return row;
}

/** Signs in through the real login endpoint and returns the Bearer header to use. */
export async function loginAs(t: TestApp, email: string, password = TEST_PASSWORD) {
  const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed for ${email}: ${res.statusCode} ${res.body}`);
  const body = res.json() as { token: string };
  return { token: body.token, headers: { authorization: `Bearer ${body.token}` } };
}

/** A new user of the given role (and branch), already signed in. */
export async function signedIn(t: TestApp, values: Partial<typeof users.$inferInsert> = {}) {
  const user = await createUser(t.db, values);
  const session = await loginAs(t, user.email);
  return { user, ...session };
}
