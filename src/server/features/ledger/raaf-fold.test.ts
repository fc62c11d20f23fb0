import { describe, expect, it } from 'vitest';
import { foldRaaf, layeredRuns, type RaafEvent } from './raaf-fold.ts';

const HEAD_OFFICE = 1;
const GRACE = 6;

function event(
  kind: string,
  from: number,
  to: number,
  holderUserId: number | null,
  date: string,
  extra: Partial<RaafEvent> = {},
): RaafEvent {
  return {
    pad_id: 1,
    route_id: 3,
    kind,
    from_number: from,
    to_number: to,
    holder_user_id: holderUserId,
    holder_branch_id: HEAD_OFFICE,
    counterparty_user_id: null,
    counterparty_branch_id: null,
    invoice_id: null,
    reason: null,
    business_date: date,
    ...extra,
  };
}

describe('RAAF fold', () => {
  it('when a pad leaves a holder, comes back and is lost in the same month, then Issued counts its numbers twice and the quantities balance', () => {
    const events = [
      event('received', 1, 50, null, '2026-09-20'),
      event('transfer_out', 1, 50, null, '2026-09-22'),
      event('transfer_in', 1, 50, GRACE, '2026-09-22'),
      event('used', 1, 10, GRACE, '2026-09-26'),
      event('transfer_out', 11, 50, GRACE, '2026-10-10', { invoice_id: 7 }),
      event('transfer_in', 11, 50, null, '2026-10-10', { invoice_id: 7 }),
      event('transfer_out', 11, 50, null, '2026-10-17', { invoice_id: 9 }),
      event('transfer_in', 11, 50, GRACE, '2026-10-17', { invoice_id: 9 }),
      event('lost', 11, 50, GRACE, '2026-10-20', { reason: 'Lost overboard' }),
    ];
    const grace = foldRaaf(events, '2026-10-01').get(`u${GRACE}`)?.get(3);
    expect(grace).toMatchObject({
      beginning: [[11, 50]],
      receipt: [[11, 50]],
      issued: [
        [11, 50],
        [11, 50],
      ],
      ending: [],
      byKind: { used: 0, cancelled: 0, lost: 40, transferred: 40 },
      balanced: true,
    });
    const office = foldRaaf(events, '2026-10-01').get(`b${HEAD_OFFICE}`)?.get(3);
    expect(office).toMatchObject({
      beginning: [],
      receipt: [[11, 50]],
      issued: [[11, 50]],
      ending: [],
      byKind: { transferred: 40 },
      balanced: true,
    });
  });

  it('when ranges overlap, then each number lies in as many runs as ranges cover it, and touching runs join', () => {
    expect(
      layeredRuns([
        [1, 5],
        [6, 10],
        [4, 7],
        [20, 20],
      ]),
    ).toEqual([
      [1, 10],
      [4, 7],
      [20, 20],
    ]);
    expect(layeredRuns([])).toEqual([]);
  });
});
