import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { CompaniesQuery, Company } from '../../../shared/schemas/companies.ts';
import type { NamedRef, Paginated } from '../../../shared/schemas/common.ts';
import type { AppContext } from '../../context.ts';
import type { RowSource } from '../../lib/export.ts';
import type { Conn } from '../../db/client.ts';
import { sqlState } from '../../db/client.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import * as repo from './repo.ts';

const NOT_FOUND = 'Company not found.';
type CompanyValues = { name: string; company_type_id: number };

/** The Companies screen's list: name search and Company Type filter in SQL. */
export async function list(ctx: AppContext, q: CompaniesQuery): Promise<Paginated<Company>> {
  const { rows, total } = await repo.page(ctx.db, q);
  return paginated(rows, total, q.page, q.per_page);
}

/** Every company, by name, for the Route and Branch forms' selects. */
export async function all(ctx: AppContext): Promise<Company[]> {
  return repo.all(ctx.db);
}

/** The Company Type select's options (seeded lookup). */
export async function companyTypes(ctx: AppContext): Promise<NamedRef[]> {
  return repo.companyTypeList(ctx.db);
}

async function checkInput(conn: Conn, input: CompanyValues, id: number | null): Promise<void> {
  if (await repo.nameTaken(conn, input.name, id)) throw invalid('name', ADMIN_MSG.nameTaken);
  if (!(await repo.companyTypeExists(conn, input.company_type_id)))
    throw invalid('company_type_id', ADMIN_MSG.selectedInvalid('Company Type'));
}

/** Adds a company of an existing company type, under a name no other company has. */
export async function create(ctx: AppContext, input: CompanyValues): Promise<Company> {
  return ctx.db.transaction(async (tx) => {
    await checkInput(tx, input, null);
    const id = await repo.insert(tx, input);
    const row = await repo.find(tx, id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  });
}

/** Renames a company or changes its type; its routes and branches follow. */
export async function update(ctx: AppContext, id: number, input: CompanyValues): Promise<Company> {
  return ctx.db.transaction(async (tx) => {
    await checkInput(tx, input, id);
    if (!(await repo.update(tx, id, input))) throw notFound(NOT_FOUND);
    const row = await repo.find(tx, id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  });
}

/** Refused while routes or branches belong to the company, so none of them is orphaned. */
export async function remove(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.find(tx, id))) throw notFound(NOT_FOUND);
    const counts = await repo.usage(tx, id);
    const used = countPhrase([
      [counts.routes, 'route', 'routes'],
      [counts.branches, 'branch', 'branches'],
    ]);
    if (used) {
      throw conflict(
        `${used.text} ${used.plural ? 'belong' : 'belongs'} to this company. Move ${used.plural ? 'them' : 'it'} to another company or delete ${used.plural ? 'them' : 'it'} first.`,
      );
    }
    try {
      await repo.remove(tx, id);
    } catch (error) {
      if (sqlState(error) === '23503') throw conflict('Routes or branches belong to this company. Move or delete them first.');
      throw error;
    }
  });
}

/** docs/design.md §10 Export: every company of the Companies list for this search, in batches. */
export function listSource(ctx: AppContext, q: CompaniesQuery): RowSource<Company> {
  return (write) => repo.streamList(ctx.db, q, write);
}
