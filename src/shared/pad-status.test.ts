import { describe, expect, it } from 'vitest';
import { PAD_STATUS } from './lookups.ts';
import { derivePadStatus, toggleEntry } from './pad-status.ts';

const series = (...statuses: number[]) => statuses.map((status, i) => ({ number: 100 + i, status }));

describe('pad status from the series', () => {
  it('when all, some or no entries are used, then the pad is Used, Partially Used or Unused', () => {
    expect(derivePadStatus(series(2, 2, 2), PAD_STATUS.UNUSED)).toBe(PAD_STATUS.USED);
    expect(derivePadStatus(series(1, 2, 1), PAD_STATUS.UNUSED)).toBe(PAD_STATUS.PARTIALLY_USED);
    expect(derivePadStatus(series(1, 1, 1), PAD_STATUS.USED)).toBe(PAD_STATUS.UNUSED);
  });

  it('when the pad is Cancelled or Lost, then toggling entries keeps that status', () => {
    expect(derivePadStatus(series(2, 2), PAD_STATUS.CANCELLED)).toBe(PAD_STATUS.CANCELLED);
    expect(derivePadStatus(series(1, 2), PAD_STATUS.LOST)).toBe(PAD_STATUS.LOST);
  });

  it('when an entry is toggled, then only that entry flips between 1 and 2', () => {
    const once = toggleEntry(series(1, 1, 2), 101);
    expect(once.map((e) => e.status)).toEqual([1, 2, 2]);
    expect(toggleEntry(once, 101).map((e) => e.status)).toEqual([1, 1, 2]);
    expect(once.map((e) => e.number)).toEqual([100, 101, 102]);
  });
});
