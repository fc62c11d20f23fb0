import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { AppContext } from '../../context.ts';
import { enqueueDelivery } from '../deliveries/lifecycle.ts';
import { alertPeople } from '../users/read-model.ts';
import { digestMail, mailsKind } from './mails.ts';
import { mailSettingsOf, openNotifications, type NotificationRow } from './repo.ts';

/** Issue 37: the digest goes out at 07:00 in APP_TIMEZONE. */
export const DIGEST_HOUR = 7;

/**
 * One mail per active person with open items they get by mail, for `day`: each open item once, with its link, HTML and
 * text, put in the outbox under `digest:<user>:<day>` (a second run, here or on another instance, adds nothing).
 * Answers how many digests were new. One short transaction per person.
 */
export async function sendDigests(ctx: AppContext, day: string): Promise<number> {
  const open = await openNotifications(ctx.db);
  const byUser = new Map<number, NotificationRow[]>();
  for (const row of open) byUser.set(row.recipient_user_id, [...(byUser.get(row.recipient_user_id) ?? []), row]);
  if (byUser.size === 0) return 0;
  const people = new Map((await alertPeople(ctx.db)).map((person) => [person.id, person]));
  const settings = await mailSettingsOf(ctx.db, [...byUser.keys()]);
  let sent = 0;
  for (const [userId, rows] of byUser) {
    const person = people.get(userId);
    if (!person?.active || !person.email) continue;
    const mine = new Map(settings.filter((s) => s.user_id === userId).map((s) => [s.kind, s.email]));
    const seen = new Set<string>();
    const items = rows.filter((row) => {
      if (!mailsKind(mine, row.kind) || seen.has(row.dedupe_key)) return false;
      seen.add(row.dedupe_key);
      return true;
    });
    if (items.length === 0) continue;
    await yieldToRequests();
    const mail = digestMail(person.full_name, day, items, ctx.config.appUrl);
    const fresh = await ctx.db.transaction((tx) =>
      enqueueDelivery(tx, {
        channel: 'email',
        recipientUserId: userId,
        to: person.email,
        kind: 'digest',
        dedupeKey: `digest:${userId}:${day}`,
        ...mail,
        payload: { notification_ids: items.map((item) => item.id) },
      }),
    );
    if (fresh) sent += 1;
  }
  return sent;
}
