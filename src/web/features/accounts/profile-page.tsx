import { Group, Paper, PasswordInput, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { MSG } from '../../../shared/messages.ts';
import { profileSchema, type SessionUser } from '../../../shared/schemas/accounts.ts';
import { AppButton } from '../../components/app-button.tsx';
import { confirmAction } from '../../components/confirm.ts';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { errorMessage, failureMessage } from '../../lib/api.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { accountQueries, useResetOwnPassword, useUpdateProfile } from './api.ts';

/** The user's own details; `below` holds what other features keep of the user's own (the e-mail alerts). */
export function ProfilePage({ below }: { below?: ReactNode }) {
  const profile = useQuery(accountQueries.profile());
  let body = (
    <Stack data-testid="table-loader">
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} h={36} />
      ))}
    </Stack>
  );
  if (profile.data) body = <ProfileForm profile={profile.data} />;
  else if (profile.isError) body = <Text c="red">{errorMessage(profile.error)}</Text>;
  return (
    <>
      <PageHeader title="User Profile" />
      <Paper withBorder radius="md" p="lg" maw={720} pos="relative">
        {body}
      </Paper>
      {below}
    </>
  );
}

/** Names and e-mail, started from the saved profile; Reset Password mails a link. */
function ProfileForm({ profile }: { profile: SessionUser }) {
  const update = useUpdateProfile();
  const resetOwn = useResetOwnPassword();
  const form = useZodForm(profileSchema, {
    first_name: profile.first_name,
    last_name: profile.last_name,
    email: profile.email,
    current_password: '',
  });
  const emailChanged = form.values.email.trim().toLowerCase() !== profile.email.toLowerCase();

  const submit = form.onSubmit(async ({ current_password, ...values }) => {
    try {
      const result = await update.mutateAsync(emailChanged ? { ...values, current_password } : values);
      form.setFieldValue('current_password', '');
      notify.success(result.message);
    } catch (error) {
      applyServerErrors(form, error);
      notify.error(MSG.profileUpdateFailed);
    }
  });

  const resetPassword = async () => {
    if (!(await confirmAction(MSG.confirmResetOwnPassword))) return;
    try {
      await resetOwn.mutateAsync();
      notify.success(MSG.resetLinkSentAlert);
    } catch (error) {
      notify.error(failureMessage(error, MSG.resetPasswordFailed));
    }
  };

  return (
    <form onSubmit={submit} noValidate>
      <LoadingOverlay
        visible={update.isPending || resetOwn.isPending}
        message={update.isPending ? 'Updating profile...' : 'Resetting password...'}
      />
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="First Name" withAsterisk {...form.getInputProps('first_name')} />
          <TextInput label="Last Name" withAsterisk {...form.getInputProps('last_name')} />
        </SimpleGrid>
        <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
        {emailChanged ? (
          <PasswordInput
            label="Current password"
            description="Needed to change your email"
            withAsterisk
            autoComplete="current-password"
            {...form.getInputProps('current_password')}
          />
        ) : null}
        <Group align="flex-end" wrap="nowrap">
          <PasswordInput label="Password" value="********" disabled visibilityToggleButtonProps={{ hidden: true }} style={{ flex: 1 }} />
          <AppButton variant="secondary" onClick={resetPassword}>
            Reset Password
          </AppButton>
        </Group>
        <Group justify="flex-end">
          <AppButton type="submit">Update Profile</AppButton>
        </Group>
      </Stack>
    </form>
  );
}
