import type { Raaf } from '../src/shared/schemas/ledger.ts';

/** The RAAF with its rows' ranges cut to none, or its remarks dropped (no issued line either), or both: what each PDF section costs. */
export function variant(raaf: Raaf, keep: { table: boolean; remarks: boolean }): Raaf {
  const empty = { qty: 0, ranges: [] as Array<[number, number]> };
  return {
    ...raaf,
    rows: raaf.rows.map((row) => ({
      ...row,
      beginning: keep.table ? row.beginning : empty,
      receipt: keep.table ? row.receipt : empty,
      issued: { ...(keep.table ? row.issued : { ...empty, by_kind: row.issued.by_kind }), qty: keep.remarks ? row.issued.qty : 0 },
      ending: keep.table ? row.ending : empty,
      remarks: keep.remarks ? row.remarks : [],
    })),
  };
}
