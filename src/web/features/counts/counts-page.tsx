import { Badge, Card, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  COUNT_MSG,
  countItemStateLabel,
  RESOLUTION_LABELS,
  type CountItem,
  type CountVariance,
  type ResolutionAction,
} from '../../../shared/schemas/counts.ts';
import { AppButton } from '../../components/app-button.tsx';
import { notify } from '../../components/notify.ts';
import { LastCounted, lastCountQuery, type CountedHolder } from '../../components/last-counted.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { PadLabelScanner, takeLabel } from '../../components/qr-scanner/pad-label-scanner.tsx';
import { QrScanner, type ScanOutcome } from '../../components/qr-scanner/qr-scanner.tsx';
import { api, errorMessage, openBlob } from '../../lib/api.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useUrlModal } from '../../lib/use-url-modal.ts';
import { useSearchParams } from 'react-router';
import { countQueries, useCloseCount, useEndScan, useRecordItem, useResolve, useSignOff, useStartCount } from './api.ts';

const report = async (work: () => Promise<{ message: string }>) => {
  try {
    notify.success((await work()).message);
    return true;
  } catch (error) {
    notify.error(errorMessage(error));
    return false;
  }
};

const idParam = (value: string | null) => (value && /^\d{1,9}$/.test(value) ? Number(value) : null);

/** A count-due link (Needs my action, Dashboard) names the holder: the counter starts their count in one tap. */
function DueHolder({ holder, onStarted }: { holder: CountedHolder; onStarted: (id: number) => void }) {
  const last = useQuery(lastCountQuery(holder));
  const start = useStartCount();
  if (!last.data) return null;
  const name = last.data.holder.type === 'branch' ? `branch ${last.data.holder.name}` : last.data.holder.name;
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Text fw={600}>Count {name}</Text>
        <LastCounted holder={holder} />
        <AppButton
          style={{ alignSelf: 'flex-start' }}
          loading={start.isPending}
          onClick={async () => {
            try {
              const result = await start.mutateAsync(holder);
              notify.success(result.message);
              onStarted(result.data.id);
            } catch (error) {
              notify.error(errorMessage(error));
            }
          }}
        >
          Start count of {name}
        </AppButton>
      </Stack>
    </Card>
  );
}

/** docs/design.md §9 physical counts: start a count of a branch, or open one to count, resolve, sign off and close. */
export function CountsPage() {
  const open = useUrlModal('count');
  const [url] = useSearchParams();
  const dueUser = idParam(url.get('user'));
  const dueBranch = idParam(url.get('branch'));
  const list = useQuery(countQueries.list({ page: 1, search: '' }));
  const branches = useQuery(lookupQueries.branches());
  const [branchId, setBranchId] = useState<string | null>(null);
  const start = useStartCount();
  if (open.id !== null) return <CountSessionView id={open.id} onBack={open.close} />;
  return (
    <>
      <PageHeader title="Counts" />
      <Stack>
        {dueUser !== null ? <DueHolder holder={{ user_id: dueUser }} onStarted={open.open} /> : null}
        {dueBranch !== null ? <DueHolder holder={{ branch_id: dueBranch }} onStarted={open.open} /> : null}
        <Card withBorder>
          <Stack gap="xs">
            <Text fw={600}>Count a branch</Text>
            <Group align="flex-end" wrap="wrap">
              <Select
                label="Branch"
                placeholder="Choose a branch"
                searchable
                data={(branches.data ?? []).map((b) => ({ value: String(b.id), label: b.name }))}
                value={branchId}
                onChange={setBranchId}
                style={{ flex: '1 1 220px' }}
              />
              <AppButton
                disabled={branchId === null}
                loading={start.isPending}
                onClick={async () => {
                  try {
                    const result = await start.mutateAsync({ branch_id: Number(branchId) });
                    notify.success(result.message);
                    open.open(result.data.id);
                  } catch (error) {
                    notify.error(errorMessage(error));
                  }
                }}
              >
                Start count
              </AppButton>
            </Group>
          </Stack>
        </Card>
        {(list.data?.data ?? []).map((row) => (
          <Card key={row.id} withBorder>
            <Group justify="space-between" wrap="wrap">
              <Stack gap={0}>
                <Text fw={600}>
                  Count #{row.id}: {row.holder.name}
                </Text>
                <Text size="sm" c="dimmed">
                  {row.pads} pads · by {row.counter.full_name} · {row.status}
                </Text>
              </Stack>
              <AppButton variant="secondary" onClick={() => open.open(row.id)} aria-label={`Open count ${row.id}`}>
                Open
              </AppButton>
            </Group>
          </Card>
        ))}
      </Stack>
    </>
  );
}

