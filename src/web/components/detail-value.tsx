import { Text } from '@mantine/core';
import type { ReactNode } from 'react';

/** One fact of a details modal: a small label over its value, "-" when there is none. */
export function DetailValue({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
        {children === null || children === undefined || children === '' ? '-' : children}
      </Text>
    </div>
  );
}
