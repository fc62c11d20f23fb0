import path from 'node:path';
import type { AppContext } from './context.ts';
import { backupServer, dumpToFile, pruneBackups } from './db/backup.ts';
import type { Database } from './db/client.ts';
import { INSTANCE_ID, purgeJobRuns, type Job } from './db/jobs.ts';
import { purgeLimits } from './db/shared-state.ts';
import { purgeDeadTokens } from './features/accounts/repo.ts';
import { senderJob } from './features/deliveries/sender.ts';
import { runLedgerCheck } from './features/ledger/checks.ts';
import { closeMonthsJob } from './features/ledger/jobs.ts';
import { businessDate } from './features/ledger/lifecycle.ts';
import { notificationJobs } from './features/notifications/jobs.ts';

const HOUR_MS = 3_600_000;

/** The daily backup (BACKUP_DIR; off when unset), one file per business day, the newest BACKUP_KEEP kept. */
function backupJob(ctx: AppContext, database: Database, dir: string): Job {
  return {
    name: 'daily-backup',
    description: 'Writes the daily backup to BACKUP_DIR and keeps the newest BACKUP_KEEP.',
    everyMs: 15 * 60_000,
    leaseMs: 2 * HOUR_MS,
    period: (now) => businessDate(now, ctx.config.timeZone),
    run: async () => {
      const day = businessDate(new Date(), ctx.config.timeZone);
      const url = ctx.config.databaseOwnerUrl ?? ctx.config.databaseUrl;
      if (url) await backupServer(url, path.join(dir, `padtrack-${day}.dump`));
      else await dumpToFile(database, path.join(dir, `padtrack-${day}.tar.gz`));
      const removed = pruneBackups(dir, ctx.config.backupKeep);
      ctx.log.info({ day, removed }, 'daily backup written');
    },
  };
}

const DAY_MS = 86_400_000;
/** How long job runs are kept (each job's newest stays): the sender alone records one a minute. */
const JOB_RUNS_KEPT_MS = 30 * DAY_MS;

/** The period of a job run once in `everyDays` business days: the first day of the block of days `day` falls in, counted from 1970-01-01. */
function periodOfDays(day: string, everyDays: number): string {
  const days = Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
  return new Date((days - (days % everyDays)) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The full ledger check, once in LEDGER_VERIFY_EVERY_DAYS days (weekly by default), its result stored and a failure mailed
 * (features/ledger/checks.ts). It reads in slices sized to take about a tenth of a second, each its own read-only snapshot
 * on a connection released at its end, and yields while it checks them, so requests keep being answered while it runs.
 */
function ledgerCheckJob(ctx: AppContext): Job {
  return {
    name: 'ledger-check',
    description: "Verifies every pad's ledger chain and the RAAF certificates; a failure is mailed.",
    everyMs: 15 * 60_000,
    leaseMs: 6 * HOUR_MS,
    period: (now) => periodOfDays(businessDate(now, ctx.config.timeZone), ctx.config.ledgerVerifyEveryDays),
    run: async () => {
      const { check } = await runLedgerCheck(ctx, {
        mode: 'full',
        source: 'schedule',
        ranBy: `scheduled check on instance ${INSTANCE_ID}`,
      });
      ctx.log[check.ok ? 'info' : 'error'](
        { check: check.id, pads: check.pads, events: check.events, problems: check.problems },
        check.ok ? 'ledger check passed' : 'ledger check FAILED',
      );
    },
  };
}

/** The background jobs of the server; each runs once per period across every instance (db/jobs.ts). */
export function serverJobs(ctx: AppContext, database: Database): Job[] {
  const jobs: Job[] = [
    {
      name: 'purge',
      description: 'Forgets expired sign-ins, old rate-limit counters and job runs older than 30 days.',
      everyMs: 10 * 60_000,
      period: (now) => now.toISOString().slice(0, 13),
      run: async (now) => {
        await purgeDeadTokens(ctx.db, now);
        await purgeLimits(ctx.db, HOUR_MS);
        await purgeJobRuns(ctx.db, new Date(now.getTime() - JOB_RUNS_KEPT_MS));
      },
    },
    ledgerCheckJob(ctx),
    closeMonthsJob(ctx),
    senderJob(ctx),
    ...notificationJobs(ctx),
  ];
  if (ctx.config.backupDir) jobs.push(backupJob(ctx, database, ctx.config.backupDir));
  return jobs;
}
