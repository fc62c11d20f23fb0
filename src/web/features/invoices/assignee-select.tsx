import { Group, Select, Stack } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { AppButton } from '../../components/app-button.tsx';
import { AssigneeScanner, type ScannedPerson } from '../../components/qr-scanner/assignee-scanner.tsx';
import { invoiceApi, invoiceQueries } from './api.ts';

/** "Assign to": the couriers to pick from, and an Open Scanner button whose scanned badge picks the person. */
export function AssigneeSelect({ value, onChange, error }: { value: string | null; onChange: (value: string | null) => void; error?: string | null }) {
  const couriers = useQuery(invoiceQueries.couriers());
  const [scanned, setScanned] = useState<ScannedPerson[]>([]);
  const [scanning, setScanning] = useState(false);
  const options = useMemo(() => {
    const people = new Map<number, string>();
    for (const p of couriers.data ?? []) people.set(p.id, p.full_name);
    for (const p of scanned) people.set(p.id, p.full_name);
    return [...people].map(([id, name]) => ({ value: String(id), label: name }));
  }, [couriers.data, scanned]);

  return (
    <Stack gap="xs">
      <Group align="flex-end" gap="xs" wrap="wrap">
        <Select
          label="Assign to"
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
          resolve={invoiceApi.resolveBadge}
          onResolved={(person) => {
            setScanned((list) => [...list.filter((p) => p.id !== person.id), person]);
            onChange(String(person.id));
          }}
        />
      ) : null}
    </Stack>
  );
}
