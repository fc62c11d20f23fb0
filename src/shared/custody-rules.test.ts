import { describe, expect, it } from 'vitest';
import { movablePadRefusal } from './custody-rules.ts';
import { PAD_STATUS } from './lookups.ts';
import { LABEL_MSG } from './schemas/counts.ts';

describe('a scanned pad in the Return and Turnover pickers', () => {
  const mine = { number: 7, holder_user_id: 12, locked_by_invoice_id: null, pad_status_id: PAD_STATUS.PARTIALLY_USED };

  it('when the caller holds the pad, unlocked and not lost, then it may be selected', () => {
    expect(movablePadRefusal(mine, 12)).toBeNull();
  });

  it('when the pad is in transit, lost, someone else’s or a branch’s stock, then the refusal says which', () => {
    expect(movablePadRefusal({ ...mine, locked_by_invoice_id: 40 }, 12)).toBe(LABEL_MSG.inTransit(7));
    expect(movablePadRefusal({ ...mine, pad_status_id: PAD_STATUS.LOST }, 12)).toBe(LABEL_MSG.lost(7));
    expect(movablePadRefusal(mine, 13)).toBe(LABEL_MSG.notYours(7));
    expect(movablePadRefusal({ ...mine, holder_user_id: null }, 12)).toBe(LABEL_MSG.notYours(7));
    expect(movablePadRefusal(mine, undefined)).toBe(LABEL_MSG.notYours(7));
  });
});
