import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { COMPANY_TYPE, INVOICE_STATUS, INVOICE_TYPE, ISSUANCE_STATUS, PAD_STATUS, ROLE, USER_STATUS } from '../../shared/lookups.ts';
import type { Db } from '../db/client.ts';
import { activities, invoicePads, invoices } from '../db/schema/invoices.ts';
import { padCustody, pads } from '../db/schema/pads.ts';
import { custodyOfPad, padRecordColumns, type PadRecord } from '../features/pads/read-model.ts';
import { branches, companies, locations, routes } from '../db/schema/reference.ts';
import { reports } from '../db/schema/reports.ts';
import { users } from '../db/schema/users.ts';
import { hashPassword } from '../lib/passwords.ts';
import type { TestApp } from './test-app.ts';

export const TEST_PASSWORD = 'Secret@123';
const uid = () => randomBytes(4).toString('hex');
let cachedHash: Promise<string> | null = null;
const testPasswordHash = () => (cachedHash ??= hashPassword(TEST_PASSWORD));

export async function createLocation(db: Db, values: Partial<typeof locations.$inferInsert> = {}) {
  const [row] = await db
    .insert(locations)
    .values({ name: `Location ${uid()}`, ...values })
    .returning();
  return row;
}

export async function createCompany(db: Db, values: Partial<typeof companies.$inferInsert> = {}) {
  const [row] = await db
    .insert(companies)
    .values({ name: `Company ${uid()}`, company_type_id: COMPANY_TYPE.SHIPPING_LINE, ...values })
    .returning();
  return row;
}

export async function createRoute(db: Db, values: Partial<typeof routes.$inferInsert> = {}) {
  const company_id = values.company_id ?? (await createCompany(db)).id;
  const [row] = await db
    .insert(routes)
    .values({ name: `Route ${uid()}`, tin: `TIN-${uid()}`, ...values, company_id })
    .returning();
  return row;
}

export async function createBranch(db: Db, values: Partial<typeof branches.$inferInsert> = {}) {
  const company_id = values.company_id ?? (await createCompany(db)).id;
  const location_id = values.location_id ?? (await createLocation(db)).id;
  const [row] = await db
    .insert(branches)
    .values({ name: `Branch ${uid()}`, ...values, company_id, location_id })
    .returning();
  return row;
}

/** A user whose password is TEST_PASSWORD. */
export async function createUser(db: Db, values: Partial<typeof users.$inferInsert> = {}) {
  const [row] = await db
    .insert(users)
    .values({
      first_name: 'Test',
      last_name: `User${uid()}`,
      email: `user-${uid()}@padtrack.test`,
      password_hash: await testPasswordHash(),
      user_status_id: USER_STATUS.ACTIVE,
      ...values,
    })
    .returning();
  return row;
}

/** Signs in through the real login endpoint and returns the Bearer header to use. */
export async function loginAs(t: TestApp, email: string, password = TEST_PASSWORD) {
  const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`login failed for ${email}: ${res.statusCode} ${res.body}`);
  // -- the sign-in route's answer; its response schema fixes this shape.
  const body = res.json() as { token: string };
  return { token: body.token, headers: { authorization: `Bearer ${body.token}` } };
}

/** A new user of the given role (and branch), already signed in. */
export async function signedIn(t: TestApp, values: Partial<typeof users.$inferInsert> = {}) {
  const user = await createUser(t.db, values);
  const session = await loginAs(t, user.email);
  return { user, ...session };
}

type Headers = Record<string, string>;

/** One signed-in user for every role 3 to 11 and one without a role, besides an admin and an IT admin. */
export async function sessionsForAllRoles(
  t: TestApp,
): Promise<{ admin: Headers; itAdmin: Headers; others: Array<{ role_id: number | null; headers: Headers }> }> {
  const admin = await signedIn(t, { role_id: ROLE.ADMIN });
  const itAdmin = await signedIn(t, { role_id: ROLE.IT_ADMIN });
  const others: Array<{ role_id: number | null; headers: Headers }> = [];
  for (let role_id = 3; role_id <= 11; role_id += 1) others.push({ role_id, headers: (await signedIn(t, { role_id })).headers });
  others.push({ role_id: null, headers: (await signedIn(t, { role_id: null })).headers });
  return { admin: admin.headers, itAdmin: itAdmin.headers, others };
}
export type Sessions = Awaited<ReturnType<typeof sessionsForAllRoles>>;

