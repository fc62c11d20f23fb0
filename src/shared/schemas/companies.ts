import { z } from 'zod';
import { listQuery, requiredText, type NamedRef } from './common.ts';
import { filterId, refId } from './admin-common.ts';

export const companySchema = z.object({
  name: requiredText('Name'),
  company_type_id: refId('Company Type'),
});
export type CompanyInput = z.input<typeof companySchema>;

export const companiesQuery = listQuery.extend({ company_type_id: filterId });
export type CompaniesQuery = z.infer<typeof companiesQuery>;

export interface Company {
  id: number;
  name: string;
  company_type_id: number;
  company_type: NamedRef;
}
