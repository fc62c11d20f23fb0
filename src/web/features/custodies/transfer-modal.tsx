import { Box, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CUSTODY_MSG } from '../../../shared/schemas/custodies.ts';
import { returnInvoiceSchema, turnoverInvoiceSchema, type HeldPad } from '../../../shared/schemas/custodies.ts';
import { AppButton } from '../../components/app-button.tsx';
import type { RowSelection } from '../../components/data-table.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { AssigneeField } from '../../components/qr-scanner/assignee-field.tsx';
import { ApiError } from '../../lib/api.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useSession } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useCreateReturn, useCreateTurnover } from './api.ts';
import { HeldPadsPicker } from './held-pads-picker.tsx';
import { usePhone } from '../../lib/use-media.ts';

type Kind = 'return' | 'turnover';

const TEXT = {
  return: {
    title: 'Create Return Invoice',
    busy: CUSTODY_MSG.creatingReturn,
    ok: CUSTODY_MSG.returnCreated,
    failed: CUSTODY_MSG.returnFailed,
  },
  turnover: {
    title: 'Create Turnover Invoice',
    busy: CUSTODY_MSG.creatingTurnover,
    ok: CUSTODY_MSG.turnoverCreated,
    failed: CUSTODY_MSG.turnoverFailed,
  },
} as const;

/** docs/spec.md §5 turnover alerts come in this order; the return modal asks the same questions. */
const ALERT_ORDER = ['pads', 'branch_id', 'assigned_user_id'] as const;

const blank: { pads: number[]; branch_id: string | null; assigned_user_id: string | null } = {
  pads: [],
  branch_id: null,
  assigned_user_id: null,
};

/**
 * docs/spec.md §2 Create Return Invoice / Create Turnover Invoice: the user's own pads, (for a turnover) the
 * destination branch, and the courier chosen or scanned.
 */
export function TransferModal({
  kind,
  opened,
  onClose,
  onEditPad,
}: {
  kind: Kind;
  opened: boolean;
  onClose: () => void;
  onEditPad?: (pad: HeldPad) => void;
}) {
  const phone = usePhone();
  const session = useSession();
  const branches = useQuery({ ...lookupQueries.branches(), enabled: opened && kind === 'turnover' });
  const createReturn = useCreateReturn();
  const createTurnover = useCreateTurnover();
  const form = useZodForm(kind === 'turnover' ? turnoverInvoiceSchema : returnInvoiceSchema, blank);
  const text = TEXT[kind];
  const ownBranch = session?.user.branch_id ?? null;
  const picked = form.values.pads;

  const selection: RowSelection<HeldPad> = {
    isSelected: (pad) => picked.includes(pad.id),
    onChange: (pads, on) => {
      const ids = new Set(pads.map((p) => p.id));
      form.setFieldValue('pads', on ? [...new Set([...picked, ...ids])] : picked.filter((id) => !ids.has(id)));
      form.clearFieldError('pads');
    },
    label: (pad) => `Select pad ${pad.number}`,
  };

  const close = () => {
    form.reset();
    onClose();
  };

  const submit = form.onSubmit(
    async (values) => {
      try {
        const assigned_user_id = values.assigned_user_id ?? '';
        const result =
          kind === 'turnover'
            ? await createTurnover.mutateAsync({ pads: values.pads, branch_id: values.branch_id ?? '', assigned_user_id })
            : await createReturn.mutateAsync({ pads: values.pads, assigned_user_id });
        notify.success(result.message || text.ok);
        close();
      } catch (failure) {
        if (failure instanceof ApiError && failure.status === 409) form.setFieldError('pads', failure.message);
        else applyServerErrors(form, failure);
        notify.error(text.failed);
      }
    },
    (errors) => {
      const first = ALERT_ORDER.map((field) => errors[field]).find(Boolean);
      if (typeof first === 'string') notify.error(first);
    },
  );

  return (
    <Modal opened={opened} onClose={close} title={text.title} size="xl" fullScreen={phone}>
      <Box pos="relative">
        <LoadingOverlay visible={createReturn.isPending || createTurnover.isPending} message={text.busy} />
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              {kind === 'return' ? 'Choose the pads to send back to the head office.' : 'Choose the pads to hand to another branch.'}
            </Text>
            <HeldPadsPicker selection={selection} count={picked.length} onEdit={onEditPad} error={form.errors.pads} />
            {kind === 'turnover' ? (
              <Select
                label="Branch"
                withAsterisk
                placeholder="Select a branch"
                searchable
                data={(branches.data ?? []).filter((b) => b.id !== ownBranch).map((b) => ({ value: String(b.id), label: b.name }))}
                comboboxProps={{ withinPortal: true }}
                {...form.getInputProps('branch_id')}
              />
            ) : null}
            <AssigneeField
              label="Assign to"
              value={form.values.assigned_user_id}
              onChange={(value) => form.setFieldValue('assigned_user_id', value)}
              error={form.errors.assigned_user_id}
            />
            <Group justify="flex-end" grow={phone}>
              <AppButton variant="secondary" onClick={close}>
                Cancel
              </AppButton>
              <AppButton type="submit">Submit</AppButton>
            </Group>
          </Stack>
        </form>
      </Box>
    </Modal>
  );
}
