import { calendarDayText, seriesRange } from '../../../shared/format.ts';
import { FORM_TYPES, ROLE } from '../../../shared/lookups.ts';
import { can, type Actor } from '../../../shared/permissions.ts';
import {
  ATTACHMENT_DATE_FIELDS,
  ATTACHMENT_KINDS,
  ATTACHMENT_LABELS,
  INCIDENT_MSG,
  MAX_ATTACHMENTS,
  type AttachmentKind,
  type LossIncidentInput,
} from '../../../shared/schemas/incidents.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { forbidden, invalid, notFound, unauthenticated } from '../../lib/errors.ts';
import { sniffType } from '../../lib/file-type.ts';
import { renderNoticeOfLossPdf, type NoticeOfLoss } from '../../lib/pdf/notice-of-loss-pdf.ts';
import { signedQueryFor, urlKey, verifySigned, type SignedQuery } from '../../lib/signed-url.ts';
import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import { findInvoiceRows } from '../invoices/read-model.ts';
import { seriesCovering } from '../registered-series/read-model.ts';
import { operatorIdentity, signatoryFor } from '../settings/read-model.ts';
import * as users from '../users/read-model.ts';
import * as repo from './repo.ts';

/** An uploaded file before it is checked: the form field names its kind. */
export interface UploadedFile {
  field: string;
  fileName: string;
  content: Buffer;
}

/** An attachment that passed the checks, ready to be stored with its incident. */
export type CheckedFile = ReturnType<typeof checkedFiles>[number];

const NOTICE_ROLES = [ROLE.BRANCH_CUSTODIAN, ROLE.CUSTODIAN, ROLE.ACCOUNTING, ROLE.AUDITOR] as const;
const FORM_KIND = 'Official Receipts / Invoices (BIR-registered, pre-numbered)';

