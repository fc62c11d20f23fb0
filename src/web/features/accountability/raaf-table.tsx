import { Card, List, ScrollArea, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { Raaf } from '../../../shared/schemas/ledger.ts';
import { InvoiceLinkedText } from '../../components/invoice/invoice-linked-text.tsx';

/** A route's four column groups; the consolidated rows have no remarks. */
export type RaafRow = Pick<Raaf['rows'][number], 'route' | 'beginning' | 'receipt' | 'issued' | 'ending'> & { remarks?: string[] };
type Group = RaafRow['beginning'];

export const GROUPS = [
  { key: 'beginning', label: 'Beginning Balance' },
  { key: 'receipt', label: 'Receipt' },
  { key: 'issued', label: 'Issued' },
  { key: 'ending', label: 'Ending Balance' },
] as const;

const qty = new Intl.NumberFormat('en-US').format;
const rangeQty = (range: [number, number]) => range[1] - range[0] + 1;

function RouteName({ route }: { route: RaafRow['route'] }) {
  return (
    <>
      <Text fw={600} size="sm">
        {route.company}
      </Text>
      <Text size="sm">
        {route.name} - {route.tin}
      </Text>
    </>
  );
}

const numberCell = { whiteSpace: 'nowrap' as const, fontVariantNumeric: 'tabular-nums' };

/**
 * The COA layout (Appendix 67): the four groups, each Qty / From / To, one line per range with the
 * route on the first, and the totals below. On screen a route's remarks take a line of their own under
 * its ranges, as wide as the twelve number columns: as a last column (the PDF's and the CSV's place)
 * they sat past the panel's right edge at 1280 px, a phrase a line.
 */
function CoaTable({ rows, totals, withRemarks, label }: { rows: RaafRow[]; totals: Raaf['totals']; withRemarks: boolean; label: string }) {
  const numberColumns = GROUPS.length * 3;
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table withTableBorder withColumnBorders fz="sm" verticalSpacing={6} horizontalSpacing="xs" aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th rowSpan={2} miw={150}>
              Company - Route - TIN
            </Table.Th>
            {GROUPS.map((group) => (
              <Table.Th key={group.key} colSpan={3} ta="center">
                {group.label}
              </Table.Th>
            ))}
          </Table.Tr>
          <Table.Tr>
            {GROUPS.flatMap((group) =>
              ['Qty', 'From', 'To'].map((part) => (
                <Table.Th key={`${group.key}-${part}`} ta="right" aria-label={`${group.label} ${part}`}>
                  {part}
                </Table.Th>
              )),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={1 + numberColumns}>
                <Text c="dimmed" ta="center" py="sm">
                  No accountable forms held during the month.
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
          {rows.flatMap((row, rowIndex) => {
            const groups: Group[] = GROUPS.map((group) => row[group.key]);
            const height = Math.max(1, ...groups.map((group) => group.ranges.length));
            const remarks = withRemarks ? (row.remarks ?? []) : [];
            const bg = rowIndex % 2 === 1 ? 'var(--mantine-color-gray-0)' : undefined;
            const lines = Array.from({ length: height }, (_, i) => (
              <Table.Tr key={`${row.route.id}-${i}`} bg={bg}>
                {i === 0 ? (
                  <Table.Td rowSpan={height + (remarks.length > 0 ? 1 : 0)} style={{ verticalAlign: 'top' }}>
                    <RouteName route={row.route} />
                  </Table.Td>
                ) : null}
                {groups.flatMap((group, gi) => {
                  const range = group.ranges[i];
                  return [
                    <Table.Td key={`q${gi}`} ta="right" style={numberCell}>
                      {range ? qty(rangeQty(range)) : i === 0 ? 0 : ''}
                    </Table.Td>,
                    <Table.Td key={`f${gi}`} ta="right" style={numberCell}>
                      {range?.[0] ?? ''}
                    </Table.Td>,
                    <Table.Td key={`t${gi}`} ta="right" style={numberCell}>
                      {range?.[1] ?? ''}
                    </Table.Td>,
                  ];
                })}
              </Table.Tr>
            ));
            if (remarks.length === 0) return lines;
            return [
              ...lines,
              <Table.Tr key={`${row.route.id}-remarks`} bg={bg}>
                <Table.Td colSpan={numberColumns} style={{ whiteSpace: 'normal' }}>
                  <Text size="xs" fw={700}>
                    Remarks
                  </Text>
                  {remarks.map((remark, ri) => (
                    <Text key={ri} size="xs" mb={2}>
                      <InvoiceLinkedText text={remark} />
                    </Text>
                  ))}
                </Table.Td>
              </Table.Tr>,
            ];
          })}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr>
            <Table.Th>Total</Table.Th>
            {GROUPS.map((group) => (
              <Table.Th key={group.key} colSpan={3} ta="left" style={numberCell} data-testid={`total-${group.key}`}>
                {qty(totals[group.key])}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollArea>
  );
}

/** On a phone each route is a card: the four groups with their quantity and ranges, then the remarks; the balance line gives the totals. */
function RaafCards({ rows, withRemarks, label }: { rows: RaafRow[]; withRemarks: boolean; label: string }) {
  if (rows.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="sm">
        No accountable forms held during the month.
      </Text>
    );
  }
  return (
    <Stack gap="sm" role="list" aria-label={label}>
      {rows.map((row) => (
        <Card key={row.route.id} withBorder radius="md" padding="sm" role="listitem">
          <RouteName route={row.route} />
          <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs" mt="xs">
            {GROUPS.map((group) => (
              <div key={group.key}>
                <Text size="xs" c="dimmed">
                  {group.label}
                </Text>
                <Text fw={700} style={numberCell}>
                  {qty(row[group.key].qty)}
                </Text>
                {row[group.key].ranges.map(([from, to], i) => (
                  <Text key={`${from}-${to}-${i}`} size="xs" style={numberCell}>
                    {from}-{to}
                  </Text>
                ))}
              </div>
            ))}
          </SimpleGrid>
          {withRemarks && row.remarks && row.remarks.length > 0 ? (
            <List size="xs" mt="xs" spacing={2}>
              {row.remarks.map((remark, ri) => (
                <List.Item key={ri}>
                  <InvoiceLinkedText text={remark} />
                </List.Item>
              ))}
            </List>
          ) : null}
        </Card>
      ))}
    </Stack>
  );
}

/** The RAAF's body in the COA layout, as a table or, on a phone, as one card per route. */
export function RaafTable({
  rows,
  totals,
  withRemarks = true,
  phone,
  label,
}: {
  rows: RaafRow[];
  totals: Raaf['totals'];
  withRemarks?: boolean;
  phone: boolean;
  label: string;
}) {
  return phone ? (
    <RaafCards rows={rows} withRemarks={withRemarks} label={label} />
  ) : (
    <CoaTable rows={rows} totals={totals} withRemarks={withRemarks} label={label} />
  );
}

/** "140 + 100 − 158 = 82": the balance an operator checks first. */
export function BalanceLine({ totals }: { totals: Raaf['totals'] }) {
  return (
    <Text size="sm" data-testid="raaf-balance">
      Beginning {qty(totals.beginning)} + Receipt {qty(totals.receipt)} − Issued {qty(totals.issued)} = Ending {qty(totals.ending)}
    </Text>
  );
}
