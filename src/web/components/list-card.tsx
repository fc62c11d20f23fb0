import { Group, Paper, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

/** The frame of every list screen: a toolbar row (search, filter toggle, buttons), optional filters, the table and the pager. */
export function ListCard({ toolbar, filters, children }: { toolbar: ReactNode; filters?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }} pos="relative">
      <Stack gap="sm">
        <Group gap="sm" wrap="wrap" align="flex-end">
          {toolbar}
        </Group>
        {filters}
        {children}
      </Stack>
    </Paper>
  );
}
