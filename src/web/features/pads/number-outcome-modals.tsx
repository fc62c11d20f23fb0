import { Group, Radio, Select, Text } from '@mantine/core';
import { OUTCOME_MSG, outcomeRevertSchema, padOutcomeSchema, rejectSchema, type Outcome } from '../../../shared/schemas/outcomes.ts';
import { OTHER_REASON, OUTCOME_REASONS, padUsageSchema } from '../../../shared/schemas/pads.ts';
import { TextAreaField } from '../../components/form-fields.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { STACKED_COMBOBOX } from '../../components/stacked-combobox.ts';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { sendOrQueue } from '../../lib/outbox.ts';
import { useSession } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { isPending, useRecordOutcome, useRecordUsage, useRejectOutcome, useRevertOutcome, type PadChanged } from './api.ts';
import type { NumberRange } from './series-selection.ts';
import { numberRange } from '../../../shared/format.ts';

/** "1000001201–1000001237", or the one number. */
export const rangeText = (range: NumberRange) => numberRange(range.from, range.to, '\u2013');

/** The usage answer's toasts: what was recorded, and the "one booklet at a time" warning when the server gives one. */
export function announceUsage(answer: PadChanged) {
  notify.success(answer.message);
  if (answer.warning) notify.warning(answer.warning);
}

/** A usage as the outbox keeps it without network: sent later with the phone's time (docs/design.md §2 offline). */
export function usageAction(userId: number, pad: { id: number; number: number }, body: { from: number; to: number; reason?: string }) {
  return {
    userId,
    kind: 'usage' as const,
    path: `pads/${pad.id}/usage`,
    body: { ...body, device_at: new Date().toISOString() },
    label: `Usage ${rangeText(body)} of pad ${pad.number}`,
    padIds: [pad.id],
  };
}

/** The short list of docs/design.md §9 reasons and the free text ("Other" needs it). */
function ReasonFields({ outcome, reason, details }: { outcome: Outcome; reason: object; details: object }) {
  return (
    <>
      <Select
        label="Reason"
        withAsterisk
        placeholder="Choose a reason"
        data={[...OUTCOME_REASONS[outcome]]}
        allowDeselect={false}
        comboboxProps={STACKED_COMBOBOX}
        {...reason}
      />
      <TextAreaField label="Details" description="Required when the reason is Other" minRows={2} {...details} />
    </>
  );
}

const SKIP_REASON: string = OUTCOME_REASONS.cancelled.find((reason) => reason.startsWith('Skipped')) ?? OUTCOME_REASONS.cancelled[0];

const joined = (reason: string, details: string) => (details.trim() ? `${reason}: ${details.trim()}` : reason);

/**
 * docs/design.md §9 strict sequence: usage that starts after the next number asks why; the skipped numbers are cancelled with
 * that reason in the same step.
 */
