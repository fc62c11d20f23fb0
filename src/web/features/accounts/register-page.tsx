import { Anchor, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { homePath } from '../../../shared/permissions.ts';
import { registrationSchema } from '../../../shared/schemas/accounts.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { ApiError } from '../../lib/api.ts';
import { sessionStore } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { useRegister } from './api.ts';
import { AuthCard } from './auth-card.tsx';

export function RegisterPage() {
  const navigate = useNavigate();
  const register = useRegister();
  const [general, setGeneral] = useState<string | null>(null);
  const form = useZodForm(registrationSchema, {
    first_name: '',
    middle_name: '',
    last_name: '',
    email: '',
    mobile_number: '',
    password: '',
    password_confirmation: '',
  });
  form.watch('password', () => {
    if (form.isTouched('password_confirmation')) form.validateField('password_confirmation');
  });

  const submit = form.onSubmit(async (values) => {
    setGeneral(null);
    try {
      const result = await register.mutateAsync(values);
      sessionStore.set(result);
      navigate(homePath(result.user.role_id), { replace: true });
    } catch (error) {
      if (applyServerErrors(form, error)) return;
      setGeneral(
        error instanceof ApiError && !error.hasResponse
          ? MSG.registrationFailed
          : error instanceof ApiError
            ? error.message
            : MSG.unexpected,
      );
    }
  });

  return (
    <AuthCard title="Create Account">
      <LoadingOverlay visible={register.isPending} message="Creating your account..." />
      <form onSubmit={submit} noValidate>
        <Stack>
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput label="First Name" withAsterisk {...form.getInputProps('first_name')} />
            <TextInput label="Middle Name" {...form.getInputProps('middle_name')} />
          </SimpleGrid>
          <TextInput label="Last Name" withAsterisk {...form.getInputProps('last_name')} />
          <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
          <TextInput
            label="Mobile Number"
            inputMode="numeric"
            placeholder="09171234567"
            withAsterisk
            {...form.getInputProps('mobile_number')}
          />
          <PasswordInput label="Password" autoComplete="new-password" withAsterisk {...form.getInputProps('password')} />
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
            Sign Up
          </AppButton>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to="/login">
              Sign In
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
