import { Checkbox, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { routeLabel } from '../../../shared/format.ts';
import type { HeldPad } from '../../../shared/schemas/custodies.ts';
import { AppButton } from '../../components/app-button.tsx';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { custodyQueries } from './api.ts';

/**
 * The caller's own unlocked pads (get-user-pads) with checkboxes, search and pages. The selection is kept
 * across pages and searches; `onEdit` adds the EDIT button of the return modal.
 */
export function HeldPadsPicker({
  selected,
  onToggle,
  onEdit,
  error,
}: {
  selected: Map<number, HeldPad>;
  onToggle: (pad: HeldPad, checked: boolean) => void;
  onEdit?: (pad: HeldPad) => void;
  error?: string | null;
}) {
  const [params, setParams] = useState({ page: 1, search: '' });
  const list = useQuery(custodyQueries.userPads(params));
  const rows = list.data?.data;
  const columns = onEdit ? 6 : 5;

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
        <SearchInput placeholder="Search by pad name" onSearch={(search) => setParams({ page: 1, search })} />
        <Text size="sm" c="dimmed" aria-live="polite">
          {selected.size} selected
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={560} type="native">
        <Table striped withTableBorder verticalSpacing="xs" aria-label="My pads">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={44}>
                <VisuallyHidden>Select</VisuallyHidden>
              </Table.Th>
              <Table.Th>Pad Number</Table.Th>
              <Table.Th>Series Number</Table.Th>
              <Table.Th>Route</Table.Th>
              <Table.Th>Pad Status</Table.Th>
              {onEdit ? <Table.Th>Actions</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {!rows && list.isLoading ? (
              <Table.Tr data-testid="table-loader">
                <Table.Td colSpan={columns}>
                  <Text c="dimmed" ta="center">
                    Loading...
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {rows && rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columns}>
                  <Text c="dimmed" ta="center" py="sm">
                    No pads
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : null}
            {rows?.map((pad) => (
              <Table.Tr key={pad.id} bg={selected.has(pad.id) ? 'var(--mantine-color-blue-light)' : undefined}>
                <Table.Td>
                  <Checkbox
                    aria-label={`Select pad ${pad.number}`}
                    checked={selected.has(pad.id)}
                    onChange={(event) => onToggle(pad, event.currentTarget.checked)}
                  />
                </Table.Td>
                <Table.Td>{pad.number}</Table.Td>
                <Table.Td>{pad.series_number}</Table.Td>
                <Table.Td>{routeLabel(pad.route)}</Table.Td>
                <Table.Td>{pad.pad_status.name}</Table.Td>
                {onEdit ? (
                  <Table.Td>
                    <AppButton size="compact-sm" variant="secondary" onClick={() => onEdit(pad)} aria-label={`Edit pad ${pad.number}`}>
                      EDIT
                    </AppButton>
                  </Table.Td>
                ) : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {error ? (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      ) : null}
      <Pager page={params.page} lastPage={list.data?.last_page ?? 1} onChange={(page) => setParams((p) => ({ ...p, page }))} />
    </Stack>
  );
}
