import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { can } from '../../../shared/permissions.ts';
import type { RaafCertificate } from '../../../shared/schemas/ledger.ts';
import { AppButton } from '../../components/app-button.tsx';
import { DataTable, type Column } from '../../components/data-table.tsx';
import { LabelledValue } from '../../components/labelled-value.tsx';
import { ListCard } from '../../components/list-card.tsx';
import { notify } from '../../components/notify.ts';
import { Pager } from '../../components/pager.tsx';
import { SearchInput } from '../../components/search-input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { countText } from '../../../shared/format.ts';
import { useClock } from '../../lib/clock.ts';
import { ExportButton } from '../../components/export-button.tsx';
import { useSession } from '../../lib/session.ts';
import { accountabilityQueries, certificatesFile, useReview } from './api.ts';
import { monthLabel } from './months.ts';

function State({ certificate }: { certificate: RaafCertificate }) {
  return certificate.reviewed_at ? <Badge color="teal">Reviewed</Badge> : <Badge color="blue">Certified</Badge>;
}

/** The certified RAAFs the user may read, newest first: open the frozen PDF, and for accounting, Review. */
export function CertificatesList({ phone }: { phone: boolean }) {
  const clock = useClock();
  const user = useSession()?.user;
  const [params, setParams] = useState({ page: 1, search: '' });
  const list = useQuery(accountabilityQueries.certificates(params));
  const review = useReview();
  const reviewer = can(user, 'raaf.review');

  const actions = (row: RaafCertificate): ReactNode => (
    <Group gap={6} wrap="nowrap">
      <Button
        component="a"
        href={row.pdf_url}
        target="_blank"
        rel="noopener"
        size="compact-sm"
        variant="default"
        aria-label={`Open PDF of ${row.number}`}
      >
        PDF
      </Button>
      {reviewer && !row.reviewed_at ? (
        <AppButton
          size="compact-sm"
          aria-label={`Review ${row.number}`}
          loading={review.isPending && review.variables === row.id}
          onClick={() =>
            review.mutate(row.id, {
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

  const columns: Column<RaafCertificate>[] = [
    { key: 'number', header: 'Certificate No.', render: (c) => c.number },
    { key: 'month', header: 'Month', render: (c) => monthLabel(c.month) },
    { key: 'holder', header: 'Holder', render: (c) => c.holder.name, wrap: true, minWidth: 160 },
    { key: 'ending', header: 'Ending', render: (c) => countText(c.totals.ending) },
    {
      key: 'certified',
      header: 'Certified',
      render: (c) => `${clock.dayTime(c.certified_at)} by ${c.certified_by.full_name}`,
      wrap: true,
      minWidth: 200,
    },
    {
      key: 'reviewed',
      header: 'Reviewed',
      render: (c) => (c.reviewed_at ? `${clock.dayTime(c.reviewed_at)} by ${c.reviewed_by?.full_name ?? '-'}` : '-'),
      wrap: true,
      minWidth: 180,
    },
    { key: 'state', header: 'State', render: (c) => <State certificate={c} /> },
    { key: 'actions', header: 'Actions', render: actions },
  ];

  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Certificates
      </Title>
      <ListCard
        query={list}
        toolbar={
          <>
            <SearchInput placeholder="Search by certificate number or holder" onSearch={(search) => setParams({ page: 1, search })} />
            <ExportButton fileBase="Certificates" download={(format) => certificatesFile(params, format)} />
          </>
        }
      >
        {phone && list.data?.data.length === 0 ? (
          <Text c="dimmed" ta="center" py="md">
            No certificates yet.
          </Text>
        ) : phone ? (
          <Stack gap="sm" role="list" aria-label="Certificates">
            {list.data?.data.map((c) => (
              <Card key={c.id} withBorder radius="md" padding="sm" role="listitem">
                <Group justify="space-between" wrap="nowrap" mb={6}>
                  <Text fw={700}>{c.number}</Text>
                  <State certificate={c} />
                </Group>
                <SimpleGrid cols={2} spacing={4} verticalSpacing={4}>
                  <LabelledValue label="Holder" value={c.holder.name} />
                  <LabelledValue label="Month" value={monthLabel(c.month)} />
                  <LabelledValue label="Certified" value={clock.dayTime(c.certified_at)} />
                  <LabelledValue label="Reviewed" value={c.reviewed_at ? clock.dayTime(c.reviewed_at) : '-'} />
                </SimpleGrid>
                <Group justify="flex-end" mt="xs">
                  {actions(c)}
                </Group>
              </Card>
            ))}
          </Stack>
        ) : (
          <DataTable
            columns={columns}
            rows={list.data?.data}
            rowKey={(c) => c.id}
            loading={list.isLoading}
            emptyText="No certificates yet."
            label="Certificates"
          />
        )}
        <Pager page={params.page} lastPage={list.data?.last_page ?? 1} onChange={(page) => setParams((p) => ({ ...p, page }))} />
      </ListCard>
    </Stack>
  );
}
