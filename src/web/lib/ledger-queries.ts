import { queryOptions } from '@tanstack/react-query';
import type { PadHistory, ReceiptFinding } from '../../shared/schemas/ledger.ts';
import { api } from './api.ts';

/** The pad's custody chain (Pad Details) and "where is receipt N" (header), read by the pads screen and the shell. */
export const ledgerQueries = {
  padHistory: (padId: number) =>
    queryOptions({ queryKey: ['pad-history', padId], queryFn: async () => (await api.get<{ data: PadHistory }>(`pad-history/${padId}`)).data }),
  findReceipt: (receipt: string) =>
    queryOptions({
      queryKey: ['find-receipt', receipt],
      queryFn: async () => (await api.get<{ data: ReceiptFinding[] }>('find-receipt', { number: receipt })).data,
      enabled: /^\d{1,15}$/.test(receipt),
    }),
};
