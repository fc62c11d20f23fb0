import { Button, Center, Image, Modal, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconMaximize } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { accountQueries } from '../features/accounts/api.ts';
import { OfflineNote } from '../components/offline-banner.tsx';
import { useSession } from '../lib/session.ts';

/**
 * docs/spec.md §2 My QR Code: the badge image, or "Loading QR Code..." while it loads. The holder's name is under the code, and
 * "Show full screen" gives the code the whole screen on white, so a phone camera reads it in sunlight at a pier.
 */
export function QrCodeModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const badge = useQuery({ ...accountQueries.badge(), enabled: opened });
  const name = useSession()?.user.full_name ?? '';
  const [fullScreen, fullScreenMode] = useDisclosure(false);
  const src = badge.data ? `data:image/svg+xml;base64,${badge.data}` : null;
  const close = () => {
    fullScreenMode.close();
    onClose();
  };
  return (
    <>
      <Modal
        opened={opened && !fullScreen}
        onClose={close}
        title="My QR Code"
        centered
        closeButtonProps={{ 'aria-label': 'Close My QR Code' }}
      >
        <Center>
          {src ? (
            <Stack align="center" gap="xs">
              <OfflineNote updatedAt={badge.dataUpdatedAt} />
              <Image src={src} alt="My QR code" w={240} h={240} />
              <Text fw={700} size="lg" ta="center" data-testid="qr-name">
                {name}
              </Text>
              <Text size="sm" c="dimmed" ta="center">
                Show this code when you hand over or receive pads.
              </Text>
              <Button variant="light" leftSection={<IconMaximize size={16} aria-hidden />} onClick={fullScreenMode.open}>
                Show full screen
              </Button>
            </Stack>
          ) : (
            <Text py="xl">{badge.isError ? 'Could not load the QR code.' : 'Loading QR Code...'}</Text>
          )}
        </Center>
      </Modal>
      <Modal
        opened={opened && fullScreen && src !== null}
        onClose={fullScreenMode.close}
        fullScreen
        title={`QR code of ${name}`}
        closeButtonProps={{ 'aria-label': 'Close full screen' }}
        styles={{ content: { background: '#fff' }, header: { background: '#fff' }, body: { background: '#fff' } }}
        transitionProps={{ duration: 0 }}
      >
        {src ? (
          <Stack align="center" gap="md" onClick={fullScreenMode.close}>
            <img
              src={src}
              alt="My QR code, full screen"
              style={{ width: 'min(92vw, calc(100dvh - 160px))', height: 'auto', aspectRatio: '1 / 1' }}
            />
            <Text fw={700} fz={28} c="#000" ta="center">
              {name}
            </Text>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
