import { Checkbox, FileInput, Radio, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import {
  ATTACHMENT_LABELS,
  INCIDENT_MSG,
  lossIncidentSchema,
  MAX_ATTACHMENT_BYTES,
  type AttachmentKind,
} from '../../../shared/schemas/incidents.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { TextAreaField } from '../../components/form-fields.tsx';
import { PadLabelScanner } from '../../components/qr-scanner/pad-label-scanner.tsx';
import type { ScanOutcome } from '../../components/qr-scanner/qr-scanner.tsx';
import { whyNotOffered } from '../../../shared/custody-rules.ts';
import { choosePad } from '../../components/qr-scanner/scan-rules.ts';
import { FormModal } from '../../components/form-modal.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { sendOrQueue } from '../../lib/outbox.ts';
import { useSession } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useReportLoss } from './api.ts';

/** A pad a loss can name: the whole pad, or (when it is the only one) some of its numbers. */
export interface LossPad {
  id: number;
  number: number;
  series_number: string;
  route_id?: number;
}

type PadChoice = { pad_id: number; from?: number; to?: number };

/** The papers asked for, each with the date it carries (COA Circular 84-233; the tax office's receiving stamp). */
const FILE_KINDS: Array<[AttachmentKind, 'affidavit_notarised_on' | 'tax_office_received_on' | null, string]> = [
  ['affidavit', 'affidavit_notarised_on', 'Notarisation date'],
  ['police_report', null, ''],
  ['tax_office_receipt', 'tax_office_received_on', 'Tax office receiving date'],
];
const ACCEPT = 'application/pdf,image/png,image/jpeg';

/** "pad 17", or "3 pads", for the waiting list. */
const lossLabel = (lost: LossPad[]) => (lost.length === 1 ? `pad ${lost[0].number}` : `${lost.length} pads`);

