import { createHash } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AppContext } from '../../context.ts';
import { retryDelayMs, type Job } from '../../db/jobs.ts';
import { deactivatedUserIds } from '../users/read-model.ts';
import { claimDueDeliveries, markDelivered, markFailed, type ClaimedDelivery } from './repo.ts';

/** Rows claimed at a time: a short claim, then a few mails, then the next claim. */
const BATCH = 5;
/**
 * How long a claimed row stays with its sender before another may take it for lost: longer than a batch of sends can
 * last with the mailer's timeouts (lib/mail.ts), so a slow send is not sent twice; a sender that stopped between send
 * and mark is retried after it, with the same Message-ID.
 */
export const CLAIM_LEASE_MS = 15 * 60_000;
/** A run stops claiming after this long, so a backlog drains over several runs and one run never holds the job long. */
const RUN_BUDGET_MS = 30_000;

export const SKIPPED_DEACTIVATED = 'not sent: the recipient is deactivated';

/** The Message-ID of a delivery: the same for every try, so a re-send after a crash is recognisably the same mail. */
export function messageIdOf(dedupeKey: string): string {
  return `<${createHash('sha256').update(dedupeKey).digest('hex')}@padtrack>`;
}

type SenderCtx = Pick<AppContext, 'db' | 'mailer' | 'log'>;

export interface SendTally {
  sent: number;
  failed: number;
  skipped: number;
}

/** Mails one claimed row and records the outcome. */
async function deliver(ctx: SenderCtx, row: ClaimedDelivery, now: () => Date, tally: SendTally): Promise<void> {
  try {
    await ctx.mailer.send({
      to: row.target,
      subject: row.subject,
      text: row.body_text,
      html: row.body_html ?? undefined,
      messageId: messageIdOf(row.dedupe_key),
    });
  } catch (error) {
    const at = now();
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000) || 'failed';
    await markFailed(ctx.db, row.id, message, new Date(at.getTime() + retryDelayMs(row.attempts)));
    ctx.log.warn({ delivery: row.id, kind: row.kind, attempts: row.attempts, err: message }, 'mail not sent; will retry');
    tally.failed += 1;
    return;
  }
  await markDelivered(ctx.db, row.id, now());
  tally.sent += 1;
}

/**
 * Sends the outbox's due e-mails in small batches, yielding between them (PGlite serves requests on the same
 * connection): a failure keeps its error and waits by retryDelayMs; a deactivated recipient's mail is marked done
 * unsent. Safe to run on every instance at once: each row is claimed by one (repo.ts claimDueDeliveries).
 */
export async function sendDueDeliveries(
  ctx: SenderCtx,
  options: { now?: () => Date; batch?: number; budgetMs?: number } = {},
): Promise<SendTally> {
  const now = options.now ?? (() => new Date());
  const batch = options.batch ?? BATCH;
  const started = Date.now();
  const tally: SendTally = { sent: 0, failed: 0, skipped: 0 };
  for (;;) {
    const at = now();
    const rows = await claimDueDeliveries(ctx.db, at, new Date(at.getTime() + CLAIM_LEASE_MS), batch);
    const recipients = rows.flatMap((row) => (row.recipient_user_id === null ? [] : [row.recipient_user_id]));
    const deactivated = await deactivatedUserIds(ctx.db, recipients);
    for (const row of rows) {
      if (row.recipient_user_id !== null && deactivated.has(row.recipient_user_id)) {
        await markDelivered(ctx.db, row.id, now(), SKIPPED_DEACTIVATED);
        tally.skipped += 1;
      } else {
        await deliver(ctx, row, now, tally);
      }
    }
    if (rows.length < batch || Date.now() - started > (options.budgetMs ?? RUN_BUDGET_MS)) return tally;
    await yieldToEventLoop();
  }
}

/** The sender as a background job: every minute, on one instance per minute (the others' runs would find nothing due). */
export function senderJob(ctx: SenderCtx): Job {
  return {
    name: 'send-mail',
    description: 'Sends the queued e-mails (the outbox), retrying failures with backoff.',
    everyMs: 60_000,
    period: (now) => now.toISOString().slice(0, 16),
    leaseMs: CLAIM_LEASE_MS,
    run: async (start) => {
      const offset = start.getTime() - Date.now();
      const tally = await sendDueDeliveries(ctx, { now: () => new Date(Date.now() + offset) });
      if (tally.sent + tally.failed + tally.skipped > 0) ctx.log.info(tally, 'outbox sent');
    },
  };
}