/** A report's files: a known kind each, a PDF or image by content, dated by the form field its kind names. */
export function checkedFiles(files: UploadedFile[], input: LossIncidentInput, actorId: number) {
  if (files.length > MAX_ATTACHMENTS) throw invalid('files', INCIDENT_MSG.tooManyFiles);
  return files.map((file) => {
    const kind = ATTACHMENT_KINDS.find((known) => known === file.field);
    if (!kind) throw invalid(file.field, INCIDENT_MSG.unknownFileField(file.field));
    const type = sniffType(file.content);
    if (!type) throw invalid(kind, INCIDENT_MSG.fileType(file.fileName));
    // -- widens the const map to every kind, so a kind without a date field reads undefined; input's date fields are strings.
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

/** A range written off by a confirmation, with the invoice its pad was on and whether that invoice let the pad go. */
export interface NoticeLine {
  padId: number;
  from: number;
  to: number;
  invoiceId: number | null;
  leftInvoice: boolean;
}

/** What the Notice of Loss states beyond the incident itself: the numbers written off, who confirmed it, when, and the papers. */
export interface NoticeFacts {
  lines: NoticeLine[];
  confirmedBy: number;
  confirmedAt: Date;
  attachments: repo.AttachmentMeta[];
  noAffidavitReason: string | null;
}

/** "ATP 041AU… of 10 Jan 2026 (Invoice, 5001-10000)" for each registered series covering the range, or why none does. */
async function atpText(conn: Conn, routeId: number, from: number, to: number): Promise<string> {
  const covers = await seriesCovering(conn, routeId, from, to);
  if (covers.length === 0) return 'Not in a registered series';
  const covered = covers.reduce((sum, c) => sum + Math.min(c.series_to, to) - Math.max(c.series_from, from) + 1, 0);
  const texts = covers.map(
    (c) => `ATP ${c.atp_number} of ${calendarDayText(c.atp_date)} (${FORM_TYPES[c.form_type]}, ${seriesRange(c.series_from, c.series_to)})`,
  );
  return [...texts, ...(covered < to - from + 1 ? ['the rest not in a registered series'] : [])].join('; ');
}

/** What the notice says of each in-transit invoice a lost pad was on: "Pad 12 was on Turnover #12 … no longer carries it". */
function transitNotes(lines: NoticeLine[], infos: Map<number, repo.PadInfo>, invoices: Map<number, InvoiceRow>): string[] {
  const byPad = new Map<number, NoticeLine[]>();
  for (const line of lines) if (line.invoiceId !== null) byPad.set(line.padId, [...(byPad.get(line.padId) ?? []), line]);
  return [...byPad].map(([padId, padLines]) => {
    const invoice = invoices.get(padLines[0].invoiceId ?? 0);
    const name = invoice ? `${invoice.invoice_type.name} #${invoice.id}` : `invoice #${padLines[0].invoiceId}`;
    const way = invoice
      ? ` from ${invoice.by} to ${invoice.to}, carried by ${invoice.assigned_user?.full_name ?? invoice.assigned_to ?? '-'}`
      : '';
    const fate = padLines.some((line) => line.leftInvoice)
      ? 'That invoice no longer carries it: the rest of the invoice can be accepted, this pad cannot.'
      : 'Its numbers not lost travel on with that invoice.';
    return `Pad ${infos.get(padId)?.number ?? padId} was in transit on ${name}${way}. ${fate}`;
  });
}

const personOf = (signer: users.Signer | undefined) => ({ name: signer?.full_name ?? '', position: signer?.position ?? '' });

/** docs/design.md §9: the Notice of Loss PDF of a confirmed incident, read inside the confirming transaction. */
export async function noticeOfLoss(conn: Conn, ctx: AppContext, incident: repo.IncidentRecord, facts: NoticeFacts): Promise<Buffer> {
  const timeZone = ctx.config.timeZone;
  const infos = new Map((await repo.padInfos(conn, [...new Set(facts.lines.map((line) => line.padId))])).map((info) => [info.id, info]));
  const people = await users.signers(conn, [incident.reported_by, facts.confirmedBy]);
  const invoiceIds = [...new Set(facts.lines.flatMap((line) => (line.invoiceId === null ? [] : [line.invoiceId])))];
  const invoices = new Map((await findInvoiceRows(conn, invoiceIds, timeZone)).map((row) => [row.id, row]));
  const operator = await operatorIdentity(conn);
  const lines: NoticeOfLoss['lines'] = [];
  for (const line of facts.lines) {
    const info = infos.get(line.padId);
    const invoice = line.invoiceId === null ? undefined : invoices.get(line.invoiceId);
    lines.push({
      route: info ? `${info.company} - ${info.route_name} - ${info.tin}` : '',
      padNumber: info?.number ?? 0,
      from: line.from,
      to: line.to,
      qty: line.to - line.from + 1,
      atp: info ? await atpText(conn, info.route_id, line.from, line.to) : '',
      invoice: invoice ? `${invoice.invoice_type.name} #${invoice.id}` : line.invoiceId === null ? '-' : `#${line.invoiceId}`,
    });
  }
  return renderNoticeOfLossPdf({
    number: incident.number,
    formKind: FORM_KIND,
    operator,
    signatory: signatoryFor(operator, 'notice_of_loss'),
    lines,
    transitNotes: transitNotes(facts.lines, infos, invoices),
    place: incident.place,
    occurredAt: incident.occurred_at,
    circumstances: incident.circumstances,
    reportedBy: personOf(people.get(incident.reported_by)),
    reportedAt: incident.reported_at,
    confirmedBy: personOf(people.get(facts.confirmedBy)),
    confirmedAt: facts.confirmedAt,
    papers: facts.attachments.map((file) => ({
      // -- loss_incident_attachments_kind_ck holds kind to AttachmentKind.
      kind: ATTACHMENT_LABELS[file.kind as AttachmentKind],
      fileName: file.file_name,
      date: file.document_date ? `${file.kind === 'affidavit' ? 'Notarised' : 'Dated'} ${calendarDayText(file.document_date)}` : '-',
    })),
    noAffidavitReason: facts.noAffidavitReason,
    timeZone,
  });
}

/**
 * The notice goes to every branch custodian and roles 3, 8 and 9 after the commit; a mail server that is down is
 * logged, never undoes the confirmation.
 */
export async function mailNotice(ctx: AppContext, incident: repo.IncidentRecord, pdf: Buffer): Promise<void> {
  const recipients = await users.activeRecipients(ctx.db, NOTICE_ROLES);
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

let cachedKey: { secret: string; key: Buffer } | null = null;
function keyOf(ctx: AppContext): Buffer {
  if (cachedKey?.secret !== ctx.badgeSecret) cachedKey = { secret: ctx.badgeSecret, key: urlKey(ctx.badgeSecret, 'incident-file-url') };
  return cachedKey.key;
}

/** A file's address signed for the viewer, so a browser opens it in a new tab without the bearer token. */
export const signedPath = (ctx: AppContext, viewerId: number, path: string, subject: string) =>
  `${path}?${signedQueryFor(keyOf(ctx), subject, viewerId)}`;

/** The reporter reads their own incident; anyone else needs `incident.read`. */
export const mayRead = (actor: Actor, incident: repo.IncidentRecord) => can(actor, 'incident.read') || incident.reported_by === actor.id;

/** A bearer user or a signed link opens the file; either way the viewer must be allowed to read the incident. */
async function viewerOf(ctx: AppContext, bearer: Actor | null, subject: string, q: SignedQuery): Promise<Actor> {
  if (bearer) return bearer;
  const verified = verifySigned(keyOf(ctx), subject, q);
  if (!verified.ok) {
    if (verified.reason === 'missing') throw unauthenticated();
    throw forbidden(verified.reason === 'expired' ? 'This link has expired. Open the incident again.' : 'This link is not valid.');
  }
  const viewer = await users.activeActor(ctx.db, verified.userId);
  if (!viewer) throw forbidden();
  return viewer;
}

/** The incident the viewer opens a file of, refused like one that is missing when they may not read it. */
async function readableIncident(ctx: AppContext, viewer: Actor, id: number): Promise<repo.IncidentRecord> {
  const incident = await repo.findIncident(ctx.db, id);
  if (!incident) throw notFound(INCIDENT_MSG.notFound);
  if (!mayRead(viewer, incident)) throw forbidden();
  return incident;
}

/** The stored Notice of Loss of a confirmed incident. */
export async function noticePdf(
  ctx: AppContext,
  id: number,
  bearer: Actor | null,
  q: SignedQuery,
): Promise<{ number: string; pdf: Buffer }> {
  const viewer = await viewerOf(ctx, bearer, `incident-notice:${id}`, q);
  const incident = await readableIncident(ctx, viewer, id);
  if (!incident.notice_pdf) throw notFound(INCIDENT_MSG.notFound);
  return { number: incident.number, pdf: incident.notice_pdf };
}

/** One file attached to the report, as it was uploaded. */
export async function attachment(ctx: AppContext, id: number, attachmentId: number, bearer: Actor | null, q: SignedQuery) {
  const viewer = await viewerOf(ctx, bearer, `incident-file:${id}:${attachmentId}`, q);
  await readableIncident(ctx, viewer, id);
  const file = await repo.attachmentContent(ctx.db, id, attachmentId);
  if (!file) throw notFound(INCIDENT_MSG.attachmentMissing);
  return file;
}
