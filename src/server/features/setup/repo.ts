import { sql } from 'drizzle-orm';
import { ROLE } from '../../../shared/lookups.ts';
import type { SetupStatus } from '../../../shared/schemas/setup.ts';
import type { Conn } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** One statement of EXISTS probes: cheap on any size of database. */
export async function status(conn: Conn, headOfficeBranchId: number): Promise<SetupStatus> {
  const [row] = await rowsOf<SetupStatus>(
    conn,
    sql`
    select exists (select 1 from companies) as company,
           exists (select 1 from locations) as location,
           exists (select 1 from branches where id = ${headOfficeBranchId}::int) as head_office,
           exists (select 1 from routes) as route,
           exists (select 1 from users where role_id is not null and role_id not in (${ROLE.ADMIN}, ${ROLE.IT_ADMIN})) as users,
           exists (select 1 from pads) as pads`,
  );
  return row;
}
