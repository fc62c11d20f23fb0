import { Group, Stack, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCertificate, IconChecks, IconFileTypeCsv, IconFileTypePdf } from '@tabler/icons-react';
import { can, type Actor } from '../../../shared/permissions.ts';
import { RAAF_CERTIFICATION_TEXT, type Raaf } from '../../../shared/schemas/ledger.ts';
import { AppButton } from '../../components/app-button.tsx';
import { notify } from '../../components/notify.ts';
import { errorMessage, openBlob } from '../../lib/api.ts';
import { fetchReportFile, useCertify, useReview, type HolderParam } from './api.ts';
import { monthLabel } from './months.ts';

/**
 * What can be done with the report shown (docs/design.md §8): its PDF and CSV, Certify by the accountable holder once
 * the month has ended, and Review by accounting once certified.
 */
export function RaafActions({
  user,
  month,
  ended,
  holder,
  param,
  rollupBranch,
  shown,
  rollupShown,
}: {
  user: Actor | undefined;
  month: string;
  ended: boolean;
  /** The holder as the address names it (`u:7`, `b:3`). */
  holder: string | undefined;
  param: HolderParam;
  rollupBranch: number | null;
  shown: Raaf | undefined;
  rollupShown: boolean;
}) {
  const certify = useCertify();
  const review = useReview();
  const certificate = shown?.certificate ?? null;
  const holderRef =
    'user_id' in param
      ? { type: 'user' as const, id: param.user_id, branch_id: null }
      : { type: 'branch' as const, id: param.branch_id, branch_id: param.branch_id };
  const mayCertify = ended && shown !== undefined && !certificate && can(user, 'raaf.certify', holderRef);
  const mayReview = can(user, 'raaf.review') && certificate !== null && certificate.reviewed_at === null;

  const download = (format: 'pdf' | 'csv') =>
    fetchReportFile(
      'raaf',
      rollupBranch === null ? { month, format, ...param } : { month, format, branch_id: rollupBranch, rollup: 'true' },
    ).then(
      (blob) =>
        openBlob(
          blob,
          rollupBranch === null
            ? `raaf-${month}-${(holder ?? '').replace(':', '')}.${format}`
            : `raaf-rollup-${month}-branch-${rollupBranch}.${format}`,
          format === 'csv',
        ),
      (error) => notify.error(errorMessage(error)),
    );

  const askCertify = () =>
    modals.openConfirmModal({
      title: `Certify the RAAF for ${monthLabel(month)}`,
      children: (
        <Stack gap="xs">
          <Text size="sm">{RAAF_CERTIFICATION_TEXT}</Text>
          <Text size="sm" c="dimmed">
            The report is frozen as it stands now; it cannot be certified again.
          </Text>
        </Stack>
      ),
      labels: { confirm: 'Certify', cancel: 'Cancel' },
      onConfirm: () =>
        certify.mutate(
          { month, ...param },
          {
            onSuccess: (res) => notify.success(`${res.message} ${res.data.number}`),
            onError: (error) => notify.error(errorMessage(error)),
          },
        ),
    });

  return (
    <Group gap="xs" wrap="wrap">
      <AppButton
        variant="secondary"
        leftSection={<IconFileTypePdf size={16} />}
        onClick={() => void download('pdf')}
        disabled={!shown && !rollupShown}
      >
        PDF
      </AppButton>
      <AppButton
        variant="secondary"
        leftSection={<IconFileTypeCsv size={16} />}
        onClick={() => void download('csv')}
        disabled={!shown && !rollupShown}
      >
        CSV
      </AppButton>
      {mayCertify ? (
        <AppButton leftSection={<IconCertificate size={16} />} loading={certify.isPending} onClick={askCertify}>
          Certify
        </AppButton>
      ) : null}
      {mayReview && certificate ? (
        <AppButton
          leftSection={<IconChecks size={16} />}
          loading={review.isPending}
          onClick={() =>
            review.mutate(certificate.id, {
              onSuccess: (res) => notify.success(res.message),
              onError: (error) => notify.error(errorMessage(error)),
            })
          }
        >
          Review
        </AppButton>
      ) : null}
    </Group>
  );
}
