import { Group, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { countText, routeLabel } from '../../../shared/format.ts';
import { MSG } from '../../../shared/messages.ts';
import { addPadSchema } from '../../../shared/schemas/pads.ts';
import { AppButton } from '../../components/app-button.tsx';
import { SelectField } from '../../components/form-fields.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { lookupQueries } from '../../lib/lookup-queries.ts';
import { useGeneratePads } from './api.ts';
import { usePhone } from '../../lib/use-media.ts';

const blank = { route_id: '', series_from: '', series_to: '' };

/** docs/spec.md §2 Add Pad: route, series from and series to; "Generate Pads" cuts the range into pads on the server. */
export function AddPadModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const phone = usePhone();
  const session = useSession();
  const routes = useQuery({ ...lookupQueries.routes(), enabled: opened });
  const generate = useGeneratePads();
  const form = useZodForm(addPadSchema, blank);

  const close = () => {
    form.setValues(blank);
    form.clearErrors();
    onClose();
  };

  const submit = form.onSubmit(async (values) => {
    try {
      const result = await generate.mutateAsync({
        route_id: Number(values.route_id),
        series_from: Number(values.series_from),
        series_to: Number(values.series_to),
        user_id: session?.user.id,
      });
      notify.success(result.message);
      close();
    } catch (error) {
      if (!applyServerErrors(form, error)) notify.error(errorMessage(error));
    }
  });

  const parsed = addPadSchema.safeParse(form.values);
  const count = parsed.success ? parsed.data.series_to - parsed.data.series_from + 1 : null;

  return (
    <Modal opened={opened} onClose={close} title="Add Pad" size="lg" centered fullScreen={phone}>
      <form onSubmit={submit} noValidate style={{ position: 'relative' }}>
        <LoadingOverlay visible={generate.isPending} message={MSG.generatingPads} />
        <Stack>
          <SelectField
            label="Route"
            placeholder="Select a route"
            withAsterisk
            options={routes.data?.map((route) => ({ id: route.id, name: routeLabel(route) }))}
            {...form.getInputProps('route_id')}
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput label="Series From" withAsterisk inputMode="numeric" autoComplete="off" {...form.getInputProps('series_from')} />
            <TextInput label="Series To" withAsterisk inputMode="numeric" autoComplete="off" {...form.getInputProps('series_to')} />
          </SimpleGrid>
          {count !== null ? (
            <Text size="sm" c="dimmed" data-testid="series-count">
              {countText(count)} receipt numbers
            </Text>
          ) : null}
          <Group justify="flex-end">
            <AppButton variant="secondary" onClick={close} disabled={generate.isPending}>
              Cancel
            </AppButton>
            <AppButton type="submit" disabled={generate.isPending}>
              Generate Pads
            </AppButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
