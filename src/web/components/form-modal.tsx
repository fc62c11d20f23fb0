import { Box, Group, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { AppButton } from './app-button.tsx';
import { LoadingOverlay } from './loading-overlay.tsx';
import { usePhone } from '../lib/use-media.ts';

/**
 * A short form in a modal opened over another one (Pad Details, an incident): its fields, Cancel and the submit
 * button, with the loading overlay while it saves; full screen on a phone.
 */
export function FormModal({
  title,
  busy,
  onClose,
  onSubmit,
  submitLabel,
  submitColor,
  busyMessage = 'Saving...',
  size = 'lg',
  children,
}: {
  title: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: () => void;
  submitLabel: string;
  submitColor?: string;
  busyMessage?: string;
  size?: string;
  children: ReactNode;
}) {
  const phone = usePhone();
  return (
    <Modal opened onClose={onClose} title={title} size={size} centered fullScreen={phone} zIndex={350}>
      <Box pos="relative">
        <LoadingOverlay visible={busy} message={busyMessage} />
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit();
          }}
        >
          <Stack>
            {children}
            <Group justify="flex-end" grow={phone}>
              <AppButton variant="secondary" onClick={onClose}>
                Cancel
              </AppButton>
              <AppButton type="submit" color={submitColor} disabled={busy}>
                {submitLabel}
              </AppButton>
            </Group>
          </Stack>
        </form>
      </Box>
    </Modal>
  );
}
