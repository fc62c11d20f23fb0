import { Checkbox, Group, Table, Text, Skeleton, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { SortOrder } from '../../shared/schemas/common.ts';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  width?: number | string;
  /** Long text (a route, remarks) wraps within a readable width; every other cell stays on one line. */
  wrap?: boolean;
  /** The narrowest a wrapping column may get (default 200), so short names (a branch, a person) wrap and the list fits at 1280 px. */
  minWidth?: number;
  /** The server sorts the list by this column's key. */
  sortable?: boolean;
}

/** The list's sort, kept by its owner (see useListParams): a header click sorts ascending, then descending, then back to the default. */
export interface TableSort {
  by: string | null;
  order: SortOrder;
  onChange: (by: string | null, order: SortOrder) => void;
}

const nextSort = (sort: TableSort, key: string): [string | null, SortOrder] => {
  if (sort.by !== key) return [key, 'asc'];
  return sort.order === 'asc' ? [key, 'desc'] : [null, 'asc'];
};

function SortHeader({ column, sort }: { column: { key: string; header: string }; sort: TableSort }) {
  const active = sort.by === column.key;
  const Icon = !active ? IconArrowsSort : sort.order === 'asc' ? IconArrowUp : IconArrowDown;
  return (
    <UnstyledButton onClick={() => sort.onChange(...nextSort(sort, column.key))} style={{ font: 'inherit', fontWeight: 'inherit' }}>
      <Group gap={4} wrap="nowrap">
        {column.header}
        <Icon size={14} aria-hidden stroke={active ? 2.5 : 1.5} color={active ? undefined : 'var(--mantine-color-dimmed)'} />
      </Group>
    </UnstyledButton>
  );
}

const ariaSort = (sort: TableSort | undefined, key: string) => {
  if (!sort || sort.by !== key) return sort ? ('none' as const) : undefined;
  return sort.order === 'asc' ? ('ascending' as const) : ('descending' as const);
};

/** Checkboxes in a first column; the owner keeps the picked rows (see useRowSelection). */
export interface RowSelection<T> {
  isSelected: (row: T) => boolean;
  onChange: (rows: T[], selected: boolean) => void;
  /** The accessible name of a row's checkbox, e.g. "Select pad 12". */
  label: (row: T) => string;
  /** The accessible name of the select-all-on-this-page box; without it the column has no such box. */
  allLabel?: string;
  /** No more rows may be picked (the issue form's requested count is reached): unpicked boxes are disabled. */
  full?: boolean;
}

/**
 * The select-all box of a page: checked when every row is picked, or when the limit is reached with
 * some of this page picked; a click then clears this page, otherwise it picks the page's rows.
 */
export function selectAllState<T>(selection: RowSelection<T>, rows: T[]) {
  const picked = rows.filter(selection.isSelected).length;
  const checked = rows.length > 0 && (picked === rows.length || (Boolean(selection.full) && picked > 0));
  return { checked, indeterminate: picked > 0 && !checked, toggle: () => selection.onChange(rows, !checked) };
}

const ACTIONS_STICKY = {
  position: 'sticky' as const,
  right: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
  boxShadow: '-6px 0 6px -6px rgba(0, 0, 0, 0.18)',
};

/** Long text wraps; other cells stay on one line; the actions column stays in view while the table scrolls sideways. */
const SELECTED = 'var(--mantine-color-blue-light)';
/** The sticky actions cell paints the selected tint over the page colour, so a picked row is tinted end to end. */
const SELECTED_STICKY = { background: `linear-gradient(${SELECTED}, ${SELECTED}), var(--mantine-color-body)` };

const cellStyle = (column: { key: string; wrap?: boolean; minWidth?: number }, selected = false) => ({
  ...(column.wrap ? { minWidth: column.minWidth ?? 200, whiteSpace: 'normal' as const } : { whiteSpace: 'nowrap' as const }),
  ...(column.key === 'actions' ? { ...ACTIONS_STICKY, ...(selected ? SELECTED_STICKY : {}) } : {}),
});

/**
 * A wrapping body cell may also break inside a long word (overflow-wrap: anywhere), so no single token (an email, a code)
 * can widen its column past the screen; headers keep whole words.
 */
const bodyCellStyle = (column: { key: string; wrap?: boolean; minWidth?: number }, selected: boolean) =>
  column.wrap ? { ...cellStyle(column, selected), overflowWrap: 'anywhere' as const } : cellStyle(column, selected);

function SelectAll<T>({ selection, rows }: { selection: RowSelection<T>; rows: T[] }) {
  if (!selection.allLabel) return <VisuallyHidden>Select</VisuallyHidden>;
  const state = selectAllState(selection, rows);
  return (
    <Checkbox
      aria-label={selection.allLabel}
      checked={state.checked}
      indeterminate={state.indeterminate}
      disabled={rows.length === 0 || (Boolean(selection.full) && !state.checked && !state.indeterminate)}
      onChange={state.toggle}
    />
  );
}

export interface DataTableProps<T> {
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  loading?: boolean;
  emptyText: string;
  selection?: RowSelection<T>;
  /** The table's accessible name. */
  label?: string;
  /** With a sort, the `sortable` columns' headers sort the list. */
  sort?: TableSort;
}

/**
 * A list table that scrolls sideways on a phone instead of squeezing; shows the spec's empty text.
 * With `selection` each row gets a checkbox and the header a select-all box for the rows shown.
 */
export function DataTable<T>({ columns, rows, rowKey, loading, emptyText, selection, label, sort }: DataTableProps<T>) {
  const span = columns.length + (selection ? 1 : 0);
  return (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table highlightOnHover verticalSpacing="sm" withTableBorder aria-label={label} aria-busy={loading && !rows ? true : undefined}>
        <Table.Thead>
          <Table.Tr>
            {selection ? (
              <Table.Th w={44}>
                <SelectAll selection={selection} rows={rows ?? []} />
              </Table.Th>
            ) : null}
            {columns.map((c) => (
              <Table.Th
                key={c.key}
                style={{ ...cellStyle(c), width: c.width, whiteSpace: 'normal' }}
                aria-sort={c.sortable ? ariaSort(sort, c.key) : undefined}
              >
                {sort && c.sortable ? <SortHeader column={c} sort={sort} /> : c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading && !rows
            ? Array.from({ length: 5 }, (_, i) => (
                <Table.Tr key={`skeleton-${i}`} data-testid="table-loader">
                  {selection ? <Table.Td /> : null}
                  {columns.map((c) => (
                    <Table.Td key={c.key}>
                      <Skeleton h={14} radius="sm" />
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            : null}
          {rows && rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={span}>
                <Text ta="center" c="dimmed" py="md">
                  {emptyText}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {rows?.map((row) => {
            const selected = selection?.isSelected(row) ?? false;
            return (
              <Table.Tr key={rowKey(row)} bg={selected ? SELECTED : undefined}>
                {selection ? (
                  <Table.Td>
                    <Checkbox
                      aria-label={selection.label(row)}
                      checked={selected}
                      disabled={!selected && selection.full}
                      onChange={(event) => selection.onChange([row], event.currentTarget.checked)}
                    />
                  </Table.Td>
                ) : null}
                {columns.map((c) => (
                  <Table.Td key={c.key} style={bodyCellStyle(c, selected)}>
                    {c.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
