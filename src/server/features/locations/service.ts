import type { Paginated } from '../../../shared/schemas/common.ts';
import type { Location, LocationsQuery } from '../../../shared/schemas/locations.ts';
import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { AppContext } from '../../context.ts';
import type { RowSource } from '../../lib/export.ts';
import { sqlState } from '../../db/client.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import * as repo from './repo.ts';

const NOT_FOUND = 'Location not found.';

/** The Locations screen's list: searched and paged in SQL. */
export async function list(ctx: AppContext, q: LocationsQuery): Promise<Paginated<Location>> {
  const { rows, total } = await repo.page(ctx.db, q);
  return paginated(rows, total, q.page, q.per_page);
}

/** Every location, by name, for the Branch form's select. */
export async function all(ctx: AppContext): Promise<Location[]> {
  return repo.all(ctx.db);
}

/** Adds a location under a name no other location has. */
export async function create(ctx: AppContext, input: { name: string }): Promise<Location> {
  if (await repo.nameTaken(ctx.db, input.name, null)) throw invalid('name', ADMIN_MSG.nameTaken);
  return repo.insert(ctx.db, input);
}

/** Renames a location; its branches follow. */
export async function update(ctx: AppContext, id: number, input: { name: string }): Promise<Location> {
  if (await repo.nameTaken(ctx.db, input.name, id)) throw invalid('name', ADMIN_MSG.nameTaken);
  const row = await repo.update(ctx.db, id, input);
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** Refused while branches stand at the location, so no branch loses its place. */
export async function remove(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.find(tx, id))) throw notFound(NOT_FOUND);
    const used = countPhrase([[await repo.branchCount(tx, id), 'branch', 'branches']]);
    if (used)
      throw conflict(
        `${used.text} ${used.plural ? 'are' : 'is'} at this location. Move ${used.plural ? 'them' : 'it'} to another location first.`,
      );
    try {
      await repo.remove(tx, id);
    } catch (error) {
      if (sqlState(error) === '23503') throw conflict('Branches are at this location. Move them to another location first.');
      throw error;
    }
  });
}

/** docs/design.md §10 Export: every location of the Locations list for this search, in batches. */
export function listSource(ctx: AppContext, q: LocationsQuery): RowSource<Location> {
  return (write) => repo.streamList(ctx.db, q, write);
}
