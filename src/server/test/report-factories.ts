import { eq } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE, ISSUANCE_STATUS, PAD_STATUS, ROLE } from '../../shared/lookups.ts';
import type { Db } from '../db/client.ts';
import { activities, invoicePads, invoices, pads, reports, type routes } from '../db/schema.ts';
import { createBranch, createCompany, createRoute, createUser } from './factories.ts';

type RouteRow = typeof routes.$inferSelect;
type UserRow = Awaited<ReturnType<typeof createUser>>;
type BranchRow = Awaited<ReturnType<typeof createBranch>>;

let nextSeries = 5_000_000_001;
const padNumbers = new Map<number, number>();

export interface InvoiceOptions {
  route?: RouteRow;
  requester?: UserRow;
  courier?: UserRow;
  custodian?: UserRow;
  fromBranch?: BranchRow;
  toBranch?: BranchRow;
  padCount?: number;
  padSize?: number;
  typeId?: number;
  statusId?: number;
  createdAt?: Date;
  acceptedAt?: Date | null;
  expectedReturnDate?: string | null;
  withActivities?: boolean;
}

/**
 * An invoice written straight into the database, by default a Completed invoice of type Issued with
 * its route, branches, requester, courier and pads, as the issue-then-accept flow leaves it.
 */
export async function createReportableInvoice(db: Db, options: InvoiceOptions = {}) {
  const company = options.route ? null : await createCompany(db, { name: `Ferry Lines ${nextSeries % 100000}` });
  const route = options.route ?? (await createRoute(db, { company_id: company?.id, name: `Batangas - Calapan ${nextSeries % 100000}` }));
  const fromBranch = options.fromBranch ?? (await createBranch(db, { name: `Head Office ${nextSeries % 100000}` }));
  const toBranch = options.toBranch ?? (await createBranch(db, { name: `Calapan Agency ${nextSeries % 100000}` }));
  const requester =
    options.requester ?? (await createUser(db, { first_name: 'Rosa', last_name: `Receiver${nextSeries % 100000}`, role_id: ROLE.BRANCH_HEAD, branch_id: toBranch.id }));
  const courier = options.courier ?? (await createUser(db, { first_name: 'Carlo', last_name: `Courier${nextSeries % 100000}`, role_id: ROLE.DRIVER }));
  const custodian =
    options.custodian ?? (await createUser(db, { first_name: 'Celia', last_name: `Custodian${nextSeries % 100000}`, role_id: ROLE.CUSTODIAN, branch_id: fromBranch.id }));
  const padSize = options.padSize ?? 50;
  const padCount = options.padCount ?? 2;
  const createdAt = options.createdAt ?? new Date(Date.now() - 3 * 86_400_000);
  const completed = (options.statusId ?? INVOICE_STATUS.COMPLETED) === INVOICE_STATUS.COMPLETED;
  const acceptedAt = options.acceptedAt === undefined ? (completed ? new Date(createdAt.getTime() + 86_400_000) : null) : options.acceptedAt;

  const padValues = Array.from({ length: padCount }, () => {
    const from = nextSeries;
    nextSeries += padSize;
    const number = (padNumbers.get(route.id) ?? 0) + 1;
    padNumbers.set(route.id, number);
    return {
      route_id: route.id,
      number,
      series_from: from,
      series_to: from + padSize - 1,
      series_status: '1'.repeat(padSize),
      pad_status_id: PAD_STATUS.UNUSED,
      issuance_status_id: ISSUANCE_STATUS.ISSUED,
      holder_user_id: requester.id,
      holder_branch_id: toBranch.id,
      created_by: custodian.id,
    };
  });
  nextSeries += 1000;
  const padRows = padCount > 0 ? await db.insert(pads).values(padValues).returning() : [];
  const [invoice] = await db
    .insert(invoices)
    .values({
      invoice_type_id: options.typeId ?? INVOICE_TYPE.ISSUED,
      invoice_status_id: options.statusId ?? INVOICE_STATUS.COMPLETED,
      user_id: requester.id,
      created_by: custodian.id,
      from_branch_id: fromBranch.id,
      branch_id: toBranch.id,
      route_id: route.id,
      assigned_user_id: courier.id,
      pad_count: padCount,
      expected_return_date: options.expectedReturnDate === undefined ? '2026-12-31' : options.expectedReturnDate,
      accepted_by: acceptedAt ? requester.id : null,
      accepted_at: acceptedAt,
      created_at: createdAt,
      updated_at: acceptedAt ?? createdAt,
    })
    .returning();
  if (padRows.length > 0) await db.insert(invoicePads).values(padRows.map((pad) => ({ invoice_id: invoice.id, pad_id: pad.id })));
  if (options.withActivities) {
    await db.insert(activities).values([
      { invoice_id: invoice.id, invoice_status_id: INVOICE_STATUS.IN_TRANSIT, description: 'Pads issued', user_id: custodian.id, assigned_user_id: courier.id, created_at: createdAt },
      ...(acceptedAt ? [{ invoice_id: invoice.id, invoice_status_id: INVOICE_STATUS.COMPLETED, description: 'Pads accepted', user_id: requester.id, created_at: acceptedAt }] : []),
    ]);
  }
  return { invoice, route, fromBranch, toBranch, requester, courier, custodian, pads: padRows };
}

/** Moves a saved report to another creation time, to test the date filter. */
export async function setReportCreatedAt(db: Db, reportId: number, at: Date): Promise<void> {
  await db.update(reports).set({ created_at: at }).where(eq(reports.id, reportId));
}
