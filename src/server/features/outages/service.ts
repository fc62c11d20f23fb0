import { dayTimeText, fullName, monthText } from '../../../shared/format.ts';
import { can, type Actor } from '../../../shared/permissions.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import { MAX_ATTACHMENT_BYTES } from '../../../shared/schemas/incidents.ts';
import {
  MAX_OUTAGE_EVIDENCE,
  OUTAGE_CAUSE_LABELS,
  OUTAGE_MSG,
  type Outage,
  type OutageCause,
  type OutageClose,
  type OutageInput,
  type OutageListQuery,
  type OutageRow,
  type OutageUpdate,
} from '../../../shared/schemas/outages.ts';
import type { AppContext } from '../../context.ts';
import { sqlState, violatedConstraint, type Conn } from '../../db/client.ts';
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../../lib/errors.ts';
import { sniffType } from '../../lib/file-type.ts';
import { paginated } from '../../lib/pagination.ts';
import { signedQueryFor, urlKey, verifySigned, type SignedQuery } from '../../lib/signed-url.ts';
import { branchNames } from '../branches/read-model.ts';
import { establishmentOf } from '../establishments/read-model.ts';
import { certifiedAmong, type HolderMonth } from '../ledger/read-model.ts';
import { activeActor, people } from '../users/read-model.ts';
import { relinkWindow } from './paper-uses.ts';
import * as repo from './repo.ts';

const EXCLUSION_VIOLATION = '23P01';
const CHECK_VIOLATION = '23514';

/** An uploaded evidence file before it is checked. */
export interface UploadedEvidence {
  fileName: string;
  content: Buffer;
}

async function branchName(conn: Conn, branchId: number): Promise<string | null> {
  const [branch] = await branchNames(conn, [branchId]);
  return branch?.name ?? null;
}

function toRow(record: repo.OutageListRecord, branch: string): OutageRow {
  // -- outages_cause_ck holds cause to OutageCause.
  const cause = record.cause as OutageCause;
  return {
    id: record.id,
    branch: { id: record.branch_id, name: branch },
    starts_at: record.starts_at.toISOString(),
    ends_at: record.ends_at?.toISOString() ?? null,
    state: record.ends_at === null ? 'open' : 'closed',
    cause,
    cause_label: OUTAGE_CAUSE_LABELS[cause],
    details: record.details,
    notice_reference: record.notice_reference,
    declared_by: { id: record.declared_by, name: record.declared_by_name ?? '' },
    closed_by: record.closed_by === null ? null : { id: record.closed_by, name: record.closed_by_name ?? '' },
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
    evidence_count: record.evidence_count,
    linked_uses: record.linked_uses,
    linked_numbers: record.linked_numbers,
  };
}

/** The window as a message names it: "05 Jan 2027 09:30 – 05 Jan 2027 12:00", or "from … (still open)". */
const windowText = (outage: { starts_at: Date; ends_at: Date | null }, timeZone: string) =>
  outage.ends_at === null
    ? `from ${dayTimeText(outage.starts_at, timeZone)}, still open`
    : `${dayTimeText(outage.starts_at, timeZone)} \u2013 ${dayTimeText(outage.ends_at, timeZone)}`;

/** Issue 38: the outages an actor may read, by establishment, state and period; branch staff see their own branch's. */
export async function list(ctx: AppContext, actor: Actor, q: OutageListQuery): Promise<Paginated<OutageRow>> {
  // A reader of every establishment reads one that is nobody's branch.
  const everywhere = can(actor, 'outage.read', { branch_id: -1 });
  if (!everywhere && q.branch_id !== undefined && !can(actor, 'outage.read', { branch_id: q.branch_id })) throw forbidden();
  const branchId = everywhere ? q.branch_id : (actor.branch_id ?? -1);
  const { rows, total } = await repo.page(
    ctx.db,
    { branch_id: branchId, state: q.state, from: q.from, to: q.to, timeZone: ctx.config.timeZone },
    q,
  );
  const names = new Map((await branchNames(ctx.db, [...new Set(rows.map((row) => row.branch_id))])).map((b) => [b.id, b.name]));
  return paginated(
    rows.map((row) => toRow(row, names.get(row.branch_id) ?? '')),
    total,
    q.page,
    q.per_page,
  );
}

