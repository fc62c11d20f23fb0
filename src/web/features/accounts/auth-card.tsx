import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

/** The frame of the public screens: product name, screen title, the form. */
export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Center component="main" mih="100dvh" p="md" bg="var(--mantine-color-gray-0)">
      <Paper withBorder shadow="sm" radius="md" p="xl" w="100%" maw={440} pos="relative">
        <Stack gap={4} mb="lg">
          <Text fw={800} c="blue.8" size="sm" tt="uppercase" style={{ letterSpacing: 1 }}>
            PadTrack
          </Text>
          <Title order={1} size="h2">
            {title}
          </Title>
          {subtitle ? (
            <Text c="dimmed" size="sm">
              {subtitle}
            </Text>
          ) : null}
        </Stack>
        {children}
      </Paper>
    </Center>
  );
}
