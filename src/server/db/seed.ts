import { createHash, randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { ROLE, SEED_LOOKUPS, USER_STATUS } from '../../shared/lookups.ts';
import { hashPassword } from '../lib/passwords.ts';
import type { Db } from './client.ts';
import { invoiceStatuses, invoiceTypes } from './schema/invoices.ts';
import { issuanceStatuses, padStatuses } from './schema/pads.ts';
import { companyTypes, roles, settings } from './schema/reference.ts';
import { userStatuses, users } from './schema/users.ts';

const toRows = (pairs: ReadonlyArray<readonly [number, string]>) => pairs.map(([id, name]) => ({ id, name }));

/** The lookups as this version defines them; settings keep the digest they were last written with (key LOOKUPS_DIGEST_KEY). */
const LOOKUPS_DIGEST = createHash('sha256').update(JSON.stringify(SEED_LOOKUPS)).digest('hex');
const LOOKUPS_DIGEST_KEY = 'lookups_digest';

/**
 * Lookups of docs/design.md §5 with their fixed ids; safe to run at every start. A start that finds them written by the
 * same definitions reads one row instead of writing seven tables (issue 39: on the embedded database each first statement
 * on a table pays for its catalog in this process).
 */
export async function seedLookups(db: Db): Promise<void> {
  const [stored] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, LOOKUPS_DIGEST_KEY));
  if (stored?.value === LOOKUPS_DIGEST) return;
  await db.transaction(async (tx) => {
    await tx.insert(userStatuses).values(toRows(SEED_LOOKUPS.userStatuses)).onConflictDoNothing();
    await tx.insert(companyTypes).values(toRows(SEED_LOOKUPS.companyTypes)).onConflictDoNothing();
    await tx.insert(padStatuses).values(toRows(SEED_LOOKUPS.padStatuses)).onConflictDoNothing();
    await tx.insert(issuanceStatuses).values(toRows(SEED_LOOKUPS.issuanceStatuses)).onConflictDoNothing();
    await tx.insert(invoiceTypes).values(toRows(SEED_LOOKUPS.invoiceTypes)).onConflictDoNothing();
    await tx.insert(invoiceStatuses).values(toRows(SEED_LOOKUPS.invoiceStatuses)).onConflictDoNothing();
    await tx.insert(roles).values(toRows(SEED_LOOKUPS.roles)).onConflictDoNothing();
    await tx.execute(sql`select setval(pg_get_serial_sequence('roles', 'id'), greatest((select max(id) from roles), 11))`);
    await tx
      .insert(settings)
      .values({ key: LOOKUPS_DIGEST_KEY, value: LOOKUPS_DIGEST })
      .onConflictDoUpdate({ target: settings.key, set: { value: LOOKUPS_DIGEST } });
  });
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
