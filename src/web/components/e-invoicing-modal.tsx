import { Group, Loader, Modal, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { calendarDayText } from '../../shared/format.ts';
import { can } from '../../shared/permissions.ts';
import { establishmentInput, type Establishment } from '../../shared/schemas/establishments.ts';
import { AppButton } from './app-button.tsx';
import { DetailValue } from './detail-value.tsx';
import { LoadingOverlay } from './loading-overlay.tsx';
import { notify } from './notify.ts';
import { errorMessage } from '../lib/api.ts';
import { useClock } from '../lib/clock.ts';
import { useSession } from '../lib/session.ts';
import { usePhone } from '../lib/use-media.ts';
import { applyServerErrors, useZodForm } from '../lib/use-zod-form.ts';
import { establishmentQueries, useSaveEstablishment, type EstablishmentValues } from '../lib/establishment-queries.ts';

function Facts({ establishment }: { establishment: Establishment }) {
  const clock = useClock();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
      <DetailValue label="BIR branch code">{establishment.bir_branch_code}</DetailValue>
      <DetailValue label="Issues e-invoices">{establishment.covered ? 'Yes' : 'No'}</DetailValue>
      <DetailValue label="E-invoicing since">
        {establishment.e_invoicing_since ? calendarDayText(establishment.e_invoicing_since) : null}
      </DetailValue>
      <DetailValue label="Permit or certification">{establishment.permit_reference}</DetailValue>
      <DetailValue label="Invoicing system">{establishment.invoicing_system}</DetailValue>
      <DetailValue label="Last changed">
        {establishment.updated_by ? `${establishment.updated_by.name}, ${clock.dayTime(establishment.updated_at)}` : null}
      </DetailValue>
    </SimpleGrid>
  );
}

function EstablishmentForm({ branchId, establishment, onSaved }: { branchId: number; establishment: Establishment; onSaved: () => void }) {
  const save = useSaveEstablishment();
  const form = useZodForm<EstablishmentValues>(establishmentInput, {
    bir_branch_code: establishment.bir_branch_code ?? '',
    covered: establishment.covered,
    e_invoicing_since: establishment.e_invoicing_since ?? '',
    permit_reference: establishment.permit_reference ?? '',
    invoicing_system: establishment.invoicing_system ?? '',
  });
  const submit = form.onSubmit(async (values) => {
    try {
      notify.success((await save.mutateAsync({ branchId, values })).message);
      onSaved();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });
  return (
    <form onSubmit={submit} noValidate style={{ position: 'relative' }}>
      <LoadingOverlay visible={save.isPending} message="Saving..." />
      <Stack>
        <TextInput
          label="BIR branch code"
          withAsterisk
          inputMode="numeric"
          placeholder="e.g. 00003"
          {...form.getInputProps('bir_branch_code')}
        />
        <Switch
          label="Issues e-invoices (covered)"
          description="From its go-live, every paper number used here must fall in a declared outage or be explained."
          {...form.getInputProps('covered', { type: 'checkbox' })}
        />
        <TextInput
          label="E-invoicing since"
          type="date"
          withAsterisk={form.getValues().covered}
          {...form.getInputProps('e_invoicing_since')}
        />
        <TextInput label="Permit or certification reference" {...form.getInputProps('permit_reference')} />
        <TextInput
          label="Invoicing system"
          withAsterisk={form.getValues().covered}
          placeholder="e.g. the e-invoicing system's name"
          {...form.getInputProps('invoicing_system')}
        />
        <Group justify="flex-end">
          <AppButton type="submit">Save</AppButton>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Issue 38 "E-invoicing" of a branch: the branch as a tax establishment (BIR branch code, covered, since when, permit,
 * system). Admin and Accounting edit it; everyone else who reads the branch sees it.
 */
export function EInvoicingModal({ branch, onClose }: { branch: { id: number; name: string } | null; onClose: () => void }) {
  const user = useSession()?.user;
  const phone = usePhone();
  const establishment = useQuery({ ...establishmentQueries.of(branch?.id ?? 0), enabled: branch !== null });
  const editable = can(user, 'establishment.manage');
  return (
    <Modal opened={branch !== null} onClose={onClose} title={`E-invoicing: ${branch?.name ?? ''}`} centered fullScreen={phone} size="lg">
      {establishment.isPending ? <Loader size="sm" role="status" aria-label="Loading the e-invoicing details" /> : null}
      {establishment.error ? <Text c="red">{errorMessage(establishment.error)}</Text> : null}
      {establishment.data && branch ? (
        editable ? (
          <EstablishmentForm key={establishment.dataUpdatedAt} branchId={branch.id} establishment={establishment.data} onSaved={onClose} />
        ) : (
          <Stack>
            <Facts establishment={establishment.data} />
            <Group justify="flex-end">
              <AppButton variant="secondary" onClick={onClose}>
                Close
              </AppButton>
            </Group>
          </Stack>
        )
      ) : null}
    </Modal>
  );
}
