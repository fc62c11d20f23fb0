import { COMPANY_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import type { CompaniesQuery } from '../../../shared/schemas/companies.ts';
import { listExport } from '../../lib/export.ts';
import { listSource } from './service.ts';

/** The Companies list's export, as its admin screen's route and an export worker (src/server/exports/registry.ts) write it. */
export const companyListExport = listExport({
  kind: 'companies',
  fileBase: 'Companies',
  columns: () => COMPANY_LIST_COLUMNS,
  source: (ctx, _actor, query: CompaniesQuery) => listSource(ctx, query),
});
