import { FORM_TYPES } from '../../../shared/lookups.ts';
import { Select, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { can } from '../../../shared/permissions.ts';
import { registeredSeriesInput, SERIES_ROLE_LABELS, type RegisteredSeries } from '../../../shared/schemas/registered-series.ts';
import { AppButton } from '../../components/app-button.tsx';
import { useSession } from '../../lib/session.ts';
import { SelectField, TextAreaField } from '../../components/form-fields.tsx';
import { CrudPage, type CrudScreen } from '../../components/crud-page.tsx';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { seriesApi, seriesCache } from './api.ts';
import { ChangeRoleModal } from './change-role-modal.tsx';

type Values = {
  route_id: string | null;
  branch_id: string | null;
  form_type: string | null;
  atp_number: string;
  atp_date: string;
  printer: string;
  delivery_date: string;
  series_from: string;
  series_to: string;
  remarks: string;
};

const formTypes = Object.entries(FORM_TYPES).map(([value, label]) => ({ value, label }));

/** docs/design.md §10 form registry (roles 1, 2, 8): what each Authority to Print covers, per establishment. */
export function RegisteredSeriesPage() {
  const routes = useQuery(lookupQueries.routes());
  const branches = useQuery(lookupQueries.branches());
  const user = useSession()?.user;
  const [changing, setChanging] = useState<RegisteredSeries | null>(null);
  const screen: CrudScreen<RegisteredSeries, Values> = {
    title: 'Registered series',
    noun: 'registered series',
    Noun: 'Registered Series',
    searchPlaceholder: 'Search by ATP number, route, TIN or establishment',
    addLabel: 'Register Series',
    emptyText: 'No registered series yet.',
    columns: [
      { key: 'route', header: 'Route', render: (r) => `${r.route.company} – ${r.route.name}` },
      { key: 'branch', header: 'Establishment', render: (r) => r.branch.name },
      { key: 'form_type', header: 'Form type', render: (r) => FORM_TYPES[r.form_type] },
      { key: 'atp', header: 'ATP', render: (r) => `${r.atp_number} (${r.atp_date})` },
      { key: 'series', header: 'Series', render: (r) => r.series_number },
      { key: 'pads', header: 'Pads', render: (r) => r.pads },
      { key: 'role', header: 'Role', render: (r) => SERIES_ROLE_LABELS[r.role] },
    ],
    cache: seriesCache,
    fetchPage: seriesApi.page,
    form: {
      schema: () => registeredSeriesInput,
      values: (row) => ({
        route_id: row ? String(row.route.id) : null,
        branch_id: row ? String(row.branch.id) : null,
        form_type: row?.form_type ?? 'invoice',
        atp_number: row?.atp_number ?? '',
        atp_date: row?.atp_date ?? '',
        printer: row?.printer ?? '',
        delivery_date: row?.delivery_date ?? '',
        series_from: row ? String(row.series_from) : '',
        series_to: row ? String(row.series_to) : '',
        remarks: row?.remarks ?? '',
      }),
      fields: (form) => (
        <>
          <SelectField
            label="Route"
            withAsterisk
            options={routes.data?.map((r) => ({ id: r.id, name: `${r.name} (${r.tin})` }))}
            {...form.getInputProps('route_id')}
          />
          <SelectField label="Establishment" withAsterisk options={branches.data} {...form.getInputProps('branch_id')} />
          <Select label="Form type" withAsterisk data={formTypes} {...form.getInputProps('form_type')} />
          <TextInput label="ATP Number" withAsterisk {...form.getInputProps('atp_number')} />
          <TextInput label="ATP Date" type="date" withAsterisk {...form.getInputProps('atp_date')} />
          <TextInput label="Printer" withAsterisk {...form.getInputProps('printer')} />
          <TextInput label="Delivery Date" type="date" {...form.getInputProps('delivery_date')} />
          <TextInput label="Series From" withAsterisk inputMode="numeric" {...form.getInputProps('series_from')} />
          <TextInput label="Series To" withAsterisk inputMode="numeric" {...form.getInputProps('series_to')} />
          <TextAreaField label="Remarks" {...form.getInputProps('remarks')} />
        </>
      ),
    },
    details: (row) => [
      { label: 'Route', value: `${row.route.company} – ${row.route.name} (TIN ${row.route.tin})` },
      { label: 'Establishment', value: row.branch.name },
      { label: 'Form type', value: FORM_TYPES[row.form_type] },
      { label: 'ATP', value: `${row.atp_number}, ${row.atp_date}` },
      { label: 'Printer', value: `${row.printer}${row.delivery_date ? `, delivered ${row.delivery_date}` : ''}` },
      { label: 'Series', value: row.series_number },
      { label: 'Pads inside', value: row.pads },
      { label: 'Role', value: SERIES_ROLE_LABELS[row.role] },
      { label: 'Remarks', value: row.remarks ?? '' },
    ],
    save: (values, row) => (row ? seriesApi.update(row.id, values) : seriesApi.create(values)),
    remove: () => Promise.reject(new Error('A registered series is corrected, never deleted.')),
    canDelete: () => false,
    /** Issue 38: the series' role after go-live, changed with a reason and kept in its history. */
    extraActions: (row) =>
      can(user, 'series.changeRole') ? (
        <AppButton
          size="compact-xs"
          variant="secondary"
          onClick={() => setChanging(row)}
          aria-label={`CHANGE ROLE ${row.atp_number} ${row.series_number}`}
        >
          CHANGE ROLE
        </AppButton>
      ) : null,
  };
  return (
    <>
      <CrudPage screen={screen} rowName={(r) => `${r.atp_number} ${r.series_number}`} />
      {changing ? <ChangeRoleModal series={changing} onClose={() => setChanging(null)} /> : null}
    </>
  );
}
