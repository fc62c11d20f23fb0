import { Card, Group, Loader, Modal, Radio, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { can } from '../../../shared/permissions.ts';
import {
  EXCEPTION_REASON_LABELS,
  EXCEPTION_REASONS,
  EXCEPTION_STATES,
  exceptionDecisionInput,
  type ExceptionDecision,
  type ExceptionState,
  type PaperUseException,
} from '../../../shared/schemas/paper-uses.ts';
import { SERIES_ROLE_LABELS, SERIES_ROLES } from '../../../shared/schemas/registered-series.ts';
import { AppButton } from '../../components/app-button.tsx';
import { CardListPlaceholder } from '../../components/card-list-placeholder.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { DetailValue } from '../../components/detail-value.tsx';
import { SelectField, TextAreaField } from '../../components/form-fields.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { LabelledValue } from '../../components/labelled-value.tsx';
import { notify } from '../../components/notify.ts';
import { Pager } from '../../components/pager.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useSession } from '../../lib/session.ts';
import { usePhone } from '../../lib/use-media.ts';
import { useUrlModal } from '../../lib/use-url-modal.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { outageQueries, useDecideException } from './api.ts';
import { ExceptionStateBadge } from './outage-state-badge.tsx';

const STATE_LABELS: Record<ExceptionState, string> = { open: 'Open', justified: 'Justified', rejected: 'Rejected' };
const roleLabel = (role: string) => {
  const known = SERIES_ROLES.find((r) => r === role);
  return known ? SERIES_ROLE_LABELS[known] : role;
};
const reasons = EXCEPTION_REASONS.map((value) => ({ value, label: EXCEPTION_REASON_LABELS[value] }));

/** Accounting's decision on a paper number used outside every outage: justified or rejected, a reason from the list and its text. */
function DecideModal({ exception, onClose }: { exception: PaperUseException; onClose: () => void }) {
  const decide = useDecideException();
  const form = useZodForm(exceptionDecisionInput, {
    decision: 'justified' as ExceptionDecision, // -- widens the start value to the field's type
    reason_code: null as string | null, // -- the select is empty until a reason is chosen
    reason_text: '',
  });
  const submit = form.onSubmit(async (values) => {
    const checked = exceptionDecisionInput.parse(values);
    try {
      notify.success((await decide.mutateAsync({ id: exception.id, ...checked })).message);
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });
  return (
    <FormModal
      size="md"
      title={`Decide exception: numbers ${exception.numbers}`}
      busy={decide.isPending}
      busyMessage="Saving the decision..."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save decision"
    >
      <ExceptionFacts exception={exception} />
      <Radio.Group label="Decision" withAsterisk {...form.getInputProps('decision')}>
        <Group gap="lg" mt={6}>
          <Radio value="justified" label="Justify" />
          <Radio value="rejected" label="Reject" />
        </Group>
      </Radio.Group>
      <Select
        label="Reason"
        withAsterisk
        data={reasons}
        comboboxProps={{ withinPortal: true, zIndex: 400 }}
        {...form.getInputProps('reason_code')}
      />
      <TextAreaField label="Explanation" withAsterisk minRows={2} {...form.getInputProps('reason_text')} />
    </FormModal>
  );
}

function ExceptionFacts({ exception }: { exception: PaperUseException }) {
  const clock = useClock();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
      <DetailValue label="Establishment">{exception.establishment.name}</DetailValue>
      <DetailValue label="Numbers">
        {exception.numbers} (pad {exception.pad.number})
      </DetailValue>
      <DetailValue label="Route">{exception.route.label}</DetailValue>
      <DetailValue label="Series role">{roleLabel(exception.series_role)}</DetailValue>
      <DetailValue label="Used">{clock.dayTime(exception.used_at)}</DetailValue>
      <DetailValue label="Recorded by">{exception.recorded_by.name}</DetailValue>
      {exception.decision ? (
        <>
          <DetailValue label="Decision">
            {STATE_LABELS[exception.state]}: {exception.decision.reason_label}
          </DetailValue>
          <DetailValue label="Decided by">
            {exception.decision.decided_by.name}, {clock.dayTime(exception.decision.decided_at)}
          </DetailValue>
          <DetailValue label="Explanation">{exception.decision.reason_text}</DetailValue>
        </>
      ) : null}
    </SimpleGrid>
  );
}

/** `?exception=12` (the Needs my action link): the exception's facts and, while open, the decision for whoever may take it. */
function ExceptionModal({ id, onClose }: { id: number; onClose: () => void }) {
  const user = useSession()?.user;
  const phone = usePhone();
  const found = useQuery(outageQueries.exception(id));
  const [deciding, setDeciding] = useState(false);
  const exception = found.data;
  return (
    <>
      <Modal
        opened
        onClose={onClose}
        title={exception ? `Exception: numbers ${exception.numbers}` : 'Exception'}
        centered
        fullScreen={phone}
      >
        {found.isPending ? <Loader size="sm" role="status" aria-label="Loading the exception" /> : null}
        {found.error ? <Text c="red">{errorMessage(found.error)}</Text> : null}
        {exception ? (
          <Stack>
            <ExceptionStateBadge state={exception.state} />
            <ExceptionFacts exception={exception} />
          </Stack>
        ) : null}
        <Group justify="flex-end" mt="md">
          <AppButton variant="secondary" onClick={onClose}>
            Close
          </AppButton>
          {exception?.state === 'open' && can(user, 'paperUse.decide') ? (
            <AppButton onClick={() => setDeciding(true)}>Decide…</AppButton>
          ) : null}
        </Group>
      </Modal>
      {deciding && exception ? <DecideModal exception={exception} onClose={() => setDeciding(false)} /> : null}
    </>
  );
}

/** Issue 38 Exceptions: paper numbers used at a covered establishment outside every outage, open ones for Accounting to decide. */
export function ExceptionsTab() {
  const clock = useClock();
  const phone = usePhone();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<ExceptionState | null>('open');
  const [branchId, setBranchId] = useState<string | null>(null);
  const branches = useQuery(lookupQueries.branches());
  const list = useQuery(outageQueries.exceptions({ page, state, branchId }));
  const viewing = useUrlModal('exception');
  const rows = list.data?.data;

  const open = (row: PaperUseException) => (
    <AppButton size="compact-sm" variant="secondary" onClick={() => viewing.open(row.id)} aria-label={`Open exception ${row.numbers}`}>
      {row.state === 'open' ? 'DECIDE' : 'VIEW'}
    </AppButton>
  );
  const columns: Column<PaperUseException>[] = [
    { key: 'establishment', header: 'Establishment', render: (r) => r.establishment.name },
    { key: 'numbers', header: 'Numbers', render: (r) => `${r.numbers} (pad ${r.pad.number})` },
    { key: 'route', header: 'Route', render: (r) => r.route.label },
    { key: 'used_at', header: 'Used', render: (r) => clock.dayTime(r.used_at) },
    { key: 'holder', header: 'Holder', render: (r) => r.holder?.name ?? '-' },
    { key: 'state', header: 'State', render: (r) => <ExceptionStateBadge state={r.state} /> },
    { key: 'decision', header: 'Decision', render: (r) => r.decision?.reason_label ?? '-' },
    { key: 'actions', header: 'Actions', render: open },
  ];

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="State"
          placeholder="All"
          clearable
          data={EXCEPTION_STATES.map((value) => ({ value, label: STATE_LABELS[value] }))}
          value={state}
          onChange={(value) => {
            setState(EXCEPTION_STATES.find((s) => s === value) ?? null);
            setPage(1);
          }}
          w={{ base: '100%', xs: 180 }}
          comboboxProps={{ withinPortal: true }}
        />
        <SelectField
          label="Establishment"
          placeholder="All"
          clearable
          options={branches.data}
          value={branchId}
          onChange={(value) => {
            setBranchId(value);
            setPage(1);
          }}
          w={{ base: '100%', xs: 260 }}
        />
      </Group>
      {phone ? (
        rows && rows.length > 0 ? (
          <Stack gap="xs" role="list" aria-label="Exceptions">
            {rows.map((row) => (
              <Card key={row.id} withBorder radius="md" padding="sm" role="listitem">
                <Stack gap={4}>
                  <Group justify="space-between">
                    <Text fw={700}>{row.numbers}</Text>
                    <ExceptionStateBadge state={row.state} />
                  </Group>
                  <LabelledValue label="Establishment" value={row.establishment.name} />
                  <LabelledValue label="Used" value={`${clock.dayTime(row.used_at)} · pad ${row.pad.number}`} />
                  {row.decision ? <LabelledValue label="Decision" value={row.decision.reason_label} /> : null}
                  <Stack align="flex-end">{open(row)}</Stack>
                </Stack>
              </Card>
            ))}
          </Stack>
        ) : (
          <CardListPlaceholder loading={list.isLoading} empty={rows?.length === 0} emptyText="No exceptions" />
        )
      ) : (
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(r) => r.id}
          loading={list.isLoading}
          emptyText="No exceptions"
          label="Exceptions"
        />
      )}
      <Pager page={page} lastPage={list.data?.last_page ?? 1} onChange={setPage} total={list.data?.total} />
      {viewing.id !== null ? <ExceptionModal id={viewing.id} onClose={viewing.close} /> : null}
    </Stack>
  );
}
