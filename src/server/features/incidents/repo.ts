import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { streamRows } from '../../db/stream.ts';
import {
  lossIncidentAttachments,
  lossIncidentCounters,
  lossIncidentFound,
  lossIncidentPads,
  lossIncidents,
} from '../../db/schema/incidents.ts';
import { likePattern, offsetOf } from '../../lib/pagination.ts';
import { rowsOf } from '../../db/rows.ts';
import { padViews } from '../pads/read-model.ts';
import * as users from '../users/read-model.ts';

export type IncidentRecord = typeof lossIncidents.$inferSelect;
export type IncidentPadRecord = typeof lossIncidentPads.$inferSelect;
export type FoundRecord = typeof lossIncidentFound.$inferSelect;
export type AttachmentMeta = Omit<typeof lossIncidentAttachments.$inferSelect, 'content'>;

/**
 * The next LOSS-YYYY-NNNN sequence of a year. The counter row stays locked until the transaction ends, so
 * parallel reports take turns, and a report that rolls back gives its number back: the numbers are gapless.
 */
export async function nextSequence(conn: Conn, year: number): Promise<number> {
  const [row] = await conn
    .insert(lossIncidentCounters)
    .values({ year, last_number: 1 })
    .onConflictDoUpdate({ target: lossIncidentCounters.year, set: { last_number: sql`${lossIncidentCounters.last_number} + 1` } })
    .returning({ last: lossIncidentCounters.last_number });
  return row.last;
}

export async function insertIncident(conn: Conn, values: typeof lossIncidents.$inferInsert): Promise<IncidentRecord> {
  const [row] = await conn.insert(lossIncidents).values(values).returning();
  return row;
}

export async function insertPads(conn: Conn, rows: Array<typeof lossIncidentPads.$inferInsert>): Promise<void> {
  if (rows.length > 0) await conn.insert(lossIncidentPads).values(rows);
}

export async function insertAttachments(conn: Conn, rows: Array<typeof lossIncidentAttachments.$inferInsert>): Promise<void> {
  if (rows.length > 0) await conn.insert(lossIncidentAttachments).values(rows);
}

export async function findIncident(conn: Conn, id: number): Promise<IncidentRecord | undefined> {
  const [row] = await conn.select().from(lossIncidents).where(eq(lossIncidents.id, id));
  return row;
}

export async function lockIncident(conn: Conn, id: number): Promise<IncidentRecord | undefined> {
  const [row] = await conn.select().from(lossIncidents).where(eq(lossIncidents.id, id)).for('update');
  return row;
}

export async function updateIncident(conn: Conn, id: number, values: Partial<typeof lossIncidents.$inferInsert>): Promise<void> {
  await conn.update(lossIncidents).set(values).where(eq(lossIncidents.id, id));
}

export async function padsOf(conn: Conn, incidentId: number): Promise<IncidentPadRecord[]> {
  return conn
    .select()
    .from(lossIncidentPads)
    .where(eq(lossIncidentPads.incident_id, incidentId))
    .orderBy(asc(lossIncidentPads.pad_id), asc(lossIncidentPads.from_number));
}

export async function attachmentsOf(conn: Conn, incidentId: number): Promise<AttachmentMeta[]> {
  return conn
    .select({
      id: lossIncidentAttachments.id,
      incident_id: lossIncidentAttachments.incident_id,
      kind: lossIncidentAttachments.kind,
      file_name: lossIncidentAttachments.file_name,
      content_type: lossIncidentAttachments.content_type,
      size: lossIncidentAttachments.size,
      document_date: lossIncidentAttachments.document_date,
      uploaded_by: lossIncidentAttachments.uploaded_by,
      uploaded_at: lossIncidentAttachments.uploaded_at,
    })
    .from(lossIncidentAttachments)
    .where(eq(lossIncidentAttachments.incident_id, incidentId))
    .orderBy(asc(lossIncidentAttachments.id));
}

export async function attachmentContent(conn: Conn, incidentId: number, id: number) {
  const [row] = await conn
    .select()
    .from(lossIncidentAttachments)
    .where(and(eq(lossIncidentAttachments.incident_id, incidentId), eq(lossIncidentAttachments.id, id)));
  return row;
}

export async function foundOf(conn: Conn, incidentId: number): Promise<FoundRecord[]> {
  return conn.select().from(lossIncidentFound).where(eq(lossIncidentFound.incident_id, incidentId)).orderBy(asc(lossIncidentFound.id));
}

export async function insertFound(conn: Conn, values: typeof lossIncidentFound.$inferInsert): Promise<void> {
  await conn.insert(lossIncidentFound).values(values);
}

export async function lockFound(conn: Conn, incidentId: number, id: number): Promise<FoundRecord | undefined> {
  const [row] = await conn
    .select()
    .from(lossIncidentFound)
    .where(and(eq(lossIncidentFound.incident_id, incidentId), eq(lossIncidentFound.id, id)))
    .for('update');
  return row;
}

export async function confirmFound(conn: Conn, id: number, userId: number): Promise<void> {
  await conn.update(lossIncidentFound).set({ confirmed_by: userId, confirmed_at: new Date() }).where(eq(lossIncidentFound.id, id));
}

