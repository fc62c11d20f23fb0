import { Anchor, Button, Group, Loader, Modal, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { can } from '../../../shared/permissions.ts';
import { ATTACHMENT_LABELS, foundSchema, type Incident } from '../../../shared/schemas/incidents.ts';
import { rejectSchema } from '../../../shared/schemas/outcomes.ts';
import { AppButton } from '../../components/app-button.tsx';
import { STACKED_COMBOBOX } from '../../components/stacked-combobox.ts';
import { TextAreaField } from '../../components/form-fields.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { calendarDayText, numberRange } from '../../../shared/format.ts';
import { useClock } from '../../lib/clock.ts';
import { useSession } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { incidentQueries, useConfirmFound, useRecordFound, useRejectIncident } from './api.ts';
import { ConfirmIncidentModal } from './confirm-incident-modal.tsx';
import { IncidentStatusBadge } from './incident-status-badge.tsx';
import { usePhone } from '../../lib/use-media.ts';

const range = (from: number, to: number) => numberRange(from, to, '\u2013');

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {children === null || children === undefined || children === '' ? '-' : children}
      </Text>
    </div>
  );
}

function RejectIncidentModal({ incident, onClose }: { incident: Incident; onClose: () => void }) {
  const reject = useRejectIncident();
  const form = useZodForm(rejectSchema, { reason: '' });
  const submit = form.onSubmit(async (values) => {
    try {
      notify.success((await reject.mutateAsync({ id: incident.id, reason: values.reason.trim() })).message);
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });
  return (
    <FormModal
      size="md"
      title={`Reject ${incident.number}`}
      busy={reject.isPending}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Reject"
    >
      <TextAreaField label="Reason" withAsterisk minRows={2} {...form.getInputProps('reason')} />
    </FormModal>
  );
}

/** docs/design.md §9 found: the first of two users (roles 3 and 8) records numbers of a confirmed loss as found. */
function FoundModal({ incident, onClose }: { incident: Incident; onClose: () => void }) {
  const record = useRecordFound();
  const first = incident.pads[0];
  const form = useZodForm(foundSchema, {
    pad_id: first ? String(first.pad.id) : null,
    from: first ? String(first.from) : '',
    to: first ? String(first.to) : '',
    reason: '',
  });
  const submit = async () => {
    const values = form.getValues();
    const body = { pad_id: Number(values.pad_id), from: Number(values.from), to: Number(values.to), reason: values.reason.trim() };
    const checked = foundSchema.safeParse(body);
    if (!checked.success) {
      form.setErrors(Object.fromEntries(checked.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    try {
      notify.success((await record.mutateAsync({ id: incident.id, ...checked.data })).message);
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  };
  return (
    <FormModal
      size="md"
      title={`Record found numbers of ${incident.number}`}
      busy={record.isPending}
      onClose={onClose}
      onSubmit={() => void submit()}
      submitLabel="Record found"
    >
      <Text size="sm">
        A second user (Custodian or Accounting) confirms the find; then the numbers are back in stock, and the loss stays in the history.
      </Text>
      <Select
        label="Pad"
        withAsterisk
        allowDeselect={false}
        data={incident.pads.map((p) => ({ value: String(p.pad.id), label: `Pad ${p.pad.number} (${range(p.from, p.to)})` }))}
        comboboxProps={STACKED_COMBOBOX}
        {...form.getInputProps('pad_id')}
      />
      <SimpleGrid cols={2}>
        <TextInput label="From" inputMode="numeric" withAsterisk {...form.getInputProps('from')} />
        <TextInput label="To" inputMode="numeric" withAsterisk {...form.getInputProps('to')} />
      </SimpleGrid>
      <TextAreaField
        label="Reason"
        withAsterisk
        minRows={2}
        placeholder="Where and how they were found"
        {...form.getInputProps('reason')}
      />
    </FormModal>
  );
}

function IncidentBody({ incident }: { incident: Incident }) {
  const clock = useClock();
  const user = useSession()?.user;
  const confirmFound = useConfirmFound();
  const [rejecting, setRejecting] = useState(false);
  const [finding, setFinding] = useState(false);
  const [confirming, setConfirming] = useState(false);
  /* The incident does not carry the branches it touches, so a Branch Head's own-branch rule is left to the server. */
  const decidable = incident.status === 'reported' && can(user, 'incident.decide') && incident.reported_by.id !== user?.id;

  return (
    <Stack>
      <Group gap="xs">
        <IncidentStatusBadge status={incident.status} />
        <Text size="sm" c="dimmed">
          {incident.qty} {incident.qty === 1 ? 'number' : 'numbers'}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="sm">
        <Field label="Place">{incident.place}</Field>
        <Field label="Approximate date and time">{clock.dayTime(incident.occurred_at)}</Field>
        <Field label="Reported by">
          {incident.reported_by.full_name}, {clock.dayTime(incident.reported_at)}
        </Field>
        {incident.decided_by ? (
          <Field label={incident.status === 'rejected' ? 'Rejected by' : 'Confirmed by'}>
            {incident.decided_by.full_name}, {clock.dayTime(incident.decided_at)}
          </Field>
        ) : null}
        {incident.rejection_reason ? <Field label="Reason for rejecting">{incident.rejection_reason}</Field> : null}
        {incident.no_affidavit_reason ? <Field label="Confirmed without an affidavit">{incident.no_affidavit_reason}</Field> : null}
      </SimpleGrid>
      <Field label="Circumstances">{incident.circumstances}</Field>

      <Stack gap={6}>
        <Title order={3} size="h5">
          Pads and numbers
        </Title>
        <Stack gap={4} role="list" aria-label="Pads and numbers">
          {incident.pads.map((p) => (
            <Paper key={`${p.pad.id}-${p.from}`} withBorder p="xs" radius="sm" role="listitem">
              <Text size="sm" fw={500}>
                Pad {p.pad.number}: {range(p.from, p.to)} ({p.qty})
              </Text>
              <Text size="xs" c="dimmed">
                {p.pad.route.company} - {p.pad.route.name} - {p.pad.route.tin} · Series {p.pad.series_number}
              </Text>
            </Paper>
          ))}
        </Stack>
      </Stack>

      <Stack gap={6}>
        <Title order={3} size="h5">
          Papers
        </Title>
        {incident.attachments.length === 0 ? (
          <Text size="sm" c="dimmed">
            No papers attached.
          </Text>
        ) : null}
        {incident.attachments.map((file) => (
          <Group key={file.id} gap="xs" wrap="wrap">
            <Anchor href={file.url} target="_blank" rel="noopener" size="sm">
              {ATTACHMENT_LABELS[file.kind]}: {file.file_name}
            </Anchor>
            <Text size="xs" c="dimmed">
              {Math.ceil(file.size / 1024)} KB
              {file.document_date
                ? ` · ${file.kind === 'affidavit' ? 'notarised' : 'received'} ${calendarDayText(file.document_date)}`
                : ''}
            </Text>
          </Group>
        ))}
      </Stack>

      {incident.found.length > 0 ? (
        <Stack gap={6}>
          <Title order={3} size="h5">
            Found
          </Title>
          {incident.found.map((found) => (
            <Paper key={found.id} withBorder p="xs" radius="sm" data-testid="found-record">
              <Text size="sm" fw={500}>
                {range(found.from, found.to)} · {found.status === 'confirmed' ? 'Confirmed' : 'Waiting for a second user'}
              </Text>
              <Text size="sm">Reason: {found.reason}</Text>
              <Text size="xs" c="dimmed">
                Recorded by {found.recorded_by.full_name}, {clock.dayTime(found.recorded_at)}
                {found.confirmed_by ? ` · confirmed by ${found.confirmed_by.full_name}, ${clock.dayTime(found.confirmed_at)}` : ''}
              </Text>
              {found.status === 'pending' && can(user, 'incident.confirmFound', { recorded_by: found.recorded_by.id }) ? (
                <AppButton
                  size="compact-sm"
                  mt={6}
                  loading={confirmFound.isPending}
                  onClick={() =>
                    confirmFound.mutate(
                      { id: incident.id, foundId: found.id },
                      { onSuccess: (answer) => notify.success(answer.message), onError: (error) => notify.error(errorMessage(error)) },
                    )
                  }
                >
                  Confirm found
                </AppButton>
              ) : null}
            </Paper>
          ))}
        </Stack>
      ) : null}

      <Group justify="flex-end" gap="xs" wrap="wrap">
        {incident.notice_url ? (
          <Button
            component="a"
            href={incident.notice_url}
            target="_blank"
            rel="noopener"
            variant="default"
            leftSection={<IconFileTypePdf size={16} aria-hidden />}
          >
            Notice of Loss (PDF)
          </Button>
        ) : null}
        {incident.status === 'confirmed' && can(user, 'incident.found') ? (
          <AppButton variant="secondary" onClick={() => setFinding(true)}>
            Record found…
          </AppButton>
        ) : null}
        {decidable ? (
          <>
            <AppButton variant="secondary" onClick={() => setRejecting(true)}>
              Reject…
            </AppButton>
            <AppButton color="red" onClick={() => setConfirming(true)}>
              Confirm loss…
            </AppButton>
          </>
        ) : null}
      </Group>
      {rejecting ? <RejectIncidentModal incident={incident} onClose={() => setRejecting(false)} /> : null}
      {finding ? <FoundModal incident={incident} onClose={() => setFinding(false)} /> : null}
      {confirming ? <ConfirmIncidentModal incident={incident} onClose={() => setConfirming(false)} /> : null}
    </Stack>
  );
}

/** An incident's details: what, where, when, who, the papers, found numbers, and the decisions the user may take. */
export function IncidentDetailsModal({ incidentId, onClose }: { incidentId: number | null; onClose: () => void }) {
  const phone = usePhone();
  const incident = useQuery({ ...incidentQueries.one(incidentId ?? 0), enabled: incidentId !== null });
  const title = incident.data ? `Loss incident ${incident.data.number}` : 'Loss incident';
  return (
    <Modal opened={incidentId !== null} onClose={onClose} title={title} size="xl" centered fullScreen={phone}>
      {incident.isPending ? <Loader size="sm" role="status" aria-label="Loading the incident" /> : null}
      {incident.error ? <Text c="red">{errorMessage(incident.error)}</Text> : null}
      {incident.data ? <IncidentBody incident={incident.data} /> : null}
      <Group justify="flex-end" mt="md">
        <AppButton variant="secondary" onClick={onClose}>
          Close
        </AppButton>
      </Group>
    </Modal>
  );
}
