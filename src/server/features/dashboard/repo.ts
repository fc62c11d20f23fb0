import { sql, type SQL } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE, ISSUANCE_STATUS, PAD_STATUS } from '../../../shared/lookups.ts';
import { DASHBOARD_BRANCH_LIMIT, DASHBOARD_OVERDUE_LIMIT, DASHBOARD_ROUTE_LIMIT } from '../../../shared/schemas/dashboard.ts';
import type { Conn } from '../../db/client.ts';

async function rowsOf<T>(conn: Conn, query: SQL): Promise<T[]> {
  const result = (await conn.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** Counts and sums come back as text or bigint depending on the driver; these columns are numbers. */
const toNumbers = <T extends object>(rows: T[], keys: Array<keyof T>): T[] =>
  rows.map((row) => ({ ...row, ...Object.fromEntries(keys.map((key) => [key, Number(row[key])])) }) as T);

export interface CountRow {
  id: number;
  name: string;
  count: number;
}

/** Every pad status with its count, zero included, in the lookup's order. */
export async function padsByStatus(conn: Conn): Promise<CountRow[]> {
  const rows = await rowsOf<CountRow>(
    conn,
    sql`select s.id, s.name, coalesce(c.n, 0) as count
        from pad_statuses s left join (select pad_status_id, count(*) as n from pads group by pad_status_id) c on c.pad_status_id = s.id
        order by s.id`,
  );
  return toNumbers(rows, ['id', 'count']);
}

/** The branches holding the most pads; the rest summed under id 0. */
export async function padsByBranch(conn: Conn): Promise<{ top: CountRow[]; rest: number; unheld: number }> {
  const rows = toNumbers(
    await rowsOf<CountRow & { rank: number }>(
      conn,
      sql`select coalesce(b.id, 0) as id, coalesce(b.name, '') as name, c.n as count, row_number() over (order by c.n desc, b.name) as rank
          from (select holder_branch_id, count(*) as n from pads group by holder_branch_id) c
          left join branches b on b.id = c.holder_branch_id`,
    ),
    ['id', 'count', 'rank'],
  );
  const held = rows.filter((row) => row.id !== 0);
  return {
    top: held.slice(0, DASHBOARD_BRANCH_LIMIT).map(({ id, name, count }) => ({ id, name, count })),
    rest: held.slice(DASHBOARD_BRANCH_LIMIT).reduce((sum, row) => sum + row.count, 0),
    unheld: rows.find((row) => row.id === 0)?.count ?? 0,
  };
}

export interface StockRow {
  id: number;
  route: string;
  company: string;
  tin: string | null;
  pads: number;
  numbers: number;
}

/** Issuable stock at the head office per route (spec §4 "pads available for issuing"), the routes with most pads first. */
export async function stockByRoute(conn: Conn, headOfficeId: number): Promise<StockRow[]> {
  const rows = await rowsOf<StockRow>(
    conn,
    sql`select r.id, r.name as route, c.name as company, r.tin, s.pads, s.numbers
        from (select route_id, count(*) as pads,
                     sum(length(series_status) - length(replace(series_status, '1', ''))) as numbers
              from pads
              where issuance_status_id = ${ISSUANCE_STATUS.NOT_ISSUED} and pad_status_id in (${PAD_STATUS.UNUSED}, ${PAD_STATUS.PARTIALLY_USED})
                and locked_by_invoice_id is null and holder_user_id is null and holder_branch_id = ${headOfficeId}::int
              group by route_id) s
        join routes r on r.id = s.route_id
        join companies c on c.id = r.company_id
        order by s.pads desc, r.name
        limit ${DASHBOARD_ROUTE_LIMIT}`,
  );
  return toNumbers(rows, ['id', 'pads', 'numbers']);
}

/** In-Transit invoices by type, every type listed. */
export async function inTransitByType(conn: Conn): Promise<CountRow[]> {
  const rows = await rowsOf<CountRow>(
    conn,
    sql`select t.id, t.name, coalesce(c.n, 0) as count
        from invoice_types t left join (select invoice_type_id, count(*) as n from invoices where invoice_status_id = ${INVOICE_STATUS.IN_TRANSIT} group by invoice_type_id) c
          on c.invoice_type_id = t.id
        where t.id <> ${INVOICE_TYPE.REQUEST}
        order by t.id`,
  );
  return toNumbers(rows, ['id', 'count']);
}

export interface OverdueRow {
  id: number;
  total: number;
  pad_count: number;
  expected_return_date: string;
  requester: string;
  branch: string | null;
}

/** Accepted issues past their expected return whose requester still holds a pad of them, the oldest due first. */
export async function overdue(conn: Conn, today: string): Promise<OverdueRow[]> {
  const rows = await rowsOf<OverdueRow>(
    conn,
    sql`select i.id, count(*) over () as total, i.pad_count, i.expected_return_date::text as expected_return_date,
               concat_ws(' ', nullif(trim(u.first_name), ''), nullif(trim(u.last_name), '')) as requester, b.name as branch
        from invoices i
        join users u on u.id = i.user_id
        left join branches b on b.id = i.branch_id
        where i.invoice_type_id = ${INVOICE_TYPE.ISSUED} and i.invoice_status_id = ${INVOICE_STATUS.COMPLETED}
          and i.expected_return_date < ${today}::date
          and exists (select 1 from invoice_pads ip join pads p on p.id = ip.pad_id where ip.invoice_id = i.id and p.holder_user_id = i.user_id)
        order by i.expected_return_date, i.id
        limit ${DASHBOARD_OVERDUE_LIMIT}`,
  );
  return toNumbers(rows, ['id', 'total', 'pad_count']);
}
