import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { greetingName } from '../../shared/format.ts';
import { useDocumentTitle } from '../lib/use-document-title.ts';
import { useSession } from '../lib/session.ts';

/** Every screen greets the user by first name (docs/spec.md §1) above its title (the screen's one h1, also the document title) and actions. */
export function PageHeader({ title, actions }: { title: string; actions?: ReactNode }) {
  const session = useSession();
  useDocumentTitle(title);
  return (
    <Group justify="space-between" align="flex-end" mb="md" wrap="wrap" gap="sm">
      <Stack gap={2}>
        <Text c="dimmed" size="sm">
          Hello, {greetingName(session?.user)}
        </Text>
        <Title order={1} size="h2">
          {title}
        </Title>
      </Stack>
      {actions ? (
        <Group gap="xs" wrap="wrap">
          {actions}
        </Group>
      ) : null}
    </Group>
  );
}
