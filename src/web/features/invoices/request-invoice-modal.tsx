import { Alert, Anchor, Group, Modal, Select, Skeleton, Stack, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { routeLabel } from '../../../shared/format.ts';
import { can } from '../../../shared/permissions.ts';
import { requestInvoiceSchema } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useSession } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useNothingFound } from '../../components/offline-banner.tsx';
import { invoiceListQueries, useRequestInvoice } from './api.ts';

/** docs/spec.md §2 Create Request Invoice: the head office (fixed, disabled), a route and how many pads; without a head office it says why. */
export function RequestInvoiceModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const headOffice = useQuery({ ...invoiceListQueries.headOffice(), enabled: opened });
  const routes = useQuery({ ...lookupQueries.routes(), enabled: opened });
  const noRoutes = useNothingFound('No routes found', routes.dataUpdatedAt);
  const create = useRequestInvoice();
  const user = useSession()?.user;
  const form = useZodForm<{ route_id: string | null; pads: string }>(requestInvoiceSchema, { route_id: null, pads: '' });

  const close = () => {
    form.reset();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    try {
      const result = await create.mutateAsync({ branch_id: headOffice.data?.id, route_id: values.route_id ?? '', pads: values.pads });
      notify.success(result.message);
      close();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });

  return (
    <Modal opened={opened} onClose={close} title="Create Request Invoice" centered size="md">
      <form onSubmit={submit} noValidate>
        <LoadingOverlay visible={create.isPending} message="Creating request invoice..." />
        <Stack>
          {headOffice.data ? (
            <Select
              label="Branch"
              withAsterisk
              disabled
              data={[{ value: String(headOffice.data.id), label: headOffice.data.name }]}
              value={String(headOffice.data.id)}
            />
          ) : headOffice.isError ? (
            <Alert color="orange" variant="light" role="alert" title="No branch to request from">
              {errorMessage(headOffice.error)}{' '}
              {can(user, 'administer') ? (
                <Anchor component={Link} to="/branches?add=1" replace>
                  Add the head-office branch
                </Anchor>
              ) : null}
            </Alert>
          ) : (
            <Skeleton h={58} aria-label="Loading the branch" />
          )}
          <Select
            label="Route"
            withAsterisk
            searchable
            placeholder="Select a route"
            data={(routes.data ?? []).map((r) => ({ value: String(r.id), label: routeLabel(r) }))}
            nothingFoundMessage={noRoutes}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('route_id')}
          />
          <TextInput label="Number of Pads" withAsterisk inputMode="numeric" {...form.getInputProps('pads')} />
          <Group justify="flex-end">
            <AppButton variant="secondary" onClick={close}>
              Cancel
            </AppButton>
            <AppButton type="submit" disabled={!headOffice.data}>
              Submit
            </AppButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
