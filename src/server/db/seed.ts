import { createHash, randomBytes } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { ROLE, SEED_LOOKUPS, USER_STATUS } from '../../shared/lookups.ts';
import { hashPassword } from '../lib/passwords.ts';
import type { Db } from './client.ts';
import { invoiceStatuses, invoiceTypes } from './schema/invoices.ts';
import { issuanceStatuses, padStatuses } from './schema/pads.ts';
import { companyTypes, roles, settings } from './schema/reference.ts';
import { userStatuses, users } from './schema/users.ts';

const toRows = (pairs: ReadonlyArray<readonly [number, string]>) => pairs.map(([id, name]) => ({ id, name }));

/** The lookups as this version defines them; settings keep the digest they were last written with. */
const LOOKUPS_DIGEST = createHash('sha256').update(JSON.stringify(SEED_LOOKUPS)).digest('hex');
const LOOKUPS_DIGEST_KEY = 'lookups_digest';
const BADGE_SECRET_KEY = 'badge_secret';
/** Set once the users table has had someone in it: a start then need not look at users for the first admin. */
const FIRST_ADMIN_KEY = 'first_admin_made';

/**
 * What every start makes sure of: the lookups, the first admin and the badge secret. Data that has them all answers in
 * one statement on settings and nothing else runs (issue 39: on the embedded database each table's first statement
 * pays for its catalog in this process). Returns the badge secret and the first admin's generated password, if one was made.
 */
export async function seedDatabase(
  db: Db,
  admin: { email: string; password: string | null },
): Promise<{ badgeSecret: string; generatedAdminPassword: string | null }> {
  const rows = await db
    .select()
    .from(settings)
    .where(inArray(settings.key, [LOOKUPS_DIGEST_KEY, BADGE_SECRET_KEY, FIRST_ADMIN_KEY]));
  const known = new Map(rows.map((row) => [row.key, row.value]));
  if (known.get(LOOKUPS_DIGEST_KEY) !== LOOKUPS_DIGEST) await seedLookups(db);
  const generatedAdminPassword = known.has(FIRST_ADMIN_KEY) ? null : await seedFirstAdmin(db, admin.email, admin.password);
  return { badgeSecret: known.get(BADGE_SECRET_KEY) ?? (await badgeSecret(db)), generatedAdminPassword };
}

/** Lookups of docs/design.md §5 with their fixed ids, and the digest of the definitions they were written from. */
export async function seedLookups(db: Db): Promise<void> {
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
    .values({ key: BADGE_SECRET_KEY, value: randomBytes(32).toString('hex') })
    .onConflictDoNothing();
  const [row] = await db.select().from(settings).where(eq(settings.key, BADGE_SECRET_KEY));
  return row.value;
}

/**
 * On an empty users table, creates the first admin; returns the generated password when one was made. Instances starting
 * together make one. Once the table has someone, settings say so (FIRST_ADMIN_KEY) and later starts skip this.
 */
export async function seedFirstAdmin(db: Db, email: string, password: string | null): Promise<string | null> {
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
  let generated: string | null = null;
  if (count === 0) {
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
    generated = password || inserted.length === 0 ? null : chosen;
  }
  await db.insert(settings).values({ key: FIRST_ADMIN_KEY, value: new Date().toISOString() }).onConflictDoNothing();
  return generated;
}
