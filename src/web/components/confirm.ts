import { modals } from '@mantine/modals';

/** A yes/no question in a modal (docs/spec.md §8 confirmations), as a promise. */
export function confirmAction(message: string, confirmLabel = 'Yes'): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: 'Please confirm',
      children: message,
      labels: { confirm: confirmLabel, cancel: 'Cancel' },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}
