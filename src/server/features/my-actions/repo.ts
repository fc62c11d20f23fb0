import { sql, type SQL } from 'drizzle-orm';
import { INVOICE_STATUS, INVOICE_TYPE, ROLE } from '../../../shared/lookups.ts';
import { MY_ACTION_ITEM_LIMIT, type MyActionKind } from '../../../shared/schemas/my-actions.ts';
import type { Conn } from '../../db/client.ts';

export interface MyActionRow {
  kind: MyActionKind;
  id: number;
  invoice_type: string;
  pad_count: number;
  expected_return_date: string | null;
  route_name: string | null;
  company_name: string | null;
  from_branch: string | null;
  to_branch: string | null;
  total: number;
}

export interface MyActionsFilter {
  userId: number;
  roleId: number | null;
  branchId: number | null;
  /** YYYY-MM-DD in the app's time zone: a due date before it is overdue. */
  today: string;
  kinds: MyActionKind[];
}

/** The WHERE of each kind, on `invoices i`; spec §4 accepting is mirrored from permissions.ts canAccept(). */
function kindCondition(kind: MyActionKind, f: MyActionsFilter): SQL {
  switch (kind) {
    case 'issue':
      return sql`i.invoice_type_id = ${INVOICE_TYPE.REQUEST} and i.invoice_status_id = ${INVOICE_STATUS.PENDING}`;
    case 'accept': {
      const turnover =
        f.branchId !== null && f.roleId !== null && [ROLE.BRANCH_CUSTODIAN, ROLE.BRANCH_HEAD, ROLE.SUPERVISOR, ROLE.TICKETING_OFFICER].some((r) => r === f.roleId)
          ? sql`or (i.invoice_type_id = ${INVOICE_TYPE.TURNOVER} and i.branch_id = ${f.branchId}::int)`
          : sql``;
      const returns = f.roleId === ROLE.ACCOUNTING ? sql`or i.invoice_type_id = ${INVOICE_TYPE.RETURN}` : sql``;
      return sql`i.invoice_status_id = ${INVOICE_STATUS.IN_TRANSIT} and ((i.invoice_type_id = ${INVOICE_TYPE.ISSUED} and i.user_id = ${f.userId}::int) ${returns} ${turnover})`;
    }
    case 'carry':
      return sql`i.invoice_status_id = ${INVOICE_STATUS.IN_TRANSIT} and i.assigned_user_id = ${f.userId}::int`;
    case 'overdue':
      return sql`i.invoice_type_id = ${INVOICE_TYPE.ISSUED} and i.invoice_status_id = ${INVOICE_STATUS.COMPLETED} and i.user_id = ${f.userId}::int
        and i.expected_return_date < ${f.today}::date
        and exists (select 1 from invoice_pads ip join pads p on p.id = ip.pad_id where ip.invoice_id = i.id and p.holder_user_id = ${f.userId}::int)`;
  }
}

/**
 * One statement for every kind: each kind's matches with their count, and the newest few of each with
 * the names a label needs, so polling it every minute stays one round trip on indexed columns.
 */
export async function findMyActions(conn: Conn, filter: MyActionsFilter): Promise<MyActionRow[]> {
  if (filter.kinds.length === 0) return [];
  const parts = filter.kinds.map(
    (kind) => sql`select ${kind}::text as kind, i.id, i.created_at from invoices i where ${kindCondition(kind, filter)}`,
  );
  const result = (await conn.execute(sql`
    with matches as (${sql.join(parts, sql` union all `)}),
    ranked as (
      select kind, id, count(*) over (partition by kind)::int as total,
             row_number() over (partition by kind order by created_at desc, id desc) as rn
      from matches
    )
    select r.kind, r.id, r.total, t.name as invoice_type, i.pad_count, i.expected_return_date::text as expected_return_date,
           ro.name as route_name, c.name as company_name, fb.name as from_branch, tb.name as to_branch
    from ranked r
    join invoices i on i.id = r.id
    join invoice_types t on t.id = i.invoice_type_id
    left join routes ro on ro.id = i.route_id
    left join companies c on c.id = ro.company_id
    left join branches fb on fb.id = i.from_branch_id
    left join branches tb on tb.id = i.branch_id
    where r.rn <= ${MY_ACTION_ITEM_LIMIT}
    order by r.kind, r.rn`)) as unknown as { rows: MyActionRow[] };
  return result.rows.map((row) => ({ ...row, id: Number(row.id), total: Number(row.total), pad_count: Number(row.pad_count) }));
}
