import { INCIDENT_STATUSES } from '../../../shared/lookups.ts';
import { Card, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { IncidentRow } from '../../../shared/schemas/incidents.ts';
import { AppButton } from '../../components/app-button.tsx';
import { CardListPlaceholder } from '../../components/card-list-placeholder.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { LabelledValue } from '../../components/labelled-value.tsx';
import { ListCard } from '../../components/list-card.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { tableColumns } from '../../components/list-columns.tsx';
import { incidentListColumns } from '../../../shared/list-columns.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { useClock } from '../../lib/clock.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { useUrlModal } from '../../lib/use-url-modal.ts';
import { incidentListFile, incidentQueries, STATUS_LABELS } from './api.ts';
import { IncidentStatusBadge } from './incident-status-badge.tsx';
import { IncidentDetailsModal } from './incident-details-modal.tsx';
import { usePhone } from '../../lib/use-media.ts';

const initialFilters: { status: string | null } = { status: null };

/**
 * docs/design.md §9 Incidents (roles 1–9): every loss incident with its number, status, pads and numbers, searchable by incident
 * number or by a receipt number it covers; VIEW opens the details (`?incident=12`) with confirm, reject, the Notice of
 * Loss and found numbers.
 */
export function IncidentsPage() {
  const clock = useClock();
  const { params, setSearch, setFilter, setPage, setPerPage, fitPage } = useListParams(initialFilters);
  const list = useQuery(incidentQueries.list({ ...params, status: params.filters.status }));
  const viewing = useUrlModal('incident');
  const phone = usePhone();

  const view = (row: IncidentRow) => (
    <AppButton size="compact-sm" variant="secondary" onClick={() => viewing.open(row.id)} aria-label={`VIEW incident ${row.number}`}>
      VIEW
    </AppButton>
  );

  const columns: Column<IncidentRow>[] = [
    ...tableColumns(
      incidentListColumns(clock.zone),
      {
        status: { render: (row) => <IncidentStatusBadge status={row.status} /> },
        pads: { wrap: true, minWidth: 240 },
        place: { wrap: true, minWidth: 160 },
      },
      false,
    ),
    { key: 'actions', header: 'Actions', render: view },
  ];

  const rows = list.data?.data;
  return (
    <>
      <PageHeader title="Incidents" />
      <ListCard
        query={list}
        toolbar={
          <>
            <SearchInput placeholder="Search by incident or receipt number" onSearch={setSearch} initial={params.search} />
            <Select
              label="Status"
              placeholder="All"
              clearable
              data={INCIDENT_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status].label }))}
              value={params.filters.status}
              onChange={(value) => setFilter('status', value)}
              w={{ base: '100%', xs: 180 }}
              comboboxProps={{ withinPortal: true }}
            />
            <ExportButton
              fileBase="Incidents"
              download={(format) => incidentListFile({ ...params, status: params.filters.status }, format)}
            />
          </>
        }
      >
        {phone ? (
          rows && rows.length > 0 ? (
            <Stack gap="xs" role="list" aria-label="Incidents">
              {rows.map((row) => (
                <Card key={row.id} withBorder radius="md" padding="sm" role="listitem">
                  <Stack gap={4}>
                    <Text fw={700}>
                      {row.number} <IncidentStatusBadge status={row.status} />
                    </Text>
                    <LabelledValue label="Pads and Numbers" value={`${row.summary} (${row.qty})`} />
                    <LabelledValue label="Place" value={row.place} />
                    <LabelledValue label="Approx. Date and Time" value={clock.dayTime(row.occurred_at)} />
                    <LabelledValue label="Reported By" value={row.reported_by.full_name} />
                    <Stack align="flex-end">{view(row)}</Stack>
                  </Stack>
                </Card>
              ))}
            </Stack>
          ) : (
            <CardListPlaceholder loading={list.isLoading} empty={rows?.length === 0} emptyText="No incidents" />
          )
        ) : (
          <DataTable
            columns={columns}
            rows={rows}
            rowKey={(row) => row.id}
            loading={list.isLoading}
            emptyText="No incidents"
            label="Incidents"
          />
        )}
        <Pager
          page={params.page}
          lastPage={list.data?.last_page ?? 1}
          onChange={setPage}
          total={list.data?.total}
          perPage={params.perPage}
          onPerPageChange={setPerPage}
          onOutOfRange={fitPage}
        />
      </ListCard>
      <IncidentDetailsModal incidentId={viewing.id} onClose={viewing.close} />
    </>
  );
}
