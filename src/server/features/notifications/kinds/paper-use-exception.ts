import { dayTimeText, numberRange } from '../../../../shared/format.ts';
import { can } from '../../../../shared/permissions.ts';
import { exceptionQueue } from '../../outages/read-model.ts';
import type { AlertItem, Evaluator } from '../alert-item.ts';

const QUEUE_LIMIT = 1000;

/** Paper used outside an outage (issue 38): each open exception, to whoever decides them (Admin, Accounting), as Needs my action. */
export const evaluator: Evaluator = {
  kinds: ['paper_use_exception'],
  evaluate: async (ctx, input) => {
    const rows = await exceptionQueue(ctx.db, QUEUE_LIMIT);
    if (rows.length === 0) return [];
    const deciders = input.people.all.filter((person) => person.active && can(person, 'paperUse.decide'));
    const items: AlertItem[] = [];
    for (const row of rows)
      for (const person of deciders)
        items.push({
          kind: 'paper_use_exception',
          recipientUserId: person.id,
          level: 0,
          subject: { type: 'paper_use', id: row.id },
          period: 'open',
          title: `Paper used outside an outage: ${numberRange(row.number_from, row.number_to, '\u2013')} · ${row.branch_name}`,
          body: [`pad ${row.pad_number}`, row.route_name, dayTimeText(row.used_at, ctx.config.timeZone), row.holder_name]
            .filter(Boolean)
            .join(' · '),
          link: `/outages?tab=exceptions&exception=${row.id}`,
        });
    return items;
  },
};
