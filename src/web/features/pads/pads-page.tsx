import { Button, Collapse, Group, Menu, Select, Text } from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { routeLabel } from '../../../shared/format.ts';
import { MSG } from '../../../shared/messages.ts';
import { can } from '../../../shared/permissions.ts';
import { PAD_LIST_COLUMNS } from '../../../shared/list-columns.ts';
import { PAD_HOLDER_DEFAULT_ROLES, type Pad } from '../../../shared/schemas/pads.ts';
import { AppButton } from '../../components/app-button.tsx';
import type { Column, RowSelection, TableSort } from '../../components/data-table.tsx';
import { ListBody } from '../../components/list-body.tsx';
import { ExportButton } from '../../components/export-button.tsx';
import { FilterToggle } from '../../components/filter-toggle.tsx';
import { tableColumns } from '../../components/list-columns.tsx';
import { SelectField } from '../../components/form-fields.tsx';
import { ListCard } from '../../components/list-card.tsx';
import { PadCards } from '../../components/pad-cards.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { notify } from '../../components/notify.ts';
import { SearchInput } from '../../components/search-input.tsx';
import { api, errorMessage, openBlob } from '../../lib/api.ts';
import { useRowSelection } from '../../lib/use-row-selection.ts';
import { useSession } from '../../lib/session.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { SEARCH_HINTS } from '../../lib/search-hints.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { useUrlModal } from '../../lib/use-url-modal.ts';
import { AddPadModal } from './add-pad-modal.tsx';
import { padQueries } from './api.ts';
import { EditPadModal } from './edit-pad-modal.tsx';
import { PadDetailsModal } from './pad-details-modal.tsx';

const padKey = (pad: Pad) => pad.id;

/** docs/design.md §9 labels: the label sheet PDF of the chosen pads, opened in a new tab to print. */
async function printLabels(ids: number[], size: 'a4' | '4x6') {
  try {
    openBlob(await api.file('pad-labels', { ids: ids.join(','), size }), 'pad-labels.pdf', false);
  } catch (error) {
    notify.error(errorMessage(error));
  }
}

const HOLDER_OPTIONS = [
  { value: 'all', label: 'All pads' },
  { value: 'mine', label: 'My pads' },
  { value: 'branch', label: 'My branch' },
];

/**
 * docs/spec.md §2 Inventories: pads with search, a Route filter, Add Pad for roles 1–3, VIEW for all and EDIT for roles 3, 5–8;
 * each pad with its next number (docs/design.md §9). `padActions` are the buttons other features add to Pad Details.
 */
