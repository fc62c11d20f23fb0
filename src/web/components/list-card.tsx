import { Group, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { OfflineNote } from './offline-banner.tsx';
import { StaleListBanner, type ListQueryState } from './stale-list-banner.tsx';

/**
 * The frame of every list screen: a toolbar row (search, filter toggle, buttons), optional filters, a banner when the list
 * could not be refreshed, the table and the pager.
 */
export function ListCard({
  toolbar,
  filters,
  query,
  children,
}: {
  toolbar: ReactNode;
  filters?: ReactNode;
  query: ListQueryState;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }} pos="relative">
      <Stack gap="sm">
        <Group gap="sm" wrap="wrap" align="flex-end">
          {toolbar}
        </Group>
        {filters}
        <StaleListBanner query={query} />
        <OfflineNote updatedAt={query.dataUpdatedAt ?? 0} />
        {children}
      </Stack>
    </Paper>
  );
}
