import { count, eq } from 'drizzle-orm';
import type { Conn } from '../db/client.ts';
import { companies, settings } from '../db/schema/reference.ts';
import { users } from '../db/schema/users.ts';

const DEMO_MARKER = 'demo_loaded';

export async function demoLoaded(conn: Conn): Promise<boolean> {
  const [marker] = await conn.select().from(settings).where(eq(settings.key, DEMO_MARKER));
  return Boolean(marker);
}

/** Users beside the first admin, or any company: data someone entered that the demo would mix with. */
export async function holdsOtherData(conn: Conn): Promise<boolean> {
  const [{ value: userCount }] = await conn.select({ value: count() }).from(users);
  const [{ value: companyCount }] = await conn.select({ value: count() }).from(companies);
  return userCount > 1 || companyCount > 0;
}

export async function markDemoLoaded(conn: Conn): Promise<void> {
  await conn.insert(settings).values({ key: DEMO_MARKER, value: new Date().toISOString() });
}
