import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_LOOKUPS } from '../../shared/lookups.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { rowsOf } from './rows.ts';
import { settings } from './schema/reference.ts';
import { seedLookups } from './seed.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const issuanceStatuses = async () =>
  (await rowsOf<{ id: number; name: string }>(t.db, sql`select id, name from issuance_statuses order by id`)).map((row) => [
    row.id,
    row.name,
  ]);
const storedDigest = async () => (await t.db.select().from(settings).where(eq(settings.key, 'lookups_digest')))[0]?.value;

describe('the lookups at start (issue 39, point 6)', () => {
  it('when the app has started, then every lookup is there and the digest of their definitions is stored', async () => {
    expect(await issuanceStatuses()).toEqual(SEED_LOOKUPS.issuanceStatuses);
    expect(await storedDigest()).toMatch(/^[0-9a-f]{64}$/);
  });

  it('when a start finds the digest of these definitions, then it writes no lookup; when it finds another, then it writes them again', async () => {
    const digest = await storedDigest();
    await t.db.execute(sql`delete from issuance_statuses where id = 2`);
    await seedLookups(t.db);
    expect(await issuanceStatuses()).toEqual([SEED_LOOKUPS.issuanceStatuses[0]]);

    await t.db.update(settings).set({ value: 'written by an earlier version' }).where(eq(settings.key, 'lookups_digest'));
    await seedLookups(t.db);
    expect(await issuanceStatuses()).toEqual(SEED_LOOKUPS.issuanceStatuses);
    expect(await storedDigest()).toBe(digest);
  });
});