export type PadRow = PadRecord;

/** Pads as stored, each with its custody row (pad_custody): chain `.where(…)` and `.orderBy(…)` on it. */
export const storedPadRows = (db: Db) => db.select(padRecordColumns).from(pads).innerJoin(padCustody, custodyOfPad);
export type InvoiceRecord = typeof invoices.$inferSelect;

/** The one series counter: every built pad takes the next free receipt numbers, so no two pads of a test overlap. */
let nextReceipt = 1_000_000;
function takeReceipts(size: number): number {
  const from = nextReceipt;
  nextReceipt += size;
  return from;
}

type CustodyValues = Partial<
  Pick<typeof padCustody.$inferInsert, 'issuance_status_id' | 'holder_user_id' | 'holder_branch_id' | 'locked_by_invoice_id'>
>;

type PadValues = Partial<typeof pads.$inferInsert> &
  CustodyValues & {
    route_id?: number;
    /** Receipts per pad (50 unless told). */
    size?: number;
    /** A pad in someone's hands was issued to them: held by this user at this branch, Issued. */
    heldBy?: { userId: number; branchId: number | null };
  };

/** A pad of a route (a new route unless given), numbered after the route's last pad, Not Issued and Unused unless told. */
export async function buildPad(db: Db, values: PadValues = {}): Promise<PadRow> {
  const [pad] = await buildPads(db, values.route_id ?? (await createRoute(db)).id, 1, values);
  return pad;
}

/** `count` pads of one route in a row, as buildPad makes them. */
export async function buildPads(db: Db, routeId: number, count: number, values: Omit<PadValues, 'route_id'> = {}): Promise<PadRow[]> {
  const { size = 50, heldBy, issuance_status_id, holder_user_id, holder_branch_id, locked_by_invoice_id, ...rest } = values;
  const custody = {
    issuance_status_id: issuance_status_id ?? (heldBy ? ISSUANCE_STATUS.ISSUED : ISSUANCE_STATUS.NOT_ISSUED),
    holder_user_id: 'holder_user_id' in values ? (holder_user_id ?? null) : (heldBy?.userId ?? null),
    holder_branch_id: 'holder_branch_id' in values ? (holder_branch_id ?? null) : (heldBy?.branchId ?? null),
    locked_by_invoice_id: locked_by_invoice_id ?? null,
  };
  const [{ last }] = await db
    .select({ last: sql<number>`coalesce(max(${pads.number}), 0)::int` })
    .from(pads)
    .where(eq(pads.route_id, routeId));
  const rows = Array.from({ length: count }, (_, i) => {
    const from = takeReceipts(size);
    return {
      route_id: routeId,
      number: last + i + 1,
      series_from: from,
      series_to: from + size - 1,
      series_status: '1'.repeat(size),
      pad_status_id: PAD_STATUS.UNUSED,
      ...rest,
    };
  });
  const made = await db.insert(pads).values(rows).returning();
  await db.insert(padCustody).values(made.map((pad) => ({ pad_id: pad.id, ...custody, updated_at: pad.updated_at })));
  return made.map((pad) => ({ ...pad, ...custody }));
}

/**
 * An invoice written straight into the database (a Pending Request unless told), created by its user,
 * with its pads linked; pads of an In-Transit invoice are locked to it, as the lifecycle leaves them.
 */
export async function buildInvoice(
  db: Db,
  options: Partial<typeof invoices.$inferInsert> & { user_id: number; type?: number; status?: number; pads?: PadRow[] },
): Promise<InvoiceRecord> {
  const { type = INVOICE_TYPE.REQUEST, status = INVOICE_STATUS.PENDING, pads: linked = [], ...values } = options;
  const [invoice] = await db
    .insert(invoices)
    .values({ invoice_type_id: type, invoice_status_id: status, created_by: values.user_id, pad_count: linked.length || 1, ...values })
    .returning();
  if (linked.length > 0) {
    await db.insert(invoicePads).values(linked.map((pad) => ({ invoice_id: invoice.id, pad_id: pad.id })));
    if (status === INVOICE_STATUS.IN_TRANSIT) {
      for (const pad of linked) await db.update(padCustody).set({ locked_by_invoice_id: invoice.id }).where(eq(padCustody.pad_id, pad.id));
    }
  }
  return invoice;
}

