import { and, count, desc, eq, inArray, notExists, sql, type SQL } from 'drizzle-orm';
import { alias, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { INVOICE_STATUS, INVOICE_TYPE, USER_STATUS } from '../../../shared/lookups.ts';
import type { Conn } from '../../db/client.ts';
import {
  branches,
  companies,
  invoicePads,
  invoiceStatuses,
  invoiceTypes,
  invoices,
  padStatuses,
  pads,
  reportInvoices,
  reports,
  roles,
  routes,
  users,
} from '../../db/schema.ts';

const fromBranch = alias(branches, 'from_branch');
const toBranch = alias(branches, 'to_branch');
const userBranch = alias(branches, 'user_branch');
const requester = alias(users, 'requester');
const courier = alias(users, 'courier');

const nameOf = (t: { first_name: AnyPgColumn; middle_name: AnyPgColumn; last_name: AnyPgColumn }) => sql<string>`concat_ws(' ', ${t.first_name}, nullif(${t.middle_name}, ''), ${t.last_name})`;

const completedIssued = and(
  eq(invoices.invoice_type_id, INVOICE_TYPE.ISSUED),
  eq(invoices.invoice_status_id, INVOICE_STATUS.COMPLETED),
  notExists(sql`(select 1 from ${reportInvoices} where ${reportInvoices.invoice_id} = ${invoices.id})`),
);

/** The invoice number typed into the search box matches invoice ids that contain its digits. */
function invoiceNumberFilter(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const digits = search.replace(/\D/g, '');
  if (!digits) return sql`false`;
  return sql`${invoices.id}::text like ${`%${digits.slice(0, 10)}%`}`;
}

export async function listCompletedIssued(conn: Conn, q: { offset: number; limit: number; search?: string }) {
  const where = and(completedIssued, invoiceNumberFilter(q.search));
  const [{ total }] = await conn.select({ total: count() }).from(invoices).where(where);
  const rows = await conn
    .select({
      invoice: invoices,
      invoice_type: { id: invoiceTypes.id, name: invoiceTypes.name },
      invoice_status: { id: invoiceStatuses.id, name: invoiceStatuses.name },
      requester: { id: requester.id, full_name: nameOf(requester), branch_id: requester.branch_id },
      requester_branch: { id: userBranch.id, name: userBranch.name },
      from_branch: { id: fromBranch.id, name: fromBranch.name },
      to_branch: { id: toBranch.id, name: toBranch.name },
      route: { id: routes.id, name: routes.name, tin: routes.tin },
      company: { id: companies.id, name: companies.name },
      courier: { id: courier.id, full_name: nameOf(courier) },
    })
    .from(invoices)
    .innerJoin(invoiceTypes, eq(invoiceTypes.id, invoices.invoice_type_id))
    .innerJoin(invoiceStatuses, eq(invoiceStatuses.id, invoices.invoice_status_id))
    .innerJoin(requester, eq(requester.id, invoices.user_id))
    .leftJoin(userBranch, eq(userBranch.id, requester.branch_id))
    .leftJoin(fromBranch, eq(fromBranch.id, invoices.from_branch_id))
    .leftJoin(toBranch, eq(toBranch.id, invoices.branch_id))
    .leftJoin(routes, eq(routes.id, invoices.route_id))
    .leftJoin(companies, eq(companies.id, routes.company_id))
    .leftJoin(courier, eq(courier.id, invoices.assigned_user_id))
    .where(where)
    .orderBy(desc(invoices.accepted_at), desc(invoices.id))
    .limit(q.limit)
    .offset(q.offset);
  return { total, rows };
}

export interface InvoiceEligibility {
  id: number;
  invoice_type_id: number;
  invoice_status_id: number;
  report_number: string | null;
}

/**
 * Type, status and report of each asked invoice. With `lock`, the invoice rows are locked until the
 * transaction ends, so two reports racing for one invoice are decided one after the other.
 */
export async function eligibility(conn: Conn, ids: number[], lock: boolean): Promise<InvoiceEligibility[]> {
  if (lock) {
    await conn.select({ id: invoices.id }).from(invoices).where(inArray(invoices.id, ids)).orderBy(invoices.id).for('update');
  }
  return conn
    .select({
      id: invoices.id,
      invoice_type_id: invoices.invoice_type_id,
      invoice_status_id: invoices.invoice_status_id,
      report_number: reports.number,
    })
    .from(invoices)
    .leftJoin(reportInvoices, eq(reportInvoices.invoice_id, invoices.id))
    .leftJoin(reports, eq(reports.id, reportInvoices.report_id))
    .where(inArray(invoices.id, ids));
}

/** Everything the PDF shows about the invoices, in invoice order, with their pads. */
export async function invoiceDetails(conn: Conn, ids: number[]) {
  const rows = await conn
    .select({
      id: invoices.id,
      status: invoiceStatuses.name,
      route_name: routes.name,
      route_tin: routes.tin,
      company_name: companies.name,
      from_branch: fromBranch.name,
      to_branch: toBranch.name,
      receiving_user: nameOf(requester),
      courier: nameOf(courier),
      created_at: invoices.created_at,
      accepted_at: invoices.accepted_at,
      expected_return_date: invoices.expected_return_date,
    })
    .from(invoices)
    .innerJoin(invoiceStatuses, eq(invoiceStatuses.id, invoices.invoice_status_id))
    .innerJoin(requester, eq(requester.id, invoices.user_id))
    .leftJoin(fromBranch, eq(fromBranch.id, invoices.from_branch_id))
    .leftJoin(toBranch, eq(toBranch.id, invoices.branch_id))
    .leftJoin(routes, eq(routes.id, invoices.route_id))
    .leftJoin(companies, eq(companies.id, routes.company_id))
    .leftJoin(courier, eq(courier.id, invoices.assigned_user_id))
    .where(inArray(invoices.id, ids))
    .orderBy(invoices.id);
  const padRows = await conn
    .select({
      invoice_id: invoicePads.invoice_id,
      number: pads.number,
      series_from: pads.series_from,
      series_to: pads.series_to,
      pad_status: padStatuses.name,
    })
    .from(invoicePads)
    .innerJoin(pads, eq(pads.id, invoicePads.pad_id))
    .innerJoin(padStatuses, eq(padStatuses.id, pads.pad_status_id))
    .where(inArray(invoicePads.invoice_id, ids))
    .orderBy(invoicePads.invoice_id, pads.series_from);
  return { rows, padRows };
}

/** The name and role printed as "Generated by". */
export async function generator(conn: Conn, userId: number) {
  const [row] = await conn
    .select({ full_name: nameOf(users), role: roles.name })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.role_id))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** Who a signed address was made for, if that user is still Active. */
