import { Box, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { CUSTODY_MSG } from '../../../shared/messages.ts';
import type { HeldPad } from '../../../shared/schemas/custodies.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { ApiError } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { custodyApi, custodyQueries } from './api.ts';
import { AssigneeField } from '../../components/qr-scanner/assignee-field.tsx';
import { HeldPadsPicker } from './held-pads-picker.tsx';

type Kind = 'return' | 'turnover';
type Errors = Partial<Record<'pads' | 'branch_id' | 'assigned_user_id', string>>;

const TEXT = {
  return: { title: 'Create Return Invoice', busy: CUSTODY_MSG.creatingReturn, ok: CUSTODY_MSG.returnCreated, failed: CUSTODY_MSG.returnFailed },
  turnover: { title: 'Create Turnover Invoice', busy: CUSTODY_MSG.creatingTurnover, ok: CUSTODY_MSG.turnoverCreated, failed: CUSTODY_MSG.turnoverFailed },
} as const;

/**
 * Spec §2 Create Return Invoice / Create Turnover Invoice: the user's own pads, (for a turnover) the
 * destination branch, and the courier chosen or scanned.
 */
export function TransferModal({
  kind,
  opened,
  onClose,
  onCreated,
  onEditPad,
}: {
  kind: Kind;
  opened: boolean;
  onClose: () => void;
  onCreated?: () => void;
  onEditPad?: (pad: HeldPad) => void;
}) {
  const phone = useMediaQuery('(max-width: 48em)');
  const queryClient = useQueryClient();
  const session = useSession();
  const branches = useQuery({ ...custodyQueries.branches(), enabled: opened && kind === 'turnover' });
  const [selected, setSelected] = useState<Map<number, HeldPad>>(new Map());
  const [branch, setBranch] = useState<string | null>(null);
  const [assignee, setAssignee] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const text = TEXT[kind];
  const ownBranch = session?.user.branch_id ?? null;

  const reset = () => {
    setSelected(new Map());
    setBranch(null);
    setAssignee(null);
    setErrors({});
  };
  const close = () => {
    reset();
    onClose();
  };

  const toggle = (pad: HeldPad, checked: boolean) => {
    setSelected((current) => {
      const next = new Map(current);
      if (checked) next.set(pad.id, pad);
      else next.delete(pad.id);
      return next;
    });
    setErrors((e) => ({ ...e, pads: undefined }));
  };

  /** Spec §5 turnover alerts, in the spec's order; the return modal asks the same questions. */
  const missing = (): Errors => {
    const found: Errors = {};
    if (selected.size === 0) found.pads = CUSTODY_MSG.selectPad;
    if (kind === 'turnover' && !branch) found.branch_id = CUSTODY_MSG.selectBranch;
    if (!assignee) found.assigned_user_id = CUSTODY_MSG.selectAssignee;
    return found;
  };

  const submit = async () => {
    const problems = missing();
    const first = Object.values(problems)[0];
    if (first) {
      setErrors(problems);
      notify.error(first);
      return;
    }
    setBusy(true);
    try {
      const pads = [...selected.keys()];
      const result =
        kind === 'turnover'
          ? await custodyApi.createTurnover({ pads, branch_id: Number(branch), assigned_user_id: Number(assignee) })
          : await custodyApi.createReturn({ pads, assigned_user_id: Number(assignee) });
      notify.success(result.message || text.ok);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: custodyQueries.all }),
        queryClient.invalidateQueries({ queryKey: ['invoices'] }),
        queryClient.invalidateQueries({ queryKey: ['pads'] }),
      ]);
      reset();
      onCreated?.();
      onClose();
    } catch (failure) {
      if (failure instanceof ApiError) {
        setErrors({ pads: failure.field('pads'), branch_id: failure.field('branch_id'), assigned_user_id: failure.field('assigned_user_id') });
        if (failure.status === 409) {
          setErrors({ pads: failure.message });
          await queryClient.invalidateQueries({ queryKey: [...custodyQueries.all, 'user-pads'] });
        }
      }
      notify.error(text.failed);
    } finally {
      setBusy(false);
    }
  };

  let branchField: ReactNode = null;
  if (kind === 'turnover') {
    branchField = (
      <Select
        label="Branch"
        withAsterisk
        placeholder="Select a branch"
        searchable
        data={(branches.data ?? []).filter((b) => b.id !== ownBranch).map((b) => ({ value: String(b.id), label: b.name }))}
        value={branch}
        onChange={(value) => {
          setBranch(value);
          setErrors((e) => ({ ...e, branch_id: undefined }));
        }}
        error={errors.branch_id}
        comboboxProps={{ withinPortal: true }}
      />
    );
  }

  return (
    <Modal opened={opened} onClose={close} title={text.title} size="xl" fullScreen={phone}>
      <Box pos="relative">
        <LoadingOverlay visible={busy} message={text.busy} />
        <Stack>
          <Text size="sm" c="dimmed">
            {kind === 'return' ? 'Choose the pads to send back to the head office.' : 'Choose the pads to hand to another branch.'}
          </Text>
          <HeldPadsPicker selected={selected} onToggle={toggle} onEdit={onEditPad} error={errors.pads} />
          {branchField}
          <AssigneeField
            label="Assign to"
            value={assignee}
            onChange={(value) => {
              setAssignee(value);
              setErrors((e) => ({ ...e, assigned_user_id: undefined }));
            }}
            error={errors.assigned_user_id}
          />
          <Group justify="flex-end" grow={phone}>
            <AppButton variant="secondary" onClick={close}>
              Cancel
            </AppButton>
            <AppButton onClick={submit}>Submit</AppButton>
          </Group>
        </Stack>
      </Box>
    </Modal>
  );
}
