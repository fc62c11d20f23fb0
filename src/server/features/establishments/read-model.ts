import { eq } from 'drizzle-orm';
import type { Conn } from '../../db/client.ts';
import { establishments } from '../../db/schema/paper-use.ts';

/** What other features need of an establishment: whether, and since which day, it issues e-invoices. */
export interface EstablishmentFacts {
  branch_id: number;
  bir_branch_code: string;
  covered: boolean;
  /** YYYY-MM-DD; set whenever covered. */
  e_invoicing_since: string | null;
  permit_reference: string | null;
  invoicing_system: string | null;
}

/** Issue 38: the branch as a tax establishment; null for a branch never set, which is not covered. */
export async function establishmentOf(conn: Conn, branchId: number): Promise<EstablishmentFacts | null> {
  const [row] = await conn
    .select({
      branch_id: establishments.branch_id,
      bir_branch_code: establishments.bir_branch_code,
      covered: establishments.covered,
      e_invoicing_since: establishments.e_invoicing_since,
      permit_reference: establishments.permit_reference,
      invoicing_system: establishments.invoicing_system,
    })
    .from(establishments)
    .where(eq(establishments.branch_id, branchId));
  return row ?? null;
}
