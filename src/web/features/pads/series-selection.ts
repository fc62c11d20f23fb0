/** A run of receipt numbers picked in the series grid, from ≤ to. */
export interface NumberRange {
  from: number;
  to: number;
}

/** The run between two numbers, whichever comes first. */
export const span = (a: number, b: number): NumberRange => ({ from: Math.min(a, b), to: Math.max(a, b) });

/**
 * What a click or tap does to the picked range (docs/design.md §9 usage by range): the first number, then the last (a range);
 * a tap on the one picked number clears it, a tap after a range starts over. Shift-click stretches from the first
 * number picked (the anchor).
 */
export function nextSelection(current: NumberRange | null, anchor: number | null, number: number, shift: boolean): NumberRange | null {
  if (shift && anchor !== null) return span(anchor, number);
  if (current === null) return { from: number, to: number };
  if (current.from === current.to) return current.from === number ? null : span(current.from, number);
  return { from: number, to: number };
}

/** What the typed range answers: the run, or why it cannot be picked. */
export type TypedRange = { range: NumberRange } | { error: string };

/**
 * The typed range beside the grid (docs/design.md §9 usage by range, for keyboards and long booklets): "100251–100287",
 * "100251-100287", "100251 to 100287" or one number, inside the pad's series.
 */
export function parseTypedRange(text: string, series: { from: number; to: number }): TypedRange {
  const match = /^\s*(\d{1,15})\s*(?:(?:[-\u2013\u2014]|to)\s*(\d{1,15})\s*)?$/i.exec(text);
  if (!match) return { error: 'Type a number or a range, e.g. 100251–100287' };
  const range = span(Number(match[1]), Number(match[2] ?? match[1]));
  if (range.from < series.from || range.to > series.to) return { error: `This pad holds ${series.from}–${series.to}` };
  return { range };
}