/** What a test may fix of buildIssuedInvoice's invoice and cast; the rest is made up. */
interface IssuedInvoiceOptions {
  route?: typeof routes.$inferSelect;
  requester?: UserRow;
  courier?: UserRow;
  custodian?: UserRow;
  fromBranch?: BranchRow;
  toBranch?: BranchRow;
  padCount?: number;
  padSize?: number;
  type?: number;
  status?: number;
  createdAt?: Date;
  acceptedAt?: Date | null;
  expectedReturnDate?: string | null;
}

/** The cast of an issued invoice: the given members, and new ones for the rest. */
async function issuedInvoiceCast(db: Db, options: IssuedInvoiceOptions) {
  const tag = takeReceipts(1);
  const route =
    options.route ??
    (await createRoute(db, {
      company_id: (await createCompany(db, { name: `Ferry Lines ${tag}` })).id,
      name: `Batangas - Calapan ${tag}`,
    }));
  const fromBranch = options.fromBranch ?? (await createBranch(db, { name: `Head Office ${tag}` }));
  const toBranch = options.toBranch ?? (await createBranch(db, { name: `Calapan Agency ${tag}` }));
  const requester =
    options.requester ??
    (await createUser(db, { first_name: 'Rosa', last_name: `Receiver${tag}`, role_id: ROLE.BRANCH_HEAD, branch_id: toBranch.id }));
  const courier = options.courier ?? (await createUser(db, { first_name: 'Carlo', last_name: `Courier${tag}`, role_id: ROLE.DRIVER }));
  const custodian =
    options.custodian ??
    (await createUser(db, { first_name: 'Celia', last_name: `Custodian${tag}`, role_id: ROLE.CUSTODIAN, branch_id: fromBranch.id }));
  return { route, fromBranch, toBranch, requester, courier, custodian };
}

/**
 * An Issued invoice with its whole cast (route, head office, agency, requester, courier, custodian and pads
 * held by the requester), Completed and accepted a day after issue unless told, as issue-then-accept leaves it.
 */
export async function buildIssuedInvoice(db: Db, options: IssuedInvoiceOptions = {}) {
  const { route, fromBranch, toBranch, requester, courier, custodian } = await issuedInvoiceCast(db, options);
  const status = options.status ?? INVOICE_STATUS.COMPLETED;
  const createdAt = options.createdAt ?? new Date(Date.now() - 3 * 86_400_000);
  const acceptedAt =
    options.acceptedAt === undefined
      ? status === INVOICE_STATUS.COMPLETED
        ? new Date(createdAt.getTime() + 86_400_000)
        : null
      : options.acceptedAt;
  const padCount = options.padCount ?? 2;
  const padRows =
    padCount > 0
      ? await buildPads(db, route.id, padCount, {
          size: options.padSize,
          heldBy: { userId: requester.id, branchId: toBranch.id },
          created_by: custodian.id,
        })
      : [];
  const invoice = await buildInvoice(db, {
    type: options.type ?? INVOICE_TYPE.ISSUED,
    status,
    user_id: requester.id,
    created_by: custodian.id,
    from_branch_id: fromBranch.id,
    branch_id: toBranch.id,
    route_id: route.id,
    assigned_user_id: courier.id,
    pad_count: padCount,
    pads: padRows,
    expected_return_date: options.expectedReturnDate === undefined ? '2026-12-31' : options.expectedReturnDate,
    accepted_by: acceptedAt ? requester.id : null,
    accepted_at: acceptedAt,
    created_at: createdAt,
    updated_at: acceptedAt ?? createdAt,
  });
  return { invoice, route, fromBranch, toBranch, requester, courier, custodian, pads: padRows };
}

type UserRow = Awaited<ReturnType<typeof createUser>>;
type BranchRow = Awaited<ReturnType<typeof createBranch>>;

/** One line of an invoice's history (Pending "Requested" unless told). */
export async function buildActivity(db: Db, values: Partial<typeof activities.$inferInsert> & { invoice_id: number }) {
  const [row] = await db
    .insert(activities)
    .values({ invoice_status_id: INVOICE_STATUS.PENDING, description: 'Requested', ...values })
    .returning();
  return row;
}

/** A saved report with a placeholder PDF, generated by the given user. */
export async function buildReport(db: Db, generatedBy: number, values: Partial<typeof reports.$inferInsert> = {}) {
  const [row] = await db
    .insert(reports)
    .values({ number: `R-${uid()}`, total_invoice: 0, pdf: Buffer.from('%PDF-1.4'), generated_by: generatedBy, ...values })
    .returning();
  return row;
}
