import { Alert, Button, Group, Text } from '@mantine/core';
import { AFFIDAVIT_TO_FOLLOW, confirmLossSchema, INCIDENT_MSG, type Incident } from '../../../shared/schemas/incidents.ts';
import { TextAreaField } from '../../components/form-fields.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useConfirmIncident } from './api.ts';

/**
 * docs/design.md §9: an approver confirms a reported loss. Without an affidavit of loss among the papers, the approver
 * says why (e.g. "Affidavit to follow"); the Notice of Loss prints it.
 */
export function ConfirmIncidentModal({ incident, onClose }: { incident: Incident; onClose: () => void }) {
  const confirm = useConfirmIncident();
  const needsReason = !incident.attachments.some((file) => file.kind === 'affidavit');
  const form = useZodForm(confirmLossSchema, { no_affidavit_reason: '' });
  const submit = form.onSubmit(async (values) => {
    const reason = values.no_affidavit_reason.trim();
    if (needsReason && !reason) {
      form.setFieldError('no_affidavit_reason', INCIDENT_MSG.noAffidavitReasonRequired);
      return;
    }
    try {
      notify.success((await confirm.mutateAsync({ id: incident.id, no_affidavit_reason: needsReason ? reason : null })).message);
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });
  return (
    <FormModal
      size="md"
      title={`Confirm loss ${incident.number}`}
      busy={confirm.isPending}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Confirm loss"
      submitColor="red"
    >
      <Text size="sm">
        Its {incident.qty === 1 ? 'number becomes' : `${incident.qty} numbers become`} lost everywhere, a pad lost on the way leaves its
        invoice, and the Notice of Loss is sent.
      </Text>
      {needsReason ? (
        <>
          <Alert color="orange" title="No affidavit of loss is attached">
            Give the reason; it is printed on the Notice of Loss.
          </Alert>
          <TextAreaField label="Reason there is no affidavit" withAsterisk minRows={2} {...form.getInputProps('no_affidavit_reason')} />
          <Group gap="xs">
            <Button variant="light" size="compact-sm" onClick={() => form.setFieldValue('no_affidavit_reason', AFFIDAVIT_TO_FOLLOW)}>
              {AFFIDAVIT_TO_FOLLOW}
            </Button>
          </Group>
        </>
      ) : (
        <Text size="sm" c="dimmed">
          The affidavit of loss is attached.
        </Text>
      )}
    </FormModal>
  );
}
