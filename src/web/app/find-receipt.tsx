import { Badge, Divider, Group, Loader, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { ReceiptFinding } from '../../shared/schemas/ledger.ts';
import type { Pad } from '../../shared/schemas/pads.ts';
import { HeldBy, PadHistoryTimeline } from '../components/pad-history-timeline.tsx';
import { SeriesGrid } from '../features/pads/series-grid.tsx';
import { api } from '../lib/api.ts';
import { ledgerQueries } from '../lib/ledger-queries.ts';

const STATUS: Record<ReceiptFinding['status'], { label: string; color: string }> = {
  not_used: { label: 'Not Used', color: 'blue' },
  used: { label: 'Used', color: 'teal' },
  cancelled: { label: 'Cancelled', color: 'gray' },
  lost: { label: 'Lost', color: 'red' },
};

function Finding({ finding, receipt }: { finding: ReceiptFinding; receipt: number }) {
  const pad = useQuery({ queryKey: ['get-pad', finding.pad.id], queryFn: async () => (await api.get<{ data: Pad }>(`get-pad/${finding.pad.id}`)).data });
  const status = STATUS[finding.status];
  return (
    <Stack gap="sm" data-testid="receipt-finding">
      <Group justify="space-between" wrap="wrap">
        <Title order={3} size="h5">
          {finding.route.company.name} - {finding.route.name} ({finding.route.tin})
        </Title>
        <Badge color={status.color}>{status.label}</Badge>
      </Group>
      <Text size="sm">
        Pad {finding.pad.number} · Series {finding.pad.series_number}
      </Text>
      <HeldBy history={finding} />
      {pad.data ? <SeriesGrid series={pad.data.series} highlight={receipt} /> : <Loader size="sm" />}
      <Text size="sm" fw={500}>
        History of {receipt}
      </Text>
      <PadHistoryTimeline events={finding.events} />
    </Stack>
  );
}

/** Issue 13's header box: "Find receipt no." answers in a panel with every route's pad holding that number. */
export function FindReceiptBox() {
  const phone = useMediaQuery('(max-width: 48em)');
  const [text, setText] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const findings = useQuery({ ...ledgerQueries.findReceipt(asked ?? ''), enabled: asked !== null && /^\d{1,15}$/.test(asked) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (value) setAsked(value);
  };
  const valid = asked !== null && /^\d{1,15}$/.test(asked);
  return (
    <>
      <form onSubmit={submit} role="search" aria-label="Find receipt">
        <TextInput
          size="xs"
          placeholder="Find receipt no."
          aria-label="Find receipt no."
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          leftSection={<IconSearch size={14} />}
          w={{ base: 130, sm: 190 }}
          inputMode="numeric"
        />
      </form>
      <Modal opened={asked !== null} onClose={() => setAsked(null)} title={`Receipt no. ${asked ?? ''}`} size="xl" centered fullScreen={phone}>
        <Stack>
          {!valid ? <Text c="red">Enter a receipt number (digits only).</Text> : null}
          {valid && findings.isPending ? <Loader size="sm" /> : null}
          {findings.data && findings.data.length === 0 ? <Text>No pad contains receipt no. {asked}.</Text> : null}
          {(findings.data ?? []).map((finding, i) => (
            <Stack key={finding.pad.id} gap="sm">
              {i > 0 ? <Divider /> : null}
              <Finding finding={finding} receipt={Number(asked)} />
            </Stack>
          ))}
        </Stack>
      </Modal>
    </>
  );
}
