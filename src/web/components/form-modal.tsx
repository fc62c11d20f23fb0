import { Box, Group, Modal, Stack, Text } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { AppButton } from './app-button.tsx';
import { LoadingOverlay } from './loading-overlay.tsx';
import { usePhone } from '../lib/use-media.ts';
import { useBackStep } from '../lib/use-back-step.ts';

/** "Discard what you typed?": asked before a form with typed text closes, by Back, Cancel, Escape or ×. */
function DiscardQuestion({ opened, onKeep, onDiscard }: { opened: boolean; onKeep: () => void; onDiscard: () => void }) {
  return (
    <Modal opened={opened} onClose={onKeep} title="Discard what you typed?" centered zIndex={450} size="sm">
      <Stack>
        <Text size="sm">The text you typed in this form is lost if you close it.</Text>
        <Group justify="flex-end">
          <AppButton variant="secondary" onClick={onKeep} data-autofocus>
            Keep editing
          </AppButton>
          <AppButton color="red" onClick={onDiscard}>
            Discard
          </AppButton>
        </Group>
      </Stack>
    </Modal>
  );
}

/**
 * A short form in a modal opened over another one (Pad Details, an incident): its fields, Cancel and the submit
 * button, with the loading overlay while it saves; full screen on a phone. Back closes only this modal, and once the
 * user has typed something, closing asks first.
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
  const [typed, setTyped] = useState(false);
  const [asking, setAsking] = useState(false);
  useBackStep(() => {
    if (typed) setAsking(true);
    else onClose();
    return !typed;
  });
  const close = () => (typed ? setAsking(true) : onClose());
  return (
    <>
      <Modal opened onClose={close} title={title} size={size} centered fullScreen={phone} zIndex={350}>
        <Box pos="relative">
          <LoadingOverlay visible={busy} message={busyMessage} />
          <form
            noValidate
            onInput={() => setTyped(true)}
            onSubmit={(event) => {
              event.preventDefault();
              onSubmit();
            }}
          >
            <Stack>
              {children}
              <Group justify="flex-end" grow={phone}>
                <AppButton variant="secondary" onClick={close}>
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
      <DiscardQuestion opened={asking} onKeep={() => setAsking(false)} onDiscard={onClose} />
    </>
  );
}
