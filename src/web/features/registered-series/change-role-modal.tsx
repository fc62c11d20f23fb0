import { Loader, Paper, Select, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { can } from '../../../shared/permissions.ts';
import {
  SERIES_ROLE_LABELS,
  SERIES_ROLES,
  seriesRoleInput,
  type RegisteredSeries,
  type RegisteredSeriesDetail,
  type SeriesRole,
} from '../../../shared/schemas/registered-series.ts';
import { TextAreaField } from '../../components/form-fields.tsx';
import { FormModal } from '../../components/form-modal.tsx';
import { notify } from '../../components/notify.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { useClock } from '../../lib/clock.ts';
import { invalidate, queryKeys } from '../../lib/query-keys.ts';
import { useSession } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { seriesCache } from './api.ts';

const roles = SERIES_ROLES.map((value) => ({ value, label: SERIES_ROLE_LABELS[value] }));

/** Every earlier change of the series' role, newest first: who, when, from what to what, and why. */
function RoleHistory({ seriesId }: { seriesId: number }) {
  const clock = useClock();
  const detail = useQuery({
    queryKey: queryKeys.seriesRoles.of(seriesId),
    queryFn: () => api.get<{ data: RegisteredSeriesDetail }>(`registered-series/${seriesId}`).then((r) => r.data),
  });
  if (detail.isPending) return <Loader size="sm" role="status" aria-label="Loading the role history" />;
  if (detail.error) return <Text c="red">{errorMessage(detail.error)}</Text>;
  return (
    <Stack gap={4}>
      <Title order={3} size="h6">
        Role history
      </Title>
      {detail.data.role_history.length === 0 ? (
        <Text size="sm" c="dimmed">
          Never changed: {SERIES_ROLE_LABELS[detail.data.role]} since it was registered.
        </Text>
      ) : (
        <Stack gap={4} role="list" aria-label="Role history">
          {detail.data.role_history.map((change) => (
            <Paper key={change.id} withBorder p="xs" radius="sm" role="listitem">
              <Text size="sm" fw={500}>
                {SERIES_ROLE_LABELS[change.previous_role]} → {SERIES_ROLE_LABELS[change.role]}
              </Text>
              <Text size="sm">{change.reason}</Text>
              <Text size="xs" c="dimmed">
                {change.changed_by.name}, {clock.dayTime(change.changed_at)}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** Issue 38: what a registered series is for after go-live; the change is kept (who, when, why), history is not rewritten. */
export function ChangeRoleModal({ series, onClose }: { series: RegisteredSeries; onClose: () => void }) {
  const user = useSession()?.user;
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (values: { role: SeriesRole; reason: string }) =>
      api.put<{ message: string }>(`registered-series/${series.id}/role`, values),
    onSuccess: () => invalidate(queryClient, [...seriesCache.changes, queryKeys.seriesRoles.all]),
  });
  const form = useZodForm(seriesRoleInput, { role: series.role as string | null, reason: '' }); // -- the select may be cleared
  const submit = form.onSubmit(async () => {
    const values = seriesRoleInput.parse(form.getValues());
    try {
      notify.success((await change.mutateAsync(values)).message);
      onClose();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });
  return (
    <FormModal
      size="md"
      title={`Change role: ATP ${series.atp_number}`}
      busy={change.isPending}
      busyMessage="Changing the role..."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Change role"
    >
      <Text size="sm">
        {series.series_number} at {series.branch.name}, now {SERIES_ROLE_LABELS[series.role]}.
      </Text>
      {can(user, 'series.changeRole') ? (
        <>
          <Select
            label="Role"
            withAsterisk
            data={roles}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true, zIndex: 400 }}
            {...form.getInputProps('role')}
          />
          <TextAreaField label="Reason" withAsterisk minRows={2} {...form.getInputProps('reason')} />
        </>
      ) : null}
      <RoleHistory seriesId={series.id} />
    </FormModal>
  );
}
