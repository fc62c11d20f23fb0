import { dateInZone } from '../../../../shared/format.ts';
import { ROLE } from '../../../../shared/lookups.ts';
import * as counts from '../../counts/read-model.ts';
import type { AlertItem, Evaluator } from '../alert-item.ts';
import type { People } from '../people.ts';
import { isoWeek } from './kind-days.ts';
import { firstToldAt } from './kinds-repo.ts';

const DAY_MS = 86_400_000;

/**
 * Who counts a holder (counts read-model `due`: a branch head counts their branch's users, the head office everyone):
 * a user's branch heads, else (a branch's own stock, a user without a head) the head-office Custodian.
 */
function counters(people: People, row: counts.DueRow): number[] {
  const heads = row.type === 'user' ? people.branchHeads(row.branch_id).filter((p) => p.id !== row.id) : [];
  const who = heads.length > 0 ? heads : people.withRoles([ROLE.CUSTODIAN]).filter((p) => !(row.type === 'user' && p.id === row.id));
  return who.map((p) => p.id);
}

/**
 * Issue 37 count due: the holders the counts feature finds not counted for `count_due_days` (Needs my action's count-due
 * rule at the run's instant) are told to their counters once a week (period the ISO week), and to Accounting once the
 * count is `count_escalate_days` later still (level 1): from the last count, or for a holder never counted from when
 * their counters were first told. A closed count resolves both.
 */
export const evaluator: Evaluator = {
  kinds: ['count_due'],
  async evaluate(ctx, { now, today, thresholds, people }) {
    const rows = await counts.dueAt(ctx.db, thresholds.count_due_days, now);
    if (rows.length === 0) return [];
    const firstTold = await firstToldAt(ctx.db, 'count_due', 'count', false);
    const accounting = people.withRoles([ROLE.ACCOUNTING]).map((p) => p.id);
    const period = isoWeek(today);
    const items: AlertItem[] = [];
    for (const row of rows) {
      const subject = { type: 'count', id: `${row.type === 'user' ? 'u' : 'b'}:${row.id}` };
      const name = `${row.type === 'branch' ? 'Branch ' : ''}${row.name}`;
      const last = row.last_counted === null ? null : new Date(row.last_counted);
      const since = last ? `last counted ${dateInZone(last, ctx.config.timeZone)}` : 'never counted';
      const base = { kind: 'count_due' as const, subject, period, link: `/counts?${row.type}=${row.id}` };
      for (const recipientUserId of counters(people, row)) {
        items.push({
          ...base,
          recipientUserId,
          level: 0,
          title: `Count due: ${name}`,
          body: `${name} holds pads and was ${since}; counts are due every ${thresholds.count_due_days} days.`,
        });
      }
      const lateFrom = last
        ? last.getTime() + (thresholds.count_due_days + thresholds.count_escalate_days) * DAY_MS
        : (firstTold.get(subject.id) ?? now).getTime() + thresholds.count_escalate_days * DAY_MS;
      if (now.getTime() < lateFrom) continue;
      for (const recipientUserId of accounting) {
        items.push({
          ...base,
          recipientUserId,
          level: 1,
          title: `Count overdue: ${name}`,
          body: `${name} was ${since}: the count is more than ${thresholds.count_escalate_days} days late.`,
        });
      }
    }
    return items;
  },
};
