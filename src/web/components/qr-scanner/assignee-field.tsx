import { Group, Select, Stack } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { OfflineNote, useNothingFound } from '../offline-banner.tsx';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import type { AssignableUser } from '../../../shared/schemas/users.ts';
import { AppButton } from '../app-button.tsx';
import { personOptions, type PersonChoice } from '../person-option.tsx';
import { AssigneeScanner, type ScannedPerson } from './assignee-scanner.tsx';

/** The couriers one may assign or hand to; Custodies loads it too, so a hand-over can be picked offline. */
export const couriersQuery = () =>
  queryOptions({
    queryKey: queryKeys.couriers.all,
    queryFn: () => api.get<{ data: AssignableUser[] }>('get-users-by-roles').then((r) => r.data),
    staleTime: 60_000,
  });

const resolveBadge = (code: string) =>
  api.get<{ data: ScannedPerson }>(`get-assigned-user/${encodeURIComponent(code)}`).then((r) => r.data);

/**
 * docs/spec.md §2 "Assign to" / "Hand over to": the couriers (roles 10 and 11) to pick from, and an Open Scanner
 * button whose scanned badge adds and picks whoever it belongs to.
 */
export function AssigneeField({
  label = 'Assign to',
  value,
  onChange,
  error,
  excludeIds = [],
  onBadge,
}: {
  label?: string;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: ReactNode;
  excludeIds?: number[];
  /** The scanned badge and when it was scanned; null when the person was picked from the list instead. */
  onBadge?: (scan: { code: string; at: string } | null) => void;
}) {
  const couriers = useQuery(couriersQuery());
  const nothingFound = useNothingFound('No users found', couriers.dataUpdatedAt);
  const [scanned, setScanned] = useState<ScannedPerson[]>([]);
  const [scanning, setScanning] = useState(false);
  const options = useMemo(() => {
    const people = new Map<number, PersonChoice>();
    for (const p of couriers.data ?? []) if (!excludeIds.includes(p.id)) people.set(p.id, p);
    for (const p of scanned) people.set(p.id, { ...people.get(p.id), ...p });
    return personOptions([...people.values()]);
  }, [couriers.data, scanned, excludeIds]);

  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs" wrap="wrap">
        <Select
          label={label}
          withAsterisk
          placeholder="Select a user"
          searchable
          clearable
          {...options}
          value={value}
          onChange={(picked) => {
            onBadge?.(null);
            onChange(picked);
          }}
          error={error}
          nothingFoundMessage={nothingFound}
          comboboxProps={{ withinPortal: true }}
          style={{ flex: '1 1 220px' }}
        />
        <AppButton
          variant="secondary"
          leftSection={<IconQrcode size={16} />}
          onClick={() => setScanning((s) => !s)}
          aria-expanded={scanning}
        >
          {scanning ? 'Close Scanner' : 'Open Scanner'}
        </AppButton>
      </Group>
      <OfflineNote updatedAt={couriers.dataUpdatedAt} />
      {scanning ? (
        <AssigneeScanner
          resolve={resolveBadge}
          saved={() => couriers.data ?? []}
          onResolved={({ person, code }) => {
            onBadge?.({ code, at: new Date().toISOString() });
            setScanned((list) => [...list.filter((p) => p.id !== person.id), person]);
            onChange(String(person.id));
          }}
        />
      ) : null}
    </Stack>
  );
}
