import { Box, FileButton, Group, Image, Paper, SimpleGrid, Skeleton, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  DOCUMENT_KINDS,
  DOCUMENT_KIND_KEYS,
  LOGO_MAX_BYTES,
  operatorIdentityInput,
  type OperatorIdentityResponse,
} from '../../../shared/schemas/operator-identity.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { notify } from '../../components/notify.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { errorMessage, failureMessage } from '../../lib/api.ts';
import { applyServerErrors, useZodForm } from '../../lib/use-zod-form.ts';
import { settingsQueries, useRemoveLogo, useSaveIdentity, useSaveLogo } from './api.ts';
import { logoPng } from './logo-file.ts';

const SAVE_FAILED = 'The operator identity could not be saved.';

/** Settings (Admin): the operator every PDF names in its header, its logo, and who signs each kind of document. */
export function SettingsPage() {
  const identity = useQuery(settingsQueries.identity());
  let body = (
    <Stack data-testid="table-loader">
      {Array.from({ length: 5 }, (_, i) => (
        <Skeleton key={i} h={36} />
      ))}
    </Stack>
  );
  if (identity.data) body = <IdentityForm identity={identity.data} />;
  else if (identity.isError) body = <Text c="red">{errorMessage(identity.error)}</Text>;
  return (
    <>
      <PageHeader title="Settings" />
      <Stack maw={860} gap="lg">
        <Paper withBorder radius="md" p="lg" pos="relative">
          {body}
        </Paper>
        {identity.data ? <LogoPanel identity={identity.data} /> : null}
      </Stack>
    </>
  );
}

const emptySignatory = { name: '', position: '' };

function IdentityForm({ identity }: { identity: OperatorIdentityResponse }) {
  const save = useSaveIdentity();
  const form = useZodForm(operatorIdentityInput, {
    registered_name: identity.registered_name ?? '',
    trade_name: identity.trade_name ?? '',
    tin: identity.tin ?? '',
    branch_code: identity.branch_code ?? '',
    address: identity.address ?? '',
    signatories: Object.fromEntries(DOCUMENT_KIND_KEYS.map((kind) => [kind, identity.signatories[kind] ?? emptySignatory])),
  });
  const submit = form.onSubmit(async () => {
    try {
      const result = await save.mutateAsync(form.getValues());
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
        <Box>
          <Title order={2} size="h4">
            Operator identity
          </Title>
          <Text size="sm" c="dimmed">
            Printed in the header of every PDF made from now on. Documents already certified or saved keep what they printed.
          </Text>
        </Box>
        <TextInput label="Registered name" withAsterisk {...form.getInputProps('registered_name')} />
        <TextInput label="Trade name" {...form.getInputProps('trade_name')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label="TIN" placeholder="004-512-889" withAsterisk {...form.getInputProps('tin')} />
          <TextInput label="Branch code" placeholder="000" withAsterisk {...form.getInputProps('branch_code')} />
        </SimpleGrid>
        <Textarea label="Address" withAsterisk autosize minRows={2} {...form.getInputProps('address')} />
        <Box>
          <Title order={3} size="h5" mt="sm">
            Signatories
          </Title>
          <Text size="sm" c="dimmed">
            Who signs each document for the operator. Leave both empty when nobody is named.
          </Text>
        </Box>
        {DOCUMENT_KIND_KEYS.map((kind) => (
          <SimpleGrid key={kind} cols={{ base: 1, sm: 2 }} spacing="sm" aria-label={DOCUMENT_KINDS[kind]} role="group">
            <TextInput label={`${DOCUMENT_KINDS[kind]}: name`} {...form.getInputProps(`signatories.${kind}.name`)} />
            <TextInput label={`${DOCUMENT_KINDS[kind]}: position`} {...form.getInputProps(`signatories.${kind}.position`)} />
          </SimpleGrid>
        ))}
        <Group justify="flex-end">
          <AppButton type="submit">Save</AppButton>
        </Group>
      </Stack>
    </form>
  );
}

/** The logo's preview and its upload: a PNG as it is, an SVG drawn into a PNG first (logo-file.ts). */
function LogoPanel({ identity }: { identity: OperatorIdentityResponse }) {
  const saveLogo = useSaveLogo();
  const removeLogo = useRemoveLogo();
  const [problem, setProblem] = useState<string | null>(null);
  const upload = async (file: File | null) => {
    if (!file) return;
    setProblem(null);
    try {
      const result = await saveLogo.mutateAsync(await logoPng(file));
      notify.success(result.message);
    } catch (error) {
      setProblem(errorMessage(error, error instanceof Error ? error.message : SAVE_FAILED));
    }
  };
  const remove = async () => {
    try {
      notify.success((await removeLogo.mutateAsync()).message);
    } catch (error) {
      notify.error(failureMessage(error, SAVE_FAILED));
    }
  };
  return (
    <Paper withBorder radius="md" p="lg" pos="relative">
      <LoadingOverlay visible={saveLogo.isPending || removeLogo.isPending} message="Saving..." />
      <Stack>
        <Box>
          <Title order={2} size="h4">
            Logo
          </Title>
          <Text size="sm" c="dimmed">
            PNG or SVG, at most {LOGO_MAX_BYTES / 1024} KB. Printed beside the operator's name.
          </Text>
        </Box>
        {identity.logo ? (
          <Image src={identity.logo} alt="Operator logo" h={72} w="auto" fit="contain" maw={240} style={{ alignSelf: 'flex-start' }} />
        ) : (
          <Text size="sm">No logo yet.</Text>
        )}
        {problem ? (
          <Text c="red" size="sm" role="alert">
            {problem}
          </Text>
        ) : null}
        {identity.registered_name ? null : <Text size="sm">Save the operator identity before its logo.</Text>}
        <Group>
          <FileButton onChange={upload} accept="image/png,image/svg+xml,.svg">
            {(props) => (
              <AppButton {...props} variant="secondary" disabled={!identity.registered_name}>
                Upload logo
              </AppButton>
            )}
          </FileButton>
          {identity.logo ? (
            <AppButton variant="secondary" onClick={remove}>
              Remove logo
            </AppButton>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
