import { isPadLabel } from '../../../shared/custody-rules.ts';
import { calendarDayText } from '../../../shared/format.ts';
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
import { recordFoundIn, reportIn } from '../incidents/lifecycle.ts';
import { confirmedLossOfPad } from '../incidents/read-model.ts';
import { labelPadId } from '../pads/documents.ts';
import { applyUsage } from '../pads/lifecycle.ts';
import { voidedPad } from '../ledger/read-model.ts';
import { frozenIdentity } from '../settings/lifecycle.ts';
import * as pads from '../pads/read-model.ts';
import * as users from '../users/read-model.ts';
import { detail, itemDto, variances, variancesOf } from './read-model.ts';
import * as repo from './repo.ts';
import { bookFacts, offerFor } from './offers.ts';
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

/** A pad that is not on the books: a voided one says when it was voided (a 409 the counter reads), any other is not found. */
async function unknownPad(tx: Tx, padId: number, scanned: boolean): Promise<Error> {
  const voided = await voidedPad(tx, padId);
  if (voided) return conflict(COUNT_MSG.padVoided(voided.from_number, voided.to_number, calendarDayText(voided.business_date)));
  return notFound(scanned ? COUNT_MSG.labelUnknown : COUNT_MSG.padUnknown);
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
      if (!pad) throw await unknownPad(tx, padId, input.code !== undefined);
      if (input.first_unused !== undefined && (input.first_unused < pad.series_from || input.first_unused > pad.series_to + 1))
        throw invalid('first_unused', COUNT_MSG.firstUnusedOff(pad.series_from, pad.series_to));
      const existing = (await repo.items(tx, s.id)).find((row) => row.pad_id === pad.id);
      if (existing && (await repo.hasResolution(tx, existing.id))) throw conflict(COUNT_MSG.itemResolved);
      const facts = input.missing ? { book_incident_id: null, book_note: null } : await bookFacts(tx, pad);
      const itemId = await repo.upsertItem(tx, {
        ...facts,
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
      await askWhoMust(tx, actor, s.id, [row]);
      return itemDto(row);
    });
  return input.code === undefined ? record() : withCodeTries(ctx, { userId: actor.id, address }, record);
}

/**
 * Issue 36: a variance's resolutions the counter may not take are asked of the one person who may (the holder, the
 * courier), in their Needs my action until the variance is resolved.
 */
async function askWhoMust(tx: Tx, counter: Actor, countId: number, rows: repo.ItemRow[]): Promise<void> {
  for (const row of rows) {
    const kind = varianceOf(row);
    if (!kind) continue;
    const { asks } = await offerFor(tx, counter, row.pad_id, kind);
    await repo.insertAsks(
      tx,
      asks.flatMap((ask) =>
        ask.user_id === null ? [] : [{ count_id: countId, item_id: row.id, action: ask.action, user_id: ask.user_id }],
      ),
    );
  }
}

/**
 * Issue 36: the counter ends the scan; until then a pad not yet scanned is no variance. The expected pads still not seen
 * are marked missing, and who must report their loss is asked.
 */
export async function endScan(ctx: AppContext, actor: Actor, id: number): Promise<{ missing: number; count: CountSession }> {
  const missing = await ctx.db.transaction(async (tx) => {
    const s = await workable(tx, actor, id);
    const ids = await repo.markPendingMissing(tx, s.id, actor.id);
    const rows = (await repo.items(tx, s.id)).filter((row) => ids.includes(row.id));
    await askWhoMust(tx, actor, s.id, rows);
    return ids.length;
  });
  return { missing, count: await detail(ctx, actor, id) };
}

/** The lost numbers a found resolution brings back: the first run still lost inside the loss incident's line on the pad. */
async function lostRun(tx: Tx, padId: number, incidentId: number): Promise<{ from: number; to: number }> {
  const [pad, loss] = await Promise.all([pads.padView(tx, padId), confirmedLossOfPad(tx, padId)]);
  if (!pad || !loss || loss.id !== incidentId) throw conflict(COUNT_MSG.resolvedAlready);
  let from = -1;
  let to = -1;
  for (let n = loss.from_number; n <= loss.to_number; n += 1) {
    const lost = pad.series_status[n - pad.series_from] === '4';
    if (lost && from < 0) from = n;
    if (lost) to = n;
    if (!lost && from >= 0) break;
  }
  if (from < 0) throw conflict(COUNT_MSG.resolvedAlready);
  return { from, to };
}

/** Takes one resolution through its action, in the caller's transaction; answers the loss incident it opened or found. */
async function settle(
  tx: Tx,
  ctx: AppContext,
  actor: Actor,
  s: repo.SessionRow,
  row: repo.ItemRow,
  input: ResolveInput,
): Promise<number | null> {
  const kind = varianceOf(row);
  const range = varianceRange(row);
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
    return incident.id;
  } else if (input.action === 'found' && row.book_incident_id !== null) {
    const run = await lostRun(tx, row.pad_id, row.book_incident_id);
    await recordFoundIn(tx, actor, row.book_incident_id, { pad_id: row.pad_id, ...run, reason: COUNT_MSG.foundReason(s.id, input.reason) });
    return row.book_incident_id;
  }
  return null;
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
    const offer = await offerFor(tx, actor, row.pad_id, kind);
    const ask = offer.asks.find((a) => a.action === input.action);
    if (ask) throw forbidden(ask.text);
    const incidentId = await settle(tx, ctx, actor, s, row, input);
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

/**
 * Closing needs every variance resolved and the holder's sign-off; after it the count never changes (by trigger), and its
 * certificate keeps the operator's identity of this moment, whenever it is downloaded.
 */
export async function close(ctx: AppContext, actor: Actor, id: number): Promise<CountSession> {
  await ctx.db.transaction(async (tx) => {
    const s = await workable(tx, actor, id);
    const [items, resolutions] = await Promise.all([repo.items(tx, s.id), repo.resolutions(tx, s.id)]);
    const pending = items.filter((row) => row.state === 'pending').length;
    if (pending > 0) throw conflict(COUNT_MSG.notYetScanned(pending));
    const open = variancesOf(s, items, resolutions).filter((v) => v.resolution === null).length;
    if (open > 0) throw conflict(COUNT_MSG.unresolved(open));
    if (s.signed_off_by === null) throw conflict(COUNT_MSG.notSignedOff);
    await repo.close(tx, s.id);
    await frozenIdentity(tx, 'count_certificate', s.id);
  });
  return detail(ctx, actor, id);
}
