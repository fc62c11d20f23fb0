import { Card, Checkbox, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { routeLabel, seriesRange } from '../../shared/format.ts';
import { selectAllState, type RowSelection } from './data-table.tsx';
import { LabelledValue } from './labelled-value.tsx';
import { CardListPlaceholder } from './card-list-placeholder.tsx';

/** What a pad card shows; the pads list, the invoice and custody pad tables and the issue picker all have these. */
export interface PadCardRow {
  id: number;
  number: number;
  series_from: number;
  series_to: number;
  pad_status: { name: string };
  issuance_status?: { name: string };
  remarks?: string | null;
  /** The first not-used number (docs/design.md §9), where the pads list has it; null when none is left. */
  next_number?: number | null;
  /** Who holds the pad (docs/design.md §10 "Held by"), where the list has it. */
  held_by?: string;
  route?: { name?: string | null; tin?: string | null; company?: { name?: string | null } | null } | null;
}

/**
 * On a phone each pad is a card with the columns its table shows (the series in full, as on the paper pad),
 * readable without scrolling sideways; with `selection` each card has its checkbox and the list a select-all box.
 */
export function PadCards<T extends PadCardRow>({
  rows,
  loading,
  emptyText,
  label,
  withRoute = true,
  actions,
  selection,
}: {
  rows: T[] | undefined;
  loading?: boolean;
  emptyText: string;
  /** The list's accessible name. */
  label: string;
  /** Leave the route out where every pad has the same one (the issue picker). */
  withRoute?: boolean;
  actions?: (row: T) => ReactNode;
  selection?: RowSelection<T>;
}) {
  if (!rows || rows.length === 0)
    return <CardListPlaceholder loading={loading === true} empty={rows?.length === 0} emptyText={emptyText} />;
  const all = selection ? selectAllState(selection, rows) : null;
  return (
    <Stack gap="xs">
      {selection?.allLabel ? (
        <Checkbox
          label="Select all on this page"
          aria-label={selection.allLabel}
          checked={all?.checked}
          indeterminate={all?.indeterminate}
          disabled={Boolean(selection.full) && !all?.checked && !all?.indeterminate}
          onChange={all?.toggle}
        />
      ) : null}
      <Stack gap="xs" role="list" aria-label={label}>
        {rows.map((row) => {
          const selected = selection?.isSelected(row) ?? false;
          const buttons = actions?.(row);
          return (
            <Card
              key={row.id}
              withBorder
              radius="md"
              padding="sm"
              role="listitem"
              bg={selected ? 'var(--mantine-color-blue-light)' : undefined}
            >
              <Group gap={8} wrap="nowrap" mb={6}>
                {selection ? (
                  <Checkbox
                    aria-label={selection.label(row)}
                    checked={selected}
                    disabled={!selected && selection.full}
                    onChange={(event) => selection.onChange([row], event.currentTarget.checked)}
                  />
                ) : null}
                <Text fw={700}>Pad Number {row.number}</Text>
              </Group>
              <LabelledValue label="Series Number" value={seriesRange(row.series_from, row.series_to)} />
              <SimpleGrid cols={2} spacing={4} verticalSpacing={2} mt={4}>
                <LabelledValue label="Pad Status" value={row.pad_status.name} />
                {row.issuance_status ? <LabelledValue label="Issuance Status" value={row.issuance_status.name} /> : null}
                {row.next_number !== undefined ? (
                  <LabelledValue label="Next Number" value={row.next_number === null ? 'None left' : String(row.next_number)} />
                ) : null}
                {row.held_by !== undefined ? <LabelledValue label="Held by" value={row.held_by} /> : null}
              </SimpleGrid>
              {withRoute && row.route ? (
                <Text size="xs" c="dimmed" mt={4}>
                  Route: {routeLabel(row.route)}
                </Text>
              ) : null}
              {row.remarks ? (
                <Text size="xs" mt={4} style={{ overflowWrap: 'anywhere' }}>
                  Remarks: {row.remarks}
                </Text>
              ) : null}
              {buttons ? (
                <Group justify="flex-end" gap={6} mt="xs">
                  {buttons}
                </Group>
              ) : null}
            </Card>
          );
        })}
      </Stack>
    </Stack>
  );
}
