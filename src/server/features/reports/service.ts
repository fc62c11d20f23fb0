import { INVOICE_STATUS, INVOICE_TYPE } from '../../../shared/lookups.ts';
import { can, invoiceScope, type Actor } from '../../../shared/permissions.ts';
import { dateInZone } from '../../../shared/format.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import type { InvoicePage } from '../../../shared/schemas/invoices.ts';
import { REPORT_MSG, type ReportListQuery, type ReportRow } from '../../../shared/schemas/reports.ts';
import type { ReportListRow } from '../../../shared/list-columns.ts';
import type { AppContext } from '../../context.ts';
import type { RowSource } from '../../lib/export.ts';
import type { Conn } from '../../db/client.ts';
import { sqlState } from '../../db/client.ts';
import { AppError, conflict, forbidden, notFound, unauthenticated } from '../../lib/errors.ts';
import { likePattern, offsetOf, paginated } from '../../lib/pagination.ts';
import type { Pdf } from '../../lib/pdf/document.ts';
import { renderReportPdf, type ReportInvoice } from '../../lib/pdf/report-pdf.ts';
import { findInvoiceRows, listInvoices, listPadsOfInvoices } from '../invoices/read-model.ts';
import { operatorIdentity } from '../settings/read-model.ts';
import * as repo from './repo.ts';
import type { SignedQuery, Verified } from '../../lib/signed-url.ts';
import * as signed from './signed-url.ts';

const keyOf = (ctx: AppContext) => signed.reportUrlKey(ctx.badgeSecret);

/** Completed Issued invoices that no report holds yet: the only ones a report may take, last accepted first. */
export async function listCompletedInvoices(
  ctx: AppContext,
  actor: Actor,
  q: { page: number; per_page: number; search?: string },
): Promise<InvoicePage> {
  const { total, rows } = await listInvoices(
    ctx.db,
    {
      scope: invoiceScope(actor),
      typeId: INVOICE_TYPE.ISSUED,
      statusId: INVOICE_STATUS.COMPLETED,
      unreported: true,
      search: q.search ? { text: q.search, by: 'invoiceNumber' } : undefined,
    },
    { page: q.page, perPage: q.per_page, order: 'lastAccepted' },
    ctx.config.timeZone,
  );
  return { ...paginated(rows, total, q.page, q.per_page), time_zone: ctx.config.timeZone };
}

/** One message per asked invoice a report may not take, for the 422 on invoice_ids. */
function ineligibilityMessages(ids: number[], found: repo.InvoiceEligibility[]): string[] {
  const byId = new Map(found.map((row) => [row.id, row]));
  const messages: string[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row) messages.push(`Invoice ${id} does not exist.`);
    else if (row.invoice_type_id !== INVOICE_TYPE.ISSUED || row.invoice_status_id !== INVOICE_STATUS.COMPLETED)
      messages.push(`Invoice ${id} is not a completed Issued invoice.`);
    else if (row.report_number) messages.push(`Invoice ${id} is already in report ${row.report_number}.`);
  }
  return messages;
}

async function assertEligible(conn: Conn, ids: number[], lock: boolean): Promise<void> {
  const messages = ineligibilityMessages(ids, await repo.eligibility(conn, ids, lock));
  if (messages.length > 0) throw new AppError('invalid', messages[0], 422, { invoice_ids: messages.slice(0, 20) });
}

/** The invoices as the PDF prints them: the same rows (By, To, Route, courier) the screens show. */
async function loadReportInvoices(ctx: AppContext, conn: Conn, ids: number[]): Promise<ReportInvoice[]> {
  const [rows, padRows] = await Promise.all([findInvoiceRows(conn, ids, ctx.config.timeZone), listPadsOfInvoices(conn, ids)]);
  const padsByInvoice = new Map<number, ReportInvoice['pads']>();
  for (const { invoice_id, ...pad } of padRows) {
    const list = padsByInvoice.get(invoice_id) ?? [];
    list.push(pad);
    padsByInvoice.set(invoice_id, list);
  }
  return rows.map((row) => ({
    id: row.id,
    status: row.invoice_status.name,
    route: row.route_label,
    from_branch: row.by,
    to_branch: row.to,
    receiving_user: row.user.full_name,
    courier: row.assigned_to || '-',
    issued_at: new Date(row.created_at),
    accepted_at: row.accepted_at ? new Date(row.accepted_at) : null,
    expected_return_date: row.expected_return_date,
    pads: padsByInvoice.get(row.id) ?? [],
  }));
}

/** The span the report covers: the first date issued to the last date accepted, in the operator's time zone. */
function periodOf(invoices: ReportInvoice[], timeZone: string): { from: string | null; to: string | null } {
  if (invoices.length === 0) return { from: null, to: null };
  const issued = Math.min(...invoices.map((i) => i.issued_at.getTime()));
  const accepted = Math.max(...invoices.map((i) => (i.accepted_at ?? i.issued_at).getTime()));
  return { from: dateInZone(new Date(issued), timeZone), to: dateInZone(new Date(accepted), timeZone) };
}

async function renderFor(
  ctx: AppContext,
  conn: Conn,
  actorId: number,
  ids: number[],
  extra: { number: string | null; remarks: string | null; at: Date },
) {
  const invoices = await loadReportInvoices(ctx, conn, ids);
  const who = await repo.generator(conn, actorId);
  const period = periodOf(invoices, ctx.config.timeZone);
  const operator = await operatorIdentity(conn);
  const pdf = renderReportPdf({
    operator,
    number: extra.number,
    generatedAt: extra.at,
    generatedBy: { name: who?.full_name ?? 'Unknown user', role: who?.role ?? null },
    remarks: extra.remarks,
    periodFrom: period.from,
    periodTo: period.to,
    timeZone: ctx.config.timeZone,
    invoices,
  });
  return { pdf, period, count: invoices.length };
}

