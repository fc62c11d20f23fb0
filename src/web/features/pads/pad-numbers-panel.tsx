import { Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { SERIES_ENTRY } from '../../../shared/lookups.ts';
import { firstPendingIn, pendingWord } from '../../../shared/pending-outcomes.ts';
import type { Outcome } from '../../../shared/schemas/outcomes.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { AppButton } from '../../components/app-button.tsx';
import { QueuedActions } from '../../components/queued-actions.tsx';
import { notify } from '../../components/notify.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { sendOrQueue } from '../../lib/outbox.ts';
import { useSession } from '../../lib/session.ts';
import { useRecordUsage } from './api.ts';
import { announceUsage, OutcomeModal, rangeText, RevertModal, SkipReasonModal, usageAction } from './number-outcome-modals.tsx';
import { SeriesGrid } from './series-grid.tsx';
import { parseTypedRange, type NumberRange } from './series-selection.ts';

/** What the signed-in user may do to this pad's numbers (the server checks the same rules). */
export interface NumberRights {
  use: boolean;
  writeOff: boolean;
  revert: boolean;
}

type Dialog = { kind: 'skip' } | { kind: 'outcome'; outcome: Outcome } | { kind: 'revert' } | null;

/** The states of the picked numbers: all one state, or mixed. */
function pickedState(pad: Pad, range: NumberRange): number | 'mixed' {
  const states = new Set(pad.series.filter((entry) => entry.number >= range.from && entry.number <= range.to).map((entry) => entry.status));
  return states.size === 1 ? [...states][0] : 'mixed';
}

/** The typed range beside the grid: Enter (or Select) picks the run the two taps would, for keyboards and long booklets. */
function TypedRange({ pad, onSelect }: { pad: Pad; onSelect: (range: NumberRange) => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const pick = () => {
    const typed = parseTypedRange(text, { from: pad.series_from, to: pad.series_to });
    if ('error' in typed) {
      setError(typed.error);
      return;
    }
    setError(null);
    setText('');
    onSelect(typed.range);
  };
  return (
    <Group gap="xs" align="flex-start" wrap="nowrap">
      <TextInput
        label="Type a range"
        placeholder={`e.g. ${rangeText({ from: pad.series_from, to: Math.min(pad.series_to, pad.series_from + 36) })}`}
        inputMode="numeric"
        value={text}
        error={error}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          pick();
        }}
        style={{ flex: 1, maxWidth: 320 }}
      />
      <AppButton variant="secondary" mt={25} onClick={pick}>
        Select
      </AppButton>
    </Group>
  );
}

/**
 * docs/design.md §9 in Pad Details: pick a number or a range in the grid, then "Mark used 1201–1237" in one action, or cancel,
 * report lost, or undo a cancellation. Usage after the next number asks for the reason first.
 */
