import { Center, Image, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { accountQueries } from '../features/accounts/api.ts';

/** Spec §2 My QR Code: the badge image, or "Loading QR Code..." while it loads. */
export function QrCodeModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const badge = useQuery({ ...accountQueries.badge(), enabled: opened });
  return (
    <Modal opened={opened} onClose={onClose} title="My QR Code" centered>
      <Center>
        {badge.data ? (
          <Stack align="center" gap="xs">
            <Image src={`data:image/svg+xml;base64,${badge.data}`} alt="My QR code" w={240} h={240} />
            <Text size="sm" c="dimmed" ta="center">
              Show this code when you hand over or receive pads.
            </Text>
          </Stack>
        ) : (
          <Text py="xl">{badge.isError ? 'Could not load the QR code.' : 'Loading QR Code...'}</Text>
        )}
      </Center>
    </Modal>
  );
}
