import { seriesRange } from '../../../shared/format.ts';
import { derivePadStatus, seriesFromStatus } from '../../../shared/pad-status.ts';
import { ISSUANCE_STATUS } from '../../../shared/lookups.ts';
import { editablePadFields, type PadFieldChanges } from '../../../shared/permissions.ts';
import { pendingAt, type PendingOutcome } from '../../../shared/pending-outcomes.ts';
import {
  MAX_PAD_NUMBER,
  MAX_PADS_PER_ADD,
  PAD_MSG,
  USAGE_MSG,
  type AddPadInput,
  type GeneratedPads,
  type Pad,
  type PadListQuery,
  type UpdatePadInput,
} from '../../../shared/schemas/pads.ts';
import type { NamedRef, Paginated } from '../../../shared/schemas/common.ts';
import type { PadListRow } from '../../../shared/list-columns.ts';
import { SERIES_MSG } from '../../../shared/schemas/registered-series.ts';
import type { AppContext } from '../../context.ts';
import type { RowSource } from '../../lib/export.ts';
import { sqlState, violatedConstraint } from '../../db/client.ts';
import type { AuthUser } from '../../lib/auth.ts';
import { AppError, conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import { assertCan } from '../../lib/policy.ts';
import { recordGeneratedPads, recordPadDeleted } from '../ledger/lifecycle.ts';
import { recordPadEdit, wholePadWriteOff } from './lifecycle.ts';
import { hasEventsBeyondReceipt } from '../ledger/read-model.ts';
import { branchExists } from './read-model.ts';
import { pendingOutcomesOn } from '../outcomes/read-model.ts';
import { routeExists } from '../routes/read-model.ts';
import { insertGeneratedPads } from './insert-repo.ts';
import * as repo from './repo.ts';

const EXCLUSION_VIOLATION = '23P01';
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';
/**
 * A generation this large refreshes the planner's statistics once its answer is on its way, instead of waiting
 * for autovacuum; on the embedded database the ANALYZE holds the one thread, so it starts on the next turn.
 */
const ANALYZE_AFTER_PADS = 1000;

/**
 * Cuts the range into pads in one transaction: all pads or none. The database's exclusion constraint
 * refuses overlapping ranges even under concurrent requests; the advisory lock keeps pad numbers sequential.
 */
export async function generatePads(ctx: AppContext, actor: AuthUser, input: AddPadInput): Promise<GeneratedPads> {
  const size = input.pad_size ?? ctx.config.padSize;
  const padCount = Math.ceil((input.series_to - input.series_from + 1) / size);
  if (padCount > MAX_PADS_PER_ADD) throw invalid('series_to', PAD_MSG.tooManyPads(padCount));
  try {
    const generated = await ctx.db.transaction(async (tx) => {
      if (!(await routeExists(tx, input.route_id))) throw invalid('route_id', PAD_MSG.routeMissing);
      await repo.lockRouteNumbering(tx, input.route_id);
      const firstNumber = (await repo.maxPadNumber(tx, input.route_id)) + 1;
      if (firstNumber - 1 + Math.ceil((input.series_to - input.series_from + 1) / size) > MAX_PAD_NUMBER) {
        throw invalid('series_from', PAD_MSG.padNumbersExhausted);
      }
      const headOffice = ctx.config.headOfficeBranchId;
      const created = await insertGeneratedPads(tx, {
        routeId: input.route_id,
        from: input.series_from,
        to: input.series_to,
        size,
        firstNumber,
        holderBranchId: (await branchExists(tx, headOffice)) ? headOffice : null,
        createdBy: actor.id,
      });
      await recordGeneratedPads(tx, ctx, { routeId: input.route_id, firstPadNumber: firstNumber, actorId: actor.id });
      const outside = await repo.firstUnregisteredRun(tx, input.route_id, input.series_from, input.series_to);
      if (outside && ctx.config.requireRegisteredSeries) throw conflict(SERIES_MSG.refusedOutsideRegistry(...outside));
      return {
        warning: outside ? SERIES_MSG.outsideRegistry(...outside) : null,
        route_id: input.route_id,
        pads_created: created,
        pad_size: size,
        first_pad_number: firstNumber,
        last_pad_number: firstNumber + created - 1,
        series_from: input.series_from,
        series_to: input.series_to,
      };
    });
    if (generated.pads_created >= ANALYZE_AFTER_PADS) {
      setImmediate(() => {
        repo
          .analyzePads(ctx.db)
          .catch((error: unknown) => ctx.log.warn({ err: error }, 'ANALYZE pads after generation failed; autovacuum will catch up'));
      });
    }
    return generated;
  } catch (error) {
    if (sqlState(error) === EXCLUSION_VIOLATION) {
      const clash = await repo.findOverlappingPad(ctx.db, input.route_id, input.series_from, input.series_to);
      throw invalid(
        'series_from',
        PAD_MSG.overlap(clash ? { number: clash.number, series_number: seriesRange(clash.series_from, clash.series_to) } : null),
      );
    }
    throw error;
  }
}

/** docs/spec.md §2 Inventories list: everyone with the screen sees every pad; search and route narrow it. */
export async function listPads(ctx: AppContext, actor: AuthUser, query: PadListQuery): Promise<Paginated<Pad>> {
  const { data, total } = await repo.listPads(ctx.db, { ...query, holder: holderCondition(actor, query) });
  return paginated(data, total, query.page, query.per_page);
}

/** Held by: the caller's own or branch's pads, or (head office only) any user's or any branch's. */
function holderCondition(actor: AuthUser, query: Pick<PadListQuery, 'holder' | 'holder_user' | 'holder_branch'>): repo.HolderCondition {
  if (query.holder_user !== undefined || query.holder_branch !== undefined)
    assertCan(actor, 'pad.filterAnyHolder', undefined, PAD_MSG.holderFilterForbidden);
  if (query.holder_user !== undefined) return { userId: query.holder_user };
  if (query.holder_branch !== undefined) return { branchId: query.holder_branch };
  return query.holder === 'mine' ? { userId: actor.id } : query.holder === 'branch' ? { branchId: actor.branch_id } : null;
}

/** docs/design.md §10 Export: every pad of the Inventories list for this search and route, in batches. */
export function padListSource(ctx: AppContext, actor: AuthUser, query: PadListQuery): RowSource<PadListRow> {
  return (write) => repo.streamPadList(ctx.db, { ...query, holder: holderCondition(actor, query) }, write);
}

/** What the issue form may pick from: docs/spec.md §4's rule, minus pads an in-transit invoice is carrying. */
export async function listAvailablePads(
  ctx: AppContext,
  query: { page: number; per_page: number; search?: string; route_id?: number },
): Promise<Paginated<Pad>> {
  const { data, total } = await repo.listAvailablePads(ctx.db, query);
  return paginated(data, total, query.page, query.per_page);
}

/** One pad with its series, for the modals and for callers that hold only an id. */
export async function getPad(ctx: AppContext, id: number): Promise<Pad> {
  const pad = await repo.findPad(ctx.db, id);
  if (!pad) throw notFound(PAD_MSG.notFound);
  return pad;
}

const FIELD_LABELS: Record<keyof PadFieldChanges, string> = {
  number: 'pad number',
  issuance_status_id: 'issuance status',
  pad_status_id: 'pad status',
  remarks: 'remarks',
  series: 'series',
};

/**
 * docs/spec.md §6 field rules, enforced here whatever the UI shows: a field counts as changed only when it
 * differs from the stored pad, and one change the role may not make refuses the whole request.
 * Roles 5–7 edit only what their branch holds; an edit sent with an older updated_at is refused (409)
 * rather than overwriting a change made since; and no edit moves a pad away from its holder: a held
 * pad goes back to Not Issued only through a Return. Used, Partially Used and Unused are what the numbers say
 * (docs/design.md §9), so only Cancelled and Lost are kept as chosen; while one of them stands, the numbers
 * stay as they are until the pad is reinstated.
 */
export async function updatePad(ctx: AppContext, actor: AuthUser, id: number, input: UpdatePadInput): Promise<Pad> {
  try {
    await ctx.db.transaction(async (tx) => {
      const pad = await repo.lockPad(tx, id);
      if (!pad) throw notFound(PAD_MSG.notFound);
      if (pad.locked_by_invoice_id === null) assertCan(actor, 'pad.editThis', pad, PAD_MSG.notYourBranch);
      if (input.updated_at !== undefined && new Date(input.updated_at).getTime() !== pad.updated_at.getTime())
        throw conflict(PAD_MSG.stale);
      if (input.route_id !== undefined && input.route_id !== pad.route_id) throw forbidden(PAD_MSG.fieldNotAllowed('route'));
      if (input.series_number !== undefined && input.series_number.trim() !== seriesRange(pad.series_from, pad.series_to)) {
        throw forbidden(PAD_MSG.fieldNotAllowed('series number'));
      }

      let seriesStatus = pad.series_status;
      if (input.series !== undefined) {
        const entries = input.series;
        const sameEntries =
          entries.length === pad.series_status.length && entries.every((entry, i) => entry.number === pad.series_from + i);
        if (!sameEntries) throw invalid('series', PAD_MSG.seriesFixed);
        seriesStatus = repo.statusFromSeries(entries);
        refuseOutcomeChanges(pad, seriesStatus);
        refusePendingUsage(pad, seriesStatus, await pendingOutcomesOn(tx, pad.id));
        const writtenOff = wholePadWriteOff(pad);
        if (writtenOff && seriesStatus !== pad.series_status) throw conflict(PAD_MSG.reinstateFirst(pad.number, writtenOff));
      }
      const remarks = input.remarks === undefined ? pad.remarks : input.remarks || null;
      const changes: PadFieldChanges = {
        number: input.number !== undefined && input.number !== pad.number,
        issuance_status_id: input.issuance_status_id !== pad.issuance_status_id,
        pad_status_id: input.pad_status_id !== pad.pad_status_id,
        remarks: remarks !== pad.remarks,
        series: seriesStatus !== pad.series_status,
      };
      const allowed = editablePadFields(actor);
      // -- changes is a PadFieldChanges built just above, so its keys are its fields.
      for (const field of Object.keys(changes) as Array<keyof PadFieldChanges>) {
        if (changes[field] && !allowed[field]) throw forbidden(PAD_MSG.fieldNotAllowed(FIELD_LABELS[field]));
      }
      if (!Object.values(changes).some(Boolean)) return;
      if (pad.locked_by_invoice_id !== null) throw conflict(PAD_MSG.locked);
      const heldAway =
        pad.holder_user_id !== null || (pad.holder_branch_id !== null && pad.holder_branch_id !== ctx.config.headOfficeBranchId);
      if (changes.issuance_status_id && input.issuance_status_id === ISSUANCE_STATUS.NOT_ISSUED && heldAway)
        throw conflict(PAD_MSG.returnInstead);

      const padStatusId = derivePadStatus(seriesFromStatus(pad.series_from, seriesStatus), input.pad_status_id);
      await recordPadEdit(tx, ctx, pad, { series_status: seriesStatus, pad_status_id: padStatusId, remarks }, actor.id);
      await repo.updatePad(tx, id, {
        number: input.number ?? pad.number,
        issuance_status_id: changes.issuance_status_id ? input.issuance_status_id : undefined,
        pad_status_id: padStatusId,
        remarks,
        series_status: seriesStatus,
      });
    });
  } catch (error) {
    if (sqlState(error) === UNIQUE_VIOLATION && violatedConstraint(error) === 'pads_route_number_uq' && input.number !== undefined) {
      throw invalid('number', PAD_MSG.numberTaken(input.number));
    }
    throw error;
  }
  return getPad(ctx, id);
}

/**
 * docs/design.md §9: the grid's toggle flips only 1 and 2. A cancelled or lost number keeps its state (undoing it is
 * its own action, a new event), and no number becomes cancelled or lost through an edit.
 */
function refuseOutcomeChanges(pad: repo.PadRow, next: string): void {
  for (let i = 0; i < next.length; i += 1) {
    const was = pad.series_status[i];
    if (was === next[i]) continue;
    const number = pad.series_from + i;
    if (was === '4') throw conflict(USAGE_MSG.lost(number));
    if (was === '3') throw conflict(USAGE_MSG.consumed(number, 'cancelled'));
    if (next[i] === '3' || next[i] === '4') throw invalid('series', USAGE_MSG.outcomeByAction);
  }
}

/** docs/design.md §9: a number whose cancellation or loss waits for approval is not marked used by the grid's toggle either. */
function refusePendingUsage(pad: repo.PadRow, next: string, pending: PendingOutcome[]): void {
  for (let i = 0; i < next.length; i += 1) {
    if (pad.series_status[i] === next[i] || next[i] !== '2') continue;
    const request = pendingAt(pending, pad.series_from + i);
    if (request) throw conflict(USAGE_MSG.pending(pad.series_from + i, request));
  }
}

/**
 * Only a pad no invoice ever carried may go, and (docs/design.md §9) only while its ledger holds nothing but its
 * receipt: it leaves a `voided` event, so Find receipt still answers for its numbers.
 */
export async function deletePad(ctx: AppContext, actor: AuthUser, id: number): Promise<void> {
  try {
    await ctx.db.transaction(async (tx) => {
      const pad = await repo.lockPad(tx, id);
      if (!pad) throw notFound(PAD_MSG.notFound);
      if (pad.locked_by_invoice_id !== null || (await repo.padOnAnyInvoice(tx, id))) throw conflict(PAD_MSG.onInvoice);
      if (await hasEventsBeyondReceipt(tx, id)) throw conflict(PAD_MSG.hasHistory);
      await recordPadDeleted(tx, ctx, pad, actor.id);
      await repo.deletePad(tx, id);
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (sqlState(error) === FOREIGN_KEY_VIOLATION) throw conflict(PAD_MSG.onInvoice);
    throw error;
  }
}

/** The selects read the names from the database, so renamed lookups show everywhere. */
export const padStatuses = (ctx: AppContext): Promise<NamedRef[]> => repo.padStatusList(ctx.db);
export const issuanceStatuses = (ctx: AppContext): Promise<NamedRef[]> => repo.issuanceStatusList(ctx.db);
