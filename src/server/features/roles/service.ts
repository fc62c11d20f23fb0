import { SYSTEM_ROLE_MAX_ID } from '../../../shared/lookups.ts';
import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { Role, RolesPageQuery } from '../../../shared/schemas/roles.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { invalid } from '../../lib/errors.ts';
import { referenceService } from '../../lib/reference-data.ts';
import * as repo from './repo.ts';

/**
 * The Roles screen (name search and pages in SQL) and the Role selects of the user form and the Users filter. A new
 * role has no system rules: its users see Profile, Custodies and Logout only (docs/design.md §5). System roles 1–11
 * keep their id, and so their rules, through a rename and cannot be deleted; nor can a role that users still have.
 */
export const { list, all, create, update, remove } = referenceService<Role, RolesPageQuery, { name: string }>(repo, {
  notFound: 'Role not found.',
  async check(conn, input, id) {
    if (await repo.nameTaken(conn, input.name, id)) throw invalid('name', ADMIN_MSG.nameTaken);
  },
  async refusal(conn, role) {
    if (role.id <= SYSTEM_ROLE_MAX_ID) {
      return `${role.name} is a system role that the access rules depend on, so it cannot be deleted. Rename it instead.`;
    }
    const used = countPhrase([[await repo.userCount(conn, role.id), 'user', 'users']]);
    if (!used) return null;
    return `${used.text} ${used.plural ? 'have' : 'has'} this role. Give ${used.plural ? 'them' : 'that user'} another role first.`;
  },
  referenced: 'Users have this role. Give them another role first.',
});
