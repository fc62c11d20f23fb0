import { PasswordInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { homePath } from '../../../shared/permissions.ts';
import { changePasswordSchema } from '../../../shared/schemas/accounts.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useChangePassword } from './api.ts';
import { AuthCard } from './auth-card.tsx';

/**
 * The first sign-in with a password an administrator chose (or the generated first-admin one): the user replaces it here
 * before any screen opens (docs/design.md §5); the server refuses every other call until then.
 */
export function ChangePasswordPage() {
  const session = useSession();
  const navigate = useNavigate();
  const change = useChangePassword();
  const [general, setGeneral] = useState<string | null>(null);
  const form = useZodForm(changePasswordSchema, { current_password: '', password: '', password_confirmation: '' });

  const submit = form.onSubmit(async (values) => {
    setGeneral(null);
    try {
      const result = await change.mutateAsync(values);
      notify.success(result.message);
      navigate(homePath(session?.user.role_id), { replace: true });
    } catch (error) {
      if (!applyServerErrors(form, error)) setGeneral(errorMessage(error, MSG.passwordUpdateError));
    }
  });

  if (!session) return <Navigate to="/login" replace />;
  if (!session.must_change_credentials && !change.isSuccess) return <Navigate to={homePath(session.user.role_id)} replace />;
  return (
    <AuthCard title="Change Your Password" subtitle={MSG.mustChangePassword}>
      <LoadingOverlay visible={change.isPending} />
      <form onSubmit={submit} noValidate>
        <Stack>
          <PasswordInput
            label="Current Password"
            description="The password you were given."
            autoComplete="current-password"
            withAsterisk
            data-autofocus
            {...form.getInputProps('current_password')}
          />
          <PasswordInput label="New Password" autoComplete="new-password" withAsterisk {...form.getInputProps('password')} />
          <PasswordInput
            label="Confirm Password"
            autoComplete="new-password"
            withAsterisk
            {...form.getInputProps('password_confirmation')}
          />
          {general ? (
            <Text c="red" size="sm" role="alert">
              {general}
            </Text>
          ) : null}
          <AppButton type="submit" fullWidth>
            Change Password
          </AppButton>
        </Stack>
      </form>
    </AuthCard>
  );
}
