import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  ChangePasswordInput,
  LoginInput,
  LoginResponse,
  ProfileInput,
  RegistrationInput,
  SessionUser,
} from '../../../shared/schemas/accounts.ts';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';
import { sessionStore } from '../../lib/session.ts';

export const accountQueries = {
  profile: () =>
    queryOptions({ queryKey: queryKeys.profile.all, queryFn: () => api.get<{ data: SessionUser }>('user-profile').then((r) => r.data) }),
  badge: () =>
    queryOptions({
      queryKey: queryKeys.badge.all,
      queryFn: () => api.get<{ qr_code: string }>('get-user-qrcode').then((r) => r.qr_code),
      staleTime: 60_000,
    }),
};

export const accountApi = {
  logout: () => api.post<{ message: string }>('logout'),
};

export const useLogin = () => useMutation({ mutationFn: (input: LoginInput) => api.post<LoginResponse>('login', input) });
export const useRegister = () =>
  useMutation({ mutationFn: (input: RegistrationInput) => api.post<LoginResponse & { message: string }>('register-account', input) });
export const useForgotPassword = () =>
  useMutation({ mutationFn: (email: string) => api.post<{ message: string }>('forgot-password', { email }) });
export const useUpdatePassword = () =>
  useMutation({
    mutationFn: (input: { token: string; password: string; password_confirmation: string }) =>
      api.post<{ message: string; role_id: number | null }>('update-password', input),
  });
/** Replaces a password an administrator chose; afterwards the session may use every screen its role allows. */
export const useChangePassword = () =>
  useMutation({
    mutationFn: (input: ChangePasswordInput) => api.post<{ message: string }>('change-password', input),
    onSuccess: () => {
      const session = sessionStore.get();
      if (session) sessionStore.set({ ...session, must_change_credentials: false });
    },
  });
export const useResetOwnPassword = () => useMutation({ mutationFn: () => api.post<{ message: string }>('reset-user-password') });

/** Saves the signed-in user's names and e-mail; the header greeting and the profile form show them at once. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileInput) => api.put<{ message: string; userProfile: SessionUser }>('update-profile', input),
    onSuccess: (result) => {
      sessionStore.updateUser(result.userProfile);
      queryClient.setQueryData(accountQueries.profile().queryKey, result.userProfile);
    },
  });
}
