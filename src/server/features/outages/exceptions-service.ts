import { numberRange, routeLabel } from '../../../shared/format.ts';
import type { Actor } from '../../../shared/permissions.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import {
  EXCEPTION_REASON_LABELS,
  PAPER_USE_MSG,
  type ExceptionDecisionInput,
  type ExceptionListQuery,
  type ExceptionReason,
  type ExceptionState,
  type PaperUseException,
} from '../../../shared/schemas/paper-uses.ts';
import type { AppContext } from '../../context.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import * as repo from './paper-use-repo.ts';

const iso = (value: Date | string) => new Date(value).toISOString();
const person = (id: number, name: string | null) => ({ id, name: name ?? `user #${id}` });

function toException(row: repo.ExceptionListRow): PaperUseException {
  // -- paper_uses_decided_ck: a justified or rejected row has its reason, decider and time; the codes come from EXCEPTION_REASONS.
  const reason = row.reason_code as ExceptionReason | null;
  return {
    id: row.id,
    establishment: { id: row.branch_id, name: row.branch_name },
    pad: { id: row.pad_id, number: row.pad_number },
    route: { id: row.route_id, label: routeLabel({ name: row.route_name, tin: row.route_tin, company: { name: row.company_name } }) },
    number_from: row.number_from,
    number_to: row.number_to,
    numbers: numberRange(row.number_from, row.number_to),
    series_role: row.series_role,
    used_at: iso(row.used_at),
    business_date: row.business_date,
    holder: row.holder_user_id === null ? null : person(row.holder_user_id, row.holder_name),
    recorded_by: person(row.recorded_by, row.recorder_name),
    // -- the list never selects linked uses (state <> 'linked'), and paper_uses_state_ck holds the rest to these three.
    state: row.state as ExceptionState,
    decision:
      reason === null || row.decided_by === null || row.decided_at === null
        ? null
        : {
            reason_code: reason,
            reason_label: EXCEPTION_REASON_LABELS[reason] ?? reason,
            reason_text: row.reason_text,
            decided_by: person(row.decided_by, row.decider_name),
            decided_at: iso(row.decided_at),
          },
  };
}

/** Issue 38: the paper-use exceptions Accounting works through, open ones first; undone usage is gone from the list. */
export async function listExceptions(ctx: AppContext, query: ExceptionListQuery): Promise<Paginated<PaperUseException>> {
  const { rows, total } = await repo.exceptionPage(ctx.db, query);
  return paginated(rows.map(toException), total, query.page, query.per_page);
}

/** One exception, as the link of Needs my action opens it; 404 once it is linked to an outage or its usage is undone. */
export async function getException(ctx: AppContext, id: number): Promise<PaperUseException> {
  const row = await repo.exceptionById(ctx.db, id);
  if (!row || row.state === 'linked' || row.undone) throw notFound(PAPER_USE_MSG.notFound);
  return toException(row);
}

/**
 * Issue 38: Accounting justifies or rejects an open exception, once (409 when already decided), in one transaction on
 * the locked row. Either decision settles it: the holder's RAAF of that month may then be certified.
 */
export async function decideException(
  ctx: AppContext,
  actor: Actor,
  id: number,
  input: ExceptionDecisionInput,
): Promise<PaperUseException> {
  await ctx.db.transaction(async (tx) => {
    const row = await repo.lockException(tx, id);
    if (!row || row.state === 'linked') throw notFound(PAPER_USE_MSG.notFound);
    // -- paper_uses_state_ck: a row that is neither linked nor open is justified or rejected.
    if (row.state !== 'open') throw conflict(PAPER_USE_MSG.alreadyDecided(row.state as ExceptionState));
    await repo.decide(tx, id, {
      state: input.decision,
      reason_code: input.reason_code,
      reason_text: input.reason_text,
      decided_by: actor.id,
      decided_at: new Date(),
    });
  });
  const row = await repo.exceptionById(ctx.db, id);
  if (!row) throw notFound(PAPER_USE_MSG.notFound);
  return toException(row);
}
