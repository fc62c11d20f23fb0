import { IMMEDIATE_MAIL_KINDS } from '../../../shared/schemas/notifications.ts';
import type { AppContext } from '../../context.ts';
import { dailyAt, type Job } from '../../db/jobs.ts';
import { DIGEST_HOUR, sendDigests } from './digest.ts';
import { evaluateAlerts } from './evaluate.ts';

/** How often every alert evaluator runs. */
export const ALERTS_EVERY_MINUTES = 5;

const slotOf = (now: Date, minutes: number) =>
  new Date(Math.floor(now.getTime() / (minutes * 60_000)) * minutes * 60_000).toISOString().slice(0, 16);

/**
 * The 'alerts' job (every few minutes, evaluator by evaluator), 'alerts-urgent' (each minute, only the kinds mailed at
 * once: a reported loss reaches its approvers within a minute) and the 07:00 'digest' job (one mail per person per day).
 */
export function notificationJobs(ctx: AppContext): Job[] {
  const digestPeriod = dailyAt(ctx.config.timeZone, DIGEST_HOUR);
  return [
    {
      name: 'alerts',
      description: 'Finds what is late and opens or resolves notifications; mails losses and failed checks at once',
      everyMs: 60_000,
      period: (now) => slotOf(now, ALERTS_EVERY_MINUTES),
      run: async (now) => {
        const result = await evaluateAlerts(ctx, { now });
        if (result.failed.length > 0) throw new Error(`alert evaluators failed: ${result.failed.join(', ')}`);
      },
    },
    {
      name: 'alerts-urgent',
      description: 'Opens the alerts mailed at once (losses, failed checks, paper used outside an outage) within a minute',
      everyMs: 60_000,
      period: (now) => slotOf(now, 1),
      run: async (now) => {
        const result = await evaluateAlerts(ctx, { now, kinds: IMMEDIATE_MAIL_KINDS });
        if (result.failed.length > 0) throw new Error(`alert evaluators failed: ${result.failed.join(', ')}`);
      },
    },
    {
      name: 'digest',
      description: 'Mails each person, once a day at 07:00, what is open for them',
      everyMs: 5 * 60_000,
      period: digestPeriod,
      run: async (now) => {
        await evaluateAlerts(ctx, { now });
        await sendDigests(ctx, digestPeriod(now));
      },
    },
  ];
}