/** The date and time now as a datetime-local input shows it. */
function localNow(): string {
  const now = new Date();
  now.setSeconds(0, 0);
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

/**
 * docs/design.md §9 Report a loss: the pads (whole, or a range of a single pad), where and about when, what happened, and the
 * papers — the affidavit of loss with its notarisation date, the police report, and the tax office's receiving copy
 * with its date (PDF or image, checked by the server by content and size). The incident waits for an approver.
 */
export function ReportLossModal({
  pads,
  invoiceId = null,
  range,
  onClose,
}: {
  pads: LossPad[];
  /** The in-transit invoice whose carried pads these are, if any: its own lock is no reason to refuse a scanned pad. */
  invoiceId?: number | null;
  range?: { from: number; to: number } | null;
  onClose: () => void;
}) {
  const report = useReportLoss();
  const session = useSession();
  const single = pads.length === 1;
  const [scope, setScope] = useState<'whole' | 'range'>(range ? 'range' : 'whole');
  const [from, setFrom] = useState(range ? String(range.from) : '');
  const [to, setTo] = useState(range ? String(range.to) : '');
  const [picked, setPicked] = useState<number[]>(pads.map((pad) => pad.id));
  const [files, setFiles] = useState<Partial<Record<AttachmentKind, File | null>>>({});
  const [fileError, setFileError] = useState<string | null>(null);
  const form = useZodForm(lossIncidentSchema, {
    pads: [] as PadChoice[], // -- widens the empty start value to the field's type
    place: '',
    occurred_at: localNow(),
    circumstances: '',
    affidavit_notarised_on: '',
    tax_office_received_on: '',
  });

  const choices = (): PadChoice[] => {
    if (single && scope === 'range') return [{ pad_id: pads[0].id, from: Number(from), to: Number(to || from) }];
    return picked.map((pad_id) => ({ pad_id }));
  };

  /** docs/design.md §9 scan to select: a scanned label ticks its pad, or says why it cannot be reported here. */
  const chooseScanned = (pad: Pad): ScanOutcome => {
    const { pick, ...outcome } = choosePad(pad, whyNotOffered(pad, pads, invoiceId), picked);
    if (pick) {
      setPicked((current) => [...current, pad.id]);
      form.clearFieldError('pads');
    }
    return outcome;
  };

  const pickFile = (kind: AttachmentKind, file: File | null) => {
    setFileError(file && file.size > MAX_ATTACHMENT_BYTES ? INCIDENT_MSG.fileTooLarge(file.name) : null);
    setFiles((current) => ({ ...current, [kind]: file }));
  };

  const submit = async () => {
    form.setFieldValue('pads', choices());
    const checked = form.validate();
    if (checked.hasErrors || fileError) return;
    const values = form.getValues();
    const fields: Record<string, string> = {
      pads: JSON.stringify(choices()),
      place: values.place.trim(),
      occurred_at: new Date(values.occurred_at).toISOString(),
      circumstances: values.circumstances.trim(),
    };
    if (values.affidavit_notarised_on) fields.affidavit_notarised_on = values.affidavit_notarised_on;
    if (values.tax_office_received_on) fields.tax_office_received_on = values.tax_office_received_on;
    const papers = FILE_KINDS.flatMap(([kind]) => {
      const file = files[kind];
      return file ? [{ field: kind, name: file.name, blob: file }] : [];
    });
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    for (const paper of papers) body.append(paper.field, paper.blob, paper.name);
    const padIds = choices().map((choice) => choice.pad_id);
    try {
      const answer = await sendOrQueue(() => report.mutateAsync(body), {
        userId: session?.user.id ?? 0,
        kind: 'loss-report',
        path: 'loss-incidents',
        body: { ...fields, device_at: new Date().toISOString() },
        files: papers,
        multipart: true,
        label: `Loss report of ${lossLabel(pads.filter((pad) => padIds.includes(pad.id)))}`,
        padIds,
      });
      if (answer) notify.success(answer.message || INCIDENT_MSG.reported(answer.data.number));
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  };

  return (
    <FormModal
      title="Report a loss"
      busy={report.isPending}
      busyMessage="Reporting the loss..."
      onClose={onClose}
      onSubmit={() => void submit()}
      submitLabel="Report loss"
      submitColor="red"
    >
      <Text size="sm" c="dimmed">
        An approver confirms the loss; the numbers are then blocked everywhere and a Notice of Loss is sent to the branches and the head
        office.
      </Text>
      {single ? (
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            Pad {pads[0].number} ({pads[0].series_number})
          </Text>
          <Radio.Group label="What was lost" value={scope} onChange={(value) => setScope(value === 'range' ? 'range' : 'whole')}>
            <Stack gap={6} mt={4}>
              <Radio value="whole" label="The whole pad (every number not yet used)" />
              <Radio value="range" label="Some numbers" />
            </Stack>
          </Radio.Group>
          {scope === 'range' ? (
            <SimpleGrid cols={2}>
              <TextInput
                label="From"
                inputMode="numeric"
                withAsterisk
                value={from}
                onChange={(event) => setFrom(event.currentTarget.value)}
              />
              <TextInput label="To" inputMode="numeric" value={to} onChange={(event) => setTo(event.currentTarget.value)} />
            </SimpleGrid>
          ) : null}
        </Stack>
      ) : (
        <Stack gap="xs">
          <PadLabelScanner choose={chooseScanned} />
          <Checkbox.Group label="Pads lost" withAsterisk value={picked.map(String)} onChange={(values) => setPicked(values.map(Number))}>
            <Stack gap={6} mt={4}>
              {pads.map((pad) => (
                <Checkbox key={pad.id} value={String(pad.id)} label={`Pad ${pad.number} (${pad.series_number})`} />
              ))}
            </Stack>
          </Checkbox.Group>
        </Stack>
      )}
      {form.errors.pads ? (
        <Text c="red" size="sm" role="alert">
          {form.errors.pads}
        </Text>
      ) : null}
      <TextInput label="Place" withAsterisk placeholder="Where it happened, e.g. Calapan pier" {...form.getInputProps('place')} />
      <TextInput label="Approximate date and time" type="datetime-local" withAsterisk {...form.getInputProps('occurred_at')} />
      <TextAreaField label="Circumstances" withAsterisk placeholder="What happened" {...form.getInputProps('circumstances')} />
      <Title order={3} size="h6">
        Papers (PDF or image, up to {MAX_ATTACHMENT_BYTES / 1024 / 1024} MB each)
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {FILE_KINDS.map(([kind, dateField, dateLabel]) => (
          <Fragment key={kind}>
            <FileInput
              label={ATTACHMENT_LABELS[kind]}
              accept={ACCEPT}
              clearable
              clearButtonProps={{ 'aria-label': 'Remove the file' }}
              leftSection={<IconPaperclip size={16} aria-hidden />}
              value={files[kind] ?? null}
              onChange={(file) => pickFile(kind, file)}
            />
            {dateField ? <TextInput label={dateLabel} type="date" {...form.getInputProps(dateField)} /> : <div />}
          </Fragment>
        ))}
      </SimpleGrid>
      {fileError ? (
        <Text c="red" size="sm" role="alert">
          {fileError}
        </Text>
      ) : null}
    </FormModal>
  );
}
