import { notifications } from '@mantine/notifications';

/** The spec's alerts and toasts. */
export const notify = {
  success: (message: string) => notifications.show({ color: 'teal', message, autoClose: 4000 }),
  error: (message: string) => notifications.show({ color: 'red', message, autoClose: 6000 }),
  /** Done, but something the user should change next time (e.g. "use one booklet at a time"). */
  warning: (message: string) => notifications.show({ color: 'yellow', title: 'Please note', message, autoClose: 10000 }),
};
