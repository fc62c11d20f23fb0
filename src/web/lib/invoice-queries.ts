import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { InvoiceDetail, InvoicePad } from '../../shared/schemas/invoices.ts';
import { api, type Paginated } from './api.ts';
import { queryKeys } from './query-keys.ts';

/** The invoice reads every screen shares, so Transactions, Custodies and Reports cache one copy. */
export const invoiceQueries = {
  detail: (id: number) =>
    queryOptions({
      queryKey: queryKeys.invoice.of(id),
      queryFn: () => api.get<{ data: InvoiceDetail }>(`get-invoice/${id}`).then((r) => r.data),
    }),
  pads: (id: number, params: { page: number; search: string }) =>
    queryOptions({
      queryKey: queryKeys.invoicePads.of(id, params),
      queryFn: () => api.get<Paginated<InvoicePad>>(`pads-belong-to-invoice/${id}`, { page: params.page, search: params.search }),
      placeholderData: keepPreviousData,
    }),
};
