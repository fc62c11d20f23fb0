import { dayTimeText } from '../../../shared/format.ts';
import { LEDGER_CHECK_ROLES } from '../../../shared/permissions.ts';
import {
  LEDGER_CHECK_PROBLEM_LINES,
  type LedgerCheck,
  type LedgerCheckProgress,
  type LedgerCheckSource,
} from '../../../shared/schemas/ledger.ts';
import type { AppContext } from '../../context.ts';
import { activeRecipients } from '../users/read-model.ts';
import { latestCheck } from './read-model.ts';
import * as repo from './repo.ts';
import { checkLedger, type LedgerCheckResult, type VerifyOptions } from './verifier.ts';

/** What a check needs of the app: the command builds the same from its configuration, without a server. */
export type CheckContext = Pick<AppContext, 'db' | 'config' | 'mailer' | 'log'>;

const modeText = (mode: string) => (mode === 'full' ? 'full check' : 'quick check');

const asCheck = (row: repo.LedgerCheckRow): LedgerCheck => ({
  id: row.id,
  /* the table's check constraints hold these to the schema's values */
  mode: row.mode as LedgerCheck['mode'],
  source: row.source as LedgerCheckSource,
  ran_by: row.ran_by,
  started_at: row.started_at.toISOString(),
  finished_at: row.finished_at.toISOString(),
  ok: row.ok,
  pads: row.pads,
  events: row.events,
  certificates: row.certificates,
  problems: row.problems,
  problem_lines: row.problem_lines,
});

/**
 * Runs the ledger check (docs/design.md §8 verifier) and stores its result, so Admin, Accounting and Auditor see when the
 * ledger was last found whole without a shell. A failed check is mailed to them; Needs my action keeps showing it
 * until a later check passes. The check reads slice by slice in short snapshots (verifier.ts), never in one long
 * transaction, so it can run beside requests; while it runs, runningLedgerCheck says how far it has got.
 */
export async function runLedgerCheck(
  ctx: CheckContext,
  run: VerifyOptions & { source: LedgerCheckSource; ranBy: string },
): Promise<{ check: LedgerCheck; result: LedgerCheckResult }> {
  const startedAt = new Date();
  const result = await checkLedger(ctx.db, {
    mode: run.mode,
    balances: run.balances,
    onProgress: (progress) => {
      running.set(ctx.db, progress);
      run.onProgress?.(progress);
    },
  }).finally(() => running.delete(ctx.db));
  const row = await repo.insertCheck(ctx.db, {
    mode: run.mode,
    source: run.source,
    ran_by: run.ranBy,
    started_at: startedAt,
    finished_at: new Date(),
    ok: result.ok,
    pads: result.pads,
    events: result.events,
    certificates: result.certificates,
    problems: result.problems,
    problem_lines: result.lines.slice(0, LEDGER_CHECK_PROBLEM_LINES),
  });
  const check = asCheck(row);
  if (!check.ok) await mailFailure(ctx, check, result);
  return { check, result };
}

/** The checks running in this process, by database, as far as each has got. */
const running = new Map<CheckContext['db'], LedgerCheckProgress>();

/** How far the check running in this process on this database has got, if one runs. */
export function runningLedgerCheck(ctx: Pick<AppContext, 'db'>): LedgerCheckProgress | undefined {
  return running.get(ctx.db);
}

/** The newest check, or null before the first one. */
export async function latestLedgerCheck(ctx: Pick<AppContext, 'db'>): Promise<LedgerCheck | null> {
  const row = await latestCheck(ctx.db);
  return row ? asCheck(row) : null;
}

/** The alert goes to each active Admin, Accounting and Auditor; a mail server that is down is logged and never loses the stored result. */
async function mailFailure(ctx: CheckContext, check: LedgerCheck, result: LedgerCheckResult): Promise<void> {
  const recipients = await activeRecipients(ctx.db, LEDGER_CHECK_ROLES);
  const when = dayTimeText(check.finished_at, ctx.config.timeZone);
  const shown = check.problem_lines;
  const text = [
    `The ${modeText(check.mode)} of the ledger that finished ${when} (${check.ran_by}) FAILED: ${check.problems} problem(s).`,
    ...result.summary,
    '',
    `${shown.length < result.lines.length ? `The first ${shown.length} lines` : 'What it found'}:`,
    ...shown,
    '',
    'The ledger or a certificate no longer matches what PadTrack wrote. Until it is explained, treat the RAAFs it touches as',
    'unproven; `npm run ledger:verify` on the server prints every problem.',
    '',
    `${ctx.config.appUrl}/dashboard`,
    '',
  ].join('\n');
  await Promise.all(
    recipients.map((user) =>
      ctx.mailer
        .send({ to: user.email, subject: `PadTrack ledger check FAILED: ${check.problems} problem(s)`, text })
        .catch((error: unknown) => ctx.log.error({ err: error, check: check.id, to: user.id }, 'ledger check alert mail failed')),
    ),
  );
}
