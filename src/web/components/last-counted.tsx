import { Anchor, Text } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { canOpenScreen } from '../../shared/permissions.ts';
import type { LastCount } from '../../shared/schemas/counts.ts';
import { api } from '../lib/api.ts';
import { useClock } from '../lib/clock.ts';
import { queryKeys } from '../lib/query-keys.ts';
import { useSession } from '../lib/session.ts';

export type CountedHolder = { user_id: number } | { branch_id: number };

/** GET counts/last: the holder named and when they were last counted; Accountability and the Counts screen read it. */
export const lastCountQuery = (holder: CountedHolder) =>
  queryOptions({
    queryKey: queryKeys.lastCount.of(holder),
    queryFn: () => api.get<{ data: LastCount }>('counts/last', holder).then((r) => r.data),
  });

/** docs/design.md §9: a holder's screen says when their pads were last physically counted, linking the count for counters. */
export function LastCounted({ holder }: { holder: CountedHolder }) {
  const last = useQuery(lastCountQuery(holder));
  const clock = useClock();
  const counter = canOpenScreen(useSession()?.user, 'counts');
  const data = last.data;
  if (!data) return null;
  return (
    <Text size="sm" data-testid="last-counted">
      {data.last_counted_at === null ? (
        'Never physically counted'
      ) : (
        <>
          Last counted {clock.day(data.last_counted_at)}
          {data.count_id !== null ? (
            <>
              {' '}
              (
              {counter ? (
                <Anchor component={Link} to={`/counts?count=${data.count_id}`} size="sm" underline="always">
                  count #{data.count_id}
                </Anchor>
              ) : (
                `count #${data.count_id}`
              )}
              )
            </>
          ) : null}
        </>
      )}
    </Text>
  );
}
