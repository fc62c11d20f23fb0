import { describe, expect, it } from 'vitest';
import { foldRaaf, layeredRuns, type RaafEvent } from './raaf-fold.ts';
import { undoneRuns, type UndoneOriginal } from './undone-runs.ts';

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

  it('when one invoice transfers contiguous pads, then one remark covers them; a gap, another invoice or receiver, or a cancellation keeps its own', () => {
    const pad = (padId: number, from: number) => [
      event('received', from, from + 49, null, '2026-10-01', { pad_id: padId }),
      event('transfer_out', from, from + 49, null, '2026-10-02', { pad_id: padId, invoice_id: 7, counterparty_branch_id: 2 }),
    ];
    const events = [
      ...pad(1, 1001),
      ...pad(2, 1051),
      ...pad(3, 1101),
      ...pad(4, 1201),
      event('received', 1251, 1300, null, '2026-10-01', { pad_id: 5 }),
      event('transfer_out', 1251, 1300, null, '2026-10-02', { pad_id: 5, invoice_id: 8, counterparty_branch_id: 2 }),
      event('received', 1301, 1350, null, '2026-10-01', { pad_id: 6 }),
      event('transfer_out', 1301, 1350, null, '2026-10-02', { pad_id: 6, invoice_id: 8, counterparty_branch_id: 3 }),
      event('received', 1351, 1400, null, '2026-10-01', { pad_id: 7 }),
      event('cancelled', 1351, 1351, null, '2026-10-03', { pad_id: 7, reason: 'Spoiled' }),
      event('received', 1401, 1450, null, '2026-10-01', { pad_id: 8 }),
      event('cancelled', 1401, 1401, null, '2026-10-03', { pad_id: 8, reason: 'Spoiled' }),
    ];
    const office = foldRaaf(events, '2026-10-01').get(`b${HEAD_OFFICE}`)?.get(3);
    expect(office?.remarks.map((remark) => [remark.kind, remark.from, remark.to, remark.invoiceId, remark.counterpartyBranchId])).toEqual([
      ['transfer_out', 1001, 1150, 7, 2],
      ['transfer_out', 1201, 1250, 7, 2],
      ['transfer_out', 1251, 1300, 8, 2],
      ['transfer_out', 1301, 1350, 8, 3],
      ['cancelled', 1351, 1351, null, null],
      ['cancelled', 1401, 1401, null, null],
    ]);
    expect(office?.byKind.transferred).toBe(300);
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

const ANA = 7;
const BEN = 8;

function original(seq: number, from: number, to: number, kind: string, extra: Partial<UndoneOriginal> = {}): UndoneOriginal {
  return {
    seq,
    from_number: from,
    to_number: to,
    kind,
    actor_user_id: ANA,
    business_date: '2026-11-04',
    reason: null,
    incident_number: null,
    ...extra,
  };
}

const runsOfRemark = (from: number, to: number, originals: UndoneOriginal[]) =>
  undoneRuns(from, to, originals).map((run) => [run.from, run.to, run.original?.seq ?? null]);

describe('undo remark runs', () => {
  it.each([
    {
      undo: 'a cancellation undone',
      kind: 'cancelled',
      reasons: ['Spoiled (torn, stained, misprinted): coffee', 'Skipped in sequence: torn out'],
    },
    { undo: 'an unmarked use', kind: 'used', reasons: [null, 'Opening balance (import #3)'] },
    { undo: 'a find', kind: 'lost', reasons: ['LOSS-2026-0001: lost at Calapan pier', 'LOSS-2026-0001: lost on the ferry'] },
    { undo: 'a reinstated pad', kind: 'cancelled', reasons: ['Pad cancelled', 'Water damage'] },
  ])(
    'when $undo covers numbers whose originals differ by month, actor, day or reason, then the remark is cut at each difference and runs with equal originals join',
    ({ kind, reasons: [first, second] }) => {
      const incident = kind === 'lost' ? { incident_number: 'LOSS-2026-0001' } : {};
      const originals = [
        original(2, 1001, 1002, kind, { ...incident, business_date: '2026-10-20', reason: first }),
        original(3, 1003, 1003, kind, { ...incident, business_date: '2026-11-20', reason: first }),
        original(4, 1004, 1004, kind, { ...incident, business_date: '2026-11-20', reason: first, actor_user_id: BEN }),
        original(5, 1005, 1005, kind, { ...incident, reason: first, actor_user_id: BEN }),
        original(6, 1006, 1006, kind, { ...incident, reason: second, actor_user_id: BEN }),
        original(7, 1007, 1008, kind, { ...incident, reason: second, actor_user_id: BEN }),
      ];
      expect(runsOfRemark(1001, 1008, originals)).toEqual([
        [1001, 1002, 2],
        [1003, 1003, 3],
        [1004, 1004, 4],
        [1005, 1005, 5],
        [1006, 1008, 6],
      ]);
    },
  );

  it('when found numbers were lost on two incidents, then each incident gets its own run', () => {
    const originals = [
      original(2, 1001, 1003, 'lost', { reason: 'LOSS-2026-0001: lost at pier', incident_number: 'LOSS-2026-0001' }),
      original(3, 1004, 1005, 'lost', { reason: 'LOSS-2026-0001: lost at pier', incident_number: 'LOSS-2026-0002' }),
    ];
    expect(runsOfRemark(1002, 1005, originals)).toEqual([
      [1002, 1003, 2],
      [1004, 1005, 3],
    ]);
  });

  it('when a number was used, unmarked and used again, then its latest use is the original; a number with none is a run of its own', () => {
    const originals = [
      original(2, 1001, 1004, 'used', { business_date: '2026-10-02' }),
      original(4, 1003, 1004, 'used', { business_date: '2026-11-02' }),
      original(3, 1001, 1002, 'cancelled', { business_date: '2026-10-02' }),
    ];
    expect(runsOfRemark(1001, 1006, originals)).toEqual([
      [1001, 1002, 3],
      [1003, 1004, 4],
      [1005, 1006, null],
    ]);
  });

  it('when one revert brings back 1005-1006 cancelled last month by one person and 1007 this month by another, then the fold\u2019s one remark becomes two runs', () => {
    const cancelledByAna = { business_date: '2026-10-20', reason: 'Spoiled (torn, stained, misprinted): coffee' };
    const cancelledByBen = { business_date: '2026-11-03', reason: 'Spoiled (torn, stained, misprinted): ink', actor_user_id: BEN };
    const events = [
      event('received', 1001, 1050, null, '2026-10-05', { seq: 1 }),
      event('cancelled', 1005, 1006, null, cancelledByAna.business_date, { seq: 2, reason: cancelledByAna.reason }),
      event('cancelled', 1007, 1007, null, cancelledByBen.business_date, { seq: 3, reason: cancelledByBen.reason }),
      event('cancel_reverted', 1005, 1007, null, '2026-11-10', { seq: 4, reason: 'Cancelled by mistake' }),
    ];
    const cells = foldRaaf(events, '2026-11-01').get(`b${HEAD_OFFICE}`)?.get(3);
    expect(cells?.receipt).toEqual([[1005, 1007]]);
    const undo = cells?.remarks.filter((remark) => remark.kind === 'undone');
    expect(undo).toEqual([expect.objectContaining({ from: 1005, to: 1007, eventKind: 'cancel_reverted', padId: 1, seq: 4 })]);
    const originals = [original(2, 1005, 1006, 'cancelled', cancelledByAna), original(3, 1007, 1007, 'cancelled', cancelledByBen)];
    expect(undoneRuns(1005, 1007, originals)).toEqual([
      { from: 1005, to: 1006, original: originals[0] },
      { from: 1007, to: 1007, original: originals[1] },
    ]);
  });
});
