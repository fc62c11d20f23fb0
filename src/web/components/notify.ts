import { notifications } from '@mantine/notifications';

/** The spec's alerts and toasts. */
export const notify = {
  success: (message: string) => notifications.show({ color: 'teal', message, autoClose: 4000 }),
  error: (message: string) => notifications.show({ color: 'red', message, autoClose: 6000 }),
};
