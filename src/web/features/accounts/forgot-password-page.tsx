import { Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { forgotPasswordSchema } from '../../../shared/schemas/accounts.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { ApiError } from '../../lib/api.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useForgotPassword } from './api.ts';
import { AuthCard } from './auth-card.tsx';

export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const send = useForgotPassword();
  const [general, setGeneral] = useState<string | null>(null);
  const form = useZodForm(forgotPasswordSchema, { email: '' });

  const submit = form.onSubmit(async (values) => {
    setGeneral(null);
    try {
      await send.mutateAsync(values.email);
      notify.success(MSG.resetLinkSentAlert);
      navigate('/login');
    } catch (error) {
      if (applyServerErrors(form, error)) return;
      setGeneral(
        error instanceof ApiError ? (error.hasResponse ? error.message || MSG.unexpected : MSG.sendResetLinkFailed) : MSG.unexpected,
      );
    }
  });

  return (
    <AuthCard title="Forgot password" subtitle="Enter your e-mail and we will send you a link to choose a new password.">
      <LoadingOverlay visible={send.isPending} />
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Email address" type="email" withAsterisk {...form.getInputProps('email')} />
          {general ? (
            <Text c="red" size="sm" role="alert">
              {general}
            </Text>
          ) : null}
          <AppButton type="submit" fullWidth>
            Send Reset Link
          </AppButton>
          <AppButton variant="secondary" fullWidth onClick={() => navigate('/login')}>
            Back to Login
          </AppButton>
        </Stack>
      </form>
    </AuthCard>
  );
}
