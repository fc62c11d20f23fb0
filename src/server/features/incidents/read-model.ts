import { sql, type SQLWrapper } from 'drizzle-orm';
import { fullName, numberRange, seriesRange } from '../../../shared/format.ts';
import type { Actor } from '../../../shared/permissions.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import {
  INCIDENT_MSG,
  type AttachmentKind,
  type Incident,
  type IncidentListQuery,
  type IncidentRow,
} from '../../../shared/schemas/incidents.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf, toNumbers } from '../../db/rows.ts';
import { lossIncidents } from '../../db/schema/incidents.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { RowSource } from '../../lib/export.ts';
import { paginated } from '../../lib/pagination.ts';
import { mayRead, signedPath } from './documents.ts';
import * as users from '../users/read-model.ts';
import * as repo from './repo.ts';

type People = Map<number, users.PersonRow>;
type PadLine = Incident['pads'][number];

const name = (people: People, id: number | null) => {
  const row = id === null ? undefined : people.get(id);
  return row ? { id: row.id, full_name: fullName(row) } : null;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

const peopleOf = async (conn: Conn, ids: number[]): Promise<People> => new Map((await users.people(conn, ids)).map((row) => [row.id, row]));

const padInfosOf = async (conn: Conn, padIds: number[]) => new Map((await repo.padInfos(conn, padIds)).map((info) => [info.id, info]));

/** One incident with its pads, files (signed links), found numbers and, once confirmed, the notice's link. */
export async function detail(ctx: AppContext, actor: Actor, id: number): Promise<Incident> {
  const incident = await repo.findIncident(ctx.db, id);
  if (!incident) throw notFound(INCIDENT_MSG.notFound);
  if (!mayRead(actor, incident)) throw forbidden();
  const [lines, attachments, found] = await Promise.all([
    repo.padsOf(ctx.db, id),
    repo.attachmentsOf(ctx.db, id),
    repo.foundOf(ctx.db, id),
  ]);
  const infos = await padInfosOf(
    ctx.db,
    lines.map((line) => line.pad_id),
  );
  const people = await peopleOf(ctx.db, [
    incident.reported_by,
    incident.decided_by ?? 0,
    ...attachments.map((a) => a.uploaded_by),
    ...found.flatMap((f) => [f.recorded_by, f.confirmed_by ?? 0]),
  ]);
  const padLines: PadLine[] = lines.map((line) => {
    const info = infos.get(line.pad_id);
    return {
      pad: {
        id: line.pad_id,
        number: info?.number ?? 0,
        series_number: info ? seriesRange(info.series_from, info.series_to) : '',
        route: { id: line.route_id, name: info?.route_name ?? '', tin: info?.tin ?? '', company: info?.company ?? '' },
      },
      from: line.from_number,
      to: line.to_number,
      qty: line.to_number - line.from_number + 1,
    };
  });
  return {
    ...rowDto(incident, padLines, people),
    circumstances: incident.circumstances,
    decided_by: name(people, incident.decided_by),
    decided_at: iso(incident.decided_at),
    rejection_reason: incident.rejection_reason,
    no_affidavit_reason: incident.no_affidavit_reason,
    pads: padLines,
    attachments: attachments.map((file) => attachmentDto(ctx, actor, file, people)),
    found: found.map((row) => foundDto(row, people)),
    notice_url:
      incident.status === 'confirmed' ? signedPath(ctx, actor.id, `/api/loss-incidents/${id}/notice`, `incident-notice:${id}`) : null,
  };
}

function attachmentDto(ctx: AppContext, actor: Actor, file: repo.AttachmentMeta, people: People): Incident['attachments'][number] {
  const id = file.incident_id;
  return {
    id: file.id,
    // -- loss_incident_attachments_kind_ck holds kind to AttachmentKind; content_type is written only from sniffType's answer.
    kind: file.kind as AttachmentKind,
    file_name: file.file_name,
    content_type: file.content_type as Incident['attachments'][number]['content_type'],
    size: file.size,
    document_date: file.document_date,
    uploaded_by: name(people, file.uploaded_by) ?? { id: file.uploaded_by, full_name: '' },
    uploaded_at: iso(file.uploaded_at) ?? '',
    url: signedPath(ctx, actor.id, `/api/loss-incidents/${id}/attachments/${file.id}`, `incident-file:${id}:${file.id}`),
  };
}

const foundDto = (row: repo.FoundRecord, people: People): Incident['found'][number] => ({
  id: row.id,
  pad_id: row.pad_id,
  from: row.from_number,
  to: row.to_number,
  reason: row.reason,
  status: row.confirmed_by === null ? ('pending' as const) : ('confirmed' as const),
  recorded_by: name(people, row.recorded_by) ?? { id: row.recorded_by, full_name: '' },
  recorded_at: iso(row.recorded_at) ?? '',
  confirmed_by: name(people, row.confirmed_by),
  confirmed_at: iso(row.confirmed_at),
});

function rowDto(
  incident: Pick<repo.IncidentRecord, 'id' | 'number' | 'status' | 'place' | 'occurred_at' | 'reported_by' | 'reported_at'>,
  lines: Array<{ pad: { number: number }; from: number; to: number; qty: number }>,
  people: People,
): IncidentRow {
  return {
    id: incident.id,
    number: incident.number,
    // -- loss_incidents' status check constraint holds the text column to this union.
    status: incident.status as IncidentRow['status'],
    place: incident.place,
    occurred_at: iso(incident.occurred_at) ?? '',
    reported_by: name(people, incident.reported_by) ?? { id: incident.reported_by, full_name: '' },
    reported_at: iso(incident.reported_at) ?? '',
    qty: lines.reduce((sum, line) => sum + line.qty, 0),
    summary: lines.map((line) => `Pad ${line.pad.number} (${numberRange(line.from, line.to, '\u2013')})`).join('; '),
  };
}

/** The Incidents screen: roles 1–9, searchable by incident number or by a receipt number on it. */
export async function list(ctx: AppContext, query: IncidentListQuery): Promise<Paginated<IncidentRow>> {
  const { rows, total } = await repo.listIncidents(ctx.db, query);
  return paginated(await incidentRows(ctx.db, rows), total, query.page, query.per_page);
}

/** docs/design.md §10 Export: every incident of the Incidents list for this search and status, in batches. */
export function listSource(ctx: AppContext, query: IncidentListQuery): RowSource<IncidentRow> {
  return (write) => repo.streamIncidents(ctx.db, query, async (rows, tx) => write(await incidentRows(tx, rows)));
}

async function incidentRows(conn: Conn, rows: repo.IncidentListRow[]): Promise<IncidentRow[]> {
  const lines = await repo.padsOfIncidents(
    conn,
    rows.map((row) => row.id),
  );
  const infos = await padInfosOf(conn, [...new Set(lines.map((line) => line.pad_id))]);
  const people = await peopleOf(
    conn,
    rows.map((row) => row.reported_by),
  );
  return rows.map((row) =>
    rowDto(
      { ...row, occurred_at: new Date(row.occurred_at), reported_at: new Date(row.reported_at) },
      lines
        .filter((line) => line.incident_id === row.id)
        .map((line) => ({
          pad: { number: infos.get(line.pad_id)?.number ?? 0 },
          from: line.from_number,
          to: line.to_number,
          qty: line.to_number - line.from_number + 1,
        })),
      people,
    ),
  );
}

/** The number of the incident whose id the expression gives, as a scalar subquery (a count's resolution names it). */
export const incidentNumberById = (id: SQLWrapper) => sql<string | null>`(select li.number from loss_incidents li where li.id = ${id})`;

/** The number and status of each incident among the ids: the ledger's pad history and Find receipt name them. */
export async function incidentRefs(
  conn: Conn,
  ids: number[],
): Promise<Array<{ id: number; number: string; status: IncidentRow['status'] }>> {
  if (ids.length === 0) return [];
  return conn
    .select({ id: lossIncidents.id, number: lossIncidents.number, status: sql<IncidentRow['status']>`${lossIncidents.status}` })
    .from(lossIncidents)
    .where(sql`${lossIncidents.id} = any(${`{${[...new Set(ids)].join(',')}}`}::int[])`);
}

/**
 * Issue 36: the newest confirmed loss incident that wrote off numbers of the pad, with its line on the pad, so a physical
 * count that finds the booklet says "Declared lost on LOSS-2026-0001" and offers its found, not an ordinary find.
 */
export async function confirmedLossOfPad(
  conn: Conn,
  padId: number,
): Promise<{ id: number; number: string; from_number: number; to_number: number } | undefined> {
  const [row] = toNumbers(
    await rowsOf<{ id: number; number: string; from_number: number; to_number: number }>(
      conn,
      sql`select i.id, i.number, lp.from_number, lp.to_number from loss_incidents i join loss_incident_pads lp on lp.incident_id = i.id
        where i.status = 'confirmed' and lp.pad_id = ${padId}::int order by i.decided_at desc, i.id desc limit 1`,
    ),
    ['from_number', 'to_number'],
  );
  return row;
}

export interface QueueRow {
  id: number;
  number: string;
  place: string;
  found_from: number | null;
  found_to: number | null;
  total: number;
}

/**
 * Needs my action: reported incidents the actor may confirm (not their own; a Branch Head's only when the
 * pads are their branch's), mirroring `incident.decide`; the newest few and their count.
 */
export async function confirmQueue(
  conn: Conn,
  actor: { id: number; branch_id: number | null },
  branchOnly: boolean,
  limit: number,
): Promise<QueueRow[]> {
  const branch = branchOnly
    ? sql`and exists (select 1 from loss_incident_pads lp join pad_custody pc on pc.pad_id = lp.pad_id
        where lp.incident_id = i.id and (pc.holder_branch_id = ${actor.branch_id ?? 0}::int or ${users.userInBranch(sql`pc.holder_user_id`, sql`${actor.branch_id ?? 0}::int`)}))`
    : sql``;
  return toNumbers(
    await rowsOf<QueueRow>(
      conn,
      sql`select i.id, i.number, i.place, null as found_from, null as found_to, count(*) over ()::int as total from loss_incidents i
        where i.status = 'reported' and i.reported_by <> ${actor.id}::int ${branch}
        order by i.reported_at desc, i.id desc limit ${limit}::int`,
    ),
    ['total'],
  );
}

/** Needs my action: found numbers recorded by another user, waiting for a second one (roles 3, 8). */
export async function foundQueue(conn: Conn, actorId: number, limit: number): Promise<QueueRow[]> {
  return toNumbers(
    await rowsOf<QueueRow>(
      conn,
      sql`select i.id, i.number, i.place, f.from_number as found_from, f.to_number as found_to, count(*) over ()::int as total
        from loss_incident_found f join loss_incidents i on i.id = f.incident_id
        where f.confirmed_by is null and f.recorded_by <> ${actorId}::int
        order by f.recorded_at, f.id limit ${limit}::int`,
    ),
    ['total', 'found_from', 'found_to'],
  );
}
