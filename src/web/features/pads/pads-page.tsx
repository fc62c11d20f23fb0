import { Button, Collapse, Group, Text } from '@mantine/core';
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
import { SearchInput } from '../../components/search-input.tsx';
import { useRowSelection } from '../../lib/use-row-selection.ts';
import { useSession } from '../../lib/session.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { SEARCH_HINTS } from '../../lib/search-hints.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { useUrlModal } from '../../lib/use-url-modal.ts';
import { AddPadModal } from './add-pad-modal.tsx';
import { padQueries } from './api.ts';
import { EditPadModal } from './edit-pad-modal.tsx';
import { HolderFilter } from './holder-filter.tsx';
import { PrintLabelsMenu } from './print-labels-menu.tsx';
import { PadDetailsModal } from './pad-details-modal.tsx';

const padKey = (pad: Pad) => pad.id;

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
  const narrowed = Boolean(params.search || params.filters.route || (params.filters.holder && params.filters.holder !== 'all'));

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
            <PrintLabelsMenu picked={pickedIds} params={listParams} listed={narrowed ? (list.data?.total ?? null) : null} />
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
              <HolderFilter actor={session?.user} value={params.filters.holder ?? 'all'} onChange={(value) => setFilter('holder', value)} />
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
