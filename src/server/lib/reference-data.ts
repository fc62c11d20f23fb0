import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgInsertValue, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Paginated } from '../../shared/schemas/common.ts';
import type { AppContext } from '../context.ts';
import { sqlState, type Conn } from '../db/client.ts';
import { streamByIds } from '../db/stream.ts';
import { conflict, notFound } from './errors.ts';
import type { RowSource } from './export.ts';
import { offsetOf, paginated } from './pagination.ts';

type IdColumn = AnyPgColumn<{ data: number; notNull: true }>;

/** A reference table (companies, routes, locations, branches, roles): an integer id, a name and an updated_at. */
export type ReferenceTable = PgTable & { id: IdColumn; name: AnyPgColumn; updated_at: AnyPgColumn };

/** The page and search a list screen asks for; each table adds its own filters and sorts. */
export interface PageQuery {
  page: number;
  per_page: number;
}

/** The part of a `$dynamic()` Drizzle select the factory chains on; `Row` is what the select answers. */
export interface SelectQuery<Row> extends PromiseLike<Row[]> {
  where(where: SQL | undefined): SelectQuery<Row>;
  orderBy(...order: SQL[]): SelectQuery<Row>;
  limit(limit: number): SelectQuery<Row>;
  offset(offset: number): SelectQuery<Row>;
  getSQL(): SQL;
}

export interface ReferenceRepoSpec<T extends ReferenceTable, Row, Q extends PageQuery> {
  table: T;
  /** The rows as the API answers them, joins included, as a `$dynamic()` select. */
  rows: (conn: Conn) => SelectQuery<Row>;
  /** The same joins selecting only the id, for the export's cursor (its order may name a joined column). */
  ids: (conn: Conn) => SelectQuery<{ id: number }>;
  where: (q: Q) => SQL | undefined;
  order: (q: Q) => SQL[];
  /** The full list's order, for the forms' selects. */
  allOrder: SQL[];
}

/** True when a row with this id exists in the id column's table: the check behind every "The selected … is invalid.". */
export async function rowExists(conn: Conn, idColumn: IdColumn, id: number): Promise<boolean> {
  const [row] = await conn.select({ id: idColumn }).from(idColumn.table).where(eq(idColumn, id)).limit(1);
  return Boolean(row);
}

/** How many rows of the column's table refer to the id: the counts behind a refused delete. */
export async function refCount(conn: Conn, column: AnyPgColumn, id: number): Promise<number> {
  const [{ n }] = await conn
    .select({ n: sql<number>`count(*)::int` })
    .from(column.table)
    .where(eq(column, id));
  return n;
}

/**
 * The data access every reference table shares: its page with search and sort, the export's batches, the full list for
 * the selects, one row, writes, and the case-insensitive name check (selects show only the name, so two alike would be
 * indistinguishable). One definition, so the five tables cannot drift apart.
 */
export function referenceRepo<T extends ReferenceTable, Row extends { id: number }, Q extends PageQuery>(
  spec: ReferenceRepoSpec<T, Row, Q>,
) {
  const { table } = spec;
  /** The table as a plain FROM: Drizzle's FROM check cannot see through the generic. */
  const from: PgTable = table;
  return {
    async page(conn: Conn, q: Q): Promise<{ rows: Row[]; total: number }> {
      const where = spec.where(q);
      const rows = await spec
        .rows(conn)
        .where(where)
        .orderBy(...spec.order(q))
        .limit(q.per_page)
        .offset(offsetOf(q.page, q.per_page));
      const [{ total }] = await conn
        .select({ total: sql<number>`count(*)::int` })
        .from(from)
        .where(where);
      return { rows, total };
    },

    /** Every row the list shows for this search, in its order, batch by batch (docs/design.md §10 Export). */
    async streamList(conn: Conn, q: Q, onBatch: (rows: Row[]) => Promise<void>): Promise<void> {
      const ids = spec
        .ids(conn)
        .where(spec.where(q))
        .orderBy(...spec.order(q));
      await streamByIds(conn, ids.getSQL(), async (tx, wanted) => spec.rows(tx).where(inArray(table.id, wanted)), onBatch);
    },

    async all(conn: Conn): Promise<Row[]> {
      return spec.rows(conn).orderBy(...spec.allOrder);
    },

    async find(conn: Conn, id: number): Promise<Row | undefined> {
      const [row] = await spec.rows(conn).where(eq(table.id, id)).limit(1);
      return row;
    },

    async insert(conn: Conn, values: PgInsertValue<T>): Promise<number> {
      const [row] = await conn.insert(table).values(values).returning({ id: table.id });
      return row.id;
    },

    async update(conn: Conn, id: number, values: PgUpdateSetSource<T>): Promise<boolean> {
      const rows = await conn
        .update(table)
        .set({ ...values, updated_at: new Date() })
        .where(eq(table.id, id))
        .returning({ id: table.id });
      return rows.length > 0;
    },

    async remove(conn: Conn, id: number): Promise<void> {
      await conn.delete(table).where(eq(table.id, id));
    },

    /** `scope` narrows the check (a company's routes); `exceptId` is the row being edited. */
    async nameTaken(conn: Conn, name: string, exceptId: number | null, scope?: SQL): Promise<boolean> {
      const same = and(scope, sql`lower(${table.name}) = ${name.toLowerCase()}`);
      const [row] = await conn
        .select({ id: table.id })
        .from(from)
        .where(exceptId ? and(same, ne(table.id, exceptId)) : same)
        .limit(1);
      return Boolean(row);
    },
  };
}

