/** A cancellation or loss of some of a pad's numbers asked for and not yet decided (docs/design.md §9 approval). */
export interface PendingOutcome {
  from: number;
  to: number;
  outcome: 'cancelled' | 'lost';
  requested_by: string;
}

/** "cancellation pending" or "loss pending": how the grid, the history and the refusal name a waiting request. */
export const pendingWord = (outcome: PendingOutcome['outcome']) => (outcome === 'cancelled' ? 'cancellation pending' : 'loss pending');

/** The waiting request that covers a number, if any. */
export const pendingAt = (pending: readonly PendingOutcome[], number: number): PendingOutcome | null =>
  pending.find((request) => number >= request.from && number <= request.to) ?? null;

/**
 * docs/design.md §9: while a cancellation or loss of a number waits for approval, the number may not be used (nor asked
 * for again). The first such number of from..to, or null; the server refuses usage with it and the web hides Mark used.
 */
export function firstPendingIn(
  pending: readonly PendingOutcome[],
  from: number,
  to: number,
): { number: number; request: PendingOutcome } | null {
  let first: { number: number; request: PendingOutcome } | null = null;
  for (const request of pending) {
    if (request.to < from || request.from > to) continue;
    const number = Math.max(from, request.from);
    if (!first || number < first.number) first = { number, request };
  }
  return first;
}
