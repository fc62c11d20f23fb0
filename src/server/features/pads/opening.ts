import { ISSUANCE_STATUS, PAD_STATUS } from '../../../shared/lookups.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { recordOpeningBalances, type OpeningPad } from '../ledger/writer.ts';
import * as repo from './repo.ts';

export { overlappingPads, takenPadNumbers } from './repo.ts';

const CHUNK = 5000;

/** One pad of an opening-balance import (docs/design.md §10), checked and resolved to ids; `line` is its line in the file. */
export interface OpeningPadRow {
  line: number;
  routeId: number;
  number: number;
  from: number;
  to: number;
  holderUserId: number | null;
  holderBranchId: number | null;
  used: Array<[number, number]>;
  cancelled: Array<[number, number]>;
  remarks: string | null;
}

/** The series text of a pad: '2' used, '3' cancelled, '1' not used (docs/design.md §9). */
function seriesText(row: OpeningPadRow): string {
  const digits = new Array<string>(row.to - row.from + 1).fill('1');
  for (const [from, to] of row.used) for (let n = from; n <= to; n += 1) digits[n - row.from] = '2';
  for (const [from, to] of row.cancelled) for (let n = from; n <= to; n += 1) digits[n - row.from] = '3';
  return digits.join('');
}

function padStatusOf(text: string): number {
  const unused = text.split('1').length - 1;
  if (unused === text.length) return PAD_STATUS.UNUSED;
  return unused === 0 ? PAD_STATUS.USED : PAD_STATUS.PARTIALLY_USED;
}

/**
 * docs/design.md §10: stores the pads of an opening balance in the caller's transaction, each with its holder, its
 * consumed numbers and the registered series it lies inside, and writes their `opening` and outcome events. An
 * overlap with a stored pad is refused by the pads' exclusion constraint (the caller names the line).
 */
export async function insertOpeningPads(
  tx: Conn,
  ctx: Pick<AppContext, 'config' | 'ledgerClock'>,
  rows: OpeningPadRow[],
  input: { importId: number; actorId: number | null },
): Promise<void> {
  const headOffice = ctx.config.headOfficeBranchId;
  const opening: OpeningPad[] = [];
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const json = JSON.stringify(
      chunk.map((row) => {
        const text = seriesText(row);
        return {
          route_id: row.routeId,
          number: row.number,
          series_from: row.from,
          series_to: row.to,
          series_status: text,
          pad_status_id: padStatusOf(text),
          issuance_status_id:
            row.holderUserId === null && row.holderBranchId === headOffice ? ISSUANCE_STATUS.NOT_ISSUED : ISSUANCE_STATUS.ISSUED,
          remarks: row.remarks,
          holder_user_id: row.holderUserId,
          holder_branch_id: row.holderBranchId,
        };
      }),
    );
    const inserted = await repo.insertPadsFromJson(tx, json, input.actorId);
    const ids = new Map(inserted.map((row) => [`${row.route_id}:${row.number}`, Number(row.id)]));
    for (const row of chunk) {
      opening.push({
        padId: ids.get(`${row.routeId}:${row.number}`) ?? 0,
        routeId: row.routeId,
        from: row.from,
        to: row.to,
        holderUserId: row.holderUserId,
        holderBranchId: row.holderBranchId,
        used: row.used,
        cancelled: row.cancelled,
      });
    }
  }
  await recordOpeningBalances(tx, ctx, opening, input);
}
