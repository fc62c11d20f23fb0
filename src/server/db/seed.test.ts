import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_LOOKUPS } from '../../shared/lookups.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { rowsOf } from './rows.ts';
import { settings } from './schema/reference.ts';
import { users } from './schema/users.ts';
import { seedDatabase } from './seed.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const ADMIN = { email: 'admin@padtrack.test', password: 'Admin@12345' };
const issuanceStatuses = async () =>
  (await rowsOf<{ id: number; name: string }>(t.db, sql`select id, name from issuance_statuses order by id`)).map((row) => [
    row.id,
    row.name,
  ]);
const setting = async (key: string) => (await t.db.select().from(settings).where(eq(settings.key, key)))[0]?.value;

describe('what a start makes sure of (issue 39, point 6)', () => {
  it('when the app has started, then the lookups, the first admin and the badge secret are there, and settings say so', async () => {
    expect(await issuanceStatuses()).toEqual(SEED_LOOKUPS.issuanceStatuses);
    expect(await setting('lookups_digest')).toMatch(/^[0-9a-f]{64}$/);
    expect(await setting('first_admin_made')).toBeDefined();
    expect(await t.db.select({ email: users.email }).from(users)).toEqual([{ email: ADMIN.email }]);
    const again = await seedDatabase(t.db, ADMIN);
    expect(again).toEqual({ badgeSecret: t.ctx.badgeSecret, generatedAdminPassword: null });
  });

  it('when a start finds the digest of these definitions, then it writes no lookup; when it finds another, then it writes them again', async () => {
    const digest = await setting('lookups_digest');
    await t.db.execute(sql`delete from issuance_statuses where id = 2`);
    await seedDatabase(t.db, ADMIN);
    expect(await issuanceStatuses()).toEqual([SEED_LOOKUPS.issuanceStatuses[0]]);

    await t.db.update(settings).set({ value: 'written by an earlier version' }).where(eq(settings.key, 'lookups_digest'));
    await seedDatabase(t.db, ADMIN);
    expect(await issuanceStatuses()).toEqual(SEED_LOOKUPS.issuanceStatuses);
    expect(await setting('lookups_digest')).toBe(digest);
  });
});
