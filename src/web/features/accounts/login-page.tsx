import { Anchor, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { homePath } from '../../../shared/permissions.ts';
import { loginSchema } from '../../../shared/schemas/accounts.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { ApiError } from '../../lib/api.ts';
import { sessionStore, useSession } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { accountApi } from './api.ts';
import { AuthCard } from './auth-card.tsx';

export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const form = useZodForm(loginSchema, { email: '', password: '' });
  if (session) return <Navigate to={homePath(session.user.role_id)} replace />;

  const submit = form.onSubmit(async (values) => {
    setBusy(true);
    try {
      const result = await accountApi.login(values);
      sessionStore.set(result);
      navigate(homePath(result.user.role_id), { replace: true });
    } catch (error) {
      if (applyServerErrors(form, error)) return;
      const message = error instanceof ApiError ? (error.hasResponse ? error.message || MSG.unexpected : MSG.loginFailed) : MSG.unexpected;
      form.setFieldError('email', message);
    } finally {
      setBusy(false);
    }
  });

  return (
    <AuthCard title="Sign in" subtitle="Receipt pads, transactions and custody in one place.">
      <LoadingOverlay visible={busy} message="Logging in..." />
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Email" type="email" autoComplete="username" withAsterisk {...form.getInputProps('email')} />
          <PasswordInput label="Password" autoComplete="current-password" withAsterisk {...form.getInputProps('password')} />
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <AppButton type="submit" fullWidth>
            Sign In
          </AppButton>
          <Anchor component={Link} to="/register" size="sm" ta="center">
            No account yet? Create Account
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
