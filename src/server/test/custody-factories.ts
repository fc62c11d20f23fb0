import { inArray } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE, ISSUANCE_STATUS, PAD_STATUS } from '../../shared/lookups.ts';
import type { Db } from '../db/client.ts';
import { invoicePads, invoices, pads } from '../db/schema.ts';
import { createRoute } from './factories.ts';

let nextPad = 1;

/**
 * A pad already in someone's hands (Issued, held by holder_user_id at holder_branch_id), so custody tests
 * start where an accepted Issued invoice would leave them without running the whole issue chain.
 */
export async function createHeldPad(db: Db, values: Partial<typeof pads.$inferInsert> & { size?: number } = {}) {
  const { size = 50, ...rest } = values;
  const n = nextPad++;
  const route_id = rest.route_id ?? (await createRoute(db)).id;
  const series_from = rest.series_from ?? 1_000_000 + n * 1000;
  const [row] = await db
    .insert(pads)
    .values({
      number: n,
      series_from,
      series_to: series_from + size - 1,
      series_status: '1'.repeat(size),
      pad_status_id: PAD_STATUS.UNUSED,
      issuance_status_id: ISSUANCE_STATUS.ISSUED,
      ...rest,
      route_id,
    })
    .returning();
  return row;
}

/** An In-Transit invoice of any type with its pads linked and locked, for hand-over and visibility tests. */
export async function createInTransitInvoice(
  db: Db,
  values: Partial<typeof invoices.$inferInsert> & { user_id: number; padIds?: number[] },
) {
  const { padIds = [], ...rest } = values;
  const [row] = await db
    .insert(invoices)
    .values({
      invoice_type_id: INVOICE_TYPE.TURNOVER,
      invoice_status_id: INVOICE_STATUS.IN_TRANSIT,
      created_by: rest.user_id,
      pad_count: padIds.length,
      ...rest,
    })
    .returning();
  if (padIds.length > 0) {
    await db.insert(invoicePads).values(padIds.map((pad_id) => ({ invoice_id: row.id, pad_id })));
    await db.update(pads).set({ locked_by_invoice_id: row.id }).where(inArray(pads.id, padIds));
  }
  return row;
}
