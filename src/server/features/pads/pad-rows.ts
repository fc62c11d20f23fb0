import { heldByText, seriesRange } from '../../../shared/format.ts';
import type { PadListRow } from '../../../shared/list-columns.ts';
import { seriesFromStatus, seriesSummary } from '../../../shared/pad-status.ts';
import type { PendingOutcome } from '../../../shared/pending-outcomes.ts';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import type { RegisteredSeriesRef } from '../../../shared/schemas/registered-series.ts';
import type { PadRecord } from './read-model.ts';

export type JoinedRow = {
  holder: { user: string | null; branch: string | null };
  pad: PadRecord;
  route: { id: number; name: string; tin: string; company_id: number };
  company: NamedRef;
  pad_status: NamedRef;
  issuance_status: NamedRef;
  registered_series: RegisteredSeriesRef | null;
  pending_outcomes: PendingOutcome[];
};

export function toPad(row: JoinedRow): Pad {
  const p = row.pad;
  return {
    id: p.id,
    route_id: p.route_id,
    route: { ...row.route, company: row.company },
    number: p.number,
    series_number: seriesRange(p.series_from, p.series_to),
    series_from: p.series_from,
    series_to: p.series_to,
    pad_status_id: p.pad_status_id,
    pad_status: row.pad_status,
    issuance_status_id: p.issuance_status_id,
    issuance_status: row.issuance_status,
    remarks: p.remarks,
    series: seriesFromStatus(p.series_from, p.series_status),
    ...seriesSummary(p.series_from, p.series_status),
    holder_user_id: p.holder_user_id,
    holder_branch_id: p.holder_branch_id,
    held_by: heldByText(row.holder),
    locked_by_invoice_id: p.locked_by_invoice_id,
    pending_outcomes: row.pending_outcomes,
    registered_series: row.registered_series,
    updated_at: p.updated_at.toISOString(),
  };
}

/** A row of the Inventories export as the cursor reads it: the pad's own fields and the names the list shows. */
export interface PadExportRow {
  id: number;
  number: number;
  series_from: number | string;
  series_to: number | string;
  series_status: string;
  remarks: string | null;
  route_id: number;
  route_name: string;
  route_tin: string;
  company_id: number;
  company_name: string;
  pad_status_id: number;
  pad_status_name: string;
  issuance_status_id: number;
  issuance_status_name: string;
  holder_user_name: string | null;
  holder_branch_name: string | null;
}

/** One export row as the Inventories list words it: the same series, next number and holder texts as the screen. */
export function toListRow(row: PadExportRow): PadListRow {
  return {
    id: row.id,
    route: {
      id: row.route_id,
      name: row.route_name,
      tin: row.route_tin,
      company_id: row.company_id,
      company: { id: row.company_id, name: row.company_name },
    },
    number: row.number,
    series_number: seriesRange(row.series_from, row.series_to),
    next_number: seriesSummary(Number(row.series_from), row.series_status).next_number,
    pad_status: { id: row.pad_status_id, name: row.pad_status_name },
    issuance_status: { id: row.issuance_status_id, name: row.issuance_status_name },
    remarks: row.remarks,
    held_by: heldByText({ user: row.holder_user_name, branch: row.holder_branch_name }),
  };
}
