import { SYSTEM_ROLE_MAX_ID } from '../../../shared/lookups.ts';
import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { Paginated } from '../../../shared/schemas/common.ts';
import type { Role } from '../../../shared/schemas/roles.ts';
import type { AppContext } from '../../context.ts';
import { sqlState } from '../../db/client.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { conflict, invalid, notFound } from '../../lib/errors.ts';
import { paginated } from '../../lib/pagination.ts';
import * as repo from './repo.ts';

const NOT_FOUND = 'Role not found.';

/** The Roles screen's list: name search and pages in SQL. */
export async function list(ctx: AppContext, q: Parameters<typeof repo.page>[1]): Promise<Paginated<Role>> {
  const { rows, total } = await repo.page(ctx.db, q);
  return paginated(rows, total, q.page, q.per_page);
}

/** Every role, for the Role selects of the user form and the Users filter. */
export async function all(ctx: AppContext): Promise<Role[]> {
  return repo.all(ctx.db);
}

/** Adds a role without system rules: its users see Profile, Custodies and Logout only (docs/design.md §5). */
export async function create(ctx: AppContext, name: string): Promise<Role> {
  if (await repo.nameTaken(ctx.db, name, null)) throw invalid('name', ADMIN_MSG.nameTaken);
  return repo.insert(ctx.db, name);
}

/** Renames a role; system roles keep their id and so their rules. */
export async function rename(ctx: AppContext, id: number, name: string): Promise<Role> {
  if (await repo.nameTaken(ctx.db, name, id)) throw invalid('name', ADMIN_MSG.nameTaken);
  const row = await repo.rename(ctx.db, id, name);
  if (!row) throw notFound(NOT_FOUND);
  return row;
}

/** Refused for the system roles 1–11 and for roles that users still have. */
export async function remove(ctx: AppContext, id: number): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const role = await repo.find(tx, id);
    if (!role) throw notFound(NOT_FOUND);
    if (id <= SYSTEM_ROLE_MAX_ID) {
      throw conflict(`${role.name} is a system role that the access rules depend on, so it cannot be deleted. Rename it instead.`);
    }
    const used = countPhrase([[await repo.userCount(tx, id), 'user', 'users']]);
    if (used)
      throw conflict(
        `${used.text} ${used.plural ? 'have' : 'has'} this role. Give ${used.plural ? 'them' : 'that user'} another role first.`,
      );
    try {
      await repo.remove(tx, id);
    } catch (error) {
      if (sqlState(error) === '23503') throw conflict('Users have this role. Give them another role first.');
      throw error;
    }
  });
}
