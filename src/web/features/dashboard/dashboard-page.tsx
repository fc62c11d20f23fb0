import { countText } from '../../../shared/format.ts';
import '@mantine/charts/styles.css';
import { BarChart, DonutChart } from '@mantine/charts';
import { Anchor, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PAD_STATUS } from '../../../shared/lookups.ts';
import { can } from '../../../shared/permissions.ts';
import type { Dashboard } from '../../../shared/schemas/dashboard.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { useSession } from '../../lib/session.ts';
import { dashboardQueries } from './api.ts';
import { LedgerCheckPanel } from './ledger-check-panel.tsx';

const STATUS_COLORS: Record<number, string> = {
  [PAD_STATUS.USED]: 'gray.6',
  [PAD_STATUS.PARTIALLY_USED]: 'yellow.6',
  [PAD_STATUS.UNUSED]: 'teal.6',
  [PAD_STATUS.CANCELLED]: 'orange.6',
  [PAD_STATUS.LOST]: 'red.7',
};

const number = countText;

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={title}>
      <Title order={2} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={{ base: 22, sm: 28 }} fw={700} lh={1.2} data-testid={`stat-${label.toLowerCase().replace(/\s+/g, '-')}`}>
        {number(value)}
      </Text>
    </Paper>
  );
}

/** The figures behind a chart, so they can be read exactly and by screen readers. */
function Figures({ caption, head, rows }: { caption: string; head: string[]; rows: Array<Array<string | number>> }) {
  return (
    <Table fz="sm" verticalSpacing={4} mt="sm" captionSide="top">
      <Table.Caption style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>
        {caption}
      </Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {head.map((h, i) => (
            <Table.Th key={h} ta={i === 0 ? 'left' : 'right'}>
              {h}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={String(row[0])}>
            {row.map((cell, i) => (
              <Table.Td key={i} ta={i === 0 ? 'left' : 'right'}>
                {typeof cell === 'number' ? number(cell) : cell}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** docs/design.md §9 count schedule: the holders not counted for the set number of days, for those who count. */
function CountsDue({ due }: { due: Dashboard['counts_due'] }) {
  return (
    <Panel title="Counts due">
      <Text fw={600} size="sm">
        Holders to count: {number(due.count)}
      </Text>
      {due.items.length === 0 ? (
        <Text size="sm" c="dimmed">
          Every holder has been counted on schedule.
        </Text>
      ) : (
        <Stack gap={4} mt={4}>
          {due.items.map((item) => (
            <Anchor key={`${item.path}`} component={Link} to={item.path} size="sm">
              {item.label}
            </Anchor>
          ))}
        </Stack>
      )}
    </Panel>
  );
}

function Charts({ data, counter }: { data: Dashboard; counter: boolean }) {
  const inTransit = data.in_transit.reduce((sum, row) => sum + row.count, 0);
  return (
    <Stack gap="md">
      <SimpleGrid cols={3} spacing={{ base: 'xs', sm: 'md' }}>
        <Stat label="Pads" value={data.pads_total} />
        <Stat label="In transit" value={inTransit} />
        <Stat label="Overdue" value={data.overdue.count} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Panel title="Pads by status">
          <Group justify="center" role="img" aria-label="Donut chart of pads by status">
            <DonutChart
              data={data.pads_by_status
                .filter((row) => row.count > 0)
                .map((row) => ({ name: row.name, value: row.count, color: STATUS_COLORS[row.id] ?? 'blue.6' }))}
              chartLabel={number(data.pads_total)}
              size={160}
              thickness={26}
              withTooltip
            />
          </Group>
          <Figures caption="Pads by status" head={['Status', 'Pads']} rows={data.pads_by_status.map((row) => [row.name, row.count])} />
        </Panel>
        <Panel title="Pads by holding branch">
          <BarChart
            h={Math.max(160, data.pads_by_branch.length * 40)}
            data={data.pads_by_branch.map((row) => ({ branch: row.name, Pads: row.count }))}
            dataKey="branch"
            orientation="vertical"
            yAxisProps={{ width: 120 }}
            xAxisProps={{ allowDecimals: false }}
            series={[{ name: 'Pads', color: 'blue.7' }]}
            role="img"
            aria-label="Bar chart of pads by holding branch"
          />
          <Figures
            caption="Pads by holding branch"
            head={['Branch', 'Pads']}
            rows={data.pads_by_branch.map((row) => [row.name, row.count])}
          />
        </Panel>
        <Panel title="Numbers in stock per route">
          {data.stock_by_route.length === 0 ? (
            <Text size="sm" c="dimmed">
              No pads in stock at the head office.
            </Text>
          ) : (
            <>
              <BarChart
                h={Math.max(160, data.stock_by_route.length * 40)}
                data={data.stock_by_route.map((row) => ({ route: row.route_name, Numbers: row.numbers }))}
                dataKey="route"
                orientation="vertical"
                yAxisProps={{ width: 140 }}
                xAxisProps={{ allowDecimals: false }}
                series={[{ name: 'Numbers', color: 'teal.7' }]}
                role="img"
                aria-label="Bar chart of unused receipt numbers in stock per route"
              />
              <Figures
                caption="Numbers in stock per route"
                head={['Route', 'Pads', 'Numbers']}
                rows={data.stock_by_route.map((row) => [row.name, row.pads, row.numbers])}
              />
            </>
          )}
        </Panel>
        <Panel title="Invoices in transit and overdue">
          <BarChart
            h={160}
            data={data.in_transit.map((row) => ({ type: row.name, Invoices: row.count }))}
            dataKey="type"
            yAxisProps={{ allowDecimals: false }}
            series={[{ name: 'Invoices', color: 'indigo.7' }]}
            role="img"
            aria-label="Bar chart of invoices in transit by type"
          />
          <Figures
            caption="Invoices in transit"
            head={['In transit', 'Invoices']}
            rows={data.in_transit.map((row) => [row.name, row.count])}
          />
          <Text fw={600} size="sm" mt="sm">
            Overdue returns: {number(data.overdue.count)}
          </Text>
          <Stack gap={4} mt={4}>
            {data.overdue.items.map((item) => (
              <Anchor key={item.id} component={Link} to={item.path} size="sm">
                {item.label}
              </Anchor>
            ))}
          </Stack>
        </Panel>
        {counter ? <CountsDue due={data.counts_due} /> : null}
      </SimpleGrid>
    </Stack>
  );
}

/** Dashboard (roles 1, 2, 8, 9; docs/user-guide.md "Screens"): where the pads are, the stock per route, and invoices on the road or late. */
export function DashboardPage() {
  const overview = useQuery(dashboardQueries.overview());
  const user = useSession()?.user;
  const counter = can(user, 'count.use');
  return (
    <>
      <PageHeader title="Dashboard" />
      {can(user, 'ledgerCheck.read') ? <LedgerCheckPanel /> : null}
      {overview.data ? <Charts data={overview.data} counter={counter} /> : <Skeleton h={320} radius="md" />}
    </>
  );
}
