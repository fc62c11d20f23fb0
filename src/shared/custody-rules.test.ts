import { describe, expect, it } from 'vitest';
import { LABEL_MSG, movablePadRefusal, whyNotIssuable, whyNotOffered, type IssuingPad, type ScannedPad } from './custody-rules.ts';
import { ISSUANCE_STATUS, PAD_STATUS } from './lookups.ts';

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

const scanned = (changes: Partial<ScannedPad> = {}): ScannedPad => ({
  id: 7,
  number: 17,
  pad_status_id: PAD_STATUS.UNUSED,
  locked_by_invoice_id: null,
  route_id: 1,
  route: { name: 'Batangas - Calapan' },
  ...changes,
});

describe('a scanned pad label in a picker of the user\u2019s own pads (Report a loss)', () => {
  const offered = [
    { id: 7, route_id: 1 },
    { id: 8, route_id: 1 },
  ];

  it('when the pad is one offered, then it can be chosen, also while its own invoice carries it', () => {
    expect(whyNotOffered(scanned(), offered)).toBeNull();
    expect(whyNotOffered(scanned({ locked_by_invoice_id: 40 }), offered, 40)).toBeNull();
  });

  it('when the pad is lost, in transit elsewhere, on another route or someone else\u2019s, then the picker says which', () => {
    expect(whyNotOffered(scanned({ pad_status_id: PAD_STATUS.LOST }), offered)).toBe(LABEL_MSG.lost(17));
    expect(whyNotOffered(scanned({ id: 9, locked_by_invoice_id: 41 }), offered, 40)).toBe(LABEL_MSG.inTransit(17));
    expect(whyNotOffered(scanned({ id: 9, route_id: 2, route: { name: 'Lucena - Marinduque' } }), offered)).toBe(
      LABEL_MSG.wrongRoute(17, 'Lucena - Marinduque'),
    );
    expect(whyNotOffered(scanned({ id: 9 }), offered)).toBe(LABEL_MSG.notYours(17));
    expect(whyNotOffered(scanned({ id: 9, route_id: 2 }), [{ id: 7 }])).toBe(LABEL_MSG.notYours(17));
  });
});

describe('a scanned pad label on the issue form of a request', () => {
  const pad = (changes: Partial<IssuingPad> = {}): IssuingPad => ({
    number: 17,
    route_id: 1,
    route: { name: 'Lucena - Marinduque' },
    pad_status_id: PAD_STATUS.UNUSED,
    issuance_status_id: ISSUANCE_STATUS.NOT_ISSUED,
    locked_by_invoice_id: null,
    number_counts: { not_used: 50, used: 0, cancelled: 0, lost: 0 },
    ...changes,
  });

  it('when the pad is on the route, not issued, unused or partly used, unlocked and with no lost number, then it can be issued', () => {
    expect(whyNotIssuable(pad(), 1)).toBeNull();
    expect(whyNotIssuable(pad({ pad_status_id: PAD_STATUS.PARTIALLY_USED }), 1)).toBeNull();
  });

  it('when the pad is on another route, in transit, lost, issued, used up or holds a lost number, then the form says which', () => {
    expect(whyNotIssuable(pad(), 2)).toBe(LABEL_MSG.wrongRoute(17, 'Lucena - Marinduque'));
    expect(whyNotIssuable(pad({ locked_by_invoice_id: 40 }), 1)).toBe(LABEL_MSG.inTransit(17));
    expect(whyNotIssuable(pad({ pad_status_id: PAD_STATUS.LOST }), 1)).toBe(LABEL_MSG.lost(17));
    expect(whyNotIssuable(pad({ issuance_status_id: ISSUANCE_STATUS.ISSUED }), 1)).toBe(LABEL_MSG.notAvailable(17));
    expect(whyNotIssuable(pad({ pad_status_id: PAD_STATUS.USED }), 1)).toBe(LABEL_MSG.notAvailable(17));
    expect(whyNotIssuable(pad({ pad_status_id: PAD_STATUS.CANCELLED }), 1)).toBe(LABEL_MSG.notAvailable(17));
    expect(whyNotIssuable(pad({ number_counts: { not_used: 49, used: 0, cancelled: 0, lost: 1 } }), 1)).toBe(LABEL_MSG.notAvailable(17));
  });
});