export function PadNumbersPanel({ pad, rights }: { pad: Pad; rights: NumberRights }) {
  const [selected, setSelected] = useState<NumberRange | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const usage = useRecordUsage();
  const userId = useSession()?.user.id ?? 0;
  const any = rights.use || rights.writeOff || rights.revert;
  const done = () => {
    setDialog(null);
    setSelected(null);
  };

  const markUsed = async (range: NumberRange) => {
    if (pad.next_number !== null && range.from > pad.next_number) {
      setDialog({ kind: 'skip' });
      return;
    }
    const body = { from: range.from, to: range.to };
    try {
      const answer = await sendOrQueue(() => usage.mutateAsync({ padId: pad.id, ...body }), usageAction(userId, pad, body));
      if (answer) announceUsage(answer);
      setSelected(null);
    } catch (error) {
      if (error instanceof ApiError && error.field('reason')) setDialog({ kind: 'skip' });
      else notify.error(errorMessage(error));
    }
  };

  const state = selected ? pickedState(pad, selected) : null;
  const waiting = selected ? firstPendingIn(pad.pending_outcomes, selected.from, selected.to) : null;
  const count = selected ? selected.to - selected.from + 1 : 0;
  const locked = pad.locked_by_invoice_id !== null;

  const bar = selected ? (
    <Paper withBorder shadow="sm" p="xs" radius="md" bg="var(--mantine-color-yellow-0)" data-testid="selection-bar" aria-live="polite">
      <Stack gap={6}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm">
            Selected <strong>{rangeText(selected)}</strong> ({count})
          </Text>
          <AppButton size="compact-sm" variant="secondary" onClick={() => setSelected(null)}>
            Clear
          </AppButton>
        </Group>
        {locked && (state === SERIES_ENTRY.NOT_USED || state === SERIES_ENTRY.CANCELLED) ? (
          <Text size="sm">This pad is on an in-transit invoice; its numbers change after that invoice is accepted.</Text>
        ) : null}
        {waiting ? (
          <Text size="sm" data-testid="selection-pending">
            {rangeText(waiting.request)} {waiting.request.from === waiting.request.to ? 'has' : 'have'} a{' '}
            {pendingWord(waiting.request.outcome)} (asked by {waiting.request.requested_by}):{' '}
            {waiting.request.from === waiting.request.to ? 'it' : 'they'} cannot be used until the Branch Head or Supervisor decides.
          </Text>
        ) : null}
        {!locked && !waiting && state === SERIES_ENTRY.NOT_USED ? (
          <Group gap="xs" wrap="wrap">
            {rights.use ? (
              <AppButton loading={usage.isPending} onClick={() => void markUsed(selected)}>
                Mark used {rangeText(selected)}
              </AppButton>
            ) : null}
            {rights.writeOff ? (
              <>
                <AppButton variant="secondary" onClick={() => setDialog({ kind: 'outcome', outcome: 'cancelled' })}>
                  Cancel numbers…
                </AppButton>
                <AppButton variant="secondary" onClick={() => setDialog({ kind: 'outcome', outcome: 'lost' })}>
                  Report lost…
                </AppButton>
              </>
            ) : null}
          </Group>
        ) : null}
        {!locked && state === SERIES_ENTRY.CANCELLED && rights.revert ? (
          <Group gap="xs">
            <AppButton variant="secondary" onClick={() => setDialog({ kind: 'revert' })}>
              Undo cancellation…
            </AppButton>
          </Group>
        ) : null}
        {state === SERIES_ENTRY.USED ? <Text size="sm">Used numbers are unmarked in Edit Pad.</Text> : null}
        {state === SERIES_ENTRY.LOST ? <Text size="sm">Lost numbers come back only through Found on their loss incident.</Text> : null}
        {state === 'mixed' ? (
          <Text size="sm">The selection mixes states: pick not-used numbers to use or write off, or cancelled ones to undo.</Text>
        ) : null}
      </Stack>
    </Paper>
  ) : null;

  return (
    <>
      <QueuedActions only={(action) => action.padIds?.includes(pad.id) ?? false} />
      {any ? <TypedRange pad={pad} onSelect={setSelected} /> : null}
      <SeriesGrid series={pad.series} pending={pad.pending_outcomes} select={any ? { selected, onSelect: setSelected } : undefined}>
        {bar}
      </SeriesGrid>
      {selected && dialog?.kind === 'skip' && pad.next_number !== null ? (
        <SkipReasonModal pad={pad} range={selected} next={pad.next_number} onClose={() => setDialog(null)} onDone={done} />
      ) : null}
      {selected && dialog?.kind === 'outcome' ? (
        <OutcomeModal padId={pad.id} range={selected} outcome={dialog.outcome} onClose={() => setDialog(null)} onDone={done} />
      ) : null}
      {selected && dialog?.kind === 'revert' ? (
        <RevertModal padId={pad.id} range={selected} onClose={() => setDialog(null)} onDone={done} />
      ) : null}
    </>
  );
}
