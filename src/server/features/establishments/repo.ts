import { eq, sql } from 'drizzle-orm';
import type { EstablishmentInput } from '../../../shared/schemas/establishments.ts';
import type { Conn } from '../../db/client.ts';
import { establishments } from '../../db/schema/paper-use.ts';
import { userNameById } from '../users/read-model.ts';

export type EstablishmentRow = typeof establishments.$inferSelect;

export async function find(conn: Conn, branchId: number): Promise<(EstablishmentRow & { updated_by_name: string | null }) | undefined> {
  const [row] = await conn
    .select({ row: establishments, updated_by_name: userNameById(establishments.updated_by) })
    .from(establishments)
    .where(eq(establishments.branch_id, branchId));
  return row ? { ...row.row, updated_by_name: row.updated_by_name } : undefined;
}

/** Writes the branch's e-invoicing details, first time or again; the row is the branch's only one. */
export async function upsert(conn: Conn, branchId: number, input: EstablishmentInput, userId: number): Promise<void> {
  const values = {
    bir_branch_code: input.bir_branch_code,
    covered: input.covered,
    e_invoicing_since: input.e_invoicing_since ?? null,
    permit_reference: input.permit_reference,
    invoicing_system: input.invoicing_system,
    updated_by: userId,
  };
  await conn
    .insert(establishments)
    .values({ branch_id: branchId, ...values })
    .onConflictDoUpdate({ target: establishments.branch_id, set: { ...values, updated_at: sql`now()` } });
}
