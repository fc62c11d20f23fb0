import { isPadLabel } from '../../../shared/custody-rules.ts';
import { seriesSummary } from '../../../shared/pad-status.ts';
import { isCountHolder, type Actor } from '../../../shared/permissions.ts';
import {
  COUNT_MSG,
  RESOLUTION_LABELS,
  VARIANCE_ACTIONS,
  VARIANCE_LABELS,
  type CountItem,
  type CountItemInput,
  type CountSession,
  type CountStartInput,
  type CountVariance,
  type ResolveInput,
  type SignOffInput,
} from '../../../shared/schemas/counts.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { claimedUserId, verifyBadge } from '../../lib/badge.ts';
import { withCodeTries, WrongCode } from '../../lib/code-tries.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { assertCan } from '../../lib/policy.ts';
import { reportIn } from '../incidents/lifecycle.ts';
import { labelPadId } from '../pads/documents.ts';
import { applyUsage } from '../pads/lifecycle.ts';
import * as pads from '../pads/read-model.ts';
import * as users from '../users/read-model.ts';
import { detail, itemDto, variances, variancesOf } from './read-model.ts';
import * as repo from './repo.ts';
import { varianceOf, varianceRange } from './variances.ts';

/** The open session, locked, that only its counter changes. */
async function workable(tx: Tx, actor: Actor, id: number): Promise<repo.SessionRow> {
  const s = await repo.session(tx, id, true);
  if (!s) throw notFound(COUNT_MSG.notFound);
  assertCan(actor, 'count.work', repo.rulesOf(s), COUNT_MSG.notCounter);
  if (s.status !== 'open') throw conflict(COUNT_MSG.closedAlready);
  return s;
}

/**
 * docs/design.md §9: starts a count of one holder or one branch by someone other than its holder, listing the pads
 * the books place there (not those an invoice is carrying) with the books' first unused number of each.
 */
export async function start(ctx: AppContext, actor: Actor, input: CountStartInput): Promise<CountSession> {
  const id = await ctx.db.transaction(async (tx) => {
    const userId = input.user_id ?? null;
    const branchId = input.branch_id ?? null;
    let holderUserBranchId: number | null = null;
    if (userId !== null) {
      const [person] = await users.people(tx, [userId]);
      if (!person) throw invalid('user_id', COUNT_MSG.holderMissing);
      holderUserBranchId = person.branch_id;
    } else if (!(await pads.branchExists(tx, branchId ?? 0))) throw invalid('branch_id', COUNT_MSG.holderMissing);
    const holder = { holder_user_id: userId, holder_branch_id: branchId, holder_user_branch_id: holderUserBranchId };
    if (isCountHolder(actor, holder)) throw forbidden(COUNT_MSG.countSelf);
    assertCan(actor, 'count.start', holder, COUNT_MSG.mayNotCount);
    const countId = await repo.insertSession(tx, { holder_user_id: userId, holder_branch_id: branchId, counter_id: actor.id });
    const placed = await pads.padsPlacedWith(tx, { userId, branchId });
    await repo.insertItems(
      tx,
      placed.map((pad) => ({
        count_id: countId,
        pad_id: pad.id,
        expected: true,
        state: 'pending',
        book_next_number: seriesSummary(pad.series_from, pad.series_status).next_number,
        book_holder_user_id: pad.holder_user_id,
        book_holder_branch_id: pad.holder_branch_id,
      })),
    );
    return countId;
  });
  return detail(ctx, actor, id);
}

/**
 * Records one pad seen, by id or its scanned label, with the first unused number on the booklet, or marks an expected pad
 * missing. A pad the books place elsewhere is recorded too; the books' first unused number is read at the scan. Parallel
 * scans of one count take turns on the session row and keep one row per pad.
 */
export async function recordItem(ctx: AppContext, actor: Actor, id: number, input: CountItemInput, address: string): Promise<CountItem> {
  const record = () =>
    ctx.db.transaction(async (tx) => {
      const s = await workable(tx, actor, id);
      const padId = input.code !== undefined ? labelPadId(ctx, input.code) : (input.pad_id ?? null);
      if (padId === null && input.code !== undefined && isPadLabel(input.code)) throw new WrongCode(notFound(COUNT_MSG.labelUnknown), {});
      if (padId === null) throw notFound(COUNT_MSG.labelUnknown);
      const pad = await pads.padView(tx, padId);
      if (!pad) throw notFound(input.code !== undefined ? COUNT_MSG.labelUnknown : COUNT_MSG.padUnknown);
      if (input.first_unused !== undefined && (input.first_unused < pad.series_from || input.first_unused > pad.series_to + 1))
        throw invalid('first_unused', COUNT_MSG.firstUnusedOff(pad.series_from, pad.series_to));
      const existing = (await repo.items(tx, s.id)).find((row) => row.pad_id === pad.id);
      if (existing && (await repo.hasResolution(tx, existing.id))) throw conflict(COUNT_MSG.itemResolved);
      const itemId = await repo.upsertItem(tx, {
        count_id: s.id,
        pad_id: pad.id,
        expected: false,
        state: input.missing ? 'missing' : 'found',
        first_unused: input.missing ? null : (input.first_unused ?? null),
        book_next_number: seriesSummary(pad.series_from, pad.series_status).next_number,
        book_holder_user_id: pad.holder_user_id,
        book_holder_branch_id: pad.holder_branch_id,
        recorded_by: actor.id,
        recorded_at: new Date(),
      });
      const row = await repo.item(tx, s.id, itemId);
      if (!row) throw notFound(COUNT_MSG.padUnknown);
      return itemDto(row);
    });
  return input.code === undefined ? record() : withCodeTries(ctx, { userId: actor.id, address }, record);
}