/** Checks the selection, then hands out a short-lived signed address the preview frame can load without a Bearer header. */
export async function previewLink(ctx: AppContext, actor: Actor, invoiceIds: number[]): Promise<{ preview_url: string }> {
  await assertEligible(ctx.db, invoiceIds, false);
  return { preview_url: signed.previewUrl(keyOf(ctx), invoiceIds, actor.id) };
}

/** The user a signed address was made for, refused if the address is bad or the user lost report access since. */
async function signedActor(ctx: AppContext, verified: Verified): Promise<Actor> {
  if (!verified.ok) {
    if (verified.reason === 'missing') throw unauthenticated();
    throw forbidden(verified.reason === 'expired' ? REPORT_MSG.linkExpired : REPORT_MSG.linkInvalid);
  }
  const actor = await repo.activeActor(ctx.db, verified.userId);
  if (!actor || !can(actor, 'report.use')) throw forbidden();
  return actor;
}

/** The preview PDF behind a signed address, from the database as it is now: its data read, its drawing left to the download. */
export async function previewPdf(ctx: AppContext, q: SignedQuery & { ids?: string }): Promise<Pdf> {
  const packed = q.ids ?? '';
  const ids = signed.unpackIds(packed);
  const verified: Verified = ids ? signed.verifyPreview(keyOf(ctx), packed, q) : { ok: false, reason: q.signature ? 'invalid' : 'missing' };
  const actor = await signedActor(ctx, verified);
  if (!ids) throw forbidden(REPORT_MSG.linkInvalid);
  const eligible = ineligibilityMessages(ids, await repo.eligibility(ctx.db, ids, false)).length === 0;
  if (!eligible) throw conflict(REPORT_MSG.previewStale);
  const { pdf } = await renderFor(ctx, ctx.db, actor.id, ids, { number: null, remarks: null, at: new Date() });
  return pdf;
}

/**
 * Saves a report: locks the invoices, re-checks them, takes the next number of the year, renders the PDF
 * on the server from the ids (never from the client's data), stores it and links the invoices, all in one transaction.
 */
export async function createReport(
  ctx: AppContext,
  actor: Actor,
  input: { invoice_ids: number[]; remarks: string | null },
): Promise<ReportRow> {
  try {
    return await ctx.db.transaction(async (tx) => {
      await assertEligible(tx, input.invoice_ids, true);
      const at = new Date();
      const number = await repo.nextReportNumber(tx, dateInZone(at, ctx.config.timeZone).slice(0, 4));
      const { pdf, period, count } = await renderFor(ctx, tx, actor.id, input.invoice_ids, { number, remarks: input.remarks, at });
      const file = await pdf.finish();
      const row = await repo.insertReport(
        tx,
        {
          number,
          remarks: input.remarks,
          total_invoice: count,
          period_from: period.from,
          period_to: period.to,
          pdf: file,
          generated_by: actor.id,
          created_at: at,
        },
        input.invoice_ids,
      );
      const who = await repo.generator(tx, actor.id);
      return {
        id: row.id,
        number,
        total_invoice: count,
        remarks: input.remarks,
        period_from: period.from,
        period_to: period.to,
        generated_by_user: { id: actor.id, full_name: who?.full_name ?? '' },
        created_at: row.created_at.toISOString(),
        data: signed.savedReportUrl(keyOf(ctx), row.id, actor.id),
      };
    });
  } catch (error) {
    const state = sqlState(error);
    if (state === '23505' || state === '40001' || state === '40P01') throw conflict(REPORT_MSG.alreadyReported);
    throw error;
  }
}

/** docs/design.md §10 Export: every saved report of the Reports list for these filters, in batches. */
export function reportListSource(ctx: AppContext, q: ReportListQuery): RowSource<ReportListRow> {
  const filter = {
    pattern: q.search ? likePattern(q.search) : undefined,
    startDate: q.start_date,
    endDate: q.end_date,
    timeZone: ctx.config.timeZone,
    sort: q.sort,
    order: q.order,
  };
  return (write) =>
    repo.streamReports(ctx.db, filter, (rows) => write(rows.map((row) => ({ ...row, created_at: row.created_at.toISOString() }))));
}

/** Saved reports, newest first, each with a fresh signed address of its PDF for the asking user. */
export async function listReports(ctx: AppContext, actor: Actor, q: ReportListQuery): Promise<Paginated<ReportRow>> {
  const { total, rows } = await repo.listReports(ctx.db, {
    offset: offsetOf(q.page, q.per_page),
    limit: q.per_page,
    pattern: q.search ? likePattern(q.search) : undefined,
    startDate: q.start_date,
    endDate: q.end_date,
    timeZone: ctx.config.timeZone,
    sort: q.sort,
    order: q.order,
  });
  const key = keyOf(ctx);
  const data = rows.map((row) => ({
    ...row,
    created_at: row.created_at.toISOString(),
    data: signed.savedReportUrl(key, row.id, actor.id),
  }));
  return paginated(data, total, q.page, q.per_page);
}

/** A saved PDF, for a signed-in user with report access or through a valid signed address. */
export async function savedPdf(
  ctx: AppContext,
  reportId: number,
  bearerUser: Actor | null,
  q: SignedQuery,
): Promise<{ number: string; pdf: Buffer }> {
  if (bearerUser) {
    if (!can(bearerUser, 'report.use')) throw forbidden();
  } else {
    await signedActor(ctx, signed.verifySavedReport(keyOf(ctx), reportId, q));
  }
  const row = await repo.findReportPdf(ctx.db, reportId);
  if (!row) throw notFound(REPORT_MSG.reportNotFound);
  return row;
}
