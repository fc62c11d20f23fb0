import { Alert, Button, Group, Text } from '@mantine/core';
import { IconWifiOff } from '@tabler/icons-react';
import { MSG } from '../../shared/messages.ts';
import { errorMessage } from '../lib/api.ts';

/** What the banner needs of a list's query (TanStack Query's result fits). */
export interface ListQueryState {
  isError: boolean;
  isFetching: boolean;
  data: unknown;
  error: unknown;
  refetch: () => unknown;
  /** When the rows shown were fetched (0 when never): offline, the list says so. */
  dataUpdatedAt?: number;
}

/**
 * A list whose refresh failed says so and offers Retry; rows loaded earlier stay on screen, marked as possibly
 * out of date, instead of passing for current.
 */
export function StaleListBanner({ query }: { query: ListQueryState }) {
  if (!query.isError) return null;
  return (
    <Alert color="orange" variant="light" role="alert" icon={<IconWifiOff size={18} aria-hidden />} p="xs">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm">
          {query.data ? `${MSG.staleList} ` : ''}
          {errorMessage(query.error)}
        </Text>
        <Button size="compact-sm" variant="white" color="orange.9" loading={query.isFetching} onClick={() => void query.refetch()}>
          Retry
        </Button>
      </Group>
    </Alert>
  );
}
