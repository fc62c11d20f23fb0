import { Alert, Group, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { routeLabel } from '../../../shared/format.ts';
import { movablePadRefusal } from '../../../shared/custody-rules.ts';
import { choosePad } from '../../components/qr-scanner/scan-rules.ts';
import { CUSTODY_MSG, type HeldPad } from '../../../shared/schemas/custodies.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable, type Column, type RowSelection } from '../../components/data-table.tsx';
import { PadCards } from '../../components/pad-cards.tsx';
import { Pager } from '../../components/pager.tsx';
import { announceLabel, PadLabelScanner, takeLabel } from '../../components/qr-scanner/pad-label-scanner.tsx';
import type { ScanOutcome } from '../../components/qr-scanner/qr-scanner.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { useListParams } from '../../lib/use-list-params.ts';
import { useSession } from '../../lib/session.ts';
import { custodyQueries } from './api.ts';
import { usePhone } from '../../lib/use-media.ts';

const noFilters = {};

const columns: Column<HeldPad>[] = [
  { key: 'number', header: 'Pad Number', render: (p) => p.number },
  { key: 'series', header: 'Series Number', render: (p) => p.series_number },
  { key: 'route', header: 'Route', wrap: true, render: (p) => routeLabel(p.route) },
  { key: 'status', header: 'Pad Status', render: (p) => p.pad_status.name },
];

/**
 * The caller's own unlocked pads (get-user-pads) with checkboxes, search and pages. The selection is kept
 * by the owner across pages and searches; `onEdit` adds the EDIT button of the return modal.
 */
export function HeldPadsPicker({
  selection,
  count,
  onEdit,
  error,
}: {
  selection: RowSelection<HeldPad>;
  count: number;
  onEdit?: (pad: HeldPad) => void;
  error?: ReactNode;
}) {
  const { params, setSearch, setPage } = useListParams(noFilters, { inUrl: false });
  const userId = useSession()?.user.id;
  const list = useQuery(custodyQueries.userPads({ page: params.page, search: params.search }));
  const phone = usePhone();
  const editButton = (pad: HeldPad) => (
    <AppButton size="compact-sm" variant="secondary" onClick={() => onEdit?.(pad)} aria-label={`Edit pad ${pad.number}`}>
      EDIT
    </AppButton>
  );
  const shown: Column<HeldPad>[] = onEdit ? [...columns, { key: 'actions', header: 'Actions', render: editButton }] : columns;

  /** docs/design.md §9 scan to select: a scanned label picks the caller's pad, or says why it cannot. */
  const chooseScanned = (pad: HeldPad): ScanOutcome => {
    const { pick, ...outcome } = choosePad(pad, movablePadRefusal(pad, userId), selection.isSelected(pad) ? [pad.id] : []);
    if (pick) selection.onChange([pad], true);
    return outcome;
  };

  const noneHeld = list.data?.total === 0 && !params.search;

  return (
    <Stack gap="xs">
      {noneHeld ? (
        <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} title="No pads in your custody">
          {CUSTODY_MSG.noPadsHeld}
        </Alert>
      ) : null}
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
        <SearchInput
          placeholder="Search by pad name"
          onSearch={setSearch}
          take={takeLabel((code) => void announceLabel(code, chooseScanned))}
        />
        <Text size="sm" c="dimmed" aria-live="polite">
          {count} selected
        </Text>
      </Group>
      <PadLabelScanner choose={chooseScanned} />
      {phone ? (
        <PadCards
          rows={list.data?.data}
          loading={list.isLoading}
          emptyText="No pads"
          label="My pads"
          selection={selection}
          actions={onEdit ? editButton : undefined}
        />
      ) : (
        <DataTable
          columns={shown}
          rows={list.data?.data}
          rowKey={(p) => p.id}
          loading={list.isLoading}
          emptyText="No pads"
          label="My pads"
          selection={selection}
        />
      )}
      {error ? (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      ) : null}
      <Pager page={params.page} lastPage={list.data?.last_page ?? 1} onChange={setPage} />
    </Stack>
  );
}