/** The outage an actor may read; one they may not is answered like one that does not exist. */
async function readable(conn: Conn, actor: Actor, id: number): Promise<repo.OutageRecord> {
  const outage = await repo.find(conn, id);
  if (!outage || !can(actor, 'outage.read', outage)) throw notFound(OUTAGE_MSG.notFound);
  return outage;
}

/** The linked uses a certified RAAF relies on, each with the holder and month that certificate is of. */
async function reliedOn(conn: Conn, outageId: number) {
  const uses = await repo.linkedUsesOf(conn, outageId);
  const holderMonth = (use: repo.LinkedUse): HolderMonth =>
    use.holder_user_id === null
      ? { holder_type: 'branch', holder_id: use.branch_id, month: use.business_date.slice(0, 7) }
      : { holder_type: 'user', holder_id: use.holder_user_id, month: use.business_date.slice(0, 7) };
  const certified = await certifiedAmong(conn, uses.map(holderMonth));
  const key = (h: HolderMonth) => `${h.holder_type}:${h.holder_id}:${h.month}`;
  const keys = new Map(certified.map((c) => [key(c), c]));
  return uses.flatMap((use) => {
    const certificate = keys.get(key(holderMonth(use)));
    return certificate ? [{ use, certificate }] : [];
  });
}

/** "Juan Dela Cruz" or "Batangas Port", and "January 2027": how a frozen outage names the RAAF that relies on it. */
async function certificateWords(conn: Conn, certificate: HolderMonth): Promise<[string, string]> {
  const holder =
    certificate.holder_type === 'user'
      ? (await people(conn, [certificate.holder_id])).map((person) => fullName(person))[0]
      : await branchName(conn, certificate.holder_id);
  return [holder ?? `#${certificate.holder_id}`, monthText(certificate.month)];
}

let cachedKey: { secret: string; key: Buffer } | null = null;
function keyOf(ctx: AppContext): Buffer {
  if (cachedKey?.secret !== ctx.badgeSecret) cachedKey = { secret: ctx.badgeSecret, key: urlKey(ctx.badgeSecret, 'outage-evidence-url') };
  return cachedKey.key;
}
const evidenceSubject = (outageId: number, evidenceId: number) => `outage-evidence:${outageId}:${evidenceId}`;

/** Issue 38: one outage with its evidence (signed addresses for the viewer), linked uses and whether its times are frozen. */
export async function get(ctx: AppContext, actor: Actor, id: number): Promise<Outage> {
  await readable(ctx.db, actor, id);
  const record = await repo.findListRecord(ctx.db, id);
  if (!record) throw notFound(OUTAGE_MSG.notFound);
  const [evidence, relied] = await Promise.all([repo.evidenceOf(ctx.db, id), reliedOn(ctx.db, id)]);
  const first = relied[0]?.certificate;
  return {
    ...toRow(record, (await branchName(ctx.db, record.branch_id)) ?? ''),
    evidence: evidence.map((file) => ({
      id: file.id,
      file_name: file.file_name,
      content_type: file.content_type,
      size: file.size,
      uploaded_by: { id: file.uploaded_by, name: file.uploaded_by_name ?? '' },
      created_at: file.created_at.toISOString(),
      url: `/api/outages/${id}/evidence/${file.id}?${signedQueryFor(keyOf(ctx), evidenceSubject(id, file.id), actor.id)}`,
    })),
    frozen: first ? OUTAGE_MSG.frozen(...(await certificateWords(ctx.db, first))) : null,
  };
}

