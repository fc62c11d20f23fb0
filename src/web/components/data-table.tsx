import { Table, Text, Skeleton } from '@mantine/core';
import type { ReactNode } from 'react';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  width?: number | string;
}

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
    <Table.ScrollContainer minWidth={columns.length * 92} type="native">
      <Table striped highlightOnHover verticalSpacing="sm" withTableBorder>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} style={{ width: c.width, whiteSpace: 'nowrap' }}>
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
                <Table.Td key={c.key}>{c.render(row)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
