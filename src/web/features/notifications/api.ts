import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AlertKind,
  AlertSettings,
  AlertSettingsInput,
  NotificationItem,
  NotificationList,
  NotificationSettings,
  NotificationSettingsInput,
  NotificationState,
} from '../../../shared/schemas/notifications.ts';
import { api } from '../../lib/api.ts';
import { queryKeys } from '../../lib/query-keys.ts';

/** The bell asks every minute and whenever the window comes back into focus: alerts are evaluated by jobs, not by clicks. */
export const BELL_POLL_MS = 60_000;

export interface NotificationListParams {
  state: NotificationState;
  kind: AlertKind | null;
  page: number;
  perPage: number;
}

const list = (params: NotificationListParams) =>
  api.get<NotificationList>('notifications', { state: params.state, kind: params.kind, page: params.page, per_page: params.perPage });

export const notificationQueries = {
  list: (params: NotificationListParams) =>
    queryOptions({
      queryKey: queryKeys.notifications.of(params),
      queryFn: () => list(params),
      placeholderData: keepPreviousData,
    }),
  /** The unread count of the header's bell: one row of the open list, which answers the count whatever it holds. */
  unread: () =>
    queryOptions({
      queryKey: queryKeys.notifications.of({ bell: true }),
      queryFn: () => list({ state: 'open', kind: null, page: 1, perPage: 1 }).then((r) => r.unread),
      refetchInterval: BELL_POLL_MS,
      refetchOnWindowFocus: true,
      staleTime: 30_000,
    }),
  settings: () =>
    queryOptions({
      queryKey: queryKeys.notificationSettings.all,
      queryFn: () => api.get<{ data: NotificationSettings }>('notification-settings').then((r) => r.data),
    }),
  alertSettings: () =>
    queryOptions({
      queryKey: queryKeys.alertSettings.all,
      queryFn: () => api.get<{ data: AlertSettings }>('alert-settings').then((r) => r.data),
    }),
};

/** Reading one changes the list it is on and the bell's count: every notifications key refreshes. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<{ data: NotificationItem }>(`notifications/${id}/read`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.notifications.all }),
  });
}

/** The saved settings come back whole and replace the cached ones: the form shows what the server kept. */
export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationSettingsInput) =>
      api.put<{ message: string; data: NotificationSettings }>('notification-settings', input),
    onSuccess: (result) => queryClient.setQueryData(queryKeys.notificationSettings.all, result.data),
  });
}

export function useSaveAlertSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AlertSettingsInput) => api.put<{ message: string; data: AlertSettings }>('alert-settings', input),
    onSuccess: (result) => queryClient.setQueryData(queryKeys.alertSettings.all, result.data),
  });
}
