import { TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ADMIN_MSG } from '../../../shared/messages.ts';
import { companySchema, type Company } from '../../../shared/schemas/companies.ts';
import { SelectField } from '../../components/form-fields.tsx';
import { COMPANY_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import { tableColumns } from '../../components/list-columns.tsx';
import { CrudPage, type CrudScreen } from '../../components/crud-page.tsx';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { companyApi, companyCache } from './api.ts';

type Values = { name: string; company_type_id: string | null };

/** docs/spec.md §2 Companies (/companies, roles 1 and 2). */
export function CompaniesPage() {
  const types = useQuery(lookupQueries.companyTypes());
  const screen: CrudScreen<Company, Values> = {
    title: 'Companies',
    Noun: 'Company',
    searchPlaceholder: 'Search by company name',
    emptyText: ADMIN_MSG.noCompanies,
    columns: tableColumns(COMPANY_LIST_COLUMNS),
    exportFile: {
      fileBase: 'Companies',
      download: companyApi.file,
    },
    cache: companyCache,
    fetchPage: companyApi.page,
    filter: { label: 'Company Type', options: types.data },
    form: {
      schema: () => companySchema,
      values: (row) => ({ name: row?.name ?? '', company_type_id: row ? String(row.company_type_id) : null }),
      fields: (form) => (
        <>
          <TextInput label="Name" withAsterisk data-autofocus {...form.getInputProps('name')} />
          <SelectField label="Company Type" withAsterisk options={types.data} {...form.getInputProps('company_type_id')} />
        </>
      ),
    },
    details: (row) => [
      { label: 'Name', value: row.name },
      { label: 'Company Type', value: row.company_type.name },
    ],
    save: (values, row) => (row ? companyApi.update(row.id, values) : companyApi.create(values)),
    remove: (row) => companyApi.remove(row.id),
  };
  return <CrudPage screen={screen} rowName={(r) => r.name} />;
}
