import { TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ADMIN_MSG } from '../../../shared/messages.ts';
import { routeSchema, type Route } from '../../../shared/schemas/routes.ts';
import { SelectField } from '../../components/form-fields.tsx';
import { ROUTE_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import { tableColumns } from '../../components/list-columns.tsx';
import { CrudPage, type CrudScreen } from '../../components/crud-page.tsx';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { routeApi, routeCache } from './api.ts';

type Values = { company_id: string | null; name: string; tin: string };

/** docs/spec.md §2 Routes (/routes, roles 1 and 2). */
export function RoutesPage() {
  const companies = useQuery(lookupQueries.companies());
  const screen: CrudScreen<Route, Values> = {
    title: 'Routes',
    Noun: 'Route',
    searchPlaceholder: 'Search by route name or TIN',
    emptyText: ADMIN_MSG.noRoutes,
    columns: tableColumns(ROUTE_LIST_COLUMNS),
    exportFile: {
      fileBase: 'Routes',
      download: routeApi.file,
    },
    cache: routeCache,
    fetchPage: routeApi.page,
    form: {
      schema: () => routeSchema,
      values: (row) => ({ company_id: row ? String(row.company_id) : null, name: row?.name ?? '', tin: row?.tin ?? '' }),
      fields: (form) => (
        <>
          <SelectField label="Company" withAsterisk options={companies.data} {...form.getInputProps('company_id')} />
          <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
          <TextInput label="TIN" withAsterisk {...form.getInputProps('tin')} />
        </>
      ),
    },
    details: (row) => [
      { label: 'Company', value: row.company.name },
      { label: 'Name', value: row.name },
      { label: 'TIN', value: row.tin },
    ],
    save: (values, row) => (row ? routeApi.update(row.id, values) : routeApi.create(values)),
    remove: (row) => routeApi.remove(row.id),
  };
  return <CrudPage screen={screen} rowName={(r) => r.name} />;
}
