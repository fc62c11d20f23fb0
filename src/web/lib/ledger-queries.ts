import { queryOptions } from '@tanstack/react-query';
import type { PadHistory, ReceiptFinding } from '../../shared/schemas/ledger.ts';
import { api } from './api.ts';
import { queryKeys } from './query-keys.ts';

/** A receipt number as Find receipt accepts it: digits only. */
export const isReceiptNumber = (text: string) => /^\d{1,15}$/.test(text);

/** The pad's custody chain (Pad Details) and "where is receipt N" (header), read by the pads screen and the shell. */
export const ledgerQueries = {
  padHistory: (padId: number) =>
    queryOptions({
      queryKey: queryKeys.padHistory.of(padId),
      queryFn: async () => (await api.get<{ data: PadHistory }>(`pad-history/${padId}`)).data,
    }),
  findReceipt: (receipt: string) =>
    queryOptions({
      queryKey: queryKeys.findReceipt.of(receipt),
      queryFn: async () => (await api.get<{ data: ReceiptFinding[] }>('find-receipt', { number: receipt })).data,
      enabled: isReceiptNumber(receipt),
    }),
};
