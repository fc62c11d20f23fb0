import { keepPreviousData, queryOptions, useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { OutageCause, Outage, OutageRow } from '../../../shared/schemas/outages.ts';
import type { PaperUseSummary, Replacements, SummaryFormat } from '../../../shared/schemas/paper-use-summary.ts';
import type { ExceptionDecisionInput, ExceptionState, PaperUseException } from '../../../shared/schemas/paper-uses.ts';
import { api, type Paginated } from '../../lib/api.ts';
import { invalidate, padNumberKeys, queryKeys } from '../../lib/query-keys.ts';

export interface OutageListParams {
  page: number;
  branchId: string | null;
  state: string | null;
}

export interface ExceptionListParams {
  page: number;
  branchId: string | null;
  state: ExceptionState | null;
}

export const outageQueries = {
  list: (params: OutageListParams) =>
    queryOptions({
      queryKey: queryKeys.outages.of(params),
      queryFn: () =>
        api.get<Paginated<OutageRow>>('outages', { page: params.page, branch_id: params.branchId, state: params.state, per_page: 25 }),
      placeholderData: keepPreviousData,
    }),
  one: (id: number) =>
    queryOptions({
      queryKey: queryKeys.outage.of(id),
      queryFn: () => api.get<{ data: Outage }>(`outages/${id}`).then((r) => r.data),
    }),
  exceptions: (params: ExceptionListParams) =>
    queryOptions({
      queryKey: queryKeys.paperUseExceptions.of(params),
      queryFn: () =>
        api.get<Paginated<PaperUseException>>('paper-use-exceptions', {
          page: params.page,
          branch_id: params.branchId,
          state: params.state,
          per_page: 25,
        }),
      placeholderData: keepPreviousData,
    }),
  exception: (id: number) =>
    queryOptions({
      queryKey: queryKeys.paperUseException.of(id),
      queryFn: () => api.get<{ data: PaperUseException }>(`paper-use-exceptions/${id}`).then((answer) => answer.data),
    }),
};

/** An outage's window links or unlinks paper uses, so the exceptions, the summary and what waits for whom change with it. */
const outageChangeKeys: QueryKey[] = [
  queryKeys.outages.all,
  queryKeys.outage.all,
  queryKeys.paperUseExceptions.all,
  queryKeys.paperUseException.all,
  queryKeys.paperUseSummary.all,
  queryKeys.replacements.all,
  queryKeys.myActions.all,
];

function useOutageMutation<Input, Answer>(call: (input: Input) => Promise<Answer>, more: QueryKey[] = []) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: call, onSettled: () => invalidate(queryClient, [...outageChangeKeys, ...more]) });
}

export interface DeclareOutage {
  branch_id: number;
  starts_at: string;
  ends_at: string | null;
  cause: OutageCause;
  details: string | null;
  notice_reference: string | null;
}

type Saved = { message: string; data: Outage };

/** One replacement as the entry form sends it. */
export interface ReplacementItemValues {
  paper_number: number;
  route_id?: number | null;
  einvoice_number: string;
  transmitted_on: string;
}

export const useDeclareOutage = () => useOutageMutation((input: DeclareOutage) => api.post<Saved>('outages', input));
export const useCloseOutage = () =>
  useOutageMutation(({ id, ends_at }: { id: number; ends_at: string }) => api.post<Saved>(`outages/${id}/close`, { ends_at }));
export const useAddEvidence = () =>
  useOutageMutation(({ id, files }: { id: number; files: File[] }) => {
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    return api.postForm<{ message: string }>(`outages/${id}/evidence`, form);
  });
export const useDecideException = () =>
  useOutageMutation(
    ({ id, ...input }: ExceptionDecisionInput & { id: number }) =>
      api.post<{ message: string }>(`paper-use-exceptions/${id}/decision`, input),
    [...padNumberKeys, queryKeys.raaf.all],
  );

export const replacementQueries = {
  of: (outageId: number) =>
    queryOptions({
      queryKey: queryKeys.replacements.of(outageId),
      queryFn: () => api.get<{ data: Replacements }>(`outages/${outageId}/replacements`).then((r) => r.data),
    }),
};

export const useEnterReplacements = () =>
  useOutageMutation(({ outageId, items }: { outageId: number; items: ReplacementItemValues[] }) =>
    api.post<{ message: string }>(`outages/${outageId}/replacements`, { items }),
  );
export const useImportReplacements = () =>
  useOutageMutation(({ outageId, file }: { outageId: number; file: File }) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return api.postForm<{ message: string }>(`outages/${outageId}/replacements/import`, form);
  });

export interface SummaryParams {
  branchId: string | null;
  from: string;
  to: string;
}

export const summaryQueries = {
  of: (params: SummaryParams) =>
    queryOptions({
      queryKey: queryKeys.paperUseSummary.of(params),
      queryFn: () =>
        api
          .get<{ data: PaperUseSummary }>('paper-use', { branch_id: params.branchId, from: params.from, to: params.to })
          .then((r) => r.data),
    }),
};

/** The summary list as a file: the same establishment and period, as PDF, CSV or .xlsx. */
export const summaryFile = (params: SummaryParams, format: Exclude<SummaryFormat, 'json'>) =>
  api.file('paper-use', { branch_id: params.branchId, from: params.from, to: params.to, format });
