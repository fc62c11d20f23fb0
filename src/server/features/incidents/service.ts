import { dateInZone, fullName } from '../../../shared/format.ts';
import { ROLE } from '../../../shared/lookups.ts';
import { can, type Actor, type IncidentForRules } from '../../../shared/permissions.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import {
  ATTACHMENT_DATE_FIELDS,
  ATTACHMENT_KINDS,
  ATTACHMENT_LABELS,
  INCIDENT_MSG,
  MAX_ATTACHMENTS,
  type AttachmentKind,
  type FoundInput,
  type Incident,
  type IncidentListQuery,
  type IncidentRow,
  type LossIncidentInput,
} from '../../../shared/schemas/incidents.ts';
import type { AppContext } from '../../context.ts';
import type { Conn, Tx } from '../../db/client.ts';
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../../lib/errors.ts';
import type { RowSource } from '../../lib/export.ts';
import { paginated } from '../../lib/pagination.ts';
import { renderNoticeOfLossPdf } from '../../lib/pdf/notice-of-loss-pdf.ts';
import { assertCan } from '../../lib/policy.ts';
import { signedQueryFor, urlKey, verifySigned, type SignedQuery } from '../../lib/signed-url.ts';
import { lockedPad, padForRules, restoreNumbers, unusedRuns, wholePadWriteOff, writeOffNumbers } from '../pads/numbers.ts';
import * as repo from './repo.ts';

/** An uploaded file before it is checked: the form field names its kind. */
export interface UploadedFile {
  field: string;
  fileName: string;
  content: Buffer;
}

const NOTICE_ROLES = [ROLE.BRANCH_CUSTODIAN, ROLE.CUSTODIAN, ROLE.ACCOUNTING, ROLE.AUDITOR] as const;
const FORM_KIND = 'Official Receipts / Invoices (BIR-registered, pre-numbered)';

