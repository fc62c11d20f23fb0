import { ADMIN_MSG } from '../../../shared/messages.ts';
import type { CompaniesQuery, Company } from '../../../shared/schemas/companies.ts';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type { AppContext } from '../../context.ts';
import { countPhrase } from '../../lib/count-phrase.ts';
import { invalid } from '../../lib/errors.ts';
import { referenceService } from '../../lib/reference-data.ts';
import * as repo from './repo.ts';

type CompanyValues = { name: string; company_type_id: number };

/**
 * The Companies screen (name search and Company Type filter in SQL) and the Route and Branch forms' selects. A company
 * has an existing company type and a name no other company has; its routes and branches follow a rename or a change
 * of type, and while any belong to it the company cannot be deleted, so none of them is orphaned.
 */
export const { list, all, create, update, remove, listSource } = referenceService<Company, CompaniesQuery, CompanyValues>(repo, {
  notFound: 'Company not found.',
  async check(conn, input, id) {
    if (await repo.nameTaken(conn, input.name, id)) throw invalid('name', ADMIN_MSG.nameTaken);
    if (!(await repo.companyTypeExists(conn, input.company_type_id)))
      throw invalid('company_type_id', ADMIN_MSG.selectedInvalid('Company Type'));
  },
  async refusal(conn, row) {
    const counts = await repo.usage(conn, row.id);
    const used = countPhrase([
      [counts.routes, 'route', 'routes'],
      [counts.branches, 'branch', 'branches'],
    ]);
    if (!used) return null;
    const them = used.plural ? 'them' : 'it';
    return `${used.text} ${used.plural ? 'belong' : 'belongs'} to this company. Move ${them} to another company or delete ${them} first.`;
  },
  referenced: 'Routes or branches belong to this company. Move or delete them first.',
});

/** The Company Type select's options (seeded lookup). */
export async function companyTypes(ctx: AppContext): Promise<NamedRef[]> {
  return repo.companyTypeList(ctx.db);
}
