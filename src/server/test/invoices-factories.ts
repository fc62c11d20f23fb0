import { sql } from 'drizzle-orm';
import { ISSUANCE_STATUS, PAD_STATUS } from '../../shared/lookups.ts';
import type { Db } from '../db/client.ts';
import { pads } from '../db/schema.ts';

let nextSeries = 1_000_000;

/** Pads of a route, each `size` receipts long, Not Issued and Unused unless told otherwise. */
export async function createPads(
  db: Db,
  routeId: number,
  count: number,
  values: Partial<typeof pads.$inferInsert> & { size?: number } = {},
) {
  const { size = 10, ...rest } = values;
  const [{ max }] = await db.select({ max: sql<number>`coalesce(max(${pads.number}), 0)::int` }).from(pads).where(sql`${pads.route_id} = ${routeId}`);
  const rows = Array.from({ length: count }, (_, i) => {
    const from = nextSeries;
    nextSeries += size;
    return {
      route_id: routeId,
      number: max + i + 1,
      series_from: from,
      series_to: from + size - 1,
      series_status: '1'.repeat(size),
      pad_status_id: PAD_STATUS.UNUSED,
      issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED,
      ...rest,
    };
  });
  return db.insert(pads).values(rows).returning();
}
