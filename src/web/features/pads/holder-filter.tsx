import { Select, Text } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ROLE } from '../../../shared/lookups.ts';
import { can, type Actor } from '../../../shared/permissions.ts';
import type { AssignableUser } from '../../../shared/schemas/users.ts';
import { personRoleAndBranch } from '../../components/person-option.tsx';
import { api } from '../../lib/api.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { queryKeys } from '../../lib/query-keys.ts';

const EVERY_ROLE = Object.values(ROLE).join(',');

/** Everyone who may hold pads, with role and branch, for the head office's Held by filter. */
const holdersQuery = () =>
  queryOptions({
    queryKey: queryKeys.couriers.of(EVERY_ROLE),
    queryFn: () => api.get<{ data: AssignableUser[] }>('get-users-by-roles', { roles: EVERY_ROLE }).then((r) => r.data),
    staleTime: 60_000,
  });

const OWN_OPTIONS = [
  { value: 'all', label: 'All pads' },
  { value: 'mine', label: 'My pads' },
  { value: 'branch', label: 'My branch' },
];

/** The Held by value as get-pads takes it: mine, branch, or (head office) one branch's or one person's pads. */
export function holderParams(holder: string | null): { holder?: string; holder_branch?: string; holder_user?: string } {
  if (holder === 'mine' || holder === 'branch') return { holder };
  const [kind, id] = (holder ?? '').split(':');
  if (kind === 'b' && id) return { holder_branch: id };
  if (kind === 'u' && id) return { holder_user: id };
  return {};
}

/**
 * docs/design.md §10 Inventories "Held by": everyone picks their own pads or their branch's; the head office and
 * the auditors (`pad.filterAnyHolder`) also any branch or any person, each person shown with role and branch.
 */
export function HolderFilter({
  actor,
  value,
  onChange,
}: {
  actor: Actor | null | undefined;
  value: string;
  onChange: (value: string) => void;
}) {
  const anyHolder = can(actor, 'pad.filterAnyHolder');
  const branches = useQuery({ ...lookupQueries.branches(), enabled: anyHolder });
  const people = useQuery({ ...holdersQuery(), enabled: anyHolder });
  const details = new Map((people.data ?? []).map((person) => [`u:${person.id}`, personRoleAndBranch(person)]));
  const data = anyHolder
    ? [
        { group: 'Held by', items: OWN_OPTIONS },
        { group: 'Branches', items: (branches.data ?? []).map((b) => ({ value: `b:${b.id}`, label: b.name })) },
        { group: 'People', items: (people.data ?? []).map((p) => ({ value: `u:${p.id}`, label: p.full_name })) },
      ]
    : OWN_OPTIONS;
  return (
    <Select
      label="Held by"
      data={data}
      value={value}
      onChange={(picked) => onChange(picked ?? 'all')}
      allowDeselect={false}
      searchable={anyHolder}
      renderOption={({ option }) => (
        <div>
          <Text size="sm">{option.label}</Text>
          {details.get(option.value) ? (
            <Text size="xs" c="dimmed">
              {details.get(option.value)}
            </Text>
          ) : null}
        </div>
      )}
      comboboxProps={{ withinPortal: true }}
      w={{ base: '100%', xs: anyHolder ? 280 : 200 }}
    />
  );
}
