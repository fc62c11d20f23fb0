import { Badge, Card, Checkbox, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { InvoiceRow } from '../../../shared/schemas/invoices.ts';
import type { RowSelection } from '../data-table.tsx';
import { LabelledValue } from '../labelled-value.tsx';
import { invoiceFacts } from './invoice-facts.ts';
import { InvoiceStatusBadge } from './invoice-status.tsx';
import { CardListPlaceholder } from '../card-list-placeholder.tsx';

/**
 * On a phone each invoice is a card with the facts its screen's table shows, readable without
 * scrolling sideways; with `selection` each card has its checkbox and the list a select-all box.
 */
export function InvoiceCards({
  rows,
  loading,
  emptyText,
  label,
  timeZone,
  showExpectedReturn,
  actions,
  selection,
}: {
  rows: InvoiceRow[] | undefined;
  loading: boolean;
  emptyText: string;
  label: string;
  timeZone: string;
  showExpectedReturn: boolean;
  actions: (row: InvoiceRow) => ReactNode;
  selection?: RowSelection<InvoiceRow>;
}) {
  if (!rows || rows.length === 0) return <CardListPlaceholder loading={loading} empty={rows?.length === 0} emptyText={emptyText} />;
  const picked = selection ? rows.filter(selection.isSelected).length : 0;
  return (
    <Stack gap="sm">
      {selection?.allLabel ? (
        <Checkbox
          label="Select all on this page"
          aria-label={selection.allLabel}
          checked={picked === rows.length}
          indeterminate={picked > 0 && picked < rows.length}
          onChange={() => selection.onChange(rows, picked < rows.length)}
        />
      ) : null}
      <Stack gap="sm" role="list" aria-label={label}>
        {rows.map((row) => {
          const facts = invoiceFacts(row, timeZone);
          const selected = selection?.isSelected(row) ?? false;
          return (
            <Card
              key={row.id}
              withBorder
              radius="md"
              padding="sm"
              role="listitem"
              bg={selected ? 'var(--mantine-color-blue-light)' : undefined}
            >
              <Group justify="space-between" wrap="nowrap" mb={6}>
                <Group gap={6}>
                  {selection ? (
                    <Checkbox
                      aria-label={selection.label(row)}
                      checked={selected}
                      onChange={(event) => selection.onChange([row], event.currentTarget.checked)}
                    />
                  ) : null}
                  <Text fw={700}>
                    {row.invoice_type.name} #{row.id}
                  </Text>
                  <Badge variant="light" color="gray">
                    {facts.padCount}
                  </Badge>
                </Group>
                <InvoiceStatusBadge status={row.invoice_status} />
              </Group>
              <SimpleGrid cols={2} spacing={4} verticalSpacing={2}>
                <LabelledValue label="By" value={facts.by} />
                <LabelledValue label="To" value={facts.to} />
                <LabelledValue label="Date" value={facts.date} />
                {showExpectedReturn ? <LabelledValue label="Expected Return" value={facts.expectedReturn} /> : null}
                <LabelledValue label="Assigned To" value={facts.assignedTo} />
              </SimpleGrid>
              <Text size="xs" c="dimmed" mt={4} lineClamp={2}>
                Route: {facts.route}
              </Text>
              <Group justify="flex-end" mt="xs">
                {actions(row)}
              </Group>
            </Card>
          );
        })}
      </Stack>
    </Stack>
  );
}
