import { SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useNothingFound } from '../../components/offline-banner.tsx';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { can, type Actor } from '../../../shared/permissions.ts';
import { accountabilityQueries } from './api.ts';
import { holderOptionGroups, rollupReach, ROLLUP, seesOthers, type HolderOption } from './holders.ts';
import { monthOptions } from './months.ts';

/** The holders the picker offers: the people and branch stocks of the user's RAAF scope, plus `extra`. */
function useHolderOptions(user: (Actor & { full_name: string }) | undefined, extra: HolderOption[]) {
  const wider = seesOthers(user);
  const roles = useQuery({ ...lookupQueries.roles(), enabled: wider });
  const people = useQuery(accountabilityQueries.people(wider ? (roles.data ?? []).map((r) => r.id) : []));
  const branches = useQuery({ ...lookupQueries.branches(), enabled: wider });
  return useMemo(
    () => (user ? holderOptionGroups(user, people.data ?? [], branches.data ?? [], extra) : []),
    [user, people.data, branches.data, extra],
  );
}

/** The branches whose roll-up the user may open. */
function useRollupOptions(user: Actor | undefined, reach: { any: boolean; own: boolean }) {
  const branches = useQuery({ ...lookupQueries.branches(), enabled: reach.any || reach.own });
  return useMemo(
    () =>
      (branches.data ?? [])
        .filter((branch) => can(user, 'raaf.rollup', { branch_id: branch.id }))
        .map((branch) => ({ value: `${ROLLUP}${branch.id}`, label: branch.name })),
    [branches.data, user],
  );
}

/**
 * Accountability's choice of report: the month, the view (one holder or a branch roll-up, for whoever may open a
 * roll-up) and the holder or branch. Every change goes to the address through `pick`.
 */
export function HolderPicker({
  user,
  current,
  month,
  holder,
  rollupBranch,
  extra,
  pick,
}: {
  user: (Actor & { full_name: string }) | undefined;
  /** This month, the newest the picker offers. */
  current: string;
  month: string;
  holder: string | undefined;
  rollupBranch: number | null;
  extra: HolderOption[];
  pick: (changes: { month?: string; holder?: string }) => void;
}) {
  const months = useMemo(() => monthOptions(current), [current]);
  const reach = rollupReach(user);
  const rollupOptions = useRollupOptions(user, reach);
  const holderOptions = useHolderOptions(user, extra);
  const nobody = useNothingFound('No one by that name', 0);
  const ownBranch = user?.branch_id ?? null;
  return (
    <>
      <Select
        label="Month"
        data={months}
        value={month}
        onChange={(value) => value && pick({ month: value })}
        allowDeselect={false}
        w={{ base: '100%', xs: 210 }}
      />
      {reach.any || reach.own ? (
        <Stack gap={4} w={{ base: '100%', xs: 'auto' }}>
          <Text size="sm" fw={500} id="raaf-view-label">
            View
          </Text>
          <SegmentedControl
            aria-labelledby="raaf-view-label"
            data={[
              { value: 'holder', label: 'One holder' },
              { value: 'rollup', label: 'Branch roll-up' },
            ]}
            value={rollupBranch === null ? 'holder' : 'rollup'}
            onChange={(value) =>
              pick({
                holder:
                  value === 'rollup'
                    ? `${ROLLUP}${reach.own ? ownBranch : (rollupOptions[0]?.value.slice(ROLLUP.length) ?? 0)}`
                    : `u:${user?.id ?? 0}`,
              })
            }
          />
        </Stack>
      ) : null}
      <Select
        label={rollupBranch === null ? 'Holder' : 'Branch'}
        data={rollupBranch === null ? holderOptions : rollupOptions}
        value={holder ?? null}
        onChange={(value) => value && pick({ holder: value })}
        allowDeselect={false}
        searchable
        nothingFoundMessage={nobody}
        w={{ base: '100%', xs: 320 }}
      />
    </>
  );
}