export function PadsPage({ padActions }: { padActions?: (pad: Pad) => ReactNode }) {
  const session = useSession();
  const defaultHolder = session?.user.role_id != null && PAD_HOLDER_DEFAULT_ROLES.includes(session.user.role_id) ? 'mine' : 'all';
  const initialFilters = useMemo<{ route: string | null; holder: string | null }>(
    () => ({ route: null, holder: defaultHolder }),
    [defaultHolder],
  );
  const { params, setSearch, setFilter, clearFilters, setPage, setPerPage, setSort, fitPage } = useListParams(initialFilters);
  const listParams = { ...params, route: params.filters.route, holder: params.filters.holder };
  const list = useQuery(padQueries.list(listParams));
  const routes = useQuery(lookupQueries.routes());
  const [filterOpen, setFilterOpen] = useState(false);
  const adding = useUrlModal('add');
  const viewing = useUrlModal('pad');
  const listed = list.data?.data.find((pad) => pad.id === viewing.id);
  const linked = useQuery({ ...padQueries.one(viewing.id ?? 0), enabled: viewing.id !== null && !listed });
  const viewed = viewing.id === null ? null : (listed ?? linked.data ?? null);
  const sort: TableSort = { by: params.sort, order: params.order, onChange: setSort };
  const editingId = useUrlModal('edit');
  const editing = list.data?.data.find((pad) => pad.id === editingId.id) ?? null;
  const canAdd = can(session?.user, 'pad.create');
  const canEdit = (pad: Pad) => can(session?.user, 'pad.edit') && can(session?.user, 'pad.editThis', pad);
  const picked = useRowSelection(padKey);
  const selection: RowSelection<Pad> = {
    isSelected: picked.isSelected,
    onChange: picked.change,
    label: (pad) => `Select pad ${pad.number} ${pad.series_number}`,
    allLabel: 'Select all pads on this page',
  };
  const pickedIds = [...picked.selected.keys()];

  const actions = (pad: Pad) => (
    <Group gap={4} wrap="nowrap">
      <AppButton
        size="compact-xs"
        variant="secondary"
        onClick={() => viewing.open(pad.id)}
        aria-label={`VIEW pad ${pad.number} ${pad.series_number}`}
      >
        VIEW
      </AppButton>
      {canEdit(pad) ? (
        <AppButton
          size="compact-xs"
          variant="secondary"
          onClick={() => editingId.open(pad.id)}
          aria-label={`EDIT pad ${pad.number} ${pad.series_number}`}
        >
          EDIT
        </AppButton>
      ) : null}
    </Group>
  );

  const listColumns = tableColumns(
    PAD_LIST_COLUMNS.filter((column) => column.key !== 'next'),
    {
      route: { wrap: true },
      series: {
        render: (pad) => (
          <>
            <Text inherit style={{ whiteSpace: 'nowrap' }}>
              {pad.series_number}
            </Text>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              Next: {pad.next_number ?? 'none left'}
            </Text>
          </>
        ),
      },
      held_by: { wrap: true, minWidth: 140, sortable: false },
      remarks: { wrap: true, minWidth: 120, sortable: false },
    },
  );
  const columns: Column<Pad>[] = [...listColumns, { key: 'actions', header: 'Actions', render: actions }];

  return (
    <>
      <PageHeader title="Inventories" />
      <ListCard
        query={list}
        toolbar={
          <>
            <SearchInput placeholder="Search by pad name" onSearch={setSearch} initial={params.search} hint={SEARCH_HINTS.pads} />
            <FilterToggle open={filterOpen} onToggle={() => setFilterOpen((open) => !open)} />
            <ExportButton fileBase="Inventories" download={(format) => padQueries.file(listParams, format)} />
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <AppButton variant="secondary" leftSection={<IconPrinter size={16} />} disabled={pickedIds.length === 0}>
                  Print labels{pickedIds.length > 0 ? ` (${pickedIds.length})` : ''}
                </AppButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item onClick={() => void printLabels(pickedIds, 'a4')}>A4 sheet</Menu.Item>
                <Menu.Item onClick={() => void printLabels(pickedIds, '4x6')}>4×6 in labels</Menu.Item>
              </Menu.Dropdown>
            </Menu>
            {can(session?.user, 'count.use') ? (
              <Button variant="default" component={Link} to="/counts">
                Counts
              </Button>
            ) : null}
            {canAdd ? (
              <AppButton onClick={() => adding.open(1)} ml={{ sm: 'auto' }}>
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
              <Select
                label="Held by"
                data={HOLDER_OPTIONS}
                value={params.filters.holder ?? 'all'}
                onChange={(value) => setFilter('holder', value ?? 'all')}
                allowDeselect={false}
                comboboxProps={{ withinPortal: true }}
                w={{ base: '100%', xs: 200 }}
              />
              <AppButton variant="secondary" onClick={clearFilters}>
                Clear Filter
              </AppButton>
            </Group>
          </Collapse>
        }
      >
        <ListBody
          query={list}
          paging={{ page: params.page, perPage: params.perPage, setPage, setPerPage, fitPage }}
          cards={(rows, loading) => (
            <PadCards rows={rows} loading={loading} emptyText={MSG.noPads} label="Pads" actions={actions} selection={selection} />
          )}
          table={{ columns, rowKey: (pad) => pad.id, emptyText: MSG.noPads, sort, selection }}
        />
      </ListCard>

      <AddPadModal opened={adding.id !== null} onClose={adding.close} />
      <PadDetailsModal
        pad={viewed}
        updatedAt={listed ? list.dataUpdatedAt : linked.dataUpdatedAt}
        onClose={viewing.close}
        actions={padActions}
      />
      <EditPadModal pad={editing} onClose={editingId.close} />
    </>
  );
}
