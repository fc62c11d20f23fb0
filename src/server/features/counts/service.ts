import { dayTimeText, fullName, seriesRange } from '../../../shared/format.ts';
import { isPadLabel } from '../../../shared/custody-rules.ts';
import { seriesSummary } from '../../../shared/pad-status.ts';
import { can, isCountHolder, type Actor, type CountForRules } from '../../../shared/permissions.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import {
  COUNT_MSG,
  RESOLUTION_LABELS,
  VARIANCE_ACTIONS,
  VARIANCE_LABELS,
  type CountItem,
  type CountItemInput,
  type CountListQuery,
  type CountPad,
  type CountRow,
  type CountSession,
  type CountStartInput,
  type CountVariance,
  type LastCount,
  type LastCountQuery,
  type ResolveInput,
  type SignOffInput,
} from '../../../shared/schemas/counts.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/client.ts';
import { claimedUserId, verifyBadge } from '../../lib/badge.ts';
import { withCodeTries, WrongCode } from '../../lib/code-tries.ts';
import { conflict, forbidden, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import { renderCountCertificatePdf } from '../../lib/pdf/count-certificate-pdf.ts';
import { assertCan } from '../../lib/policy.ts';
import { reportIn } from '../incidents/service.ts';
import { labelPadId } from '../pads/labels.ts';
import { applyUsage } from '../pads/numbers.ts';
import * as pads from '../pads/repo.ts';
import * as users from '../users/repo.ts';
import * as repo from './repo.ts';
import { varianceDetail, varianceOf, varianceRange } from './variances.ts';

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

const rulesOf = (s: repo.SessionRow): CountForRules => ({
  counter_id: s.counter_id,
  holder_user_id: s.holder_user_id,
  holder_branch_id: s.holder_branch_id,
  holder_user_branch_id: s.holder_user_branch_id,
});

const padOf = (row: repo.ItemRow): CountPad => ({
  id: row.pad_id,
  number: row.pad_number,
  series_number: seriesRange(row.series_from, row.series_to),
  series_from: row.series_from,
  series_to: row.series_to,
  route: { id: row.route_id, name: row.route_name },
});

const itemDto = (row: repo.ItemRow): CountItem => ({
  id: row.id,
  pad: padOf(row),
  expected: row.expected,
  state: row.state as CountItem['state'],
  book_next_number: row.book_next_number,
  first_unused: row.first_unused,
  recorded_at: iso(row.recorded_at),
});

function variancesOf(session: repo.SessionRow, items: repo.ItemRow[], resolutions: repo.ResolutionRow[]): CountVariance[] {
  const byItem = new Map(resolutions.map((r) => [r.item_id, r]));
  return items.flatMap((row) => {
    const resolution = byItem.get(row.id);
    const kind = (resolution?.kind as CountVariance['kind'] | undefined) ?? varianceOf({ ...row, state: row.state as CountItem['state'] });
    if (!kind) return [];
    return [
      {
        id: row.id,
        kind,
        label: VARIANCE_LABELS[kind],
        pad: padOf(row),
        detail: varianceDetail(kind, { ...row, state: row.state as CountItem['state'] }, session.holder_name),
        actions: [...VARIANCE_ACTIONS[kind]],
        resolution: resolution
          ? {
              action: resolution.action,
              reason: resolution.reason,
              incident_id: resolution.incident_id,
              resolved_by: {
                id: resolution.resolved_by,
                full_name: fullName({
                  first_name: resolution.resolver_first,
                  middle_name: resolution.resolver_middle,
                  last_name: resolution.resolver_last,
                }),
              },
              resolved_at: iso(resolution.resolved_at) ?? '',
            }
          : null,
      },
    ];
  });
}

const holderOf = (s: repo.SessionRow) =>
  s.holder_user_id !== null
    ? { type: 'user' as const, id: s.holder_user_id, name: s.holder_name }
    : { type: 'branch' as const, id: s.holder_branch_id ?? 0, name: s.holder_name };

const signerOf = (s: repo.SessionRow) =>
  s.signed_off_by === null
    ? null
    : { id: s.signed_off_by, full_name: fullName({ first_name: s.signer_first, middle_name: s.signer_middle, last_name: s.signer_last }) };

async function sessionDto(conn: Tx | AppContext['db'], s: repo.SessionRow): Promise<CountSession> {
  const [items, resolutions] = await Promise.all([repo.items(conn, s.id), repo.resolutions(conn, s.id)]);
  const variances = variancesOf(s, items, resolutions);
  return {
    id: s.id,
    status: s.status as CountSession['status'],
    holder: holderOf(s),
    counter: {
      id: s.counter_id,
      full_name: fullName({ first_name: s.counter_first, middle_name: s.counter_middle, last_name: s.counter_last }),
    },
    started_at: iso(s.started_at) ?? '',
    signed_off_by: signerOf(s),
    signed_off_at: iso(s.signed_off_at),
    closed_at: iso(s.closed_at),
    expected: items.filter((row) => row.expected).map(padOf),
    items: items.map(itemDto),
    variances_open: variances.filter((v) => v.resolution === null).length,
  };
}

async function readable(ctx: AppContext, actor: Actor, id: number): Promise<repo.SessionRow> {
  const s = await repo.session(ctx.db, id);
  if (!s) throw notFound(COUNT_MSG.notFound);
  assertCan(actor, 'count.read', rulesOf(s));
  return s;
}

/** The open session, locked, that only its counter changes. */
async function workable(tx: Tx, actor: Actor, id: number): Promise<repo.SessionRow> {
  const s = await repo.session(tx, id, true);
  if (!s) throw notFound(COUNT_MSG.notFound);
  assertCan(actor, 'count.work', rulesOf(s), COUNT_MSG.notCounter);
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

export async function detail(ctx: AppContext, actor: Actor, id: number): Promise<CountSession> {
  return sessionDto(ctx.db, await readable(ctx, actor, id));
}

export async function list(ctx: AppContext, actor: Actor, query: CountListQuery): Promise<Paginated<CountRow>> {
  const { rows, total } = await repo.list(ctx.db, actor, query);
  return paginated(
    rows.map((s) => ({
      id: s.id,
      status: s.status as CountRow['status'],
      holder: holderOf(s),
      counter: {
        id: s.counter_id,
        full_name: fullName({ first_name: s.counter_first, middle_name: s.counter_middle, last_name: s.counter_last }),
      },
      started_at: iso(s.started_at) ?? '',
      closed_at: iso(s.closed_at),
      pads: Number(s.pads),
    })),
    total,
    query.page,
    query.per_page,
  );
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

export async function variances(ctx: AppContext, actor: Actor, id: number): Promise<CountVariance[]> {
  const s = await readable(ctx, actor, id);
  const [items, resolutions] = await Promise.all([repo.items(ctx.db, s.id), repo.resolutions(ctx.db, s.id)]);
  return variancesOf(s, items, resolutions);
}

/**
 * docs/design.md §9: settles one variance through the existing actions, in one transaction with its resolution row:
 * the range-usage action of the pad service (its rules and ledger events), a loss incident of the incidents service, or
 * accepted with the reason. A count never changes custody itself.
 */
export async function resolve(ctx: AppContext, actor: Actor, id: number, vid: number, input: ResolveInput): Promise<CountVariance> {
  await ctx.db.transaction(async (tx) => {
    const s = await workable(tx, actor, id);
    const row = await repo.item(tx, s.id, vid, true);
    const kind = row ? varianceOf({ ...row, state: row.state as CountItem['state'] }) : null;
    if (!row || !kind) throw notFound(COUNT_MSG.varianceNotFound);
    if (await repo.hasResolution(tx, row.id)) throw conflict(COUNT_MSG.resolvedAlready);
    const allowed = VARIANCE_ACTIONS[kind];
    if (!allowed.includes(input.action))
      throw invalid('action', COUNT_MSG.actionNotFor(VARIANCE_LABELS[kind], allowed.map((a) => RESOLUTION_LABELS[a]).join(', ')));
    const range = varianceRange({ ...row, state: row.state as CountItem['state'] });
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
        assertCan(actor, 'count.work', rulesOf(s), COUNT_MSG.notCounter);
        const claimed = claimedUserId(input.badge);
        const version = claimed === null ? undefined : await users.badgeVersion(tx, claimed);
        const person = claimed === null ? undefined : await users.activeActor(tx, claimed);
        if (claimed === null) throw invalid('badge', COUNT_MSG.badgeUnknown);
        if (version === undefined || !person || !verifyBadge(ctx.badgeSecret, input.badge, claimed, version))
          throw new WrongCode(invalid('badge', COUNT_MSG.badgeUnknown), { userId: claimed });
        signer = person;
      }
      assertCan(signer, 'count.signOff', rulesOf(s), COUNT_MSG.notHolder);
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

/** The count certificate: who counted, whom, when, the pads counted, the variances and how each was resolved. */
export async function certificate(ctx: AppContext, actor: Actor, id: number): Promise<Buffer> {
  const s = await readable(ctx, actor, id);
  const count = await sessionDto(ctx.db, s);
  const [items, resolutions] = await Promise.all([repo.items(ctx.db, s.id), repo.resolutions(ctx.db, s.id)]);
  const incidents = new Map(resolutions.map((r) => [r.item_id, r.incident_number]));
  const zone = ctx.config.timeZone;
  return renderCountCertificatePdf({
    id: count.id,
    status: count.status,
    holder: `${count.holder.type === 'branch' ? 'Branch ' : ''}${count.holder.name}`,
    counter: count.counter.full_name,
    startedAt: dayTimeText(new Date(count.started_at), zone),
    closedAt: count.closed_at ? dayTimeText(new Date(count.closed_at), zone) : null,
    signedOff: count.signed_off_by
      ? `${count.signed_off_by.full_name}, ${dayTimeText(new Date(count.signed_off_at ?? count.started_at), zone)}`
      : null,
    signaturePng: s.signature ? Buffer.from(s.signature.replace(/^data:image\/png;base64,/, ''), 'base64') : null,
    pads: count.items.map((item) => ({
      route: item.pad.route.name,
      padNumber: item.pad.number,
      series: item.pad.series_number,
      state:
        item.state === 'found'
          ? item.expected
            ? 'Found'
            : 'Found (not on the books here)'
          : item.state === 'missing'
            ? 'Missing'
            : 'Not found',
      firstUnused: item.first_unused === null ? '-' : String(item.first_unused),
      books: item.book_next_number === null ? 'none left' : String(item.book_next_number),
    })),
    variances: variancesOf(s, items, resolutions).map((v) => ({
      pad: `Pad ${v.pad.number} (${v.pad.route.name})`,
      kind: v.label,
      detail: v.detail,
      resolution: v.resolution
        ? `${RESOLUTION_LABELS[v.resolution.action]}${incidents.get(v.id) ? ` ${incidents.get(v.id)}` : ''}: ${v.resolution.reason} (${v.resolution.resolved_by.full_name})`
        : 'Not resolved',
    })),
  });
}

/**
 * docs/design.md §9: when a holder was last counted, for the holder's screens (Accountability, a count-due link).
 * Whoever may read the holder's RAAF may read this.
 */
export async function lastCount(ctx: AppContext, actor: Actor, query: LastCountQuery): Promise<LastCount> {
  const type = query.user_id !== undefined ? 'user' : 'branch';
  const id = query.user_id ?? query.branch_id ?? 0;
  const found = await repo.holder(ctx.db, type === 'user' ? { userId: id } : { branchId: id });
  if (!found) throw invalid(type === 'user' ? 'user_id' : 'branch_id', COUNT_MSG.holderMissing);
  if (!can(actor, 'raaf.read', { type, id, branch_id: found.branch_id })) throw forbidden();
  const last = await repo.lastCounted(ctx.db, type === 'user' ? { userId: id, branchId: null } : { userId: null, branchId: id });
  return {
    holder: { type, id, name: found.name },
    last_counted_at: iso(last?.closed_at ?? null),
    count_id: last?.id ?? null,
  };
}
