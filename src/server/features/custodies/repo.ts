import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { seriesRange } from '../../../shared/format.ts';
import { seriesFromStatus } from '../../../shared/pad-status.ts';
import type { HeldPad } from '../../../shared/schemas/custodies.ts';
import type { Conn } from '../../db/client.ts';
import { Bindings, preparedPerShape } from '../../db/prepared.ts';
import { companies, issuanceStatuses, padStatuses, pads, routes } from '../../db/schema.ts';
import { offsetOf } from '../../lib/pagination.ts';
import { padMatches } from '../invoices/read-model.ts';

const heldWhere = (userId: number, search: string | undefined, { bind }: Bindings) =>
  and(eq(pads.holder_user_id, bind('userId', userId)), isNull(pads.locked_by_invoice_id), search ? padMatches(search, bind) : undefined);

const prepareCount = (conn: Conn, name: string, where: SQL | undefined) =>
  conn.select({ count: sql<number>`count(*)::int` }).from(pads).where(where).prepare(name);

const prepareRows = (conn: Conn, name: string, where: SQL | undefined) =>
  conn
    .select({
      pad: {
        id: pads.id,
        route_id: pads.route_id,
        number: pads.number,
        series_from: pads.series_from,
        series_to: pads.series_to,
        pad_status_id: pads.pad_status_id,
        issuance_status_id: pads.issuance_status_id,
        remarks: pads.remarks,
        series_status: pads.series_status,
        holder_user_id: pads.holder_user_id,
        holder_branch_id: pads.holder_branch_id,
        locked_by_invoice_id: pads.locked_by_invoice_id,
        updated_at: pads.updated_at,
      },
      route: { id: routes.id, name: routes.name, tin: routes.tin, company_id: routes.company_id },
      company: { id: companies.id, name: companies.name },
      padStatus: { id: padStatuses.id, name: padStatuses.name },
      issuanceStatus: { id: issuanceStatuses.id, name: issuanceStatuses.name },
    })
    .from(pads)
    .innerJoin(routes, eq(routes.id, pads.route_id))
    .innerJoin(companies, eq(companies.id, routes.company_id))
    .innerJoin(padStatuses, eq(padStatuses.id, pads.pad_status_id))
    .innerJoin(issuanceStatuses, eq(issuanceStatuses.id, pads.issuance_status_id))
    .where(where)
    .orderBy(routes.name, pads.route_id, pads.number)
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .prepare(name);

const countOfShape = preparedPerShape<ReturnType<typeof prepareCount>>('held_pads_count');
const rowsOfShape = preparedPerShape<ReturnType<typeof prepareRows>>('held_pads_rows');

/** One page of the pads a user holds and may move (not locked by an invoice in transit); both statements are prepared per search shape. */
export async function listHeldPads(
  conn: Conn,
  options: { userId: number; search?: string; page: number; perPage: number },
): Promise<{ rows: HeldPad[]; total: number }> {
  const bindings = new Bindings();
  const where = heldWhere(options.userId, options.search, bindings);
  const { values } = bindings;
  const [[{ count }], rows] = await Promise.all([
    countOfShape(conn, bindings.shape, (name) => prepareCount(conn, name, where)).execute(values),
    rowsOfShape(conn, bindings.shape, (name) => prepareRows(conn, name, where)).execute({ ...values, limit: options.perPage, offset: offsetOf(options.page, options.perPage) }),
  ]);
  return {
    rows: rows.map(({ pad: { series_status, updated_at, ...pad }, ...r }) => ({
      ...pad,
      updated_at: updated_at.toISOString(),
      route: { ...r.route, company: r.company },
      series_number: seriesRange(pad.series_from, pad.series_to),
      series: seriesFromStatus(pad.series_from, series_status),
      pad_status: r.padStatus,
      issuance_status: r.issuanceStatus,
    })),
    total: count,
  };
}