/** The count's own search: a pad number, series or route, as the counter reads it off the booklet. */
const padMatches = (item: CountItem, text: string) =>
  [String(item.pad.number), item.pad.series_number, item.pad.route.name].some((v) => v.toLowerCase().includes(text.toLowerCase()));

function ItemCard({ item, countId, closed }: { item: CountItem; countId: number; closed: boolean }) {
  const record = useRecordItem(countId);
  const [firstUnused, setFirstUnused] = useState(item.first_unused === null ? '' : String(item.first_unused));
  const name = `pad ${item.pad.number} ${item.pad.route.name}`;
  return (
    <Card withBorder p="sm" data-testid={`count-item-${item.pad.number}`}>
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={0}>
          <Text fw={600}>{COUNT_MSG.padName(item.pad.route.name, item.pad.number)}</Text>
          <Text size="sm">{item.pad.series_number}</Text>
          <Text size="xs" c="dimmed">
            books: first unused {item.book_next_number ?? 'none left'}
          </Text>
          {item.note ? (
            <Text size="sm" c="red.9" fw={500}>
              {item.note}
            </Text>
          ) : null}
        </Stack>
        <Badge
          style={{ flexShrink: 0 }}
          color={item.state === 'found' ? (item.expected ? 'teal' : 'orange') : item.state === 'missing' ? 'red' : 'gray'}
        >
          {countItemStateLabel(item)}
        </Badge>
      </Group>
      {closed ? null : (
        <Group align="flex-end" gap="xs" mt="xs" wrap="wrap">
          <TextInput
            label="First unused number"
            aria-label={`First unused number of ${name}`}
            inputMode="numeric"
            value={firstUnused}
            onChange={(e) => setFirstUnused(e.currentTarget.value)}
            style={{ flex: '1 1 140px' }}
          />
          <AppButton
            size="sm"
            aria-label={`Found ${name}`}
            onClick={() =>
              void report(() =>
                record.mutateAsync({ pad_id: item.pad.id, ...(firstUnused.trim() ? { first_unused: Number(firstUnused.trim()) } : {}) }),
              )
            }
          >
            Found
          </AppButton>
          <AppButton
            size="sm"
            variant="secondary"
            color="red"
            aria-label={`Missing ${name}`}
            onClick={() => void report(() => record.mutateAsync({ pad_id: item.pad.id, missing: true }))}
          >
            Missing
          </AppButton>
        </Group>
      )}
    </Card>
  );
}

function VarianceCard({ variance, countId, closed }: { variance: CountVariance; countId: number; closed: boolean }) {
  const resolve = useResolve(countId);
  const [action, setAction] = useState<string | null>(variance.actions[0] ?? null);
  const [reason, setReason] = useState('');
  const padName = COUNT_MSG.padName(variance.pad.route.name, variance.pad.number);
  return (
    <Card withBorder p="sm" data-testid={`variance-${variance.pad.number}`}>
      <Text fw={600}>
        {padName}: {variance.label}
      </Text>
      <Text size="sm">{variance.detail}</Text>
      {variance.resolution
        ? null
        : variance.asks.map((ask) => (
            <Text key={ask.action} size="sm" c="blue.9">
              {RESOLUTION_LABELS[ask.action]}: {ask.text}
            </Text>
          ))}
      {variance.resolution ? (
        <Text size="sm" c="teal.9">
          Resolved: {RESOLUTION_LABELS[variance.resolution.action]} ({variance.resolution.reason}),{' '}
          {variance.resolution.resolved_by.full_name}
        </Text>
      ) : closed || variance.actions.length === 0 ? null : (
        <Stack gap="xs" mt="xs">
          <Select
            label="Resolution"
            data={variance.actions.map((a) => ({ value: a, label: RESOLUTION_LABELS[a] }))}
            value={action}
            onChange={setAction}
          />
          <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
          <AppButton
            onClick={() =>
              // -- the select offers only the variance's actions.
              void report(() => resolve.mutateAsync({ vid: variance.id, action: (action ?? 'accept') as ResolutionAction, reason }))
            }
            aria-label={`Resolve pad ${variance.pad.number} ${variance.pad.route.name}`}
          >
            Resolve
          </AppButton>
        </Stack>
      )}
    </Card>
  );
}

