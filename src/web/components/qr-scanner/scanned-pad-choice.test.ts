import { describe, expect, it } from 'vitest';
import { PAD_STATUS } from '../../../shared/lookups.ts';
import { LABEL_MSG } from '../../../shared/schemas/counts.ts';
import { whyNotOffered, type ScannedPad } from './scanned-pad-choice.ts';

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
