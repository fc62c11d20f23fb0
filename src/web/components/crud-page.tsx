import { Card, Collapse, Group, Modal, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { confirmDelete, deleteFailed } from '../../shared/messages.ts';
import type { NamedRef, Paginated } from '../../shared/schemas/common.ts';
import type { ExportFormat } from '../../shared/schemas/common.ts';
import { AppButton } from './app-button.tsx';
import { ExportButton } from './export-button.tsx';
import { FilterToggle } from './filter-toggle.tsx';
import { confirmAction } from './confirm.ts';
import { DetailValue } from './detail-value.tsx';
import type { Column, TableSort } from './data-table.tsx';
import { ListBody } from './list-body.tsx';
import { SortSelect } from './sort-select.tsx';
import { ListCard } from './list-card.tsx';
import { LoadingOverlay } from './loading-overlay.tsx';
import { notify } from './notify.ts';
import { PageHeader } from './page-header.tsx';
import { SearchInput } from './search-input.tsx';
import { errorMessage } from '../lib/api.ts';
import { invalidate } from '../lib/query-keys.ts';
import { useListParams, type ListView } from '../lib/use-list-params.ts';
import { useUrlModal } from '../lib/use-url-modal.ts';
import { applyServerErrors, useZodForm } from '../lib/use-zod-form.ts';
import { CardListPlaceholder } from './card-list-placeholder.tsx';
import { usePhone } from '../lib/use-media.ts';

export type FormMode = 'add' | 'edit';

export interface ListArgs extends ListView {
  page: number;
  search: string;
  filter: string | null;
}

/** Runs one server call behind the loading overlay with the spec's message. */
export type Runner = (message: string, task: () => Promise<void>) => Promise<void>;

export interface CrudScreen<Row extends { id: number }, Values extends Record<string, unknown>> {
  title: string;
  /** Capitalised name used in modal titles: "Add Company", "Company Details". */
  Noun: string;
  /** Lower-case name used in the spec's messages: "Creating company...", "Are you sure you want to delete this company?"; Noun in lower case unless given. */
  noun?: string;
  searchPlaceholder: string;
  /** The add button's label; "Add Company" (Add and the Noun) unless given. */
  addLabel?: string;
  emptyText: string;
  columns: Column<Row>[];
  /** The list's key from the query-key factory, and every endpoint a save or delete makes stale. */
  cache: { list: (args: ListArgs) => QueryKey; changes: QueryKey[] };
  fetchPage: (args: ListArgs) => Promise<Paginated<Row>>;
  /** The Filter toggle's select (Role on Users, Company Type on Companies). */
  filter?: { label: string; options: NamedRef[] | undefined };
  form: {
    schema: (mode: FormMode) => z.ZodType;
    values: (row: Row | null) => Values;
    fields: (form: UseFormReturnType<Values>, mode: FormMode) => ReactNode;
  };
  details: (row: Row) => Array<{ label: string; value: ReactNode }>;
  save: (values: Values, row: Row | null) => Promise<{ message: string }>;
  remove: (row: Row) => Promise<{ message: string }>;
  /** Extra row buttons after VIEW, EDIT and DELETE. */
  extraActions?: (row: Row, run: Runner) => ReactNode;
  /** Whether DELETE is offered for a row (default: always). */
  canDelete?: (row: Row) => boolean;
  /** Export (docs/design.md §10): the file of every row matching the list's search and filter. */
  exportFile?: { fileBase: string; download: (args: ListArgs, format: ExportFormat) => Promise<Blob> };
}

const noFilter: { filter: string | null } = { filter: null };

const nounOf = (screen: { Noun: string; noun?: string }) => screen.noun ?? screen.Noun.toLowerCase();

const actionButton = (label: string, onClick: () => void, name: string, color?: string) => (
  <AppButton key={label} size="compact-xs" variant="secondary" c={color} onClick={onClick} aria-label={`${label} ${name}`}>
    {label}
  </AppButton>
);

/** One administration list screen (docs/spec.md §2 and §4 "Modal behaviour"): search, filter, table, pager, add/edit/view/delete. */
export function CrudPage<Row extends { id: number }, Values extends Record<string, unknown>>({
  screen,
  rowName,
}: {
  screen: CrudScreen<Row, Values>;
  /** Words that name a row for screen readers and tests, e.g. the company's name. */
  rowName: (row: Row) => string;
}) {
  const noun = nounOf(screen);
  const queryClient = useQueryClient();
  const { params, setSearch, setFilter, clearFilters, setPage, setPerPage, setSort, fitPage } = useListParams(noFilter);
  const args: ListArgs = {
    page: params.page,
    search: params.search,
    filter: params.filters.filter,
    perPage: params.perPage,
    sort: params.sort,
    order: params.order,
  };
  const sort: TableSort = { by: params.sort, order: params.order, onChange: setSort };
  const exportFile = screen.exportFile;
  const list = useQuery({ queryKey: screen.cache.list(args), queryFn: () => screen.fetchPage(args), placeholderData: keepPreviousData });
  const [filterOpen, setFilterOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  // docs/spec.md §4 "Modal behaviour": each modal is kept in the address, so Back closes it as on Transactions.
  const adding = useUrlModal('add');
  const editingId = useUrlModal('edit');
  const viewingId = useUrlModal('view');
  const rowById = (id: number | null) => (id === null ? null : (list.data?.data.find((row) => row.id === id) ?? null));
  const editRow = rowById(editingId.id);
  const editing: { mode: FormMode; row: Row | null } | null =
    adding.id !== null ? { mode: 'add', row: null } : editRow ? { mode: 'edit', row: editRow } : null;
  const closeEditing = adding.id !== null ? adding.close : editingId.close;
  const viewing = rowById(viewingId.id);
  const phone = usePhone();

  const onSuccess = () => invalidate(queryClient, screen.cache.changes);
  const removal = useMutation({ mutationFn: screen.remove, onSuccess });

  const run: Runner = async (message, task) => {
    setBusy(message);
    try {
      await task();
    } finally {
      setBusy(null);
    }
  };

  const remove = async (row: Row) => {
    if (!(await confirmAction(confirmDelete(noun)))) return;
    await run(`Deleting ${noun}...`, async () => {
      try {
        const result = await removal.mutateAsync(row);
        notify.success(result.message);
      } catch (error) {
        notifications.show({
          color: 'red',
          title: deleteFailed(noun),
          message: errorMessage(error, deleteFailed(noun)),
          autoClose: 8000,
        });
      }
    });
  };

  const actions = (row: Row, inCard: boolean) => (
    <Group gap={4} wrap={inCard || screen.extraActions ? 'wrap' : 'nowrap'} miw={!inCard && screen.extraActions ? 250 : undefined}>
      {actionButton('VIEW', () => viewingId.open(row.id), rowName(row))}
      {actionButton('EDIT', () => editingId.open(row.id), rowName(row))}
      {(screen.canDelete?.(row) ?? true) ? actionButton('DELETE', () => void remove(row), rowName(row), 'red') : null}
      {screen.extraActions?.(row, run)}
    </Group>
  );
  const columns: Column<Row>[] = [...screen.columns, { key: 'actions', header: 'Actions', render: (row) => actions(row, false) }];

  return (
    <>
      <PageHeader title={screen.title} />
      <ListCard
        query={list}
        toolbar={
          <>
            <SearchInput placeholder={screen.searchPlaceholder} onSearch={setSearch} initial={params.search} />
            {phone ? <SortSelect columns={screen.columns} sort={sort} /> : null}
            {screen.filter ? <FilterToggle open={filterOpen} onToggle={() => setFilterOpen((open) => !open)} /> : null}
            {exportFile ? <ExportButton fileBase={exportFile.fileBase} download={(format) => exportFile.download(args, format)} /> : null}
            <AppButton onClick={() => adding.open(1)} ml={{ sm: 'auto' }}>
              {screen.addLabel ?? `Add ${screen.Noun}`}
            </AppButton>
          </>
        }
        filters={
          screen.filter ? (
            <Collapse expanded={filterOpen}>
              <Group gap="sm" align="flex-end" wrap="wrap">
                <Select
                  label={screen.filter.label}
                  placeholder="All"
                  data={(screen.filter.options ?? []).map((o) => ({ value: String(o.id), label: o.name }))}
                  value={params.filters.filter}
                  onChange={(value) => setFilter('filter', value)}
                  w={{ base: '100%', xs: 240 }}
                  comboboxProps={{ withinPortal: true }}
                />
                <AppButton variant="secondary" onClick={clearFilters}>
                  Clear Filter
                </AppButton>
              </Group>
            </Collapse>
          ) : undefined
        }
      >
        <LoadingOverlay visible={busy !== null} message={busy ?? undefined} />
        <ListBody
          query={list}
          paging={{ page: params.page, perPage: params.perPage, setPage, setPerPage, fitPage }}
          cards={(rows, loading) => (
            <RowCards
              title={screen.title}
              columns={screen.columns}
              rows={rows}
              loading={loading}
              emptyText={screen.emptyText}
              actions={(row) => actions(row, true)}
            />
          )}
          table={{ columns, rowKey: (r) => r.id, emptyText: screen.emptyText, sort }}
        />
      </ListCard>

      <Modal
        opened={editing !== null}
        onClose={closeEditing}
        title={editing ? `${editing.mode === 'add' ? 'Add' : 'Edit'} ${screen.Noun}` : ''}
        size="lg"
        centered
      >
        {editing ? (
          <RecordForm
            key={`${editing.mode}-${editing.row?.id ?? 'new'}`}
            screen={screen}
            mode={editing.mode}
            row={editing.row}
            onCancel={closeEditing}
            onSaved={closeEditing}
          />
        ) : null}
      </Modal>

      <Modal opened={viewing !== null} onClose={viewingId.close} title={`${screen.Noun} Details`} centered>
        {viewing ? (
          <Stack>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              {screen.details(viewing).map(({ label, value }) => (
                <DetailValue key={label} label={label}>
                  {value}
                </DetailValue>
              ))}
            </SimpleGrid>
            <Group justify="flex-end">
              <AppButton variant="secondary" onClick={viewingId.close}>
                Close
              </AppButton>
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}

/** The Add/Edit form: blank on Add, a copy of the row on Edit; server errors land under their fields. */
function RecordForm<Row extends { id: number }, Values extends Record<string, unknown>>({
  screen,
  mode,
  row,
  onCancel,
  onSaved,
}: {
  screen: CrudScreen<Row, Values>;
  mode: FormMode;
  row: Row | null;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useZodForm(screen.form.schema(mode), screen.form.values(row));
  const saving = useMutation({
    mutationFn: (values: Values) => screen.save(values, row),
    onSuccess: () => invalidate(queryClient, screen.cache.changes),
  });

  const submit = form.onSubmit(async (values) => {
    try {
      const result = await saving.mutateAsync(values);
      notify.success(result.message);
      onSaved();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });

  return (
    <form onSubmit={submit} noValidate style={{ position: 'relative' }}>
      <LoadingOverlay visible={saving.isPending} message={`${mode === 'add' ? 'Creating' : 'Updating'} ${nounOf(screen)}...`} />
      <Stack>
        {screen.form.fields(form, mode)}
        <Group justify="flex-end" mt="sm">
          <AppButton variant="secondary" onClick={onCancel}>
            Cancel
          </AppButton>
          <AppButton type="submit">{mode === 'add' ? 'Add' : 'Edit'}</AppButton>
        </Group>
      </Stack>
    </form>
  );
}

/** On a phone each row is a card with its column names, so nothing has to scroll sideways. */
function RowCards<Row extends { id: number }>({
  title,
  columns,
  rows,
  loading,
  emptyText,
  actions,
}: {
  title: string;
  columns: Column<Row>[];
  rows: Row[] | undefined;
  loading: boolean;
  emptyText: string;
  actions: (row: Row) => ReactNode;
}) {
  if (!rows || rows.length === 0) return <CardListPlaceholder loading={loading} empty={rows?.length === 0} emptyText={emptyText} />;
  return (
    <Stack gap="sm" role="list" aria-label={title}>
      {rows.map((row) => (
        <Card key={row.id} withBorder radius="md" padding="sm" role="listitem">
          <SimpleGrid cols={2} spacing={6} verticalSpacing={4}>
            {columns.map((c) => (
              <div key={c.key} style={{ minWidth: 0 }}>
                <Text size="xs" c="dimmed">
                  {c.header}
                </Text>
                <Text size="sm" fw={500} component="div" style={{ overflowWrap: 'anywhere' }}>
                  {c.render(row)}
                </Text>
              </div>
            ))}
          </SimpleGrid>
          <Group mt="xs">{actions(row)}</Group>
        </Card>
      ))}
    </Stack>
  );
}
