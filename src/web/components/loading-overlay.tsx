import { Loader, LoadingOverlay as MantineOverlay, Stack, Text } from '@mantine/core';

/** docs/spec.md §2 loading overlay: a spinner and a message, "Loading..." unless told otherwise. */
export function LoadingOverlay({ visible, message = 'Loading...' }: { visible: boolean; message?: string }) {
  return (
    <MantineOverlay
      visible={visible}
      zIndex={400}
      overlayProps={{ blur: 1 }}
      loaderProps={{
        children: (
          <Stack align="center" gap="xs" role="status" aria-live="polite">
            <Loader />
            <Text fw={500}>{message}</Text>
          </Stack>
        ),
      }}
    />
  );
}
