import { Center, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import { AppButton } from '../components/app-button.tsx';
import { useDocumentTitle } from '../lib/use-document-title.ts';

export function NotFoundPage() {
  const navigate = useNavigate();
  useDocumentTitle('Page Not Found');
  return (
    <Center component="main" mih="100dvh" p="md">
      <Stack align="center" gap="md">
        <Title order={1}>404 Page Not Found</Title>
        <Text c="dimmed">Oops! The page you are looking for does not exist.</Text>
        <AppButton onClick={() => navigate('/')}>Go back to home</AppButton>
      </Stack>
    </Center>
  );
}
