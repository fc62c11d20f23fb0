import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { Branch, BranchesQuery } from '../../../shared/schemas/branches.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import type { AppContext } from '../../context.ts';
import type { RowSource } from '../../lib/export.ts';
import type { Conn } from '../../db/client.ts';
import { sqlState } from '../../db/client.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import * as repo from './repo.ts';

const NOT_FOUND = 'Branch not found.';
type BranchValues = { company_id: number; name: string; location_id: number };

/** The Branches/Agencies screen's list: branch name search in SQL. */
export async function list(ctx: AppContext, q: BranchesQuery): Promise<Paginated<Branch>> {
  const { rows, total } = await repo.page(ctx.db, q);
  return paginated(rows, total, q.page, q.per_page);
}

/** Every branch with company and location, for the Branch selects (user form, turnover). */
export async function all(ctx: AppContext): Promise<Branch[]> {
  return repo.all(ctx.db);
}

async function checkInput(conn: Conn, input: BranchValues, id: number | null): Promise<void> {
  if (await repo.nameTaken(conn, input.name, id)) throw invalid('name', ADMIN_MSG.nameTaken);
  if (!(await repo.companyExists(conn, input.company_id))) throw invalid('company_id', ADMIN_MSG.selectedInvalid('Company'));
  if (!(await repo.locationExists(conn, input.location_id))) throw invalid('location_id', ADMIN_MSG.selectedInvalid('Location'));
}

/** Adds a branch of an existing company at an existing location, under a name no other branch has. */
export async function create(ctx: AppContext, input: BranchValues): Promise<Branch> {
  return ctx.db.transaction(async (tx) => {
    await checkInput(tx, input, null);
    const row = await repo.find(tx, await repo.insert(tx, input));
    if (!row) throw notFound(NOT_FOUND);
    return row;
  });
}

/** Changes a branch's company, name or location; its users and history follow. */
export async function update(ctx: AppContext, id: number, input: BranchValues): Promise<Branch> {
  return ctx.db.transaction(async (tx) => {
    await checkInput(tx, input, id);
    if (!(await repo.update(tx, id, input))) throw notFound(NOT_FOUND);
    const row = await repo.find(tx, id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  });
}

/** Refused for the head office and for branches that users, invoices or pads refer to. */
export async function remove(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.find(tx, id))) throw notFound(NOT_FOUND);
    if (id === ctx.config.headOfficeBranchId) {
      throw conflict('This branch is the head office, which receives every pad request, so it cannot be deleted. Edit the branch instead.');
    }
    const counts = await repo.usage(tx, id);
    const history = countPhrase([
      [counts.invoices, 'invoice', 'invoices'],
      [counts.pads, 'pad', 'pads'],
    ]);
    if (history) {
      const all = countPhrase([
        [counts.users, 'user', 'users'],
        [counts.invoices, 'invoice', 'invoices'],
        [counts.pads, 'pad', 'pads'],
      ]);
      throw conflict(
        `${all?.text ?? history.text} ${all?.plural ? 'refer' : 'refers'} to this branch, so it cannot be deleted. Edit the branch instead.`,
      );
    }
    const members = countPhrase([[counts.users, 'user', 'users']]);
    if (members) {
      throw conflict(
        `${members.text} ${members.plural ? 'belong' : 'belongs'} to this branch. Move ${members.plural ? 'them' : 'that user'} to another branch first.`,
      );
    }
    try {
      await repo.remove(tx, id);
    } catch (error) {
      if (sqlState(error) === '23503')
        throw conflict('Users, invoices or pads refer to this branch, so it cannot be deleted. Edit the branch instead.');
      throw error;
    }
  });
}

/** docs/design.md §10 Export: every branch of the Branches list for this search, in batches. */
export function listSource(ctx: AppContext, q: BranchesQuery): RowSource<Branch> {
  return (write) => repo.streamList(ctx.db, q, write);
}
