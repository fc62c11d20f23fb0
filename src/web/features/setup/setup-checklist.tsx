import { Anchor, Group, List, Paper, Progress, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconCircleDashed } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { can } from '../../../shared/permissions.ts';
import { SETUP_STEPS } from '../../../shared/setup-steps.ts';
import { useSession } from '../../lib/session.ts';
import { setupQueries } from './api.ts';

/**
 * On a new installation the administrator's home lists what to set up first, in order, each step linking to
 * its screen and ticked once done; it disappears when every step is done.
 */
export function SetupChecklist() {
  const user = useSession()?.user;
  const admin = can(user, 'administer');
  const status = useQuery({ ...setupQueries.status(), enabled: admin });
  if (!admin || !status.data) return null;
  const done = SETUP_STEPS.filter((step) => status.data[step.key]).length;
  if (done === SETUP_STEPS.length) return null;
  const next = SETUP_STEPS.find((step) => !status.data[step.key]);
  return (
    <Paper withBorder radius="md" p="md" mb="md" component="section" aria-labelledby="setup-title">
      <Stack gap="sm">
        <Group justify="space-between" align="baseline">
          <Title order={2} size="h4" id="setup-title">
            Set up PadTrack
          </Title>
          <Text size="sm" c="dimmed">
            {done} of {SETUP_STEPS.length} done
          </Text>
        </Group>
        <Progress value={(done / SETUP_STEPS.length) * 100} size="sm" aria-label="Setup progress" />
        <List spacing="xs" center aria-label="Setup steps">
          {SETUP_STEPS.map((step, index) => {
            const isDone = status.data[step.key];
            return (
              <List.Item
                key={step.key}
                data-done={isDone}
                icon={
                  <ThemeIcon color={isDone ? 'teal' : 'gray'} variant={isDone ? 'filled' : 'light'} size={22} radius="xl" aria-hidden>
                    {isDone ? <IconCheck size={14} /> : <IconCircleDashed size={14} />}
                  </ThemeIcon>
                }
              >
                <Anchor
                  component={Link}
                  to={step.path}
                  fw={step === next ? 700 : 400}
                  td={isDone ? 'line-through' : undefined}
                  c={isDone ? 'dimmed' : undefined}
                >
                  {index + 1}. {step.label}
                </Anchor>
                <Text span size="sm" c={isDone ? 'teal.8' : 'dimmed'} ml="xs">
                  {isDone ? 'Done' : step === next ? 'Next' : 'To do'}
                </Text>
              </List.Item>
            );
          })}
        </List>
      </Stack>
    </Paper>
  );
}
