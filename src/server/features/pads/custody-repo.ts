import { and, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { AVAILABLE_FOR_ISSUING } from '../../../shared/custody-rules.ts';
import { padCustody, pads } from '../../db/schema/pads.ts';

/** pad_custody beside its pad: every pad has its custody row (migration 0028), written in the statement that makes the pad. */
export const custodyOfPad = eq(padCustody.pad_id, pads.id);

/** A pad's updated_at as the API shows it: its last change, to the pad row or to its custody (issue 39 point 4). */
export const padUpdatedAt = sql<Date>`greatest(${pads.updated_at}, ${padCustody.updated_at})`.mapWith(pads.updated_at);

/** The whole pad, its custody included, as the rules of docs/design.md §9 read it. */
export const padRecordColumns = {
  ...getTableColumns(pads),
  issuance_status_id: padCustody.issuance_status_id,
  holder_user_id: padCustody.holder_user_id,
  holder_branch_id: padCustody.holder_branch_id,
  locked_by_invoice_id: padCustody.locked_by_invoice_id,
  updated_at: padUpdatedAt,
};

export type PadRecord = typeof pads.$inferSelect & {
  issuance_status_id: number;
  holder_user_id: number | null;
  holder_branch_id: number | null;
  locked_by_invoice_id: number | null;
};

/**
 * docs/spec.md §4 "Pads available for issuing" (custody-rules.ts) on `pads` joined to `pad_custody` (whose
 * pad_custody_available_idx answers the custody half); and() is never undefined: its first two aren't.
 */
export const availableForIssuing = () =>
  and(
    eq(padCustody.issuance_status_id, AVAILABLE_FOR_ISSUING.issuance_status_id),
    inArray(pads.pad_status_id, [...AVAILABLE_FOR_ISSUING.pad_status_ids]),
    AVAILABLE_FOR_ISSUING.locked ? undefined : isNull(padCustody.locked_by_invoice_id),
    AVAILABLE_FOR_ISSUING.lostNumbers ? undefined : sql`position('4' in ${pads.series_status}) = 0`,
  ) as SQL;
