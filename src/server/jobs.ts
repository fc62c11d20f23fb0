import path from 'node:path';
import type { AppContext } from './context.ts';
import { backupServer, dumpToFile, pruneBackups } from './db/backup.ts';
import type { Database } from './db/client.ts';
import type { Job } from './db/jobs.ts';
import { purgeLimits } from './db/shared-state.ts';
import { purgeDeadTokens } from './features/accounts/repo.ts';
import { businessDate } from './features/ledger/writer.ts';

const HOUR_MS = 3_600_000;

/** The daily backup (BACKUP_DIR; off when unset), one file per business day, the newest BACKUP_KEEP kept. */
function backupJob(ctx: AppContext, database: Database, dir: string): Job {
  return {
    name: 'daily-backup',
    everyMs: 15 * 60_000,
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

/** The background jobs of the server; each runs once per period across every instance (db/jobs.ts). */
export function serverJobs(ctx: AppContext, database: Database): Job[] {
  const jobs: Job[] = [
    {
      name: 'purge',
      everyMs: 10 * 60_000,
      period: (now) => now.toISOString().slice(0, 13),
      run: async () => {
        await purgeDeadTokens(ctx.db, new Date());
        await purgeLimits(ctx.db, HOUR_MS);
      },
    },
  ];
  if (ctx.config.backupDir) jobs.push(backupJob(ctx, database, ctx.config.backupDir));
  return jobs;
}
