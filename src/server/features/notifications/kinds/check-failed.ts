import { dayTimeText } from '../../../../shared/format.ts';
import { ROLE } from '../../../../shared/lookups.ts';
import { LEDGER_CHECK_ROLES } from '../../../../shared/permissions.ts';
import { latestJobRuns } from '../../../db/jobs.ts';
import { latestCheck } from '../../ledger/read-model.ts';
import type { AlertItem, Evaluator } from '../alert-item.ts';

/** The backup job's name (src/server/jobs.ts). */
const BACKUP_JOB = 'daily-backup';

/**
 * Ledger check failed: the latest check while it is a failure, to Admin, Accounting and Auditor (as Needs my action);
 * backup failed: the newest daily-backup run while it is a failure, to Admin and Accounting.
 */
export const evaluator: Evaluator = {
  kinds: ['check_failed'],
  evaluate: async (ctx, input) => {
    const items: AlertItem[] = [];
    const check = await latestCheck(ctx.db);
    if (check && !check.ok) {
      const what = check.mode === 'full' ? 'full check' : 'quick check';
      for (const person of input.people.withRoles(LEDGER_CHECK_ROLES))
        items.push({
          kind: 'check_failed',
          recipientUserId: person.id,
          level: 0,
          subject: { type: 'ledger_check', id: check.id },
          period: String(check.id),
          title: 'Ledger check failed',
          body: `${check.problems} problem(s) found by the ${what} of ${dayTimeText(check.finished_at, ctx.config.timeZone)}.`,
          link: '/dashboard',
        });
    }
    const backup = (await latestJobRuns(ctx.db)).find((run) => run.name === BACKUP_JOB);
    if (backup?.status === 'failed')
      for (const person of input.people.withRoles([ROLE.ADMIN, ROLE.ACCOUNTING]))
        items.push({
          kind: 'check_failed',
          recipientUserId: person.id,
          level: 0,
          subject: { type: 'job', id: BACKUP_JOB },
          period: backup.period,
          title: `Backup of ${backup.period} failed`,
          body: `${backup.attempts} attempt(s); last error: ${backup.last_error ?? 'unknown'}.`,
          link: '/jobs',
        });
    return items;
  },
};
