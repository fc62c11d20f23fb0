import type { AppContext } from './context.ts';
import type { Job } from './db/jobs.ts';
import { purgeLimits } from './db/shared-state.ts';
import { purgeDeadTokens } from './features/accounts/repo.ts';

const HOUR_MS = 3_600_000;

/** The background jobs of the server; each runs once per period across every instance (db/jobs.ts). */
export function serverJobs(ctx: AppContext): Job[] {
  return [
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
}
