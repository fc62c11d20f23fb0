import { Alert, Anchor, Box, Checkbox, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { NOTIFICATION_MSG, notificationSettingsInput, type NotificationSettings } from '../../../shared/schemas/notifications.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { notificationQueries, useSaveNotificationSettings } from './api.ts';

const SAVE_FAILED = 'The e-mail alerts could not be saved.';
/** The address the Notifications page's "E-mail settings" opens: the profile, scrolled to this panel. */
export const EMAIL_ALERTS_ANCHOR = 'email-alerts';

const formValues = (settings: NotificationSettings) => ({
  kinds: settings.kinds.map((row) => ({ kind: row.kind, email: row.email || row.mandatory })),
});

/**
 * On the user's profile: which alerts also reach them by e-mail. Every alert is in the app whatever is chosen; overdue
 * returns, RAAF due and losses are always mailed, so their boxes stay ticked and cannot be changed.
 */
export function NotificationSettingsPanel() {
  const settings = useQuery(notificationQueries.settings());
  const panel = useRef<HTMLDivElement>(null);
  const { hash } = useLocation();
  const ready = Boolean(settings.data);
  useEffect(() => {
    if (ready && hash === `#${EMAIL_ALERTS_ANCHOR}`) panel.current?.scrollIntoView({ block: 'start' });
  }, [ready, hash]);
  let body = (
    <Stack data-testid="table-loader">
      {Array.from({ length: 6 }, (_, i) => (
        <Skeleton key={i} h={24} />
      ))}
    </Stack>
  );
  if (settings.data) body = <SettingsForm settings={settings.data} />;
  else if (settings.isError) body = <Text c="red">{errorMessage(settings.error)}</Text>;
  return (
    <Paper
      ref={panel}
      id={EMAIL_ALERTS_ANCHOR}
      withBorder
      radius="md"
      p="lg"
      maw={720}
      mt="lg"
      pos="relative"
      component="section"
      aria-labelledby="email-alerts-title"
    >
      <Stack>
        <Box>
          <Title order={2} size="h4" id="email-alerts-title">
            E-mail alerts
          </Title>
          <Text size="sm" c="dimmed">
            Every alert is on the{' '}
            <Anchor component={Link} to="/notifications" underline="always">
              Notifications
            </Anchor>{' '}
            page and under the bell. The ones ticked here also come in a daily e-mail at 07:00; losses and failed checks come at once.
          </Text>
        </Box>
        {settings.data && !settings.data.mail_configured ? (
          <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden />}>
            {NOTIFICATION_MSG.mailNotConfigured}
          </Alert>
        ) : null}
        {body}
      </Stack>
    </Paper>
  );
}

function SettingsForm({ settings }: { settings: NotificationSettings }) {
  const save = useSaveNotificationSettings();
  const form = useZodForm(notificationSettingsInput, formValues(settings));
  const submit = form.onSubmit(async (values) => {
    try {
      const result = await save.mutateAsync(values);
      form.setValues(formValues(result.data));
      form.resetDirty();
      notify.success(result.message);
    } catch (error) {
      applyServerErrors(form, error);
      notify.error(errorMessage(error, SAVE_FAILED));
    }
  });
  return (
    <form onSubmit={submit} noValidate>
      <LoadingOverlay visible={save.isPending} message="Saving..." />
      <Stack>
        <Stack gap="sm" role="group" aria-label="Alerts sent by e-mail">
          {settings.kinds.map((row, i) => (
            <Checkbox
              key={row.kind}
              label={row.label}
              description={row.mandatory ? 'Always e-mailed: it cannot be turned off.' : undefined}
              disabled={row.mandatory}
              {...form.getInputProps(`kinds.${i}.email`, { type: 'checkbox' })}
            />
          ))}
        </Stack>
        {form.errors.kinds ? (
          <Text c="red" size="sm" role="alert">
            {form.errors.kinds}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <AppButton type="submit">Save e-mail alerts</AppButton>
        </Group>
      </Stack>
    </form>
  );
}
