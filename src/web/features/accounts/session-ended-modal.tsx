import { Alert, Anchor, Group, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { AppButton } from '../../components/app-button.tsx';
import { errorMessage } from '../../lib/api.ts';
import { sessionStore, type Session } from '../../lib/session.ts';
import { useLogin } from './api.ts';

/**
 * When the server ends a session, sign-in happens here, over the screen, so a filled form keeps its values
 * and its submit can be repeated. Someone else may sign in on the sign-in screen instead.
 */
export function SessionEndedModal({ session }: { session: Session }) {
  const login = useLogin();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError('Password is required');
      return;
    }
    try {
      const result = await login.mutateAsync({ email: session.user.email, password });
      sessionStore.set(result);
      await queryClient.invalidateQueries();
    } catch (failure) {
      setError(errorMessage(failure, MSG.loginFailed));
    }
  };

  const someoneElse = () => {
    sessionStore.clear();
    queryClient.clear();
    void navigate('/login', { replace: true });
  };

  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      title="Sign in again"
      centered
      zIndex={400}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          <Alert color="orange" variant="light" role="alert">
            {MSG.sessionEnded} Your unsaved work is still on the screen.
          </Alert>
          <TextInput label="Email" value={session.user.email} readOnly autoComplete="username" />
          <PasswordInput
            label="Password"
            withAsterisk
            autoComplete="current-password"
            data-autofocus
            value={password}
            onChange={(e) => {
              setError(null);
              setPassword(e.currentTarget.value);
            }}
            error={error}
          />
          <Group justify="space-between">
            <Anchor component="button" type="button" size="sm" onClick={someoneElse}>
              Sign in as someone else
            </Anchor>
            <AppButton type="submit" loading={login.isPending}>
              Sign In
            </AppButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
