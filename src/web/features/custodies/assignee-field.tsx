import { Group, Select, Stack } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { AppButton } from '../../components/app-button.tsx';
import { AssigneeScanner } from '../../components/qr-scanner/assignee-scanner.tsx';
import { custodyApi, custodyQueries } from './api.ts';

interface Person {
  id: number;
  full_name: string;
}

/**
 * A user select with an Open Scanner button (spec §2 "Assign to" / "Hand over to"): the couriers are offered,
 * and a scanned badge adds and picks whoever it belongs to.
 */
export function AssigneeField({
  label,
  value,
  onChange,
  error,
  excludeIds = [],
}: {
  label: string;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string | null;
  excludeIds?: number[];
}) {
  const couriers = useQuery(custodyQueries.couriers());
  const [scanned, setScanned] = useState<Person[]>([]);
  const [scanning, setScanning] = useState(false);
  const options = useMemo(() => {
    const seen = new Map<number, Person>();
    for (const person of couriers.data ?? []) if (!excludeIds.includes(person.id)) seen.set(person.id, person);
    for (const person of scanned) seen.set(person.id, person);
    return [...seen.values()].map((p) => ({ value: String(p.id), label: p.full_name }));
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
          data={options}
          value={value}
          onChange={onChange}
          error={error}
          nothingFoundMessage="No users found"
          comboboxProps={{ withinPortal: true }}
          style={{ flex: '1 1 220px' }}
        />
        <AppButton variant="secondary" leftSection={<IconQrcode size={16} />} onClick={() => setScanning((s) => !s)} aria-expanded={scanning}>
          {scanning ? 'Close Scanner' : 'Open Scanner'}
        </AppButton>
      </Group>
      {scanning ? (
        <AssigneeScanner
          resolve={custodyApi.resolveBadge}
          onResolved={(person) => {
            setScanned((list) => [...list.filter((p) => p.id !== person.id), person]);
            onChange(String(person.id));
            setScanning(false);
          }}
        />
      ) : null}
    </Stack>
  );
}
