import type { ReactNode } from 'react';
import type { ListColumn } from '../../shared/list-columns.ts';
import type { Column } from './data-table.tsx';

type Look<Row> = Partial<Pick<Column<Row>, 'width' | 'wrap' | 'minWidth' | 'sortable'>> & { render?: (row: Row) => ReactNode };

/**
 * The table columns of a list from its one shared definition (src/shared/list-columns.ts, which the export
 * writes too): the header and text come from there; a screen only adds how a cell looks (a badge, wrapping).
 */
export function tableColumns<Row>(columns: ListColumn<Row>[], looks: Record<string, Look<Row>> = {}, sortable = true): Column<Row>[] {
  return columns.map((column) => {
    const { render, ...look } = looks[column.key] ?? {};
    return { key: column.key, header: column.header, sortable, render: render ?? column.text, ...look };
  });
}
