import { Group, Paper, PasswordInput, SimpleGrid, Skeleton, Stack, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { MSG } from '../../../shared/messages.ts';
import { profileSchema } from '../../../shared/schemas/accounts.ts';
import { AppButton } from '../../components/app-button.tsx';
import { confirmAction } from '../../components/confirm.ts';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { sessionStore } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { accountApi, accountQueries } from './api.ts';

export function ProfilePage() {
  const queryClient = useQueryClient();
  const profile = useQuery(accountQueries.profile());
  const [busy, setBusy] = useState<string | null>(null);
  const form = useZodForm(profileSchema, { first_name: '', last_name: '', email: '' });

  useEffect(() => {
    if (profile.data) {
      form.setValues({ first_name: profile.data.first_name, last_name: profile.data.last_name, email: profile.data.email });
      form.resetDirty();
    }
  }, [profile.data]);

  const submit = form.onSubmit(async (values) => {
    setBusy('Updating profile...');
    try {
      const result = await accountApi.updateProfile(values);
      sessionStore.updateUser(result.userProfile);
      queryClient.setQueryData(accountQueries.profile().queryKey, result.userProfile);
      notify.success(result.message);
    } catch (error) {
      applyServerErrors(form, error);
      notify.error(MSG.profileUpdateFailed);
    } finally {
      setBusy(null);
    }
  });

  const resetPassword = async () => {
    if (!(await confirmAction(MSG.confirmResetOwnPassword))) return;
    setBusy('Resetting password...');
    try {
      await accountApi.resetOwnPassword();
      notify.success(MSG.resetLinkSentAlert);
    } catch {
      notify.error(MSG.resetPasswordFailed);
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <PageHeader title="User Profile" />
      <Paper withBorder radius="md" p="lg" maw={720} pos="relative">
        <LoadingOverlay visible={busy !== null} message={busy ?? undefined} />
        {profile.isLoading ? (
          <Stack data-testid="table-loader">
            {Array.from({ length: 4 }, (_, i) => (
              <Skeleton key={i} h={36} />
            ))}
          </Stack>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label="First Name" withAsterisk {...form.getInputProps('first_name')} />
                <TextInput label="Last Name" withAsterisk {...form.getInputProps('last_name')} />
              </SimpleGrid>
              <TextInput label="Email" type="email" withAsterisk {...form.getInputProps('email')} />
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
        )}
      </Paper>
    </>
  );
}