/** What the reference service needs of a table's repo (referenceRepo's answer, with the table's own values). */
export interface ReferenceRepo<Row, Q, Values> {
  page(conn: Conn, q: Q): Promise<{ rows: Row[]; total: number }>;
  streamList(conn: Conn, q: Q, onBatch: (rows: Row[]) => Promise<void>): Promise<void>;
  all(conn: Conn): Promise<Row[]>;
  find(conn: Conn, id: number): Promise<Row | undefined>;
  insert(conn: Conn, values: Values): Promise<number>;
  update(conn: Conn, id: number, values: Values): Promise<boolean>;
  remove(conn: Conn, id: number): Promise<void>;
}

export interface ReferenceServiceSpec<Row, Values> {
  /** "Company not found.". */
  notFound: string;
  /** Refuses bad input with `invalid()`: a name taken, a selected company that does not exist. */
  check: (conn: Conn, values: Values, id: number | null) => Promise<void>;
  /** Why the row cannot be deleted (rows that refer to it, a system row), or null when it can. */
  refusal: (conn: Conn, row: Row, ctx: AppContext) => Promise<string | null>;
  /** The refusal when the database finds a reference that appeared meanwhile (foreign key violation). */
  referenced: string;
}

/**
 * The actions every reference table's admin screen offers (docs/spec.md §2, Companies to Branches, and the Roles screen):
 * its page, the full list for the forms' selects, the export's rows, and checked create, update and delete, each one
 * transaction.
 */
export function referenceService<Row extends { id: number }, Q extends PageQuery, Values>(
  repo: ReferenceRepo<Row, Q, Values>,
  spec: ReferenceServiceSpec<Row, Values>,
) {
  const found = async (conn: Conn, id: number): Promise<Row> => {
    const row = await repo.find(conn, id);
    if (!row) throw notFound(spec.notFound);
    return row;
  };
  return {
    async list(ctx: AppContext, q: Q): Promise<Paginated<Row>> {
      const { rows, total } = await repo.page(ctx.db, q);
      return paginated(rows, total, q.page, q.per_page);
    },
    async all(ctx: AppContext): Promise<Row[]> {
      return repo.all(ctx.db);
    },
    listSource(ctx: AppContext, q: Q): RowSource<Row> {
      return (write) => repo.streamList(ctx.db, q, write);
    },
    async create(ctx: AppContext, values: Values): Promise<Row> {
      return ctx.db.transaction(async (tx) => {
        await spec.check(tx, values, null);
        return found(tx, await repo.insert(tx, values));
      });
    },
    async update(ctx: AppContext, id: number, values: Values): Promise<Row> {
      return ctx.db.transaction(async (tx) => {
        await spec.check(tx, values, id);
        if (!(await repo.update(tx, id, values))) throw notFound(spec.notFound);
        return found(tx, id);
      });
    },
    async remove(ctx: AppContext, id: number): Promise<void> {
      await ctx.db.transaction(async (tx) => {
        const refusal = await spec.refusal(tx, await found(tx, id), ctx);
        if (refusal) throw conflict(refusal);
        try {
          await repo.remove(tx, id);
        } catch (error) {
          if (sqlState(error) === '23503') throw conflict(spec.referenced);
          throw error;
        }
      });
    },
  };
}
