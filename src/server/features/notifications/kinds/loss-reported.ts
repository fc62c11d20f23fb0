import { ROLE } from '../../../../shared/lookups.ts';
import { can } from '../../../../shared/permissions.ts';
import { confirmQueue } from '../../incidents/read-model.ts';
import type { AlertItem, Evaluator } from '../alert-item.ts';

const QUEUE_LIMIT = 500;

/** Loss reported: every reported loss, to each user who may confirm it (incidents' confirm queue, as Needs my action). */
export const evaluator: Evaluator = {
  kinds: ['loss_reported'],
  evaluate: async (ctx, input) => {
    const items: AlertItem[] = [];
    for (const person of input.people.all) {
      if (!person.active || !can(person, 'incident.decide')) continue;
      const rows = await confirmQueue(ctx.db, person, person.role_id === ROLE.BRANCH_HEAD, QUEUE_LIMIT);
      for (const row of rows)
        items.push({
          kind: 'loss_reported',
          recipientUserId: person.id,
          level: 0,
          subject: { type: 'incident', id: row.id },
          period: 'reported',
          title: `Loss reported: ${row.number}`,
          body: `A loss of accountable forms was reported (${row.place}). Confirm or reject it.`,
          link: `/incidents?incident=${row.id}`,
        });
    }
    return items;
  },
};
