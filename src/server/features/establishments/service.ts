import { ESTABLISHMENT_MSG, type Establishment, type EstablishmentInput } from '../../../shared/schemas/establishments.ts';
import type { AppContext } from '../../context.ts';
import type { Conn } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { branchNames } from '../branches/read-model.ts';
import * as repo from './repo.ts';

async function requireBranch(conn: Conn, branchId: number): Promise<void> {
  const [branch] = await branchNames(conn, [branchId]);
  if (!branch) throw notFound(ESTABLISHMENT_MSG.branchMissing);
}

/** Issue 38: a branch's e-invoicing details; a branch never set answers not covered, with nothing else known. */
export async function get(ctx: AppContext, branchId: number): Promise<Establishment> {
  await requireBranch(ctx.db, branchId);
  const row = await repo.find(ctx.db, branchId);
  if (!row) {
    return {
      branch_id: branchId,
      bir_branch_code: null,
      covered: false,
      e_invoicing_since: null,
      permit_reference: null,
      invoicing_system: null,
      updated_by: null,
      updated_at: null,
    };
  }
  return {
    branch_id: row.branch_id,
    bir_branch_code: row.bir_branch_code,
    covered: row.covered,
    e_invoicing_since: row.e_invoicing_since,
    permit_reference: row.permit_reference,
    invoicing_system: row.invoicing_system,
    updated_by: row.updated_by !== null ? { id: row.updated_by, name: row.updated_by_name ?? '' } : null,
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * Issue 38: sets whether a branch issues e-invoices and since when. From that day, paper numbers used there must fall
 * in an outage or be explained; the day itself is what the schema and the table's check require of a covered branch.
 */
export async function save(ctx: AppContext, actorId: number, branchId: number, input: EstablishmentInput): Promise<Establishment> {
  await ctx.db.transaction(async (tx) => {
    await requireBranch(tx, branchId);
    await repo.upsert(tx, branchId, input, actorId);
  });
  return get(ctx, branchId);
}
