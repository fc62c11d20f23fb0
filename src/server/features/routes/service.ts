import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import type { Route, RoutesQuery } from '../../../shared/schemas/routes.ts';
import type { AppContext } from '../../context.ts';
import type { RowSource } from '../../lib/export.ts';
import type { Conn } from '../../db/client.ts';
import { sqlState } from '../../db/client.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import * as repo from './repo.ts';

const NOT_FOUND = 'Route not found.';
type RouteValues = { company_id: number; name: string; tin: string };

/** The Routes screen's list: search on route name or TIN in SQL. */
export async function list(ctx: AppContext, q: RoutesQuery): Promise<Paginated<Route>> {
  const { rows, total } = await repo.page(ctx.db, q);
  return paginated(rows, total, q.page, q.per_page);
}

/** Every route with its company, for the Route selects of pads and invoices. */
export async function all(ctx: AppContext): Promise<Route[]> {
  return repo.all(ctx.db);
}

async function checkInput(conn: Conn, input: RouteValues, id: number | null): Promise<void> {
  if (!(await repo.companyExists(conn, input.company_id))) throw invalid('company_id', ADMIN_MSG.selectedInvalid('Company'));
  if (await repo.nameTaken(conn, input.company_id, input.name, id)) throw invalid('name', ADMIN_MSG.routeNameTaken);
}

/** Adds a route of an existing company; a company's route names are unique. */
export async function create(ctx: AppContext, input: RouteValues): Promise<Route> {
  return ctx.db.transaction(async (tx) => {
    await checkInput(tx, input, null);
    const row = await repo.find(tx, await repo.insert(tx, input));
    if (!row) throw notFound(NOT_FOUND);
    return row;
  });
}

/** Changes a route's company, name or TIN; its pads keep pointing at it. */
export async function update(ctx: AppContext, id: number, input: RouteValues): Promise<Route> {
  return ctx.db.transaction(async (tx) => {
    await checkInput(tx, input, id);
    if (!(await repo.update(tx, id, input))) throw notFound(NOT_FOUND);
    const row = await repo.find(tx, id);
    if (!row) throw notFound(NOT_FOUND);
    return row;
  });
}

/** Refused once pads or invoices use the route: receipt history must keep its route. */
export async function remove(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.find(tx, id))) throw notFound(NOT_FOUND);
    const counts = await repo.usage(tx, id);
    const used = countPhrase([
      [counts.pads, 'pad', 'pads'],
      [counts.invoices, 'invoice', 'invoices'],
    ]);
    if (used) throw conflict(`${used.text} ${used.plural ? 'use' : 'uses'} this route, so it cannot be deleted. Edit the route instead.`);
    try {
      await repo.remove(tx, id);
    } catch (error) {
      if (sqlState(error) === '23503') throw conflict('Pads or invoices use this route, so it cannot be deleted. Edit the route instead.');
      throw error;
    }
  });
}

/** docs/design.md §10 Export: every route of the Routes list for this search, in batches. */
export function listSource(ctx: AppContext, q: RoutesQuery): RowSource<Route> {
  return (write) => repo.streamList(ctx.db, q, write);
}
