import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, primaryKey, serial, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, lookup, updatedAt } from './columns.ts';
import { branches, routes } from './reference.ts';
import { registeredSeries } from './registered-series.ts';
import { users } from './users.ts';

export const padStatuses = lookup('pad_statuses');
export const issuanceStatuses = lookup('issuance_statuses');

/**
 * A pad covers the receipt numbers series_from..series_to of one route. The per-entry statuses live
 * in the row as one character per number ('1' not used, '2' used), so a pad is one row whatever its size.
 * The exclusion constraint that keeps ranges of a route disjoint is added in a hand-written migration;
 * so is pad_series_suffixes (0004), every suffix of the series text, which makes a contains-search a prefix lookup,
 * and the trigger (0018) that keeps the series text of a pad Cancelled or Lost as a whole until it is reinstated.
 */
export const pads = pgTable(
  'pads',
  {
    id: serial('id').primaryKey(),
    route_id: integer('route_id')
      .notNull()
      .references(() => routes.id),
    number: integer('number').notNull(),
    series_from: bigint('series_from', { mode: 'number' }).notNull(),
    series_to: bigint('series_to', { mode: 'number' }).notNull(),
    series_status: text('series_status').notNull(),
    pad_status_id: smallint('pad_status_id')
      .notNull()
      .references(() => padStatuses.id),
    remarks: text('remarks'),
    /** docs/design.md §10: the registered series (ATP) the pad lies inside, if any. */
    registered_series_id: integer('registered_series_id').references(() => registeredSeries.id),
    created_by: integer('created_by').references(() => users.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('pads_route_number_uq').on(t.route_id, t.number),
    index('pads_series_suffix_gin').using('gin', sql`pad_series_suffixes(${t.series_from}, ${t.series_to})`),
    index('pads_route_id_idx').on(t.route_id, t.id),
    /**
     * The second open booklet (issue 39): the partly used pads of a route, about one per holder, so the usage warning
     * reads a route's few open booklets and their custody rows, not the holder's whole stock.
     */
    index('pads_open_booklet_idx')
      .on(t.route_id, t.number)
      .where(sql`${t.pad_status_id} = 2`),
    index('pads_registered_series_idx')
      .on(t.registered_series_id)
      .where(sql`${t.registered_series_id} is not null`),
    check('pads_range_ck', sql`${t.series_to} >= ${t.series_from}`),
    check('pads_series_len_ck', sql`length(${t.series_status}) = ${t.series_to} - ${t.series_from} + 1`),
    check('pads_series_chars_ck', sql`${t.series_status} ~ '^[1-4]*$'`),
  ],
);

/**
 * Issue 39 point 4: who holds a pad, whether an invoice carries it, and whether it is issued; one row a pad, written
 * with it (migration 0028). A custody move (issue, accept, return) rewrites this narrow row and its four small indexes,
 * not the pad row with its GIN, GiST and nine other indexes. `updated_at` is the last custody move: a pad's
 * updated_at, as the API shows it, is the later of its two rows'.
 */
export const padCustody = pgTable(
  'pad_custody',
  {
    pad_id: integer('pad_id')
      .primaryKey()
      .references(() => pads.id, { onDelete: 'cascade' }),
    issuance_status_id: smallint('issuance_status_id')
      .notNull()
      .references(() => issuanceStatuses.id),
    holder_user_id: integer('holder_user_id').references(() => users.id),
    holder_branch_id: integer('holder_branch_id').references(() => branches.id),
    locked_by_invoice_id: integer('locked_by_invoice_id'),
    updated_at: updatedAt(),
  },
  (t) => [
    index('pad_custody_holder_user_idx').on(t.holder_user_id),
    index('pad_custody_holder_branch_idx').on(t.holder_branch_id),
    index('pad_custody_locked_by_invoice_idx')
      .on(t.locked_by_invoice_id)
      .where(sql`${t.locked_by_invoice_id} is not null`),
    /** docs/spec.md §4 "Pads available for issuing": the custody half of it, for the issue form and the stock by route. */
    index('pad_custody_available_idx')
      .on(t.pad_id)
      .where(sql`${t.issuance_status_id} = 1 and ${t.locked_by_invoice_id} is null`),
  ],
);

/**
 * How many pads of a route have ids in each block of 1,024 ids (block = id >> 10), kept exact by triggers
 * on pads in the writing transaction (migration 0002). The pad list reads its total and finds the block a
 * page starts in from these few rows instead of counting and offsetting the whole table.
 */
export const padIdBlocks = pgTable(
  'pad_id_blocks',
  {
    route_id: integer('route_id').notNull(),
    block: integer('block').notNull(),
    pads: integer('pads').notNull(),
  },
  (t) => [primaryKey({ name: 'pad_id_blocks_pk', columns: [t.route_id, t.block] })],
);
