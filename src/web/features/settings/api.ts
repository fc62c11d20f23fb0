import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { OperatorIdentityInput, OperatorIdentityResponse } from '../../../shared/schemas/operator-identity.ts';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

const PATH = 'settings/operator-identity';
type Saved = { message: string; data: OperatorIdentityResponse };

export const settingsQueries = {
  identity: () =>
    queryOptions({
      queryKey: queryKeys.operatorIdentity.all,
      queryFn: () => api.get<{ data: OperatorIdentityResponse }>(PATH).then((r) => r.data),
    }),
};

/** Every change answers the whole identity, which replaces the cached one: the form and the logo preview show it at once. */
function useIdentityMutation<Input>(send: (input: Input) => Promise<Saved>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (result) => queryClient.setQueryData(queryKeys.operatorIdentity.all, result.data),
  });
}

export const useSaveIdentity = () => useIdentityMutation((input: OperatorIdentityInput) => api.put<Saved>(PATH, input));
export const useSaveLogo = () => useIdentityMutation((png: string) => api.put<Saved>(`${PATH}/logo`, { png }));
export const useRemoveLogo = () => useIdentityMutation(() => api.delete<Saved>(`${PATH}/logo`));
