import { useCallback, useState } from 'react';

/** Rows picked in a selectable table, kept by key across pages and searches. */
export function useRowSelection<T, K extends string | number>(rowKey: (row: T) => K) {
  const [selected, setSelected] = useState<ReadonlyMap<K, T>>(new Map());
  const change = useCallback(
    (rows: T[], on: boolean) =>
      setSelected((current) => {
        const next = new Map(current);
        for (const row of rows) {
          if (on) next.set(rowKey(row), row);
          else next.delete(rowKey(row));
        }
        return next;
      }),
    [rowKey],
  );
  const clear = useCallback(() => setSelected(new Map()), []);
  return { selected, change, clear, isSelected: (row: T) => selected.has(rowKey(row)) };
}
