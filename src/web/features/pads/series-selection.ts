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