/** A reported (not yet decided) incident that already names a number of this range of the pad. */
export async function openIncidentOverlapping(
  conn: Conn,
  padId: number,
  from: number,
  to: number,
): Promise<{ number: string; from: number } | undefined> {
  const [row] = await rowsOf<{ number: string; from_number: number }>(
    conn,
    sql`select i.number, greatest(p.from_number, ${from}::bigint) as from_number from loss_incident_pads p join loss_incidents i on i.id = p.incident_id
      where p.pad_id = ${padId}::int and i.status = 'reported' and p.from_number <= ${to}::bigint and p.to_number >= ${from}::bigint limit 1`,
  );
  return row ? { number: row.number, from: Number(row.from_number) } : undefined;
}

export interface PadInfo {
  id: number;
  number: number;
  series_from: number;
  series_to: number;
  route_id: number;
  route_name: string;
  tin: string;
  company: string;
  holder_branch_id: number | null;
  holder_user_branch_id: number | null;
}

/** The pads an incident names, with their route and company (for the notice and screens) and their holders' branches (for the rules). */
export async function padInfos(conn: Conn, padIds: number[]): Promise<PadInfo[]> {
  if (padIds.length === 0) return [];
  const views = await padViews(conn, [...new Set(padIds)]);
  const routeIds = [...new Set(views.map((pad) => pad.route_id))];
  const routes = new Map(
    (
      await rowsOf<{ id: number; name: string; tin: string; company: string }>(
        conn,
        sql`select r.id, r.name, r.tin, c.name as company from routes r join companies c on c.id = r.company_id
          where r.id = any(${`{${routeIds.join(',')}}`}::int[])`,
      )
    ).map((route) => [route.id, route]),
  );
  const holders = new Map(
    (
      await users.people(
        conn,
        views.flatMap((pad) => (pad.holder_user_id === null ? [] : [pad.holder_user_id])),
      )
    ).map((person) => [person.id, person]),
  );
  return views.map((pad) => {
    const route = routes.get(pad.route_id);
    return {
      id: pad.id,
      number: pad.number,
      series_from: Number(pad.series_from),
      series_to: Number(pad.series_to),
      route_id: pad.route_id,
      route_name: route?.name ?? '',
      tin: route?.tin ?? '',
      company: route?.company ?? '',
      holder_branch_id: pad.holder_branch_id,
      holder_user_branch_id: pad.holder_user_id === null ? null : (holders.get(pad.holder_user_id)?.branch_id ?? null),
    };
  });
}

export interface IncidentListRow {
  id: number;
  number: string;
  status: 'reported' | 'confirmed' | 'rejected';
  place: string;
  occurred_at: Date | string;
  reported_by: number;
  reported_at: Date | string;
  total: number;
}

/** A page of incidents, newest first; `search` is an incident number (or part of one) or a receipt number on one of its pads. */
export async function listIncidents(
  conn: Conn,
  query: { page: number; per_page: number; search?: string; status?: string },
): Promise<{ rows: IncidentListRow[]; total: number }> {
  const rows = await rowsOf<IncidentListRow>(
    conn,
    sql`select i.id, i.number, i.status, i.place, i.occurred_at, i.reported_by, i.reported_at, count(*) over ()::int as total
      from loss_incidents i where ${incidentsWhere(query)}
      order by i.reported_at desc, i.id desc limit ${query.per_page}::int offset ${offsetOf(query.page, query.per_page)}::int`,
  );
  return { rows, total: Number(rows[0]?.total ?? 0) };
}

/** Every incident the list shows for this search and status, in its order, batch by batch (docs/design.md §10 Export). */
export async function streamIncidents(
  conn: Conn,
  query: { search?: string; status?: string },
  onBatch: (rows: IncidentListRow[], tx: Conn) => Promise<void>,
): Promise<void> {
  await streamRows<IncidentListRow>(
    conn,
    sql`select i.id, i.number, i.status, i.place, i.occurred_at, i.reported_by, i.reported_at, 0 as total
      from loss_incidents i where ${incidentsWhere(query)} order by i.reported_at desc, i.id desc`,
    onBatch,
    2_000,
  );
}

function incidentsWhere(query: { search?: string; status?: string }): SQL {
  const conditions: SQL[] = [sql`true`];
  if (query.status) conditions.push(sql`i.status = ${query.status}`);
  if (query.search) {
    const arms = [sql`i.number ilike ${likePattern(query.search)}`];
    if (/^\d{1,15}$/.test(query.search)) {
      arms.push(
        sql`exists (select 1 from loss_incident_pads lp where lp.incident_id = i.id and lp.from_number <= ${Number(query.search)}::bigint and lp.to_number >= ${Number(query.search)}::bigint)`,
      );
    }
    conditions.push(sql`(${sql.join(arms, sql` or `)})`);
  }
  return sql.join(conditions, sql` and `);
}

export async function padsOfIncidents(conn: Conn, incidentIds: number[]): Promise<IncidentPadRecord[]> {
  if (incidentIds.length === 0) return [];
  return conn
    .select()
    .from(lossIncidentPads)
    .where(sql`${lossIncidentPads.incident_id} = any(${`{${incidentIds.join(',')}}`}::int[])`)
    .orderBy(asc(lossIncidentPads.incident_id), asc(lossIncidentPads.pad_id));
}
