import { setImmediate as yieldToRequests } from 'node:timers/promises';
import { dateInZone } from '../../../shared/format.ts';
import { IMMEDIATE_MAIL_KINDS, type AlertKind } from '../../../shared/schemas/notifications.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { enqueueDelivery } from '../deliveries/lifecycle.ts';
import { alertPeople } from '../users/read-model.ts';
import type { AlertItem, EvaluationInput, Evaluator } from './alert-item.ts';
import { EVALUATORS } from './evaluators.ts';
import { alertMail, mailsKind } from './mails.ts';
import { People } from './people.ts';
import {
  mailSettingsOf,
  markMailed,
  openKeysOfKinds,
  resolveNotifications,
  upsertNotifications,
  type NewNotification,
  type NotificationRow,
} from './repo.ts';
import { currentReorderPoints, currentThresholds } from './thresholds.ts';

/** kind:subject:recipient:level:period — one notification per key, ever. */
export const dedupeKeyOf = (item: AlertItem) =>
  `${item.kind}:${item.subject.type}:${item.subject.id}:${item.recipientUserId}:${item.level}:${item.period}`;

/** A deactivated recipient's items go to their branch heads instead (none without a branch or head: the item is dropped). */
function deliverable(items: AlertItem[], people: People): NewNotification[] {
  const rows = new Map<string, NewNotification>();
  for (const item of items)
    for (const person of people.standIns(item.recipientUserId)) {
      const routed = { ...item, recipientUserId: person.id };
      const key = dedupeKeyOf(routed);
      if (rows.has(key)) continue;
      rows.set(key, {
        kind: item.kind,
        recipient_user_id: person.id,
        level: item.level,
        subject_type: item.subject.type,
        subject_id: String(item.subject.id),
        period: item.period,
        dedupe_key: key,
        title: item.title,
        body: item.body,
        link: item.link,
      });
    }
  return [...rows.values()];
}

/** Losses and failed checks are mailed as they open (dedupe `alert:<id>`), to active recipients who mail the kind. */
async function mailAtOnce(ctx: AppContext, tx: Conn, opened: NotificationRow[], people: People): Promise<number> {
  const toMail = opened.filter((row) => row.mailed_at === null && (IMMEDIATE_MAIL_KINDS as readonly string[]).includes(row.kind));
  if (toMail.length === 0) return 0;
  const settings = await mailSettingsOf(tx, [...new Set(toMail.map((row) => row.recipient_user_id))]);
  let mailed = 0;
  for (const row of toMail) {
    const person = people.get(row.recipient_user_id);
    const mine = new Map(settings.filter((s) => s.user_id === row.recipient_user_id).map((s) => [s.kind, s.email]));
    if (!person?.active || !person.email || !mailsKind(mine, row.kind)) continue;
    const fresh = await enqueueDelivery(tx, {
      channel: 'email',
      recipientUserId: person.id,
      to: person.email,
      kind: row.kind,
      dedupeKey: `alert:${row.id}`,
      ...alertMail(row, ctx.config.appUrl),
    });
    await markMailed(tx, row.id, new Date());
    if (fresh) mailed += 1;
  }
  return mailed;
}

export interface EvaluationResult {
  opened: number;
  resolved: number;
  mailed: number;
  failed: AlertKind[];
}

/**
 * Runs the evaluators one at a time (yielding between them, so requests on the embedded database keep flowing) and makes
 * the notifications match what they answer: new keys opened, keys nobody answers any more resolved, losses and failed
 * checks put in the outbox at once. Two runs at the same time (two instances) leave one row per key and one mail per item.
 */
export async function evaluateAlerts(
  ctx: AppContext,
  options: { now?: Date; kinds?: readonly AlertKind[]; evaluators?: readonly Evaluator[] } = {},
): Promise<EvaluationResult> {
  const now = options.now ?? new Date();
  const people = new People(await alertPeople(ctx.db));
  const input: EvaluationInput = {
    now,
    today: dateInZone(now, ctx.config.timeZone),
    thresholds: await currentThresholds(ctx),
    reorderPoints: await currentReorderPoints(ctx),
    people,
  };
  const result: EvaluationResult = { opened: 0, resolved: 0, mailed: 0, failed: [] };
  for (const evaluator of options.evaluators ?? EVALUATORS) {
    const kinds = options.kinds ? evaluator.kinds.filter((kind) => options.kinds?.includes(kind)) : evaluator.kinds;
    if (kinds.length === 0) continue;
    await yieldToRequests();
    const startedAt = new Date();
    let items: AlertItem[];
    try {
      items = (await evaluator.evaluate(ctx, input)).filter((item) => kinds.includes(item.kind));
    } catch (err) {
      ctx.log.error({ err, kinds }, 'alert evaluator failed; its notifications are left as they were');
      result.failed.push(...kinds);
      continue;
    }
    const rows = deliverable(items, people);
    const keys = new Set(rows.map((row) => row.dedupe_key));
    await ctx.db.transaction(async (tx) => {
      const opened = await upsertNotifications(tx, rows);
      result.opened += opened.length;
      result.mailed += await mailAtOnce(ctx, tx, opened, people);
      const stale = (await openKeysOfKinds(tx, kinds, startedAt)).filter((row) => !keys.has(row.dedupe_key));
      result.resolved += await resolveNotifications(
        tx,
        stale.map((row) => row.id),
        new Date(),
      );
    });
  }
  return result;
}
