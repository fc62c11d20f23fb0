/** A use or write-off that an undo brought back (docs/raaf-rules.md: the original), with the numbers it covered. */
export interface UndoneOriginal {
  seq: number;
  from_number: number;
  to_number: number;
  kind: string;
  actor_user_id: number | null;
  business_date: string;
  reason: string | null;
  incident_number: string | null;
}

/** A run of an undo remark's numbers that share one description of their original (none found: `undefined`). */
export interface UndoneRun {
  from: number;
  to: number;
  original: UndoneOriginal | undefined;
}

const originalKey = (original: UndoneOriginal) =>
  JSON.stringify([original.kind, original.actor_user_id, original.business_date, original.reason, original.incident_number]);

/**
 * An undo remark's numbers from..to cut wherever their originals differ: one revert may bring back numbers cancelled
 * by two people in two months, and each remark must name the original of every number it covers. A number's original
 * is the latest (highest seq) of `originals` covering it; neighbours stay in one run only when their originals agree
 * on kind, actor, day (so month, and earlier-or-not), reason and incident.
 */
export function undoneRuns(from: number, to: number, originals: readonly UndoneOriginal[]): UndoneRun[] {
  const owner: Array<UndoneOriginal | undefined> = Array.from({ length: to - from + 1 }, () => undefined);
  for (const original of [...originals].sort((a, b) => b.seq - a.seq)) {
    for (let n = Math.max(from, original.from_number); n <= Math.min(to, original.to_number); n += 1) owner[n - from] ??= original;
  }
  const keys = new Map<UndoneOriginal, string>();
  const keyOf = (original: UndoneOriginal | undefined) => {
    if (original === undefined) return '';
    let key = keys.get(original);
    if (key === undefined) {
      key = originalKey(original);
      keys.set(original, key);
    }
    return key;
  };
  const runs: UndoneRun[] = [];
  for (let n = from; n <= to; n += 1) {
    const original = owner[n - from];
    const last = runs.at(-1);
    if (last && keyOf(last.original) === keyOf(original)) last.to = n;
    else runs.push({ from: n, to: n, original });
  }
  return runs;
}
