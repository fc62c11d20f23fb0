import { TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ADMIN_MSG } from '../../../shared/messages.ts';
import { branchSchema, type Branch } from '../../../shared/schemas/branches.ts';
import { SelectField } from '../../components/form-fields.tsx';
import { BRANCH_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import { tableColumns } from '../../components/list-columns.tsx';
import { CrudPage, type CrudScreen } from '../../components/crud-page.tsx';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { AppButton } from '../../components/app-button.tsx';
import { EInvoicingModal } from '../../components/e-invoicing-modal.tsx';
import { branchApi, branchCache } from './api.ts';

type Values = { company_id: string | null; name: string; location_id: string | null };

/** docs/spec.md §2 Branches/Agencies (/branches, roles 1 and 2). */
export function BranchesPage() {
  const companies = useQuery(lookupQueries.companies());
  const locations = useQuery(lookupQueries.locations());
  const [eInvoicing, setEInvoicing] = useState<Branch | null>(null);
  const screen: CrudScreen<Branch, Values> = {
    title: 'Branches/Agencies',
    Noun: 'Branch',
    searchPlaceholder: 'Search by branch name',
    emptyText: ADMIN_MSG.noBranches,
    columns: tableColumns(BRANCH_LIST_COLUMNS),
    exportFile: {
      fileBase: 'Branches',
      download: branchApi.file,
    },
    cache: branchCache,
    fetchPage: branchApi.page,
    form: {
      schema: () => branchSchema,
      values: (row) => ({
        company_id: row ? String(row.company_id) : null,
        name: row?.name ?? '',
        location_id: row ? String(row.location_id) : null,
      }),
      fields: (form) => (
        <>
          <SelectField label="Company" withAsterisk options={companies.data} {...form.getInputProps('company_id')} />
          <TextInput label="Name" withAsterisk {...form.getInputProps('name')} />
          <SelectField label="Location" withAsterisk options={locations.data} {...form.getInputProps('location_id')} />
        </>
      ),
    },
    details: (row) => [
      { label: 'Company', value: row.company.name },
      { label: 'Name', value: row.name },
      { label: 'Location', value: row.location.name },
    ],
    save: (values, row) => (row ? branchApi.update(row.id, values) : branchApi.create(values)),
    remove: (row) => branchApi.remove(row.id),
    /** Issue 38: the branch as a tax establishment, edited by Admin and Accounting, read by the rest. */
    extraActions: (row) => (
      <AppButton size="compact-xs" variant="secondary" onClick={() => setEInvoicing(row)} aria-label={`E-INVOICING ${row.name}`}>
        E-INVOICING
      </AppButton>
    ),
  };
  return (
    <>
      <CrudPage screen={screen} rowName={(r) => r.name} />
      <EInvoicingModal branch={eInvoicing} onClose={() => setEInvoicing(null)} />
    </>
  );
}
