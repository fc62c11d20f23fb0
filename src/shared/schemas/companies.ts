import { z } from 'zod';
import { listQuery, requiredText, sortParams, exportParam } from './common.ts';
import { optionalLookupId, refLookupId } from './fields.ts';
import { namedRef } from './responses.ts';

export const companySchema = z.object({
  name: requiredText('Name'),
  company_type_id: refLookupId('Company Type'),
});
export type CompanyInput = z.input<typeof companySchema>;

/** The Companies columns the list sorts by. */
export const COMPANY_SORTS = ['name', 'type'] as const;
export const companiesQuery = listQuery.extend({ ...exportParam, ...sortParams(COMPANY_SORTS), company_type_id: optionalLookupId });
export type CompaniesQuery = z.infer<typeof companiesQuery>;

export const companyRow = z
  .object({ id: z.number(), name: z.string(), company_type_id: z.number(), company_type: namedRef })
  .meta({ id: 'Company' });
export type Company = z.infer<typeof companyRow>;
