import { and, asc, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Branch, BranchesQuery } from '../../../shared/schemas/branches.ts';
import type { Conn } from '../../db/client.ts';
import { streamByIds } from '../../db/stream.ts';
import { branches, companies, invoices, locations, pads, users } from '../../db/schema.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { sortedBy } from '../../lib/sorting.ts';

const company = alias(companies, 'company');
const location = alias(locations, 'location');

const columns = {
  id: branches.id,
  company_id: branches.company_id,
  name: branches.name,
  location_id: branches.location_id,
  company: { id: company.id, name: company.name },
  location: { id: location.id, name: location.name },
};

type BranchValues = { company_id: number; name: string; location_id: number };

const select = (conn: Conn) =>
  conn
    .select(columns)
    .from(branches)
    .innerJoin(company, eq(company.id, branches.company_id))
    .innerJoin(location, eq(location.id, branches.location_id));

const listWhere = (q: BranchesQuery) => (q.search ? ilike(branches.name, likePattern(q.search)) : undefined);
const listOrder = (q: BranchesQuery) =>
  sortedBy({ company: company.name, name: branches.name, location: location.name }, q, branches.id, [desc(branches.id)]);

/** Every branch the Branches list shows for this search, in its order, batch by batch (docs/design.md §10 Export). */
export async function streamList(conn: Conn, q: BranchesQuery, onBatch: (rows: Branch[]) => Promise<void>): Promise<void> {
  const ids = conn
    .select({ id: branches.id })
    .from(branches)
    .innerJoin(company, eq(company.id, branches.company_id))
    .innerJoin(location, eq(location.id, branches.location_id))
    .where(listWhere(q))
    .orderBy(...listOrder(q));
  await streamByIds(conn, ids.getSQL(), (tx, wanted) => select(tx).where(inArray(branches.id, wanted)), onBatch);
}

/** One page of branches, newest first, matching the branch name (trigram index). */
export async function page(conn: Conn, q: BranchesQuery): Promise<{ rows: Branch[]; total: number }> {
  const where = listWhere(q);
  const order = listOrder(q);
  const rows = await select(conn)
    .where(where)
    .orderBy(...order)
    .limit(q.per_page)
    .offset(offsetOf(q.page, q.per_page));
  const [{ total }] = await conn
    .select({ total: sql<number>`count(*)::int` })
    .from(branches)
    .where(where);
  return { rows, total };
}

export async function all(conn: Conn): Promise<Branch[]> {
  return select(conn).orderBy(asc(branches.name), asc(branches.id));
}

export async function find(conn: Conn, id: number): Promise<Branch | undefined> {
  const [row] = await select(conn).where(eq(branches.id, id)).limit(1);
  return row;
}

export async function insert(conn: Conn, values: BranchValues): Promise<number> {
  const [row] = await conn.insert(branches).values(values).returning({ id: branches.id });
  return row.id;
}

export async function update(conn: Conn, id: number, values: BranchValues): Promise<boolean> {
  const rows = await conn
    .update(branches)
    .set({ ...values, updated_at: new Date() })
    .where(eq(branches.id, id))
    .returning({ id: branches.id });
  return rows.length > 0;
}

export async function remove(conn: Conn, id: number): Promise<void> {
  await conn.delete(branches).where(eq(branches.id, id));
}

export async function companyExists(conn: Conn, id: number): Promise<boolean> {
  const [row] = await conn.select({ id: companies.id }).from(companies).where(eq(companies.id, id)).limit(1);
  return Boolean(row);
}

export async function locationExists(conn: Conn, id: number): Promise<boolean> {
  const [row] = await conn.select({ id: locations.id }).from(locations).where(eq(locations.id, id)).limit(1);
  return Boolean(row);
}

/** Users, invoices and pads that refer to the branch. */
export async function usage(conn: Conn, id: number): Promise<{ users: number; invoices: number; pads: number }> {
  const [{ n: userCount }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(eq(users.branch_id, id));
  const [{ n: invoiceCount }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(invoices)
    .where(or(eq(invoices.branch_id, id), eq(invoices.from_branch_id, id)));
  const [{ n: padCount }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(pads)
    .where(eq(pads.holder_branch_id, id));
  return { users: userCount, invoices: invoiceCount, pads: padCount };
}

/** Names are compared case-insensitively: selects show only the name, so two alike would be indistinguishable. */
export async function nameTaken(conn: Conn, name: string, exceptId: number | null): Promise<boolean> {
  const same = sql`lower(${branches.name}) = ${name.toLowerCase()}`;
  const [row] = await conn
    .select({ id: branches.id })
    .from(branches)
    .where(exceptId ? and(same, ne(branches.id, exceptId)) : same)
    .limit(1);
  return Boolean(row);
}

export async function names(conn: Conn, ids: number[]): Promise<Array<{ id: number; name: string }>> {
  if (ids.length === 0) return [];
  return conn.select({ id: branches.id, name: branches.name }).from(branches).where(inArray(branches.id, ids));
}
