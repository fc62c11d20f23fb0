import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { ROLE, SEED_LOOKUPS, USER_STATUS } from '../../shared/lookups.ts';
import { hashPassword } from '../lib/passwords.ts';
import type { Db } from './client.ts';
import { invoiceStatuses, invoiceTypes } from './schema/invoices.ts';
import { issuanceStatuses, padStatuses } from './schema/pads.ts';
import { companyTypes, roles, settings } from './schema/reference.ts';
import { userStatuses, users } from './schema/users.ts';

const toRows = (pairs: ReadonlyArray<readonly [number, string]>) => pairs.map(([id, name]) => ({ id, name }));

/** Lookups of docs/design.md §5 with their fixed ids; safe to run at every start. */
export async function seedLookups(db: Db): Promise<void> {
  await db.insert(userStatuses).values(toRows(SEED_LOOKUPS.userStatuses)).onConflictDoNothing();
  await db.insert(companyTypes).values(toRows(SEED_LOOKUPS.companyTypes)).onConflictDoNothing();
  await db.insert(padStatuses).values(toRows(SEED_LOOKUPS.padStatuses)).onConflictDoNothing();
  await db.insert(issuanceStatuses).values(toRows(SEED_LOOKUPS.issuanceStatuses)).onConflictDoNothing();
  await db.insert(invoiceTypes).values(toRows(SEED_LOOKUPS.invoiceTypes)).onConflictDoNothing();
  await db.insert(invoiceStatuses).values(toRows(SEED_LOOKUPS.invoiceStatuses)).onConflictDoNothing();
  await db.insert(roles).values(toRows(SEED_LOOKUPS.roles)).onConflictDoNothing();
  await db.execute(sql`select setval(pg_get_serial_sequence('roles', 'id'), greatest((select max(id) from roles), 11))`);
}

/** The secret behind badge check digits, made once and kept in the database so every instance agrees. */
export async function badgeSecret(db: Db): Promise<string> {
  await db
    .insert(settings)
    .values({ key: 'badge_secret', value: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, 'badge_secret'));
  return row.value;
}

/** On an empty users table, creates the first admin; returns the generated password when one was made. Instances starting together make one. */
export async function seedFirstAdmin(db: Db, email: string, password: string | null): Promise<string | null> {
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  if (count > 0) return null;
  const chosen = password ?? `${randomBytes(9).toString('base64url')}aA1!`;
  const inserted = await db
    .insert(users)
    .values({
      first_name: 'System',
      last_name: 'Administrator',
      email,
      password_hash: await hashPassword(chosen),
      role_id: ROLE.ADMIN,
      user_status_id: USER_STATUS.ACTIVE,
      must_change_password: password === null,
    })
    .onConflictDoNothing()
    .returning({ id: users.id });
  return password || inserted.length === 0 ? null : chosen;
}
