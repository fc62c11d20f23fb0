import { Checkbox, FileInput, Group, Radio, SimpleGrid, Text, TextInput } from '@mantine/core';
import { IconCamera } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { can } from '../../../shared/permissions.ts';
import { OUTAGE_CAUSE_LABELS, OUTAGE_CAUSES, OUTAGE_MSG, type OutageCause } from '../../../shared/schemas/outages.ts';
import { SelectField, TextAreaField } from '../../components/form-fields.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { notify } from '../../components/notify.ts';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useSession } from '../../lib/session.ts';
import { useAddEvidence, useDeclareOutage } from './api.ts';
import { zonedInputValue, zonedInstant } from './zoned-time.ts';

type Errors = Partial<Record<'branch_id' | 'starts_at' | 'ends_at' | 'cause' | 'details' | 'notice_reference' | 'files', string>>;

/** Evidence is a photo taken there and then (or a screenshot); the server also takes PDF, PNG and JPEG files. */
const MAX_PHOTO_MB = 5;

/**
 * Issue 38: the person at the counter declares that the establishment cannot issue e-invoices, one-handed on a phone:
 * the establishment is theirs, the start is now, the cause is one tap, a photo is optional. Paper numbers used from then
 * on are linked to the outage instead of becoming exceptions.
 */
export function DeclareOutageModal({ onClose, onDeclared }: { onClose: () => void; onDeclared: () => void }) {
  const clock = useClock();
  const user = useSession()?.user;
  /* Admin and Accounting declare for any establishment; a Branch Head or Supervisor for their own branch only. */
  const headOffice = can(user, 'outage.manage', { branch_id: -1 });
  const branches = useQuery({ ...lookupQueries.branches(), enabled: headOffice });
  const declare = useDeclareOutage();
  const addEvidence = useAddEvidence();
  const [branchId, setBranchId] = useState<string | null>(user?.branch_id ? String(user.branch_id) : null);
  const [startsAt, setStartsAt] = useState(() => zonedInputValue(new Date(), clock.zone));
  const [ended, setEnded] = useState(false);
  const [endsAt, setEndsAt] = useState('');
  const [cause, setCause] = useState<OutageCause | null>(null);
  const [details, setDetails] = useState('');
  const [notice, setNotice] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});

  const check = (): Errors => {
    const found: Errors = {};
    if (!branchId) found.branch_id = 'Establishment is required';
    if (!zonedInstant(startsAt, clock.zone)) found.starts_at = 'Start is required';
    if (ended && !zonedInstant(endsAt, clock.zone)) found.ends_at = 'End is required when the outage has ended';
    else if (ended && endsAt <= startsAt) found.ends_at = OUTAGE_MSG.endBeforeStart;
    if (!cause) found.cause = 'Choose the cause';
    if (photo && photo.size > MAX_PHOTO_MB * 1024 * 1024) found.files = OUTAGE_MSG.fileTooLarge(photo.name, MAX_PHOTO_MB);
    return found;
  };

  const submit = async () => {
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0 || !cause || !branchId) return;
    try {
      const answer = await declare.mutateAsync({
        branch_id: Number(branchId),
        starts_at: zonedInstant(startsAt, clock.zone) ?? '',
        ends_at: ended ? zonedInstant(endsAt, clock.zone) : null,
        cause,
        details: details.trim() || null,
        notice_reference: notice.trim() || null,
      });
      if (photo) {
        try {
          await addEvidence.mutateAsync({ id: answer.data.id, files: [photo] });
        } catch (error) {
          notify.error(`The outage is declared, but the photo was not saved: ${errorMessage(error)}`);
        }
      }
      notify.success(answer.message || OUTAGE_MSG.declared);
      onDeclared();
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.errors).length > 0) {
        setErrors(Object.fromEntries(Object.entries(error.errors).map(([field, messages]) => [field.split('.')[0], messages[0]])));
      } else notify.error(errorMessage(error));
    }
  };

  return (
    <FormModal
      title="Declare outage"
      busy={declare.isPending || addEvidence.isPending}
      busyMessage="Declaring the outage..."
      onClose={onClose}
      onSubmit={() => void submit()}
      submitLabel="Declare outage"
      submitColor="orange"
    >
      <Text size="sm" c="dimmed">
        Paper numbers used at the establishment while the outage lasts are linked to it; close it when e-invoicing works again.
      </Text>
      {headOffice ? (
        <SelectField
          label="Establishment"
          withAsterisk
          options={branches.data}
          value={branchId}
          onChange={setBranchId}
          error={errors.branch_id}
        />
      ) : (
        <TextInput label="Establishment" readOnly value={user?.branch?.name ?? ''} error={errors.branch_id} />
      )}
      <Radio.Group
        label="Cause"
        withAsterisk
        value={cause}
        onChange={(value) => {
          setCause(OUTAGE_CAUSES.find((c) => c === value) ?? null);
          setErrors((current) => ({ ...current, cause: undefined }));
        }}
        error={errors.cause}
      >
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt={6}>
          {OUTAGE_CAUSES.map((value) => (
            <Radio.Card
              key={value}
              value={value}
              radius="md"
              p="md"
              aria-label={OUTAGE_CAUSE_LABELS[value]}
              bg={cause === value ? 'orange.0' : undefined}
              bd={cause === value ? '2px solid var(--mantine-color-orange-7)' : undefined}
            >
              <Group gap="sm" wrap="nowrap">
                <Radio.Indicator color="orange.7" />
                <Text fw={600}>{OUTAGE_CAUSE_LABELS[value]}</Text>
              </Group>
            </Radio.Card>
          ))}
        </SimpleGrid>
      </Radio.Group>
      <TextInput
        label={`Start (${clock.zoneName})`}
        type="datetime-local"
        withAsterisk
        value={startsAt}
        onChange={(event) => setStartsAt(event.currentTarget.value)}
        error={errors.starts_at}
      />
      <Checkbox label="It has already ended" checked={ended} onChange={(event) => setEnded(event.currentTarget.checked)} />
      {ended ? (
        <TextInput
          label={`End (${clock.zoneName})`}
          type="datetime-local"
          withAsterisk
          value={endsAt}
          onChange={(event) => setEndsAt(event.currentTarget.value)}
          error={errors.ends_at}
        />
      ) : null}
      <TextAreaField
        label="Details"
        minRows={2}
        placeholder="What stopped working, who was told"
        value={details}
        onChange={(event) => setDetails(event.currentTarget.value)}
        error={errors.details}
      />
      <FileInput
        label="Photo or evidence"
        accept="image/*"
        clearable
        clearButtonProps={{ 'aria-label': 'Remove the photo' }}
        leftSection={<IconCamera size={16} aria-hidden />}
        placeholder="Take a photo (optional)"
        value={photo}
        onChange={setPhoto}
        error={errors.files}
      />
      <TextInput
        label="Notice reference"
        placeholder="Ticket or notice number (optional)"
        value={notice}
        onChange={(event) => setNotice(event.currentTarget.value)}
        error={errors.notice_reference}
      />
    </FormModal>
  );
}