/**
 * docs/design.md §9: settles one variance through the existing actions, in one transaction with its resolution row:
 * the range-usage action of the pad lifecycle (its rules and ledger events), a loss incident of the incidents lifecycle, or
 * accepted with the reason. A count never changes custody itself.
 */
export async function resolve(ctx: AppContext, actor: Actor, id: number, vid: number, input: ResolveInput): Promise<CountVariance> {
  await ctx.db.transaction(async (tx) => {
    const s = await workable(tx, actor, id);
    const row = await repo.item(tx, s.id, vid, true);
    const kind = row ? varianceOf(row) : null;
    if (!row || !kind) throw notFound(COUNT_MSG.varianceNotFound);
    if (await repo.hasResolution(tx, row.id)) throw conflict(COUNT_MSG.resolvedAlready);
    const allowed = VARIANCE_ACTIONS[kind];
    if (!allowed.includes(input.action))
      throw invalid('action', COUNT_MSG.actionNotFor(VARIANCE_LABELS[kind], allowed.map((a) => RESOLUTION_LABELS[a]).join(', ')));
    const range = varianceRange(row);
    let incidentId: number | null = null;
    if (input.action === 'usage' && range) {
      await applyUsage(tx, ctx, actor, row.pad_id, {
        from: range.from,
        to: range.to,
        reason: COUNT_MSG.usageReason(s.id),
        device_at: undefined,
      });
    } else if (input.action === 'incident') {
      const lines = kind === 'missing' || !range ? [{ pad_id: row.pad_id }] : [{ pad_id: row.pad_id, from: range.from, to: range.to }];
      const incident = await reportIn(tx, ctx, actor, {
        pads: lines,
        place: COUNT_MSG.incidentPlace(s.holder_name),
        occurred_at: new Date().toISOString(),
        circumstances: COUNT_MSG.incidentCircumstances(s.id, input.reason),
      });
      incidentId = incident.id;
    }
    await repo.insertResolution(tx, {
      count_id: s.id,
      item_id: row.id,
      kind,
      action: input.action,
      reason: input.reason,
      incident_id: incidentId,
      resolved_by: actor.id,
    });
  });
  const found = (await variances(ctx, actor, id)).find((v) => v.id === vid);
  if (!found) throw notFound(COUNT_MSG.varianceNotFound);
  return found;
}

/**
 * The holder signs off, on their own screen or on the counter's phone with their badge scanned; for a branch, its
 * Branch Custodian or Branch Head. Drawing a signature is optional.
 */
export async function signOff(ctx: AppContext, actor: Actor, id: number, input: SignOffInput, address: string): Promise<CountSession> {
  const sign = () =>
    ctx.db.transaction(async (tx) => {
      const s = await repo.session(tx, id, true);
      if (!s) throw notFound(COUNT_MSG.notFound);
      let signer: Actor = actor;
      if (input.badge !== undefined) {
        assertCan(actor, 'count.work', repo.rulesOf(s), COUNT_MSG.notCounter);
        const claimed = claimedUserId(input.badge);
        const version = claimed === null ? undefined : await users.badgeVersion(tx, claimed);
        const person = claimed === null ? undefined : await users.activeActor(tx, claimed);
        if (claimed === null) throw invalid('badge', COUNT_MSG.badgeUnknown);
        if (version === undefined || !person || !verifyBadge(ctx.badgeSecret, input.badge, claimed, version))
          throw new WrongCode(invalid('badge', COUNT_MSG.badgeUnknown), { userId: claimed });
        signer = person;
      }
      assertCan(signer, 'count.signOff', repo.rulesOf(s), COUNT_MSG.notHolder);
      if (s.status !== 'open') throw conflict(COUNT_MSG.closedAlready);
      if (s.signed_off_by !== null) throw conflict(COUNT_MSG.signedAlready);
      await repo.signOff(tx, s.id, signer.id, input.signature ?? null);
    });
  await (input.badge === undefined ? sign() : withCodeTries(ctx, { userId: actor.id, address }, sign));
  return detail(ctx, actor, id);
}

/** Closing needs every variance resolved and the holder's sign-off; after it the count never changes (by trigger). */
export async function close(ctx: AppContext, actor: Actor, id: number): Promise<CountSession> {
  await ctx.db.transaction(async (tx) => {
    const s = await workable(tx, actor, id);
    const [items, resolutions] = await Promise.all([repo.items(tx, s.id), repo.resolutions(tx, s.id)]);
    const open = variancesOf(s, items, resolutions).filter((v) => v.resolution === null).length;
    if (open > 0) throw conflict(COUNT_MSG.unresolved(open));
    if (s.signed_off_by === null) throw conflict(COUNT_MSG.notSignedOff);
    await repo.close(tx, s.id);
  });
  return detail(ctx, actor, id);
}