export async function activeActor(conn: Conn, userId: number) {
  const [row] = await conn
    .select({ id: users.id, role_id: users.role_id, branch_id: users.branch_id })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.user_status_id, USER_STATUS.ACTIVE)))
    .limit(1);
  return row;
}

/**
 * The next number of the year's gapless sequence ("RPT-2026-000042"). The reports table is locked against
 * other writers until the transaction ends, so two reports can never take the same number or skip one.
 */
export async function nextReportNumber(conn: Conn, year: string): Promise<string> {
  await conn.execute(sql`lock table ${reports} in exclusive mode`);
  const prefix = `RPT-${year}-`;
  const [row] = await conn
    .select({ last: sql<number | null>`max(substring(${reports.number} from ${prefix.length + 1}::int)::int)` })
    .from(reports)
    .where(sql`${reports.number} like ${`${prefix}%`}`);
  return `${prefix}${String((row?.last ?? 0) + 1).padStart(6, '0')}`;
}

export async function insertReport(conn: Conn, values: typeof reports.$inferInsert, invoiceIds: number[]) {
  const [row] = await conn.insert(reports).values(values).returning({ id: reports.id, created_at: reports.created_at });
  await conn.insert(reportInvoices).values(invoiceIds.map((invoice_id) => ({ report_id: row.id, invoice_id })));
  return row;
}

const generatorUser = alias(users, 'generator');

export async function listReports(
  conn: Conn,
  q: { offset: number; limit: number; pattern?: string; startDate?: string; endDate?: string; timeZone: string },
) {
  const filters: Array<SQL | undefined> = [];
  if (q.pattern) {
    filters.push(
      sql`(${reports.number} ilike ${q.pattern}
        or concat_ws(' ', ${generatorUser.first_name}, nullif(${generatorUser.middle_name}, ''), ${generatorUser.last_name}) ilike ${q.pattern}
        or concat_ws(' ', ${generatorUser.first_name}, ${generatorUser.last_name}) ilike ${q.pattern})`,
    );
  }
  if (q.startDate) filters.push(sql`${reports.created_at} >= (${q.startDate}::date::timestamp at time zone ${q.timeZone})`);
  if (q.endDate) filters.push(sql`${reports.created_at} < ((${q.endDate}::date + 1)::timestamp at time zone ${q.timeZone})`);
  const where = and(...filters);
  const [{ total }] = await conn
    .select({ total: count() })
    .from(reports)
    .innerJoin(generatorUser, eq(generatorUser.id, reports.generated_by))
    .where(where);
  const rows = await conn
    .select({
      id: reports.id,
      number: reports.number,
      total_invoice: reports.total_invoice,
      remarks: reports.remarks,
      period_from: reports.period_from,
      period_to: reports.period_to,
      created_at: reports.created_at,
      generated_by_user: { id: generatorUser.id, full_name: nameOf(generatorUser) },
    })
    .from(reports)
    .innerJoin(generatorUser, eq(generatorUser.id, reports.generated_by))
    .where(where)
    .orderBy(desc(reports.created_at), desc(reports.id))
    .limit(q.limit)
    .offset(q.offset);
  return { total, rows };
}

export async function findReportPdf(conn: Conn, id: number) {
  const [row] = await conn.select({ number: reports.number, pdf: reports.pdf }).from(reports).where(eq(reports.id, id)).limit(1);
  return row;
}
