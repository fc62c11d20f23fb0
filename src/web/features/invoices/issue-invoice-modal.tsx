import { Checkbox, Group, Modal, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { abbreviateSeries, routeLabel } from '../../../shared/format.ts';
import { can } from '../../../shared/permissions.ts';
import { INVOICE_MSG, issueInvoiceSchema, type InvoiceDetail } from '../../../shared/schemas/invoices.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { useListParams } from '../../lib/use-list-params.ts';
import { invoiceApi, invoiceQueries } from './api.ts';
import { AssigneeField } from '../../components/qr-scanner/assignee-field.tsx';

type Errors = Record<string, string | undefined>;
const noFilters = {};

/** Spec §2 Create Issue Invoice: the request's branch, route and count (disabled), the pads to send, the days and the courier. */
export function IssueInvoiceModal({ request, onClose, onIssued }: { request: InvoiceDetail; onClose: () => void; onIssued: () => void }) {
  const session = useSession();
  const maySelect = can(session?.user, 'invoice.selectPads');
  const { params, setSearch, setPage } = useListParams(noFilters);
  const routeId = request.route_id ?? 0;
  const available = useQuery({ ...invoiceQueries.availablePads(routeId, params), enabled: routeId > 0 });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [days, setDays] = useState('');
  const [assignee, setAssignee] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const pageIds = (available.data?.data ?? []).map((p) => p.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const someOnPage = pageIds.some((id) => selected.has(id));

  const clearError = (field: string) => setErrors((current) => ({ ...current, [field]: undefined }));

  const toggle = (id: number) => {
    clearError('pads');
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  };
  const toggleAll = () => {
    clearError('pads');
    setSelected((current) => {
      const next = new Set(current);
      for (const id of pageIds) {
        if (allOnPage) next.delete(id);
        else next.add(id);
      }
      return next;
    });
  };

  const submit = async () => {
    const payload = {
      invoice_id: request.id,
      branch_id: request.from_branch_id ?? undefined,
      route_id: request.route_id ?? undefined,
      pads: [...selected],
      assigned_user_id: assignee ?? '',
      expected_return: days,
      user_id: request.user_id,
    };
    const parsed = issueInvoiceSchema.safeParse(payload);
    const found: Errors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]);
        found[field] ??= issue.message;
      }
    }
    if (selected.size > request.pads) found.pads ??= INVOICE_MSG.tooManyPads(request.pads);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const result = await invoiceApi.issue(payload);
      notify.success(result.message);
      onIssued();
      onClose();
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.errors).length > 0) {
        setErrors(Object.fromEntries(Object.entries(error.errors).map(([field, messages]) => [field.split('.')[0], messages[0]])));
      } else {
        notify.error(errorMessage(error));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title="Create Issue Invoice" size="xl" centered>
      <LoadingOverlay visible={busy} message="Issuing invoice..." />
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <TextInput label="Branch" disabled value={request.from_branch?.name ?? request.user.branch?.name ?? '-'} />
          <TextInput label="Route" disabled value={routeLabel(request.route)} title={routeLabel(request.route)} />
          <TextInput label="Number of Pads" disabled value={String(request.pads)} />
        </SimpleGrid>
        <Stack gap="xs">
          <Text fw={600}>Available Pads</Text>
          <Group>
            <SearchInput placeholder="Search by pad name" onSearch={setSearch} />
          </Group>
          <Table.ScrollContainer minWidth={480} type="native">
            <Table striped highlightOnHover withTableBorder verticalSpacing="xs" aria-label="Available pads">
              <Table.Thead>
                <Table.Tr>
                  {maySelect ? (
                    <Table.Th w={44}>
                      <Checkbox aria-label="Select all pads" checked={allOnPage} indeterminate={!allOnPage && someOnPage} onChange={toggleAll} />
                    </Table.Th>
                  ) : null}
                  <Table.Th>Pad Number</Table.Th>
                  <Table.Th>Series Number</Table.Th>
                  <Table.Th>Pad Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {available.data && available.data.data.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={maySelect ? 4 : 3}>
                      <Text ta="center" c="dimmed" py="sm">
                        No pads
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : null}
                {(available.data?.data ?? []).map((pad) => (
                  <Table.Tr key={pad.id}>
                    {maySelect ? (
                      <Table.Td>
                        <Checkbox aria-label={`Select pad ${pad.number}`} checked={selected.has(pad.id)} onChange={() => toggle(pad.id)} />
                      </Table.Td>
                    ) : null}
                    <Table.Td>{pad.number}</Table.Td>
                    <Table.Td title={pad.series_number}>
                      {abbreviateSeries(pad.series_from)} - {abbreviateSeries(pad.series_to)}
                    </Table.Td>
                    <Table.Td>{pad.pad_status.name}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Group justify="space-between" wrap="wrap">
            <Text size="sm" c={errors.pads ? 'red' : 'dimmed'} role={errors.pads ? 'alert' : undefined}>
              {errors.pads ?? `${selected.size} of ${request.pads} selected`}
            </Text>
            <Pager page={params.page} lastPage={available.data?.last_page ?? 1} onChange={setPage} />
          </Group>
        </Stack>
        <TextInput
          label="Expected Return (Days)"
          withAsterisk
          inputMode="numeric"
          value={days}
          onChange={(event) => {
            clearError('expected_return');
            setDays(event.currentTarget.value);
          }}
          error={errors.expected_return}
          maw={260}
        />
        <AssigneeField
          value={assignee}
          onChange={(value) => {
            clearError('assigned_user_id');
            setAssignee(value);
          }}
          error={errors.assigned_user_id}
        />
        {errors.invoice_id || errors.user_id || errors.route_id ? (
          <Text c="red" size="sm" role="alert">
            {errors.invoice_id ?? errors.user_id ?? errors.route_id}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <AppButton variant="secondary" onClick={onClose}>
            Cancel
          </AppButton>
          <AppButton onClick={submit}>Submit</AppButton>
        </Group>
      </Stack>
    </Modal>
  );
}
