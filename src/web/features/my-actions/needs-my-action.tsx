import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { MyActionGroup, MyActionItem } from '../../../shared/schemas/my-actions.ts';
import { AppButton } from '../../components/app-button.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { useAnswerHandOver } from '../../lib/use-answer-hand-over.ts';
import { myActionQueries } from './api.ts';
import { usePhone } from '../../lib/use-media.ts';

/** A hand-over waiting for the user (docs/design.md §5): its question, answered here or with Decline in Custodies. */
function HandOverItem({ item }: { item: MyActionItem }) {
  const answer = useAnswerHandOver();
  const accept = async () => {
    try {
      notify.success((await answer.mutateAsync({ id: item.id, accept: true })).message);
    } catch (failure) {
      notify.error(errorMessage(failure));
    }
  };
  return (
    <Group gap="xs" justify="space-between" wrap="wrap">
      <Anchor component={Link} to={item.path} size="sm">
        {item.label}
      </Anchor>
      <AppButton size="compact-sm" loading={answer.isPending} onClick={() => void accept()}>
        Accept custody
      </AppButton>
    </Group>
  );
}

/** On a phone each group lists only its first item, so the screen below stays within reach of the thumb. */
function GroupCard({ group, phone }: { group: MyActionGroup; phone: boolean }) {
  const items = phone ? group.items.slice(0, 1) : group.items;
  const more = group.count - items.length;
  return (
    <Paper withBorder p="sm" radius="md" component="section" aria-label={`${group.title}: ${group.count}`}>
      <Group justify="space-between" wrap="nowrap" mb={6}>
        <Text fw={600} size="sm">
          {group.title}
        </Text>
        <Badge color="blue.8" variant="filled" size="lg" aria-hidden>
          {group.count}
        </Badge>
      </Group>
      <Stack gap={4}>
        {items.map((item) =>
          group.kind === 'accept_hand_over' ? (
            <HandOverItem key={item.id} item={item} />
          ) : (
            <Anchor key={item.id} component={Link} to={item.path} size="sm" lineClamp={phone ? 1 : 2}>
              {item.label}
            </Anchor>
          ),
        )}
        {more > 0 ? (
          <Anchor component={Link} to={group.list_path} size="xs">
            and {more} more
          </Anchor>
        ) : null}
      </Stack>
    </Paper>
  );
}

/** "Needs my action" (docs/user-guide.md "Screens"), at the top of the role's home screen: each group with its count and links that open the item. */
export function NeedsMyAction() {
  const mine = useQuery(myActionQueries.mine());
  const phone = usePhone();
  if (!mine.data || mine.data.groups.length === 0) return null;
  const waiting = mine.data.groups.filter((group) => group.count > 0);
  return (
    <Paper withBorder radius="md" p="md" mb="md" component="section" aria-labelledby="needs-my-action-title">
      <Group gap="xs" mb={waiting.length > 0 ? 'sm' : 0}>
        <Title order={2} size="h4" id="needs-my-action-title">
          Needs my action
        </Title>
        {waiting.length > 0 ? (
          <Badge color="red.9" variant="filled">
            {mine.data.total}
          </Badge>
        ) : (
          <Text size="sm" c="dimmed">
            Nothing waits for you right now.
          </Text>
        )}
      </Group>
      {waiting.length > 0 ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: Math.min(waiting.length, 4) }} spacing="sm">
          {waiting.map((group) => (
            <GroupCard key={group.kind} group={group} phone={phone} />
          ))}
        </SimpleGrid>
      ) : null}
    </Paper>
  );
}