function CountSessionView({ id, onBack }: { id: number; onBack: () => void }) {
  const count = useQuery(countQueries.one(id));
  const variances = useQuery(countQueries.variances(id));
  const record = useRecordItem(id);
  const signOff = useSignOff(id);
  const close = useCloseCount(id);
  const endScan = useEndScan(id);
  const [signing, setSigning] = useState(false);
  const [search, setSearch] = useState('');
  const c = count.data;
  if (!c) return <PageHeader title={`Count #${id}`} />;
  const closed = c.status === 'closed';
  const expected = c.items.filter((item) => item.expected);
  const seen = expected.filter((item) => item.state !== 'pending').length;
  const scanned = async (padId: number): Promise<ScanOutcome> => {
    try {
      const result = await record.mutateAsync({ pad_id: padId });
      return { ok: result.data.note === null, message: result.message };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };
  const typedLabel = (code: string) => void report(() => record.mutateAsync({ code }));
  const shownItems = c.items.filter((item) => !search || padMatches(item, search));
  const signWithBadge = async (badge: string): Promise<ScanOutcome> => {
    try {
      const result = await signOff.mutateAsync({ badge: badge.trim() });
      setSigning(false);
      return { ok: true, message: result.message };
    } catch (error) {
      return { ok: false, message: errorMessage(error) };
    }
  };
  return (
    <>
      <PageHeader title={`Count #${c.id}: ${c.holder.name}`} />
      <Stack>
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">
            Counted by {c.counter.full_name} · {c.status === 'closed' ? 'Closed' : 'Open'} · {c.variances_open} open variances
            {c.signed_off_by ? ` · signed off by ${c.signed_off_by.full_name}` : ''}
          </Text>
          <AppButton variant="secondary" onClick={onBack}>
            Back to counts
          </AppButton>
        </Group>
        {closed ? null : (
          <PadLabelScanner choose={(pad) => ({ ok: true, message: `Scanned pad ${pad.number}` })} onPad={scanned} continuous />
        )}
        {closed ? null : (
          <Group justify="space-between" wrap="wrap">
            <Text fw={600} role="status" aria-live="polite">
              {seen} of {expected.length} scanned
            </Text>
            {c.not_scanned > 0 ? (
              <AppButton variant="secondary" onClick={() => void report(() => endScan.mutateAsync(undefined))}>
                End scan
              </AppButton>
            ) : null}
          </Group>
        )}
        {closed ? null : (
          <Group>
            <SearchInput placeholder="Find a pad or scan its label" onSearch={setSearch} take={takeLabel(typedLabel)} />
          </Group>
        )}
        {shownItems.map((item) => (
          <ItemCard key={`${item.id}-${item.state}-${item.first_unused}`} item={item} countId={id} closed={closed} />
        ))}
        <Text fw={600}>Variances</Text>
        {(variances.data ?? []).length === 0 ? <Text size="sm">No variances</Text> : null}
        {(variances.data ?? []).map((v) => (
          <VarianceCard key={`${v.id}-${v.kind}-${v.resolution?.action ?? ''}`} variance={v} countId={id} closed={closed} />
        ))}
        <Group wrap="wrap">
          {closed || c.signed_off_by ? null : (
            <AppButton variant="secondary" onClick={() => setSigning((s) => !s)} aria-expanded={signing}>
              Holder sign-off
            </AppButton>
          )}
          {closed ? null : <AppButton onClick={() => void report(() => close.mutateAsync(undefined))}>Close count</AppButton>}
          <AppButton
            variant="secondary"
            onClick={async () => {
              try {
                openBlob(await api.file(`counts/${id}/certificate`), `count-${id}.pdf`, false);
              } catch (error) {
                notify.error(errorMessage(error));
              }
            }}
          >
            Certificate
          </AppButton>
        </Group>
        {signing ? (
          <Card withBorder>
            <Text size="sm" mb="xs">
              The holder scans their badge here to sign off.
            </Text>
            <QrScanner onScan={signWithBadge} fps={10} box={250} autoStart />
          </Card>
        ) : null}
      </Stack>
    </>
  );
}
