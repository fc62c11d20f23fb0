import { queryOptions } from '@tanstack/react-query';
import type { LoginInput, LoginResponse, ProfileInput, RegistrationInput, SessionUser } from '../../../shared/schemas/accounts.ts';
import { api } from '../../lib/api.ts';

export const accountQueries = {
  profile: () => queryOptions({ queryKey: ['user-profile'], queryFn: () => api.get<{ data: SessionUser }>('user-profile').then((r) => r.data) }),
  badge: () =>
    queryOptions({ queryKey: ['user-qrcode'], queryFn: () => api.get<{ qr_code: string }>('get-user-qrcode').then((r) => r.qr_code), staleTime: 60_000 }),
};

export const accountApi = {
  login: (input: LoginInput) => api.post<LoginResponse>('login', input),
  logout: () => api.post<{ message: string }>('logout'),
  register: (input: RegistrationInput) => api.post<LoginResponse & { message: string }>('register-account', input),
  forgotPassword: (email: string) => api.post<{ message: string }>('forgot-password', { email }),
  updatePassword: (input: { token: string; password: string; password_confirmation: string }) =>
    api.post<{ message: string; role_id: number | null }>('update-password', input),
  updateProfile: (input: ProfileInput) => api.put<{ message: string; userProfile: SessionUser }>('update-profile', input),
  resetOwnPassword: () => api.post<{ message: string }>('reset-user-password'),
};