export function SkipReasonModal({
  pad,
  range,
  next,
  onClose,
  onDone,
}: {
  pad: { id: number; number: number };
  range: NumberRange;
  next: number;
  onClose: () => void;
  onDone: () => void;
}) {
  const usage = useRecordUsage();
  const userId = useSession()?.user.id ?? 0;
  const form = useZodForm(padUsageSchema, { from: range.from, to: range.to, reason: SKIP_REASON, details: '' });
  const submit = form.onSubmit(async (values) => {
    if (values.reason === OTHER_REASON && !values.details.trim()) {
      form.setFieldError('details', OUTCOME_MSG.detailsForOther);
      return;
    }
    const body = { from: range.from, to: range.to, reason: joined(values.reason, values.details) };
    try {
      const answer = await sendOrQueue(() => usage.mutateAsync({ padId: pad.id, ...body }), usageAction(userId, pad, body));
      if (answer) announceUsage(answer);
      onDone();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });
  const skipped = { from: next, to: range.from - 1 };
  return (
    <FormModal
      title={`Mark used ${rangeText(range)}`}
      busy={usage.isPending}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={`Mark used ${rangeText(range)}`}
    >
      <Text size="sm">
        Receipts are issued in strict sequence, one booklet at a time. This pad continues at <strong>{next}</strong>: starting at{' '}
        {range.from} cancels <strong>{rangeText(skipped)}</strong> ({skipped.to - skipped.from + 1}) with the reason you give.
      </Text>
      <ReasonFields outcome="cancelled" reason={form.getInputProps('reason')} details={form.getInputProps('details')} />
    </FormModal>
  );
}

/**
 * docs/design.md §9 Cancel or Report lost a number or a range, with a reason (and for a cancellation whether all copies are
 * kept). Applied at once for an approver, otherwise sent to the holder's Branch Head or Supervisor.
 */
export function OutcomeModal({
  padId,
  range,
  outcome,
  onClose,
  onDone,
}: {
  padId: number;
  range: NumberRange;
  outcome: Outcome;
  onClose: () => void;
  onDone: () => void;
}) {
  const record = useRecordOutcome();
  const form = useZodForm(padOutcomeSchema, {
    from: range.from,
    to: range.to,
    outcome,
    reason: null as string | null, // -- widens the empty start value to the field's type
    details: '',
    copies_retained: undefined as boolean | undefined, // -- widens the empty start value to the field's type
  });
  const submit = form.onSubmit(async (values) => {
    try {
      const answer = await record.mutateAsync({
        padId,
        from: range.from,
        to: range.to,
        outcome,
        reason: values.reason ?? '',
        details: values.details.trim() || undefined,
        copies_retained: outcome === 'cancelled' ? values.copies_retained : undefined,
      });
      notify.success(answer.message);
      if (!isPending(answer) && answer.warning) notify.warning(answer.warning);
      onDone();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });
  const title = outcome === 'cancelled' ? `Cancel ${rangeText(range)}` : `Report lost ${rangeText(range)}`;
  const retained = form.values.copies_retained;
  return (
    <FormModal
      title={title}
      busy={record.isPending}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={outcome === 'cancelled' ? 'Cancel numbers' : 'Report lost'}
    >
      <Text size="sm">
        {outcome === 'cancelled'
          ? 'Spoiled or voided receipts. Unless you may approve it yourself, the Branch Head or Supervisor approves the cancellation.'
          : 'Numbers that are missing. For a whole booklet or a theft, use Report a loss (with the affidavit and police report) instead.'}
      </Text>
      <ReasonFields outcome={outcome} reason={form.getInputProps('reason')} details={form.getInputProps('details')} />
      {outcome === 'cancelled' ? (
        <Radio.Group
          label="All copies retained"
          description="Original and every carbon copy are kept with the booklet"
          withAsterisk
          value={retained === undefined ? null : retained ? 'yes' : 'no'}
          onChange={(value) => form.setFieldValue('copies_retained', value === 'yes')}
          error={form.errors.copies_retained}
        >
          <Group mt={4}>
            <Radio value="yes" label="Yes" />
            <Radio value="no" label="No" />
          </Group>
        </Radio.Group>
      ) : null}
    </FormModal>
  );
}

/** docs/design.md §9: undoing a cancellation is a new event with its reason, never an edit. */
export function RevertModal({
  padId,
  range,
  onClose,
  onDone,
}: {
  padId: number;
  range: NumberRange;
  onClose: () => void;
  onDone: () => void;
}) {
  const revert = useRevertOutcome();
  const form = useZodForm(outcomeRevertSchema, { pad_id: padId, from: range.from, to: range.to, reason: '' });
  const submit = form.onSubmit(async (values) => {
    try {
      const answer = await revert.mutateAsync({ pad_id: padId, from: range.from, to: range.to, reason: values.reason.trim() });
      notify.success(answer.message);
      onDone();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });
  return (
    <FormModal
      title={`Undo cancellation of ${rangeText(range)}`}
      busy={revert.isPending}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Undo cancellation"
    >
      <Text size="sm">The numbers become not used again. The cancellation stays in the history with this reason beside it.</Text>
      <TextAreaField label="Reason" withAsterisk minRows={2} {...form.getInputProps('reason')} />
    </FormModal>
  );
}

/** Rejecting a cancellation or loss request says why; the requester sees it in the pad's history. */
export function RejectRequestModal({ requestId, what, onClose }: { requestId: number; what: string; onClose: () => void }) {
  const reject = useRejectOutcome();
  const form = useZodForm(rejectSchema, { reason: '' });
  const submit = form.onSubmit(async (values) => {
    try {
      notify.success((await reject.mutateAsync({ id: requestId, reason: values.reason.trim() })).message);
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });
  return (
    <FormModal title={`Reject ${what}`} busy={reject.isPending} onClose={onClose} onSubmit={submit} submitLabel="Reject">
      <TextAreaField label="Reason" withAsterisk minRows={2} {...form.getInputProps('reason')} />
    </FormModal>
  );
}
