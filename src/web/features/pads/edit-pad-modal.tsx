import { Alert, Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { routeLabel } from '../../../shared/format.ts';
import { MSG } from '../../../shared/messages.ts';
import { derivePadStatus, toggleEntry, type SeriesEntry } from '../../../shared/pad-status.ts';
import { editablePadFields } from '../../../shared/permissions.ts';
import { PAD_MSG, updatePadSchema, type Pad } from '../../../shared/schemas/pads.ts';
import { AppButton } from '../../components/app-button.tsx';
import { SelectField, TextAreaField } from '../../components/form-fields.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useUpdatePad } from './api.ts';
import { SeriesGrid } from './series-grid.tsx';
import { usePhone } from '../../lib/use-media.ts';

interface EditValues extends Record<string, unknown> {
  number: string;
  pad_status_id: string;
  issuance_status_id: string;
  remarks: string;
  series: SeriesEntry[];
}

const valuesOf = (pad: Pad): EditValues => ({
  number: String(pad.number),
  pad_status_id: String(pad.pad_status_id),
  issuance_status_id: String(pad.issuance_status_id),
  remarks: pad.remarks ?? '',
  series: pad.series,
});

/**
 * docs/spec.md §2 and §6 Edit Pad: every field is shown, only those the signed-in role may change are enabled
 * (the server checks the same rules). Clicking a circle flips it and re-derives the pad status at once.
 * Also opened from the custody Return modal's EDIT button.
 */
export function EditPadModal({ pad, onClose, onSaved }: { pad: Pad | null; onClose: () => void; onSaved?: (pad: Pad) => void }) {
  const phone = usePhone();
  return (
    <Modal opened={pad !== null} onClose={onClose} title="Edit Pad" size="xl" centered fullScreen={phone}>
      {pad ? <EditPadForm key={pad.id} pad={pad} onClose={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

/** The form of one pad, started from its saved values each time a pad is opened. */
function EditPadForm({ pad, onClose, onSaved }: { pad: Pad; onClose: () => void; onSaved?: (pad: Pad) => void }) {
  const session = useSession();
  const allowed = editablePadFields(session?.user);
  const padStatuses = useQuery(lookupQueries.padStatuses());
  const issuanceStatuses = useQuery(lookupQueries.issuanceStatuses());
  const update = useUpdatePad();
  const form = useZodForm(updatePadSchema, valuesOf(pad));
  const locked = pad.locked_by_invoice_id != null;

  const toggle = (number: number) => {
    const series = toggleEntry(form.values.series, number);
    form.setValues({ series, pad_status_id: String(derivePadStatus(series, Number(form.values.pad_status_id))) });
  };

  const submit = form.onSubmit(async (values) => {
    try {
      const result = await update.mutateAsync({
        id: pad.id,
        input: {
          number: Number(values.number),
          pad_status_id: Number(values.pad_status_id),
          issuance_status_id: Number(values.issuance_status_id),
          remarks: values.remarks.trim() || null,
          series: values.series,
          updated_at: pad.updated_at,
        },
      });
      notify.success(result.message);
      onSaved?.(result.data);
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });

  return (
    <form onSubmit={submit} noValidate style={{ position: 'relative' }}>
      <LoadingOverlay visible={update.isPending} message={MSG.updatingPad} />
      <Stack>
        {locked ? (
          <Alert color="yellow" icon={<IconLock size={18} />}>
            {PAD_MSG.locked}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="Route" value={routeLabel(pad.route)} disabled />
          <TextInput label="Series Number" value={pad.series_number} disabled />
          <TextInput label="Pad Number" inputMode="numeric" disabled={!allowed.number} {...form.getInputProps('number')} />
          <SelectField
            label="Pad Status"
            withAsterisk
            allowDeselect={false}
            disabled={!allowed.pad_status_id}
            options={padStatuses.data}
            {...form.getInputProps('pad_status_id')}
          />
          <SelectField
            label="Issuance Status"
            withAsterisk
            allowDeselect={false}
            disabled={!allowed.issuance_status_id}
            options={issuanceStatuses.data}
            {...form.getInputProps('issuance_status_id')}
          />
        </SimpleGrid>
        <TextAreaField label="Remarks" disabled={!allowed.remarks} {...form.getInputProps('remarks')} />
        <SeriesGrid series={form.values.series} onToggle={allowed.series ? toggle : undefined} />
        {form.errors.series ? (
          <Text c="red" size="sm" role="alert">
            {form.errors.series}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <AppButton variant="secondary" onClick={onClose} disabled={update.isPending}>
            Cancel
          </AppButton>
          <AppButton type="submit" disabled={update.isPending || locked}>
            Save Changes
          </AppButton>
        </Group>
      </Stack>
    </form>
  );
}