/** The file's type by its first bytes: PDF, PNG or JPEG, whatever its name or declared type say. */
export function sniffType(content: Buffer): 'application/pdf' | 'image/png' | 'image/jpeg' | null {
  if (content.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (content.length > 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff) return 'image/jpeg';
  return null;
}

function checkedFiles(files: UploadedFile[], input: LossIncidentInput, actorId: number) {
  if (files.length > MAX_ATTACHMENTS) throw invalid('files', INCIDENT_MSG.tooManyFiles);
  return files.map((file) => {
    if (!(ATTACHMENT_KINDS as readonly string[]).includes(file.field)) throw invalid(file.field, INCIDENT_MSG.unknownFileField(file.field));
    const kind = file.field as AttachmentKind;
    const type = sniffType(file.content);
    if (!type) throw invalid(kind, INCIDENT_MSG.fileType(file.fileName));
    const dateField = (ATTACHMENT_DATE_FIELDS as Partial<Record<AttachmentKind, keyof LossIncidentInput>>)[kind];
    return {
      kind,
      file_name: file.fileName.slice(0, 255) || `${kind}`,
      content_type: type,
      size: file.content.length,
      document_date: dateField ? ((input[dateField] as string | undefined) ?? null) : null,
      content: file.content,
      uploaded_by: actorId,
    };
  });
}

const yearOf = (at: Date, timeZone: string) => Number(dateInZone(at, timeZone).slice(0, 4));

/**
 * docs/design.md §9: reporting a loss of numbers or whole pads, by anyone holding them or carrying them on an
 * in-transit invoice. The incident gets the next gapless LOSS-YYYY-NNNN in the same transaction as its pads
 * and attachments; nothing is written off until an approver confirms it.
 */
export async function report(
  ctx: AppContext,
  actor: Actor,
  input: LossIncidentInput,
  files: UploadedFile[],
): Promise<{ id: number; number: string; status: 'reported' }> {
  const attachments = checkedFiles(files, input, actor.id);
  return ctx.db.transaction((tx) => reportIn(tx, ctx, actor, input, attachments));
}

/** report() inside the caller's transaction, its files already checked: a count opens a loss incident with its resolution. */
export async function reportIn(
  tx: Tx,
  ctx: AppContext,
  actor: Actor,
  input: LossIncidentInput,
  attachments: ReturnType<typeof checkedFiles> = [],
): Promise<{ id: number; number: string; status: 'reported' }> {
  const lines: Array<{ pad_id: number; route_id: number; from_number: number; to_number: number }> = [];
  const byPad = [...input.pads].sort((a, b) => a.pad_id - b.pad_id);
  for (const line of byPad) {
    const pad = await padForRules(tx, await lockedPad(tx, line.pad_id));
    assertCan(actor, 'incident.report', pad, INCIDENT_MSG.notYourPad(pad.number));
    const from = line.from ?? pad.series_from;
    const to = line.to ?? pad.series_to;
    if (unusedRuns(pad, from, to).length === 0) throw conflict(INCIDENT_MSG.nothingLeft(pad.number));
    const open = await repo.openIncidentOverlapping(tx, pad.id, from, to);
    if (open) throw conflict(INCIDENT_MSG.alreadyReported(open.from, open.number));
    lines.push({ pad_id: pad.id, route_id: pad.route_id, from_number: from, to_number: to });
  }
  const now = new Date();
  const year = yearOf(now, ctx.config.timeZone);
  const seq = await repo.nextSequence(tx, year);
  const incident = await repo.insertIncident(tx, {
    number: `LOSS-${year}-${String(seq).padStart(4, '0')}`,
    year,
    seq,
    place: input.place,
    occurred_at: new Date(input.occurred_at),
    circumstances: input.circumstances,
    reported_by: actor.id,
    reported_at: now,
    device_at: input.device_at ? new Date(input.device_at) : null,
  });
  await repo.insertPads(
    tx,
    lines.map((line) => ({ ...line, incident_id: incident.id })),
  );
  await repo.insertAttachments(
    tx,
    attachments.map((file) => ({ ...file, incident_id: incident.id })),
  );
  return { id: incident.id, number: incident.number, status: 'reported' as const };
}

async function rulesOf(conn: Conn, incident: repo.IncidentRecord): Promise<IncidentForRules> {
  const pads = await repo.padsOf(conn, incident.id);
  const infos = await repo.padInfos(
    conn,
    pads.map((pad) => pad.pad_id),
  );
  const branchIds = infos.flatMap((info) => [info.holder_branch_id, info.holder_user_branch_id]).filter((id): id is number => id !== null);
  return { reported_by: incident.reported_by, branch_ids: [...new Set(branchIds)] };
}

async function decidable(tx: Tx, actor: Actor, id: number): Promise<repo.IncidentRecord> {
  const incident = await repo.lockIncident(tx, id);
  if (!incident) throw notFound(INCIDENT_MSG.notFound);
  if (incident.reported_by === actor.id) throw forbidden(INCIDENT_MSG.ownReport);
  assertCan(actor, 'incident.decide', await rulesOf(tx, incident));
  if (incident.status !== 'reported') throw conflict(INCIDENT_MSG.notReported);
  return incident;
}

const name = (people: Map<number, repo.PersonRow>, id: number | null) => {
  const row = id === null ? undefined : people.get(id);
  return row ? { id: row.id, full_name: fullName(row) } : null;
};

/**
 * Confirming (roles 1, 3, 5 for their branch, 8; never the reporter) writes `lost` for the numbers of each
 * range still unused, against their accountable holder (the sender while an invoice carries them), makes the
 * Notice of Loss PDF and keeps it; after the commit the notice is mailed to every branch custodian and roles
 * 3, 8 and 9.
 */
export async function confirm(ctx: AppContext, actor: Actor, id: number): Promise<Incident> {
  const { incident, pdf } = await ctx.db.transaction(async (tx) => {
    const incident = await decidable(tx, actor, id);
    const pads = await repo.padsOf(tx, id);
    const lines: Array<{ padId: number; from: number; to: number }> = [];
    for (const line of pads) {
      const pad = await lockedPad(tx, line.pad_id);
      for (const [from, to] of unusedRuns(pad, line.from_number, line.to_number)) {
        await writeOffNumbers(tx, ctx, {
          padId: pad.id,
          from,
          to,
          kind: 'lost',
          reason: `${incident.number}: lost at ${incident.place}`,
          copiesRetained: null,
          actorId: incident.reported_by,
          approverId: actor.id,
          incidentId: incident.id,
          allowInTransit: true,
        });
        lines.push({ padId: pad.id, from, to });
      }
    }
    const decidedAt = new Date();
    const infos = new Map(
      (
        await repo.padInfos(
          tx,
          pads.map((pad) => pad.pad_id),
        )
      ).map((info) => [info.id, info]),
    );
    const people = new Map((await repo.people(tx, [incident.reported_by, actor.id])).map((row) => [row.id, row]));
    const attachments = await repo.attachmentsOf(tx, id);
    const pdf = await renderNoticeOfLossPdf({
      number: incident.number,
      formKind: FORM_KIND,
      lines: lines.map((line) => {
        const info = infos.get(line.padId);
        return {
          company: info?.company ?? '',
          route: info?.route_name ?? '',
          tin: info?.tin ?? '',
          padNumber: info?.number ?? 0,
          from: line.from,
          to: line.to,
          qty: line.to - line.from + 1,
        };
      }),
      place: incident.place,
      occurredAt: incident.occurred_at,
      circumstances: incident.circumstances,
      reportedBy: name(people, incident.reported_by)?.full_name ?? '',
      reportedAt: incident.reported_at,
      confirmedBy: name(people, actor.id)?.full_name ?? '',
      confirmedAt: decidedAt,
      attachments: attachments.map(
        (file) => `${ATTACHMENT_LABELS[file.kind as AttachmentKind]}${file.document_date ? ` (${file.document_date})` : ''}`,
      ),
      timeZone: ctx.config.timeZone,
    });
    await repo.updateIncident(tx, id, { status: 'confirmed', decided_by: actor.id, decided_at: decidedAt, notice_pdf: pdf });
    return { incident, pdf };
  });
  await mailNotice(ctx, incident, pdf);
  return detail(ctx, actor, id);
}

/** The notice goes out after the commit; a mail server that is down is logged, never undoes the confirmation. */
async function mailNotice(ctx: AppContext, incident: repo.IncidentRecord, pdf: Buffer): Promise<void> {
  const recipients = await repo.noticeRecipients(ctx.db, NOTICE_ROLES);
  const subject = `Notice of Loss ${incident.number}: do not accept these forms`;
  const text = `A loss of accountable forms was confirmed (${incident.number}, ${incident.place}). The attached Notice of Loss lists the forms; do not accept them.\n\n${ctx.config.appUrl}/incidents?incident=${incident.id}\n`;
  await Promise.all(
    recipients.map((user) =>
      ctx.mailer
        .send({
          to: user.email,
          subject,
          text,
          attachments: [{ filename: `${incident.number}.pdf`, content: pdf, contentType: 'application/pdf' }],
        })
        .catch((error: unknown) => ctx.log.error({ err: error, incident: incident.number, to: user.id }, 'Notice of Loss mail failed')),
    ),
  );
}

export async function reject(ctx: AppContext, actor: Actor, id: number, reason: string): Promise<Incident> {
  await ctx.db.transaction(async (tx) => {
    await decidable(tx, actor, id);
    await repo.updateIncident(tx, id, { status: 'rejected', decided_by: actor.id, decided_at: new Date(), rejection_reason: reason });
  });
  return detail(ctx, actor, id);
}

/**
 * docs/design.md §9 found, first step: a Custodian or Accounting user records numbers of a confirmed loss found again;
 * not while their pad is Cancelled or Lost as a whole, which would keep them written off (reinstate it first).
 */
export async function recordFound(ctx: AppContext, actor: Actor, id: number, input: FoundInput): Promise<Incident> {
  assertCan(actor, 'incident.found');
  await ctx.db.transaction(async (tx) => {
    const incident = await repo.lockIncident(tx, id);
    if (!incident) throw notFound(INCIDENT_MSG.notFound);
    if (incident.status !== 'confirmed') throw conflict(INCIDENT_MSG.notConfirmed);
    const covered = (await repo.padsOf(tx, id)).some(
      (line) => line.pad_id === input.pad_id && line.from_number <= input.from && line.to_number >= input.to,
    );
    if (!covered) throw conflict(INCIDENT_MSG.notLostHere(input.from));
    const pad = await lockedPad(tx, input.pad_id);
    const writtenOff = wholePadWriteOff(pad);
    if (writtenOff) throw conflict(INCIDENT_MSG.reinstatePadFirst(pad.number, writtenOff));
    for (let n = input.from; n <= input.to; n += 1) {
      if (pad.series_status[n - pad.series_from] !== '4') throw conflict(INCIDENT_MSG.notLostHere(n));
    }
    await repo.insertFound(tx, {
      incident_id: id,
      pad_id: input.pad_id,
      from_number: input.from,
      to_number: input.to,
      reason: input.reason,
      recorded_by: actor.id,
    });
  });
  return detail(ctx, actor, id);
}

/** Second step: another user of roles 3 or 8 confirms, and the numbers come back to stock by a `found` event. */
export async function confirmFound(ctx: AppContext, actor: Actor, id: number, foundId: number): Promise<Incident> {
  await ctx.db.transaction(async (tx) => {
    const found = await repo.lockFound(tx, id, foundId);
    if (!found) throw notFound(INCIDENT_MSG.notFound);
    if (found.recorded_by === actor.id) throw forbidden(INCIDENT_MSG.ownFound);
    assertCan(actor, 'incident.confirmFound', { recorded_by: found.recorded_by });
    if (found.confirmed_by !== null) throw conflict(INCIDENT_MSG.foundDone);
    await restoreNumbers(tx, ctx, {
      padId: found.pad_id,
      from: found.from_number,
      to: found.to_number,
      kind: 'found',
      reason: found.reason,
      actorId: found.recorded_by,
      approverId: actor.id,
      incidentId: id,
    });
    await repo.confirmFound(tx, foundId, actor.id);
  });
  return detail(ctx, actor, id);
}

let cachedKey: { secret: string; key: Buffer } | null = null;
function keyOf(ctx: AppContext): Buffer {
  if (cachedKey?.secret !== ctx.badgeSecret) cachedKey = { secret: ctx.badgeSecret, key: urlKey(ctx.badgeSecret, 'incident-file-url') };
  return cachedKey.key;
}

const mayRead = (actor: Actor, incident: repo.IncidentRecord) => can(actor, 'incident.read') || incident.reported_by === actor.id;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** One incident with its pads, files (signed links), found numbers and, once confirmed, the notice's link. */
export async function detail(ctx: AppContext, actor: Actor, id: number): Promise<Incident> {
  const incident = await repo.findIncident(ctx.db, id);
  if (!incident) throw notFound(INCIDENT_MSG.notFound);
  if (!mayRead(actor, incident)) throw forbidden();
  const [lines, attachments, found] = await Promise.all([
    repo.padsOf(ctx.db, id),
    repo.attachmentsOf(ctx.db, id),
    repo.foundOf(ctx.db, id),
  ]);
  const infos = new Map(
    (
      await repo.padInfos(
        ctx.db,
        lines.map((line) => line.pad_id),
      )
    ).map((info) => [info.id, info]),
  );
  const people = new Map(
    (
      await repo.people(ctx.db, [
        incident.reported_by,
        incident.decided_by ?? 0,
        ...attachments.map((a) => a.uploaded_by),
        ...found.flatMap((f) => [f.recorded_by, f.confirmed_by ?? 0]),
      ])
    ).map((row) => [row.id, row]),
  );
  const signed = (path: string, subject: string) => `${path}?${signedQueryFor(keyOf(ctx), subject, actor.id)}`;
  const padLines = lines.map((line) => {
    const info = infos.get(line.pad_id);
    return {
      pad: {
        id: line.pad_id,
        number: info?.number ?? 0,
        series_number: info ? `${info.series_from}-${info.series_to}` : '',
        route: { id: line.route_id, name: info?.route_name ?? '', tin: info?.tin ?? '', company: info?.company ?? '' },
      },
      from: line.from_number,
      to: line.to_number,
      qty: line.to_number - line.from_number + 1,
    };
  });
  return {
    ...rowDto(incident, padLines, people),
    circumstances: incident.circumstances,
    decided_by: name(people, incident.decided_by),
    decided_at: iso(incident.decided_at),
    rejection_reason: incident.rejection_reason,
    pads: padLines,
    attachments: attachments.map((file) => ({
      id: file.id,
      kind: file.kind as AttachmentKind,
      file_name: file.file_name,
      content_type: file.content_type as Incident['attachments'][number]['content_type'],
      size: file.size,
      document_date: file.document_date,
      uploaded_by: name(people, file.uploaded_by) ?? { id: file.uploaded_by, full_name: '' },
      uploaded_at: iso(file.uploaded_at) ?? '',
      url: signed(`/api/loss-incidents/${id}/attachments/${file.id}`, `incident-file:${id}:${file.id}`),
    })),
    found: found.map((row) => ({
      id: row.id,
      pad_id: row.pad_id,
      from: row.from_number,
      to: row.to_number,
      reason: row.reason,
      status: row.confirmed_by === null ? ('pending' as const) : ('confirmed' as const),
      recorded_by: name(people, row.recorded_by) ?? { id: row.recorded_by, full_name: '' },
      recorded_at: iso(row.recorded_at) ?? '',
      confirmed_by: name(people, row.confirmed_by),
      confirmed_at: iso(row.confirmed_at),
    })),
    notice_url: incident.status === 'confirmed' ? signed(`/api/loss-incidents/${id}/notice`, `incident-notice:${id}`) : null,
  };
}

function rowDto(
  incident: Pick<repo.IncidentRecord, 'id' | 'number' | 'status' | 'place' | 'occurred_at' | 'reported_by' | 'reported_at'>,
  lines: Array<{ pad: { number: number }; from: number; to: number; qty: number }>,
  people: Map<number, repo.PersonRow>,
): IncidentRow {
  return {
    id: incident.id,
    number: incident.number,
    status: incident.status as IncidentRow['status'],
    place: incident.place,
    occurred_at: iso(incident.occurred_at) ?? '',
    reported_by: name(people, incident.reported_by) ?? { id: incident.reported_by, full_name: '' },
    reported_at: iso(incident.reported_at) ?? '',
    qty: lines.reduce((sum, line) => sum + line.qty, 0),
    summary: lines
      .map((line) => `Pad ${line.pad.number} (${line.from === line.to ? line.from : `${line.from}\u2013${line.to}`})`)
      .join('; '),
  };
}

/** The Incidents screen: roles 1–9, searchable by incident number or by a receipt number on it. */
export async function list(ctx: AppContext, query: IncidentListQuery): Promise<Paginated<IncidentRow>> {
  const { rows, total } = await repo.listIncidents(ctx.db, query);
  return paginated(await incidentRows(ctx.db, rows), total, query.page, query.per_page);
}

/** docs/design.md §10 Export: every incident of the Incidents list for this search and status, in batches. */
export function listSource(ctx: AppContext, query: IncidentListQuery): RowSource<IncidentRow> {
  return (write) => repo.streamIncidents(ctx.db, query, async (rows, tx) => write(await incidentRows(tx, rows)));
}

async function incidentRows(conn: Conn, rows: repo.IncidentListRow[]): Promise<IncidentRow[]> {
  const lines = await repo.padsOfIncidents(
    conn,
    rows.map((row) => row.id),
  );
  const infos = new Map((await repo.padInfos(conn, [...new Set(lines.map((line) => line.pad_id))])).map((info) => [info.id, info]));
  const people = new Map(
    (
      await repo.people(
        conn,
        rows.map((row) => row.reported_by),
      )
    ).map((row) => [row.id, row]),
  );
  return rows.map((row) =>
    rowDto(
      { ...row, occurred_at: new Date(row.occurred_at), reported_at: new Date(row.reported_at) },
      lines
        .filter((line) => line.incident_id === row.id)
        .map((line) => ({
          pad: { number: infos.get(line.pad_id)?.number ?? 0 },
          from: line.from_number,
          to: line.to_number,
          qty: line.to_number - line.from_number + 1,
        })),
      people,
    ),
  );
}

/** A bearer user or a signed link opens the file; either way the viewer must be allowed to read the incident. */
async function viewerOf(ctx: AppContext, bearer: Actor | null, subject: string, q: SignedQuery): Promise<Actor> {
  if (bearer) return bearer;
  const verified = verifySigned(keyOf(ctx), subject, q);
  if (!verified.ok) {
    if (verified.reason === 'missing') throw unauthenticated();
    throw forbidden(verified.reason === 'expired' ? 'This link has expired. Open the incident again.' : 'This link is not valid.');
  }
  const viewer = await repo.activeActor(ctx.db, verified.userId);
  if (!viewer) throw forbidden();
  return viewer;
}

export async function noticePdf(
  ctx: AppContext,
  id: number,
  bearer: Actor | null,
  q: SignedQuery,
): Promise<{ number: string; pdf: Buffer }> {
  const viewer = await viewerOf(ctx, bearer, `incident-notice:${id}`, q);
  const incident = await repo.findIncident(ctx.db, id);
  if (!incident) throw notFound(INCIDENT_MSG.notFound);
  if (!mayRead(viewer, incident)) throw forbidden();
  if (!incident.notice_pdf) throw notFound(INCIDENT_MSG.notFound);
  return { number: incident.number, pdf: incident.notice_pdf };
}

export async function attachment(ctx: AppContext, id: number, attachmentId: number, bearer: Actor | null, q: SignedQuery) {
  const viewer = await viewerOf(ctx, bearer, `incident-file:${id}:${attachmentId}`, q);
  const incident = await repo.findIncident(ctx.db, id);
  if (!incident) throw notFound(INCIDENT_MSG.notFound);
  if (!mayRead(viewer, incident)) throw forbidden();
  const file = await repo.attachmentContent(ctx.db, id, attachmentId);
  if (!file) throw notFound(INCIDENT_MSG.attachmentMissing);
  return file;
}
