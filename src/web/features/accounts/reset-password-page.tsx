import { PasswordInput, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { MSG } from '../../../shared/messages.ts';
import { afterPasswordResetPath } from '../../../shared/permissions.ts';
import { updatePasswordSchema } from '../../../shared/schemas/accounts.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { ApiError } from '../../lib/api.ts';
import { sessionStore } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useUpdatePassword } from './api.ts';
import { AuthCard } from './auth-card.tsx';

const passwordFormSchema = updatePasswordSchema.and(z.object({ token: z.string() }));

export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const update = useUpdatePassword();
  const [general, setGeneral] = useState<string | null>(null);
  const form = useZodForm(passwordFormSchema, { token, password: '', password_confirmation: '' });

  const submit = form.onSubmit(async (values) => {
    setGeneral(null);
    try {
      const result = await update.mutateAsync({ ...values, token });
      if (result.message !== MSG.passwordUpdated) {
        setGeneral(MSG.unexpected);
        return;
      }
      notify.success(result.message);
      navigate(afterPasswordResetPath(sessionStore.get()?.user.role_id), { replace: true });
    } catch (error) {
      if (applyServerErrors(form, error)) return;
      setGeneral(error instanceof ApiError && error.status === 429 ? error.message : MSG.passwordUpdateError);
    }
  });

  return (
    <AuthCard title="Create New Password" subtitle="Choose a strong password you have not used here before.">
      <LoadingOverlay visible={update.isPending} />
      <form onSubmit={submit} noValidate>
        <Stack>
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
            Create New Password
          </AppButton>
        </Stack>
      </form>
    </AuthCard>
  );
}
