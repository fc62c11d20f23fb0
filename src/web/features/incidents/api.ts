import { INCIDENT_STATUS_TEXT, type IncidentStatus } from '../../../shared/lookups.ts';
import type { ExportFormat } from '../../../shared/schemas/common.ts';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { type Incident, type IncidentRow } from '../../../shared/schemas/incidents.ts';
import type { InvoicePad } from '../../../shared/schemas/invoices.ts';
import { api, type Paginated } from '../../lib/api.ts';
import { invalidate, padNumberKeys, queryKeys } from '../../lib/query-keys.ts';
import { viewParams, type ListView } from '../../lib/use-list-params.ts';

export interface IncidentListParams extends ListView {
  page: number;
  search: string;
  status: string | null;
}

/** Every incident matching the Incidents search and status, as a file (docs/design.md §10). */
export const incidentListFile = (params: Omit<IncidentListParams, 'page'>, format: ExportFormat) =>
  api.file('loss-incidents', { search: params.search, ...viewParams(params), per_page: undefined, status: params.status, format });

export const incidentQueries = {
  list: (params: IncidentListParams) =>
    queryOptions({
      queryKey: queryKeys.incidents.of(params),
      queryFn: () =>
        api.get<Paginated<IncidentRow>>('loss-incidents', {
          page: params.page,
          search: params.search,
          ...viewParams(params),
          status: params.status,
        }),
      placeholderData: keepPreviousData,
    }),
  one: (id: number) =>
    queryOptions({
      queryKey: queryKeys.incident.of(id),
      queryFn: () => api.get<{ data: Incident }>(`loss-incidents/${id}`).then((r) => r.data),
    }),
  /** Every pad an in-transit invoice carries, for the courier's loss report (at most 100 pads an invoice). */
  invoicePads: (invoiceId: number) =>
    queryOptions({
      queryKey: queryKeys.invoicePads.of(invoiceId, { page: 1, search: '', per_page: 100 }),
      queryFn: () => api.get<Paginated<InvoicePad>>(`pads-belong-to-invoice/${invoiceId}`, { page: 1, per_page: 100 }).then((r) => r.data),
    }),
};

export const STATUS_LABELS: Record<IncidentStatus, { label: string; color: string }> = {
  reported: { label: INCIDENT_STATUS_TEXT.reported, color: 'orange' },
  confirmed: { label: INCIDENT_STATUS_TEXT.confirmed, color: 'red' },
  rejected: { label: INCIDENT_STATUS_TEXT.rejected, color: 'gray' },
};

type Created = { message: string; data: { id: number; number: string; status: IncidentStatus } };

/** A loss changes the pads' numbers and the counts of what waits for whom, so everything a pad change alters refreshes. */
function useIncidentMutation<Input, Answer>(call: (input: Input) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => invalidate(queryClient, padNumberKeys) });
}

/** POST loss-incidents as multipart: the fields and the papers (affidavit, police report, tax office copy). */
export const useReportLoss = () => useIncidentMutation((form: FormData) => api.postForm<Created>('loss-incidents', form));
export const useConfirmIncident = () =>
  useIncidentMutation(({ id, no_affidavit_reason }: { id: number; no_affidavit_reason: string | null }) =>
    api.post<{ message: string }>(`loss-incidents/${id}/confirm`, { no_affidavit_reason }),
  );
export const useRejectIncident = () =>
  useIncidentMutation(({ id, reason }: { id: number; reason: string }) =>
    api.post<{ message: string }>(`loss-incidents/${id}/reject`, { reason }),
  );
export const useRecordFound = () =>
  useIncidentMutation(({ id, ...body }: { id: number; pad_id: number; from: number; to: number; reason: string }) =>
    api.post<{ message: string }>(`loss-incidents/${id}/found`, body),
  );
export const useConfirmFound = () =>
  useIncidentMutation(({ id, foundId }: { id: number; foundId: number }) =>
    api.post<{ message: string }>(`loss-incidents/${id}/found/${foundId}/confirm`),
  );
