import { NativeSelect } from '@mantine/core';
import type { Column, TableSort } from './data-table.tsx';

/** On a phone, where rows are cards without headers, the list's sortable columns in one "Sort by" choice. */
export function SortSelect<T>({ columns, sort }: { columns: Column<T>[]; sort: TableSort }) {
  const sortable = columns.filter((c) => c.sortable);
  if (sortable.length === 0) return null;
  const options = [
    { value: '', label: 'Default order' },
    ...sortable.flatMap((c) => [
      { value: `${c.key}:asc`, label: `${c.header} ↑` },
      { value: `${c.key}:desc`, label: `${c.header} ↓` },
    ]),
  ];
  return (
    <NativeSelect
      label="Sort by"
      data={options}
      value={sort.by ? `${sort.by}:${sort.order}` : ''}
      onChange={(event) => {
        const [by, order] = event.currentTarget.value.split(':');
        sort.onChange(by || null, order === 'desc' ? 'desc' : 'asc');
      }}
      w={{ base: '100%', xs: 220 }}
    />
  );
}
