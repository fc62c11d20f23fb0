import { Table, Text, Skeleton } from '@mantine/core';
import type { ReactNode } from 'react';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  width?: number | string;
  /** Long text (a route, remarks) wraps within a readable width; every other cell stays on one line. */
  wrap?: boolean;
}

const ACTIONS_STICKY = {
  position: 'sticky' as const,
  right: 0,
  zIndex: 1,
  background: 'var(--mantine-color-body)',
  boxShadow: '-6px 0 6px -6px rgba(0, 0, 0, 0.18)',
};

/** Long text wraps; other cells stay on one line; the actions column stays in view while the table scrolls sideways. */
const cellStyle = (column: { key: string; wrap?: boolean }) => ({
  ...(column.wrap ? { minWidth: 200, whiteSpace: 'normal' as const } : { whiteSpace: 'nowrap' as const }),
  ...(column.key === 'actions' ? ACTIONS_STICKY : {}),
});

/** A list table that scrolls sideways on a phone instead of squeezing; shows the spec's empty text. */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  loading,
  emptyText,
}: {
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  loading?: boolean;
  emptyText: string;
}) {
  return (
    <Table.ScrollContainer minWidth={0} type="native">
      <Table highlightOnHover verticalSpacing="sm" withTableBorder>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} style={{ ...cellStyle(c), width: c.width, whiteSpace: 'nowrap' }}>
                {c.header}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {loading && !rows
            ? Array.from({ length: 5 }, (_, i) => (
                <Table.Tr key={`skeleton-${i}`} data-testid="table-loader">
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
              <Table.Td colSpan={columns.length}>
                <Text ta="center" c="dimmed" py="md">
                  {emptyText}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {rows?.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((c) => (
                <Table.Td key={c.key} style={cellStyle(c)}>
                  {c.render(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
