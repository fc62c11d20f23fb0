import { Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { routeLabel, seriesRange } from '../../../shared/format.ts';
import { can } from '../../../shared/permissions.ts';
import { INVOICE_MSG, issueInvoiceSchema, type InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { whyNotIssuable } from '../../../shared/custody-rules.ts';
import { announceLabel, PadLabelScanner, takeLabel } from '../../components/qr-scanner/pad-label-scanner.tsx';
import type { ScanOutcome } from '../../components/qr-scanner/qr-scanner.tsx';
import { choosePad } from '../../components/qr-scanner/scan-rules.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable, type Column, type RowSelection } from '../../components/data-table.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { PadCards } from '../../components/pad-cards.tsx';
import { Pager } from '../../components/pager.tsx';
import { AssigneeField } from '../../components/qr-scanner/assignee-field.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { SEARCH_HINTS } from '../../lib/search-hints.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { invoiceListQueries, useIssueInvoice } from './api.ts';
import { usePhone } from '../../lib/use-media.ts';

const noFilters = {};

const columns: Column<Pad>[] = [
  { key: 'number', header: 'Pad Number', render: (p) => p.number },
  {
    key: 'series',
    header: 'Series Number',
    render: (p) => seriesRange(p.series_from, p.series_to),
  },
  { key: 'status', header: 'Pad Status', render: (p) => p.pad_status.name },
];

/** docs/spec.md §2 Create Issue Invoice: the request's branch, route and count (disabled), the pads to send, the days and the courier. */
export function IssueInvoiceModal({ request, onClose }: { request: InvoiceDetail; onClose: () => void }) {
  const session = useSession();
  const maySelect = can(session?.user, 'invoice.selectPads');
  const phone = usePhone();
  const { params, setSearch, setPage } = useListParams(noFilters, { inUrl: false });
  const routeId = request.route_id ?? 0;
  const available = useQuery({ ...invoiceListQueries.availablePads(routeId, params), enabled: routeId > 0 });
  const issue = useIssueInvoice();
  const form = useZodForm(issueInvoiceSchema, {
    invoice_id: request.id,
    branch_id: request.from_branch_id ?? undefined,
    route_id: request.route_id ?? undefined,
    user_id: request.user_id,
    pads: [] as number[], // -- widens the empty start value to the field's type
    expected_return: '',
    assigned_user_id: null as string | null, // -- widens the empty start value to the field's type
  });
  const picked = form.values.pads;

  const selection: RowSelection<Pad> = {
    isSelected: (pad) => picked.includes(pad.id),
    onChange: (pads, on) => {
      const ids = pads.map((p) => p.id);
      const room = Math.max(0, request.pads - picked.length);
      const added = ids.filter((id) => !picked.includes(id)).slice(0, room);
      form.setFieldValue('pads', on ? [...picked, ...added] : picked.filter((id) => !ids.includes(id)));
      form.clearFieldError('pads');
    },
    label: (pad) => `Select pad ${pad.number}`,
    allLabel: 'Select all pads',
    full: picked.length >= request.pads,
  };

  /** docs/design.md §9 scan to select: a scanned label picks its pad, or says why it cannot. */
  const chooseScanned = (pad: Pad): ScanOutcome => {
    const { pick, ...outcome } = choosePad(pad, whyNotIssuable(pad, routeId), picked, request.pads);
    if (pick) {
      form.setFieldValue('pads', [...picked, pad.id]);
      form.clearFieldError('pads');
    }
    return outcome;
  };

  const submit = form.onSubmit(async (values) => {
    if (values.pads.length > request.pads) {
      form.setFieldError('pads', INVOICE_MSG.tooManyPads(request.pads));
      return;
    }
    try {
      const result = await issue.mutateAsync({ ...values, assigned_user_id: values.assigned_user_id ?? '' });
      notify.success(result.message);
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });

  const padsError = form.errors.pads;
  const requestError = form.errors.invoice_id ?? form.errors.user_id ?? form.errors.route_id;
  return (
    <Modal opened onClose={onClose} title="Create Issue Invoice" size="xl" centered>
      <LoadingOverlay visible={issue.isPending} message="Issuing invoice..." />
      <form onSubmit={submit} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <TextInput label="Branch" disabled value={request.from_branch?.name ?? request.user.branch?.name ?? '-'} />
            <TextInput label="Route" disabled value={routeLabel(request.route)} title={routeLabel(request.route)} />
            <TextInput label="Number of Pads" disabled value={String(request.pads)} />
          </SimpleGrid>
          <Stack gap="xs">
            <Text fw={600}>Available Pads</Text>
            <Group align="flex-start">
              <SearchInput
                placeholder="Search by pad name"
                onSearch={setSearch}
                take={takeLabel((code) => void announceLabel(code, chooseScanned))}
                hint={SEARCH_HINTS.pads}
              />
            </Group>
            {maySelect ? <PadLabelScanner choose={chooseScanned} /> : null}
            {phone ? (
              <PadCards
                rows={available.data?.data}
                loading={available.isLoading}
                emptyText="No pads"
                label="Available pads"
                withRoute={false}
                selection={maySelect ? selection : undefined}
              />
            ) : (
              <DataTable
                columns={columns}
                rows={available.data?.data}
                rowKey={(p) => p.id}
                loading={available.isLoading}
                emptyText="No pads"
                label="Available pads"
                selection={maySelect ? selection : undefined}
              />
            )}
            <Group justify="space-between" wrap="wrap">
              <Text size="sm" c={padsError ? 'red' : 'dimmed'} role={padsError ? 'alert' : undefined}>
                {padsError ?? `${picked.length} of ${request.pads} selected`}
              </Text>
              <Pager page={params.page} lastPage={available.data?.last_page ?? 1} onChange={setPage} />
            </Group>
          </Stack>
          <TextInput label="Expected Return (Days)" withAsterisk inputMode="numeric" maw={260} {...form.getInputProps('expected_return')} />
          <AssigneeField
            value={form.values.assigned_user_id}
            onChange={(value) => form.setFieldValue('assigned_user_id', value)}
            error={form.errors.assigned_user_id}
          />
          {requestError ? (
            <Text c="red" size="sm" role="alert">
              {requestError}
            </Text>
          ) : null}
          <Group justify="flex-end">
            <AppButton variant="secondary" onClick={onClose}>
              Cancel
            </AppButton>
            <AppButton type="submit">Submit</AppButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
