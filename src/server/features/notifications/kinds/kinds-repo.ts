import { and, eq, isNull, min } from 'drizzle-orm';
import type { AlertKind } from '../../../../shared/schemas/notifications.ts';
import type { Conn } from '../../../db/client.ts';
import { notifications } from '../../../db/schema/notifications.ts';

/**
 * When each subject of a kind was first told to its first person (level 0), per subject id: where an escalation counts
 * its days from when the live tables cannot say since when the condition holds (a shortage, a series running out).
 * `openOnly` counts only the notifications still open, so a condition that cleared and came back starts again.
 */
export async function firstToldAt(conn: Conn, kind: AlertKind, subjectType: string, openOnly: boolean): Promise<Map<string, Date>> {
  const rows = await conn
    .select({ subject_id: notifications.subject_id, at: min(notifications.created_at) })
    .from(notifications)
    .where(
      and(
        eq(notifications.kind, kind),
        eq(notifications.subject_type, subjectType),
        eq(notifications.level, 0),
        openOnly ? isNull(notifications.resolved_at) : undefined,
      ),
    )
    .groupBy(notifications.subject_id);
  return new Map(rows.flatMap((row) => (row.at ? [[row.subject_id, new Date(row.at)] as const] : [])));
}
