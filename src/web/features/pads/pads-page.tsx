import { Collapse, Group, Text } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { routeLabel } from '../../../shared/format.ts';
import { MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { SelectField } from '../../components/form-fields.tsx';
import { ListCard } from '../../components/list-card.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { useSession } from '../../lib/session.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { AddPadModal } from './add-pad-modal.tsx';
import { padQueries } from './api.ts';
import { EditPadModal } from './edit-pad-modal.tsx';
import { PadDetailsModal } from './pad-details-modal.tsx';

const initialFilters = { route: null as string | null };

/** Spec §2 Inventories: pads with search, a Route filter, Add Pad for roles 1–3, VIEW for all and EDIT for roles 3, 5–8. */
export function PadsPage() {
  const session = useSession();
  const { params, setSearch, setFilter, clearFilters, setPage } = useListParams(initialFilters);
  const list = useQuery(padQueries.list({ page: params.page, search: params.search, route: params.filters.route }));
  const routes = useQuery(lookupQueries.routes());
  const [filterOpen, setFilterOpen] = useState(false);
  const [adding, setAdding] = useState(false);
  const [viewing, setViewing] = useState<Pad | null>(null);
  const [editing, setEditing] = useState<Pad | null>(null);
  const canAdd = can(session?.user, 'pad.create');
  const canEdit = (pad: Pad) => can(session?.user, 'pad.edit') && can(session?.user, 'pad.editThis', pad);

  const columns: Column<Pad>[] = [
    { key: 'route', header: 'Route', wrap: true, render: (pad) => routeLabel(pad.route) },
    { key: 'number', header: 'Pad Number', render: (pad) => pad.number },
    {
      key: 'series',
      header: 'Series Number',
      render: (pad) => (
        <Text inherit style={{ whiteSpace: 'nowrap' }}>
          {pad.series_number}
        </Text>
      ),
    },
    { key: 'pad_status', header: 'Pad Status', render: (pad) => pad.pad_status.name },
    { key: 'issuance_status', header: 'Issuance Status', render: (pad) => pad.issuance_status.name },
    { key: 'remarks', header: 'Remarks', wrap: true, render: (pad) => pad.remarks ?? '' },
    {
      key: 'actions',
      header: 'Actions',
      render: (pad) => (
        <Group gap={4} wrap="nowrap">
          <AppButton size="compact-xs" variant="secondary" onClick={() => setViewing(pad)} aria-label={`VIEW pad ${pad.number} ${pad.series_number}`}>
            VIEW
          </AppButton>
          {canEdit(pad) ? (
            <AppButton size="compact-xs" variant="secondary" onClick={() => setEditing(pad)} aria-label={`EDIT pad ${pad.number} ${pad.series_number}`}>
              EDIT
            </AppButton>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader title="Inventories" />
      <ListCard
        toolbar={
          <>
            <SearchInput placeholder="Search by pad name" onSearch={setSearch} />
            <AppButton variant="secondary" leftSection={<IconFilter size={16} />} aria-expanded={filterOpen} onClick={() => setFilterOpen((open) => !open)}>
              Filter
            </AppButton>
            {canAdd ? (
              <AppButton onClick={() => setAdding(true)} ml={{ sm: 'auto' }}>
                Add Pad
              </AppButton>
            ) : null}
          </>
        }
        filters={
          <Collapse expanded={filterOpen}>
            <Group gap="sm" align="flex-end" wrap="wrap">
              <SelectField
                label="Route"
                placeholder="All"
                options={routes.data?.map((route) => ({ id: route.id, name: routeLabel(route) }))}
                value={params.filters.route}
                onChange={(value) => setFilter('route', value)}
                w={{ base: '100%', xs: 360 }}
              />
              <AppButton variant="secondary" onClick={clearFilters}>
                Clear Filter
              </AppButton>
            </Group>
          </Collapse>
        }
      >
        <DataTable columns={columns} rows={list.data?.data} rowKey={(pad) => pad.id} loading={list.isLoading} emptyText={MSG.noPads} />
        <Pager page={params.page} lastPage={list.data?.last_page ?? 1} onChange={setPage} />
      </ListCard>

      <AddPadModal opened={adding} onClose={() => setAdding(false)} />
      <PadDetailsModal pad={viewing} onClose={() => setViewing(null)} />
      <EditPadModal pad={editing} onClose={() => setEditing(null)} />
    </>
  );
}
