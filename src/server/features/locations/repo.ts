import { and, asc, desc, eq, ilike, inArray, ne, sql } from 'drizzle-orm';
import type { Location, LocationsQuery } from '../../../shared/schemas/locations.ts';
import type { Conn } from '../../db/client.ts';
import { streamByIds } from '../../db/stream.ts';
import { branches, locations } from '../../db/schema.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { sortedBy } from '../../lib/sorting.ts';

const columns = { id: locations.id, name: locations.name };

const listWhere = (q: LocationsQuery) => (q.search ? ilike(locations.name, likePattern(q.search)) : undefined);
const listOrder = (q: LocationsQuery) => sortedBy({ name: locations.name }, q, locations.id, [desc(locations.id)]);

/** Every location the Locations list shows for this search, in its order, batch by batch (docs/design.md §10 Export). */
export async function streamList(conn: Conn, q: LocationsQuery, onBatch: (rows: Location[]) => Promise<void>): Promise<void> {
  const ids = conn
    .select({ id: locations.id })
    .from(locations)
    .where(listWhere(q))
    .orderBy(...listOrder(q));
  await streamByIds(conn, ids.getSQL(), (tx, wanted) => tx.select(columns).from(locations).where(inArray(locations.id, wanted)), onBatch);
}

/** One page of locations, newest first, matching the name search (trigram index). */
export async function page(conn: Conn, q: LocationsQuery): Promise<{ rows: Location[]; total: number }> {
  const where = listWhere(q);
  const order = listOrder(q);
  const rows = await conn
    .select(columns)
    .from(locations)
    .where(where)
    .orderBy(...order)
    .limit(q.per_page)
    .offset(offsetOf(q.page, q.per_page));
  const [{ total }] = await conn
    .select({ total: sql<number>`count(*)::int` })
    .from(locations)
    .where(where);
  return { rows, total };
}

export async function all(conn: Conn): Promise<Location[]> {
  return conn.select(columns).from(locations).orderBy(asc(locations.name), asc(locations.id));
}

export async function find(conn: Conn, id: number): Promise<Location | undefined> {
  const [row] = await conn.select(columns).from(locations).where(eq(locations.id, id)).limit(1);
  return row;
}

export async function insert(conn: Conn, values: { name: string }): Promise<Location> {
  const [row] = await conn.insert(locations).values(values).returning(columns);
  return row;
}

export async function update(conn: Conn, id: number, values: { name: string }): Promise<Location | undefined> {
  const [row] = await conn
    .update(locations)
    .set({ ...values, updated_at: new Date() })
    .where(eq(locations.id, id))
    .returning(columns);
  return row;
}

export async function remove(conn: Conn, id: number): Promise<boolean> {
  const rows = await conn.delete(locations).where(eq(locations.id, id)).returning({ id: locations.id });
  return rows.length > 0;
}

export async function branchCount(conn: Conn, id: number): Promise<number> {
  const [{ n }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(branches)
    .where(eq(branches.location_id, id));
  return n;
}

/** Names are compared case-insensitively: selects show only the name, so two alike would be indistinguishable. */
export async function nameTaken(conn: Conn, name: string, exceptId: number | null): Promise<boolean> {
  const same = sql`lower(${locations.name}) = ${name.toLowerCase()}`;
  const [row] = await conn
    .select({ id: locations.id })
    .from(locations)
    .where(exceptId ? and(same, ne(locations.id, exceptId)) : same)
    .limit(1);
  return Boolean(row);
}
