import { Radio, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { OUTAGE_MSG, type OutageRow } from '../../../shared/schemas/outages.ts';
import { FormModal } from '../../components/form-modal.tsx';
import { notify } from '../../components/notify.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { useCloseOutage } from './api.ts';
import { zonedInputValue, zonedInstant } from './zoned-time.ts';

/** Closing an open outage: e-invoicing works again now, or did since a time; paper used after the end is an exception again. */
export function CloseOutageModal({ outage, onClose }: { outage: OutageRow; onClose: () => void }) {
  const clock = useClock();
  const close = useCloseOutage();
  const [when, setWhen] = useState<'now' | 'time'>('now');
  const [endsAt, setEndsAt] = useState(() => zonedInputValue(new Date(), clock.zone));
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    const instant = when === 'now' ? new Date().toISOString() : zonedInstant(endsAt, clock.zone);
    if (!instant) {
      setError('End is required');
      return;
    }
    if (Date.parse(instant) <= Date.parse(outage.starts_at)) {
      setError(OUTAGE_MSG.endBeforeStart);
      return;
    }
    try {
      notify.success((await close.mutateAsync({ id: outage.id, ends_at: instant })).message || OUTAGE_MSG.closed);
      onClose();
    } catch (failure) {
      if (failure instanceof ApiError && failure.field('ends_at')) setError(failure.field('ends_at') ?? null);
      else notify.error(errorMessage(failure));
    }
  };

  return (
    <FormModal
      size="md"
      title={`Close outage #${outage.id}`}
      busy={close.isPending}
      busyMessage="Closing the outage..."
      onClose={onClose}
      onSubmit={() => void submit()}
      submitLabel="Close outage"
    >
      <Text size="sm">
        {outage.branch.name} · {outage.cause_label} since {clock.dayTime(outage.starts_at)}
      </Text>
      <Radio.Group label="E-invoicing works again" value={when} onChange={(value) => setWhen(value === 'time' ? 'time' : 'now')}>
        <Stack gap={8} mt={6}>
          <Radio value="now" label="Ended now" />
          <Radio value="time" label="Ended at a time" />
        </Stack>
      </Radio.Group>
      {when === 'time' ? (
        <TextInput
          label={`End (${clock.zoneName})`}
          type="datetime-local"
          withAsterisk
          value={endsAt}
          onChange={(event) => setEndsAt(event.currentTarget.value)}
          error={error}
        />
      ) : error ? (
        <Text c="red" size="sm" role="alert">
          {error}
        </Text>
      ) : null}
    </FormModal>
  );
}
