import { Group, Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AppButton } from '../../components/app-button.tsx';
import { DateField } from '../../components/form-fields.tsx';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import type { InvoiceFilters } from './api.ts';

/** The Transactions filter fields, loaded the first time Filter opens them; the type and status lists are fetched then too. */
export function InvoiceFilterFields({
  filters,
  setFilter,
  clearFilters,
}: {
  filters: InvoiceFilters;
  setFilter: <K extends keyof InvoiceFilters>(key: K, value: InvoiceFilters[K]) => void;
  clearFilters: () => void;
}) {
  const types = useQuery(lookupQueries.invoiceTypes());
  const statuses = useQuery(lookupQueries.invoiceStatuses());
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <Select
        label="Invoice Type"
        placeholder="All types"
        clearable
        data={(types.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
        value={filters.invoiceType}
        onChange={(value) => setFilter('invoiceType', value)}
        w={{ base: '100%', xs: 180 }}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        label="Invoice Status"
        placeholder="All statuses"
        clearable
        data={(statuses.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
        value={filters.invoiceStatus}
        onChange={(value) => setFilter('invoiceStatus', value)}
        w={{ base: '100%', xs: 180 }}
        comboboxProps={{ withinPortal: true }}
      />
      <DateField
        label="Start Date"
        placeholder="YYYY-MM-DD"
        value={filters.startDate}
        maxDate={filters.endDate ?? undefined}
        onChange={(value) => setFilter('startDate', value)}
        w={{ base: '100%', xs: 160 }}
      />
      <DateField
        label="End Date"
        placeholder="YYYY-MM-DD"
        value={filters.endDate}
        minDate={filters.startDate ?? undefined}
        onChange={(value) => setFilter('endDate', value)}
        w={{ base: '100%', xs: 160 }}
      />
      <AppButton variant="secondary" onClick={clearFilters}>
        Clear Filter
      </AppButton>
    </Group>
  );
}
