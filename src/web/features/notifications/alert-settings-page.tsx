import {
  ActionIcon,
  Alert,
  Grid,
  Box,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconInfoCircle, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  ALERT_THRESHOLD_LABELS,
  alertSettingsInput,
  type AlertSettings,
  type AlertSettingsInput,
  type AlertThresholds,
} from '../../../shared/schemas/notifications.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useZodForm } from '../../lib/use-zod-form.ts';
import { notificationQueries, useSaveAlertSettings } from './api.ts';

const SAVE_FAILED = 'The alert settings could not be saved.';

/** The thresholds grouped by the alert they time, in the order of issue 37's table. */
const GROUPS: Array<{ title: string; keys: Array<keyof AlertThresholds> }> = [
  { title: 'Overdue return', keys: ['overdue_head_days', 'overdue_accounting_days'] },
  { title: 'Waiting to be accepted', keys: ['waiting_hours', 'waiting_escalate_hours'] },
  { title: 'Courier custody stale', keys: ['courier_stale_hours'] },
  { title: 'RAAF due', keys: ['raaf_due_day', 'raaf_escalate_day'] },
  { title: 'Count due', keys: ['count_due_days', 'count_escalate_days'] },
  { title: 'Low stock', keys: ['low_stock_minimum', 'low_stock_lead_days', 'low_stock_escalate_days'] },
  { title: 'Registered series nearly used up', keys: ['series_cover_days'] },
];

type PointValues = { branch_id: number; route_id: number; minimum: number | string; lead_days: number | string; snoozed_until: string };
type Values = { thresholds: Record<keyof AlertThresholds, number | string>; reorder_points: PointValues[] };

const toValues = (settings: AlertSettings): Values => ({
  thresholds: { ...settings.thresholds },
  reorder_points: settings.reorder_points.map((p) => ({
    branch_id: p.branch_id,
    route_id: p.route_id,
    minimum: p.minimum,
    lead_days: p.lead_days,
    snoozed_until: p.snoozed_until ?? '',
  })),
});

/**
 * The form's values as the API takes them: an empty snooze is none. A number field left empty stays "" so the shared
 * schema names it; after validation every number field holds a number.
 */
const toInput = (values: Values): AlertSettingsInput =>
  // -- the schema checks these; an emptied number input is "" until then and is refused by name.
  ({
    thresholds: values.thresholds as AlertThresholds,
    reorder_points: values.reorder_points.map((p) => ({
      branch_id: p.branch_id,
      route_id: p.route_id,
      minimum: p.minimum as number,
      lead_days: p.lead_days as number,
      snoozed_until: p.snoozed_until || null,
    })),
  });

/** The shared schema, read through what the form holds, so each message lands under its field by the same path. */
const formSchema = z.preprocess((values) => toInput(values as Values), alertSettingsInput);

/** Alert settings (Admin and Accounting, issue 37): when each kind of alert opens and escalates, and the reorder points of low stock. */
export function AlertSettingsPage() {
  const settings = useQuery(notificationQueries.alertSettings());
  let body = (
    <Paper withBorder radius="md" p="lg">
      <Stack data-testid="table-loader">
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} h={36} />
        ))}
      </Stack>
    </Paper>
  );
  if (settings.data) body = <AlertSettingsForm settings={settings.data} />;
  else if (settings.isError) body = <Text c="red">{errorMessage(settings.error)}</Text>;
  return (
    <>
      <PageHeader title="Alert settings" />
      <Stack maw={960} gap="lg">
        {settings.data && !settings.data.mail_configured ? (
          <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden />} title="In-app only">
            {settings.data.mail_message ?? 'Mail not configured: alerts are in-app only.'} Mails are written as .eml files in the data
            folder; set SMTP_URL to send them.
          </Alert>
        ) : null}
        {body}
      </Stack>
    </>
  );
}

function AlertSettingsForm({ settings }: { settings: AlertSettings }) {
  const save = useSaveAlertSettings();
  const form = useZodForm<Values>(formSchema, toValues(settings));
  const submit = form.onSubmit(
    async (values) => {
      try {
        const result = await save.mutateAsync(toInput(values));
        form.setValues(toValues(result.data));
        form.resetDirty();
        notify.success(result.message);
      } catch (error) {
        if (error instanceof ApiError)
          form.setErrors(Object.fromEntries(Object.entries(error.errors).map(([field, messages]) => [field, messages[0]])));
        notify.error(errorMessage(error, SAVE_FAILED));
      }
    },
    (errors) => notify.error(String(Object.values(errors)[0] ?? SAVE_FAILED)),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <Paper withBorder radius="md" p="lg" pos="relative">
          <LoadingOverlay visible={save.isPending} message="Saving..." />
          <Stack>
            <Box>
              <Title order={2} size="h4">
                Thresholds
              </Title>
              <Text size="sm" c="dimmed">
                When each alert opens and when it is passed up. 0 makes it open at once. Every open alert is in the app; the daily e-mail
                goes at 07:00.
              </Text>
            </Box>
            {GROUPS.map((group) => (
              <Box key={group.title} role="group" aria-label={group.title}>
                <Title order={3} size="h5" mb={4}>
                  {group.title}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" style={{ alignItems: 'end' }}>
                  {group.keys.map((key) => (
                    <NumberInput
                      key={key}
                      label={ALERT_THRESHOLD_LABELS[key]}
                      description={`Default ${settings.defaults[key]}`}
                      min={0}
                      allowDecimal={false}
                      allowNegative={false}
                      {...form.getInputProps(`thresholds.${key}`)}
                    />
                  ))}
                </SimpleGrid>
              </Box>
            ))}
            <Group justify="flex-end">
              <AppButton variant="secondary" onClick={() => form.setFieldValue('thresholds', { ...settings.defaults })}>
                Restore defaults
              </AppButton>
            </Group>
          </Stack>
        </Paper>
        <ReorderPoints form={form} />
        <Group justify="flex-end">
          <AppButton type="submit" loading={save.isPending}>
            Save
          </AppButton>
        </Group>
      </Stack>
    </form>
  );
}

