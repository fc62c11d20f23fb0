import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { NamedRef } from '../../../shared/schemas/common.ts';
import type { CustodyInvoice, HandOverInput, HeldPad, ReturnInvoiceInput, TurnoverInvoiceInput } from '../../../shared/schemas/custodies.ts';
import type { InvoiceDetail, InvoicePad } from '../../../shared/schemas/invoices.ts';
import { api, type Paginated } from '../../lib/api.ts';

export interface PageParams {
  page: number;
  search: string;
}

export const custodyQueries = {
  all: ['custodies'] as const,
  inTransit: (params: PageParams & { invoiceType: string | null }) =>
    queryOptions({
      queryKey: ['custodies', 'in-transit', params],
      queryFn: () =>
        api.get<Paginated<CustodyInvoice>>('get-in-transit-invoices', { page: params.page, search: params.search, invoice_type: params.invoiceType }),
      placeholderData: keepPreviousData,
    }),
  detail: (id: number) =>
    queryOptions({ queryKey: ['custodies', 'invoice', id], queryFn: () => api.get<{ data: InvoiceDetail }>(`get-invoice/${id}`).then((r) => r.data) }),
  invoicePads: (id: number, params: PageParams) =>
    queryOptions({
      queryKey: ['custodies', 'invoice-pads', id, params],
      queryFn: () => api.get<Paginated<InvoicePad>>(`pads-belong-to-invoice/${id}`, { page: params.page, search: params.search }),
      placeholderData: keepPreviousData,
    }),
  userPads: (params: PageParams) =>
    queryOptions({
      queryKey: ['custodies', 'user-pads', params],
      queryFn: () => api.get<Paginated<HeldPad>>('get-user-pads', { page: params.page, search: params.search }),
      placeholderData: keepPreviousData,
    }),
  invoiceTypes: () =>
    queryOptions({ queryKey: ['invoice-types'], queryFn: () => api.get<{ data: NamedRef[] }>('invoice-types').then((r) => r.data), staleTime: 300_000 }),
  branches: () =>
    queryOptions({ queryKey: ['branches', 'all'], queryFn: () => api.get<{ data: NamedRef[] }>('get-branches').then((r) => r.data), staleTime: 60_000 }),
};

export const custodyApi = {
  handOver: (id: number, input: HandOverInput) => api.post<{ message: string; data: CustodyInvoice }>(`hand-over-invoice/${id}`, input),
  createReturn: (input: ReturnInvoiceInput) => api.post<{ message: string; data: CustodyInvoice }>('create-return-invoice', input),
  createTurnover: (input: TurnoverInvoiceInput) => api.post<{ message: string; data: CustodyInvoice }>('create-turnover-invoice', input),
};
