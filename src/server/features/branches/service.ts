import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { Branch, BranchesQuery } from '../../../shared/schemas/branches.ts';
import type { Conn } from '../../db/client.ts';
import { companies, locations } from '../../db/schema/reference.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { invalid } from '../../lib/errors.ts';
import { referenceService, rowExists } from '../../lib/reference-data.ts';
import * as repo from './repo.ts';

type BranchValues = { company_id: number; name: string; location_id: number };

/** Why a branch cannot be deleted: invoices or pads keep it in their history, or users still belong to it. */
async function usageRefusal(conn: Conn, id: number): Promise<string | null> {
  const counts = await repo.usage(conn, id);
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
    return `${all?.text ?? history.text} ${all?.plural ? 'refer' : 'refers'} to this branch, so it cannot be deleted. Edit the branch instead.`;
  }
  const members = countPhrase([[counts.users, 'user', 'users']]);
  if (!members) return null;
  return `${members.text} ${members.plural ? 'belong' : 'belongs'} to this branch. Move ${members.plural ? 'them' : 'that user'} to another branch first.`;
}

/**
 * The Branches/Agencies screen (branch name search in SQL) and the Branch selects (user form, turnover). A branch
 * belongs to an existing company at an existing location under a name no other branch has; its users and history
 * follow edits. The head office, which receives every pad request, and branches that users, invoices or pads refer
 * to cannot be deleted.
 */
export const { list, all, create, update, remove, listSource } = referenceService<Branch, BranchesQuery, BranchValues>(repo, {
  notFound: 'Branch not found.',
  async check(conn, input, id) {
    if (await repo.nameTaken(conn, input.name, id)) throw invalid('name', ADMIN_MSG.nameTaken);
    if (!(await rowExists(conn, companies.id, input.company_id))) throw invalid('company_id', ADMIN_MSG.selectedInvalid('Company'));
    if (!(await rowExists(conn, locations.id, input.location_id))) throw invalid('location_id', ADMIN_MSG.selectedInvalid('Location'));
  },
  async refusal(conn, row, ctx) {
    if (row.id === ctx.config.headOfficeBranchId) {
      return 'This branch is the head office, which receives every pad request, so it cannot be deleted. Edit the branch instead.';
    }
    return usageRefusal(conn, row.id);
  },
  referenced: 'Users, invoices or pads refer to this branch, so it cannot be deleted. Edit the branch instead.',
});