type Form = ReturnType<typeof useZodForm<Values>>;

/** Low stock per branch and route: the branch's own minimum and lead time, and a day until which it stays quiet. */
function ReorderPoints({ form }: { form: Form }) {
  const branches = useQuery(lookupQueries.branches());
  const routes = useQuery(lookupQueries.routes());
  const branchOptions = (branches.data ?? []).map((b) => ({ value: String(b.id), label: b.name }));
  const routeOptions = (routes.data ?? []).map((r) => ({ value: String(r.id), label: r.name }));
  const points = form.getValues().reorder_points;
  const add = () =>
    form.insertListItem('reorder_points', {
      branch_id: 0,
      route_id: 0,
      minimum: form.getValues().thresholds.low_stock_minimum,
      lead_days: form.getValues().thresholds.low_stock_lead_days,
      snoozed_until: '',
    });
  const picked = (value: string | null) => (value ? Number(value) : 0);
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack>
        <Box>
          <Title order={2} size="h4">
            Reorder points
          </Title>
          <Text size="sm" c="dimmed">
            A branch is low on a route when the numbers it can use fall below max(minimum, average daily use over 30 days × lead days).
            Branches and routes not listed use the default minimum and lead time above. Snooze quiets one until the day has passed.
          </Text>
        </Box>
        {points.length === 0 ? <Text size="sm">No reorder points yet: every branch and route uses the defaults.</Text> : null}
        {points.map((point, i) => {
          const branchInput = form.getInputProps(`reorder_points.${i}.branch_id`);
          const routeInput = form.getInputProps(`reorder_points.${i}.route_id`);
          return (
            <Paper key={form.key(`reorder_points.${i}`)} withBorder radius="sm" p="sm" role="group" aria-label={`Reorder point ${i + 1}`}>
              <Group align="flex-start" wrap="nowrap" gap="xs">
                <Grid gap="sm" style={{ flex: 1 }}>
                  <Grid.Col span={{ base: 12, xs: 6, md: 3 }}>
                    <Select
                      label="Branch"
                      searchable
                      data={branchOptions}
                      value={point.branch_id ? String(point.branch_id) : null}
                      onChange={(value) => form.setFieldValue(`reorder_points.${i}.branch_id`, picked(value))}
                      error={branchInput.error}
                      comboboxProps={{ withinPortal: true }}
                    />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, xs: 6, md: 3 }}>
                    <Select
                      label="Route"
                      searchable
                      data={routeOptions}
                      value={point.route_id ? String(point.route_id) : null}
                      onChange={(value) => form.setFieldValue(`reorder_points.${i}.route_id`, picked(value))}
                      error={routeInput.error}
                      comboboxProps={{ withinPortal: true }}
                    />
                  </Grid.Col>
                  <Grid.Col span={{ base: 6, md: 2 }}>
                    <NumberInput
                      label="Minimum"
                      min={0}
                      allowDecimal={false}
                      allowNegative={false}
                      {...form.getInputProps(`reorder_points.${i}.minimum`)}
                    />
                  </Grid.Col>
                  <Grid.Col span={{ base: 6, md: 2 }}>
                    <NumberInput
                      label="Lead days"
                      min={0}
                      allowDecimal={false}
                      allowNegative={false}
                      {...form.getInputProps(`reorder_points.${i}.lead_days`)}
                    />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, xs: 6, md: 2 }}>
                    <TextInput label="Snooze until" type="date" {...form.getInputProps(`reorder_points.${i}.snoozed_until`)} />
                  </Grid.Col>
                </Grid>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="lg"
                  mt={24}
                  aria-label={`Remove reorder point ${i + 1}`}
                  onClick={() => form.removeListItem('reorder_points', i)}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              </Group>
            </Paper>
          );
        })}
        <Group>
          <AppButton variant="secondary" onClick={add}>
            New reorder point
          </AppButton>
        </Group>
      </Stack>
    </Paper>
  );
}
