import { Card, Group, Paper, Select, Stack, Tabs, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { can } from '../../../shared/permissions.ts';
import { OUTAGE_STATES, type OutageRow } from '../../../shared/schemas/outages.ts';
import { AppButton } from '../../components/app-button.tsx';
import { CardListPlaceholder } from '../../components/card-list-placeholder.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { SelectField } from '../../components/form-fields.tsx';
import { LabelledValue } from '../../components/labelled-value.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Pager } from '../../components/pager.tsx';
import { useClock } from '../../lib/clock.ts';
import { currentSearchParams } from '../../lib/current-search-params.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useSession } from '../../lib/session.ts';
import { usePhone } from '../../lib/use-media.ts';
import { useUrlModal } from '../../lib/use-url-modal.ts';
import { outageQueries } from './api.ts';
import { CloseOutageModal } from './close-outage-modal.tsx';
import { DeclareOutageModal } from './declare-outage-modal.tsx';
import { ExceptionsTab } from './exceptions-tab.tsx';
import { OutageDetailsModal } from './outage-details-modal.tsx';
import { OutageStateBadge } from './outage-state-badge.tsx';
import { SummaryTab } from './summary-tab.tsx';

const TABS = ['outages', 'exceptions', 'summary'] as const;
type Tab = (typeof TABS)[number];

/** Open outages first (they wait to be closed), then the latest. */
const openFirst = (rows: OutageRow[]) =>
  [...rows].sort((a, b) => Number(b.state === 'open') - Number(a.state === 'open') || b.starts_at.localeCompare(a.starts_at));

function OutagesTab() {
  const clock = useClock();
  const user = useSession()?.user;
  const phone = usePhone();
  const headOffice = can(user, 'outage.read', { branch_id: -1 });
  const branches = useQuery({ ...lookupQueries.branches(), enabled: headOffice });
  const [page, setPage] = useState(1);
  const [branchId, setBranchId] = useState<string | null>(null);
  const [state, setState] = useState<string | null>(null);
  const list = useQuery(outageQueries.list({ page, branchId: headOffice ? branchId : null, state }));
  const viewing = useUrlModal('outage');
  const [closing, setClosing] = useState<OutageRow | null>(null);
  const rows = list.data ? openFirst(list.data.data) : undefined;

  const window = (row: OutageRow) =>
    row.ends_at ? `${clock.dayTime(row.starts_at)} – ${clock.dayTime(row.ends_at)}` : `Since ${clock.dayTime(row.starts_at)}`;
  const actions = (row: OutageRow) => (
    <Group gap={4} wrap="nowrap">
      <AppButton size="compact-sm" variant="secondary" onClick={() => viewing.open(row.id)} aria-label={`VIEW outage ${row.id}`}>
        VIEW
      </AppButton>
      {row.state === 'open' && can(user, 'outage.manage', { branch_id: row.branch.id }) ? (
        <AppButton size="compact-sm" onClick={() => setClosing(row)} aria-label={`CLOSE outage ${row.id}`}>
          CLOSE
        </AppButton>
      ) : null}
    </Group>
  );
  const columns: Column<OutageRow>[] = [
    { key: 'id', header: '#', render: (r) => r.id },
    { key: 'branch', header: 'Establishment', render: (r) => r.branch.name },
    { key: 'state', header: 'State', render: (r) => <OutageStateBadge state={r.state} /> },
    { key: 'window', header: 'Window', render: window },
    { key: 'cause', header: 'Cause', render: (r) => r.cause_label },
    { key: 'linked', header: 'Paper numbers', render: (r) => r.linked_numbers },
    { key: 'declared_by', header: 'Declared by', render: (r) => r.declared_by.name },
    { key: 'actions', header: 'Actions', render: actions },
  ];

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        {headOffice ? (
          <SelectField
            label="Establishment"
            placeholder="All"
            clearable
            options={branches.data}
            value={branchId}
            onChange={(value) => {
              setBranchId(value);
              setPage(1);
            }}
            w={{ base: '100%', xs: 260 }}
          />
        ) : null}
        <Select
          label="State"
          placeholder="All"
          clearable
          data={OUTAGE_STATES.map((value) => ({ value, label: value === 'open' ? 'Open' : 'Closed' }))}
          value={state}
          onChange={(value) => {
            setState(value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 160 }}
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      {phone ? (
        rows && rows.length > 0 ? (
          <Stack gap="xs" role="list" aria-label="Outages">
            {rows.map((row) => (
              <Card key={row.id} withBorder radius="md" padding="sm" role="listitem">
                <Stack gap={4}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text fw={700}>
                      #{row.id} {row.cause_label}
                    </Text>
                    <OutageStateBadge state={row.state} />
                  </Group>
                  <LabelledValue label="Establishment" value={row.branch.name} />
                  <LabelledValue label="Window" value={window(row)} />
                  <LabelledValue label="Paper numbers" value={String(row.linked_numbers)} />
                  <Group justify="flex-end">{actions(row)}</Group>
                </Stack>
              </Card>
            ))}
          </Stack>
        ) : (
          <CardListPlaceholder loading={list.isLoading} empty={rows?.length === 0} emptyText="No outages" />
        )
      ) : (
        <DataTable columns={columns} rows={rows} rowKey={(r) => r.id} loading={list.isLoading} emptyText="No outages" label="Outages" />
      )}
      <Pager page={page} lastPage={list.data?.last_page ?? 1} onChange={setPage} total={list.data?.total} />
      <OutageDetailsModal outageId={viewing.id} onClose={viewing.close} />
      {closing ? <CloseOutageModal outage={closing} onClose={() => setClosing(null)} /> : null}
    </Stack>
  );
}

/**
 * Issue 38 Outages (`/outages`): the times an e-invoicing establishment could not issue e-invoices, declared from the
 * counter's phone; the Exceptions tab (`?tab=exceptions&exception=12`) where Accounting justifies or rejects paper used
 * outside them; and the Summary list tab (`?tab=summary`) of paper used per establishment and period.
 */
export function OutagesPage() {
  const user = useSession()?.user;
  const [url, setUrl] = useSearchParams();
  const [declaring, setDeclaring] = useState(false);
  const shown: Tab[] = TABS.filter(
    (tab) => tab === 'outages' || (tab === 'exceptions' ? can(user, 'paperUse.read') : can(user, 'paperUse.summary')),
  );
  const asked = TABS.find((tab) => tab === url.get('tab')) ?? 'outages';
  const tab = shown.includes(asked) ? asked : 'outages';
  const choose = (value: string | null) => {
    const next = currentSearchParams();
    for (const key of ['tab', 'outage', 'exception']) next.delete(key);
    if (value && value !== 'outages') next.set('tab', value);
    setUrl(next);
  };

  return (
    <>
      <PageHeader
        title="Outages"
        actions={
          can(user, 'outage.manage') ? (
            <AppButton color="orange" leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setDeclaring(true)}>
              Declare outage
            </AppButton>
          ) : null
        }
      />
      <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }}>
        <Tabs value={tab} onChange={choose} keepMounted={false}>
          {shown.length > 1 ? (
            <Tabs.List mb="sm">
              <Tabs.Tab value="outages">Outages</Tabs.Tab>
              {shown.includes('exceptions') ? <Tabs.Tab value="exceptions">Exceptions</Tabs.Tab> : null}
              {shown.includes('summary') ? <Tabs.Tab value="summary">Summary list</Tabs.Tab> : null}
            </Tabs.List>
          ) : null}
          <Tabs.Panel value="outages">
            <OutagesTab />
          </Tabs.Panel>
          <Tabs.Panel value="exceptions">
            <ExceptionsTab />
          </Tabs.Panel>
          <Tabs.Panel value="summary">
            <SummaryTab />
          </Tabs.Panel>
        </Tabs>
      </Paper>
      {declaring ? <DeclareOutageModal onClose={() => setDeclaring(false)} onDeclared={() => setDeclaring(false)} /> : null}
    </>
  );
}