/** The exclusion constraint refused an overlap: 409 naming the other outage's window. Other errors pass on. */
async function refusal(
  ctx: AppContext,
  error: unknown,
  span: { branch_id: number; starts_at: Date; ends_at: Date | null },
  exceptId: number | null,
) {
  if (sqlState(error) === EXCLUSION_VIOLATION) {
    const clash = await repo.overlapping(ctx.db, span.branch_id, span.starts_at, span.ends_at, exceptId);
    return conflict(OUTAGE_MSG.overlap(clash ? windowText(clash, ctx.config.timeZone) : '?', clash?.id ?? 0));
  }
  if (sqlState(error) === CHECK_VIOLATION && violatedConstraint(error) === 'outages_window_ck')
    return invalid('ends_at', OUTAGE_MSG.endBeforeStart);
  return error;
}

/**
 * Issue 38: an establishment that issues e-invoices declares a time it could not (open while `ends_at` is null). Windows
 * of one establishment never overlap, which the exclusion constraint decides under parallel requests too; the open
 * exceptions inside the window are linked to it in the same transaction.
 */
export async function declare(ctx: AppContext, actor: Actor, input: OutageInput): Promise<Outage> {
  if (!can(actor, 'outage.manage', { branch_id: input.branch_id })) throw forbidden();
  const span = {
    branch_id: input.branch_id,
    starts_at: new Date(input.starts_at),
    ends_at: input.ends_at ? new Date(input.ends_at) : null,
  };
  let id: number;
  try {
    id = await ctx.db.transaction(async (tx) => {
      const name = await branchName(tx, input.branch_id);
      if (name === null) throw invalid('branch_id', OUTAGE_MSG.branchMissing);
      if (!(await establishmentOf(tx, input.branch_id))?.covered) throw conflict(OUTAGE_MSG.notCovered(name));
      const outage = await repo.insert(tx, {
        ...span,
        cause: input.cause,
        details: input.details,
        notice_reference: input.notice_reference,
        declared_by: actor.id,
      });
      await relinkWindow(tx, outage);
      return outage.id;
    });
  } catch (error) {
    throw await refusal(ctx, error, span, null);
  }
  return get(ctx, actor, id);
}

/** The outage an actor may change, locked; 404 for one they may not read, 403 for one they read but may not change. */
async function changeable(conn: Conn, actor: Actor, id: number): Promise<repo.OutageRecord> {
  const outage = await repo.lock(conn, id);
  if (!outage || !can(actor, 'outage.read', outage)) throw notFound(OUTAGE_MSG.notFound);
  if (!can(actor, 'outage.manage', outage)) throw forbidden();
  return outage;
}

const sameInstant = (a: Date | null, b: Date | null) => (a === null || b === null ? a === b : a.getTime() === b.getTime());

/**
 * Once a certified RAAF relies on the outage its window stays: a first end is allowed unless it leaves outside a use that
 * RAAF relies on; any other change of the times is refused (409 naming the RAAF).
 */
async function refuseFrozen(conn: Conn, outage: repo.OutageRecord, next: { starts_at: Date; ends_at: Date | null }): Promise<void> {
  if (sameInstant(outage.starts_at, next.starts_at) && sameInstant(outage.ends_at, next.ends_at)) return;
  const relied = await reliedOn(conn, outage.id);
  if (relied.length === 0) return;
  const firstEnd = outage.ends_at === null && next.ends_at !== null && sameInstant(outage.starts_at, next.starts_at);
  if (!firstEnd) throw conflict(OUTAGE_MSG.frozen(...(await certificateWords(conn, relied[0].certificate))));
  const end = next.ends_at;
  const cut = relied.find(({ use }) => end !== null && use.used_at.getTime() >= end.getTime());
  if (cut) throw conflict(OUTAGE_MSG.closeUnlinks(...(await certificateWords(conn, cut.certificate))));
}

