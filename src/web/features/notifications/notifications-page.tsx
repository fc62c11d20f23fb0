import { Anchor, Badge, Button, Card, Group, Select, Stack, Tabs, Text } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  ALERT_KIND_LABELS,
  ALERT_KINDS,
  type AlertKind,
  type NotificationItem,
  type NotificationState,
} from '../../../shared/schemas/notifications.ts';
import { AppButton } from '../../components/app-button.tsx';
import { CardListPlaceholder } from '../../components/card-list-placeholder.tsx';
import { ListCard } from '../../components/list-card.tsx';
import { notify } from '../../components/notify.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { Pager } from '../../components/pager.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { notificationQueries, useMarkRead } from './api.ts';
import { EMAIL_ALERTS_ANCHOR } from './notification-settings-panel.tsx';

const initialFilters: { state: string | null; kind: string | null } = { state: null, kind: null };
const kindOptions = ALERT_KINDS.map((kind) => ({ value: kind, label: ALERT_KIND_LABELS[kind] }));
const isKind = (value: string | null): value is AlertKind => value !== null && (ALERT_KINDS as readonly string[]).includes(value);

function emptyText(state: NotificationState, kind: AlertKind | null): string {
  if (kind)
    return state === 'open'
      ? `No open ${ALERT_KIND_LABELS[kind].toLowerCase()} alerts.`
      : `No resolved ${ALERT_KIND_LABELS[kind].toLowerCase()} alerts.`;
  return state === 'open'
    ? 'Nothing is late for you. New alerts appear here and under the bell.'
    : 'No resolved alerts yet. An alert moves here by itself once what it is about is done.';
}

/**
 * Issue 37: the signed-in user's alerts, newest first. Open ones stay until what they are about is done (a job resolves
 * them); reading one only clears it from the bell's count. Following an item's link reads it too.
 */
export function NotificationsPage() {
  const clock = useClock();
  const { params, setFilter, setPage, setPerPage, fitPage } = useListParams(initialFilters);
  const state: NotificationState = params.filters.state === 'resolved' ? 'resolved' : 'open';
  const kind = isKind(params.filters.kind) ? params.filters.kind : null;
  const list = useQuery(notificationQueries.list({ state, kind, page: params.page, perPage: params.perPage }));
  const markRead = useMarkRead();
  /** The card itself shows it read (no Unread badge, no button); only a failure is told. Following the link reads quietly. */
  const read = async (item: NotificationItem, quiet = false) => {
    try {
      await markRead.mutateAsync(item.id);
    } catch (error) {
      if (!quiet) notify.error(errorMessage(error));
    }
  };
  const rows = list.data?.data;
  return (
    <>
      <PageHeader
        title="Notifications"
        actions={
          <Button
            variant="default"
            component={Link}
            to={`/user-profile#${EMAIL_ALERTS_ANCHOR}`}
            leftSection={<IconSettings size={16} aria-hidden />}
          >
            E-mail settings
          </Button>
        }
      />
      <ListCard
        query={list}
        toolbar={
          <>
            <Tabs
              value={state}
              onChange={(value) => setFilter('state', value === 'resolved' ? 'resolved' : null)}
              style={{ flex: '1 1 auto' }}
            >
              <Tabs.List>
                <Tabs.Tab value="open">
                  Open
                  {list.data && list.data.unread > 0 ? (
                    <Badge ml={6} size="sm" color="red.8" variant="filled" aria-label={`${list.data.unread} unread`}>
                      {list.data.unread}
                    </Badge>
                  ) : null}
                </Tabs.Tab>
                <Tabs.Tab value="resolved">Resolved</Tabs.Tab>
              </Tabs.List>
            </Tabs>
            <Select
              label="Kind"
              placeholder="All kinds"
              clearable
              data={kindOptions}
              value={kind}
              onChange={(value) => setFilter('kind', value)}
              w={{ base: '100%', xs: 260 }}
              comboboxProps={{ withinPortal: true }}
            />
          </>
        }
      >
        {rows && rows.length > 0 ? (
          <Stack gap="xs" role="list" aria-label="Notifications">
            {rows.map((item) => (
              <NotificationCard
                key={item.id}
                item={item}
                when={clock.dayTime(item.created_at)}
                resolvedOn={clock.day(item.resolved_at)}
                onRead={(quiet) => read(item, quiet)}
                reading={markRead.isPending && markRead.variables === item.id}
              />
            ))}
          </Stack>
        ) : (
          <CardListPlaceholder loading={list.isLoading} empty={rows?.length === 0} emptyText={emptyText(state, kind)} />
        )}
        <Pager
          page={params.page}
          lastPage={list.data?.last_page ?? 1}
          onChange={setPage}
          total={list.data?.total}
          totalCapped={list.data?.total_capped}
          totalIsEstimate={list.data?.total_is_estimate}
          perPage={params.perPage}
          onPerPageChange={setPerPage}
          onOutOfRange={fitPage}
        />
      </ListCard>
    </>
  );
}

function NotificationCard({
  item,
  when,
  resolvedOn,
  onRead,
  reading,
}: {
  item: NotificationItem;
  when: string;
  resolvedOn: string;
  onRead: (quiet: boolean) => Promise<void>;
  reading: boolean;
}) {
  const unread = item.read_at === null;
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      role="listitem"
      aria-label={`${item.title}${unread ? ', unread' : ''}`}
      style={unread && item.state === 'open' ? { borderLeft: '4px solid var(--mantine-color-blue-7)' } : undefined}
    >
      <Stack gap={4}>
        <Group gap={6} wrap="wrap">
          <Badge variant="light" color={item.kind === 'loss_reported' || item.kind === 'check_failed' ? 'red' : 'blue'}>
            {item.kind_label}
          </Badge>
          {item.level > 0 ? (
            <Badge variant="outline" color="orange">
              Escalated
            </Badge>
          ) : null}
          {item.state === 'resolved' ? (
            <Badge variant="filled" color="gray.7">
              Resolved {resolvedOn}
            </Badge>
          ) : null}
          {unread ? (
            <Badge variant="filled" color="blue.8">
              Unread
            </Badge>
          ) : null}
          <Text size="xs" c="dimmed">
            {when}
          </Text>
        </Group>
        <Anchor component={Link} to={item.link} fw={600} onClick={() => (unread ? void onRead(true) : undefined)}>
          {item.title}
        </Anchor>
        <Text size="sm">{item.body}</Text>
        {unread ? (
          <Group justify="flex-end">
            <AppButton
              size="compact-sm"
              variant="secondary"
              loading={reading}
              onClick={() => void onRead(false)}
              aria-label={`Mark read: ${item.title}`}
            >
              Mark read
            </AppButton>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