async function rewrite(ctx: AppContext, actor: Actor, id: number, next: (outage: repo.OutageRecord) => repo.OutageValues): Promise<Outage> {
  const attempted: { window?: { branch_id: number; starts_at: Date; ends_at: Date | null } } = {};
  try {
    await ctx.db.transaction(async (tx) => {
      const outage = await changeable(tx, actor, id);
      const values = next(outage);
      attempted.window = { branch_id: outage.branch_id, starts_at: values.starts_at, ends_at: values.ends_at };
      if (values.ends_at !== null && values.ends_at.getTime() <= values.starts_at.getTime())
        throw invalid('ends_at', OUTAGE_MSG.endBeforeStart);
      await refuseFrozen(tx, outage, values);
      const closedBy = values.ends_at === null ? null : (outage.closed_by ?? actor.id);
      const saved = await repo.update(tx, id, { ...values, closed_by: closedBy });
      await relinkWindow(tx, saved);
    });
  } catch (error) {
    throw attempted.window ? await refusal(ctx, error, attempted.window, id) : error;
  }
  return get(ctx, actor, id);
}

/** Issue 38: corrects an outage's window, cause and words; its linked uses follow the new window (unless frozen, 409). */
export async function update(ctx: AppContext, actor: Actor, id: number, input: OutageUpdate): Promise<Outage> {
  return rewrite(ctx, actor, id, () => ({
    starts_at: new Date(input.starts_at),
    ends_at: input.ends_at ? new Date(input.ends_at) : null,
    cause: input.cause,
    details: input.details,
    notice_reference: input.notice_reference,
  }));
}

/** Issue 38: an open outage ends; uses after its end are no longer covered by it (they become exceptions). */
export async function close(ctx: AppContext, actor: Actor, id: number, input: OutageClose): Promise<Outage> {
  return rewrite(ctx, actor, id, (outage) => {
    if (outage.ends_at !== null) throw conflict(OUTAGE_MSG.alreadyClosed);
    // -- outages_cause_ck holds cause to OutageCause.
    const cause = outage.cause as OutageCause;
    return {
      starts_at: outage.starts_at,
      ends_at: new Date(input.ends_at),
      cause,
      details: outage.details,
      notice_reference: outage.notice_reference,
    };
  });
}

/** Issue 38: photos or papers showing the outage happened: PDF, PNG or JPEG by content, up to MAX_OUTAGE_EVIDENCE per outage. */
export async function addEvidence(ctx: AppContext, actor: Actor, id: number, files: UploadedEvidence[]): Promise<Outage> {
  if (files.length === 0) throw invalid('files', OUTAGE_MSG.noFiles);
  const checked = files.map((file) => {
    if (file.content.length > MAX_ATTACHMENT_BYTES)
      throw invalid('files', OUTAGE_MSG.fileTooLarge(file.fileName, MAX_ATTACHMENT_BYTES / 1024 / 1024));
    const type = sniffType(file.content);
    if (!type) throw invalid('files', OUTAGE_MSG.fileType(file.fileName));
    return { file_name: file.fileName.slice(0, 255) || 'evidence', content_type: type, bytes: file.content };
  });
  await ctx.db.transaction(async (tx) => {
    await changeable(tx, actor, id);
    if ((await repo.evidenceCountOf(tx, id)) + checked.length > MAX_OUTAGE_EVIDENCE) throw invalid('files', OUTAGE_MSG.tooManyFiles);
    await repo.insertEvidence(
      tx,
      checked.map((file) => ({ ...file, outage_id: id, uploaded_by: actor.id })),
    );
  });
  return get(ctx, actor, id);
}

/** One evidence file, for a signed-in reader of the outage or a signed link made for one. */
export async function evidenceFile(ctx: AppContext, id: number, evidenceId: number, bearer: Actor | null, q: SignedQuery) {
  let viewer = bearer;
  if (!viewer) {
    const verified = verifySigned(keyOf(ctx), evidenceSubject(id, evidenceId), q);
    if (!verified.ok) {
      if (verified.reason === 'missing') throw unauthenticated();
      throw forbidden(verified.reason === 'expired' ? 'This link has expired. Open the outage again.' : 'This link is not valid.');
    }
    viewer = (await activeActor(ctx.db, verified.userId)) ?? null;
    if (!viewer) throw forbidden();
  }
  await readable(ctx.db, viewer, id);
  const file = await repo.evidenceContent(ctx.db, id, evidenceId);
  if (!file) throw notFound(OUTAGE_MSG.evidenceMissing);
  return file;
}
