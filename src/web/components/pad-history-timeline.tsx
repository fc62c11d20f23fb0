import { Anchor, Text, ThemeIcon, Timeline } from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowBackUp,
  IconArrowDownLeft,
  IconArrowUpRight,
  IconBan,
  IconCircleCheck,
  IconFlag,
  IconPackageImport,
  IconSearch,
  IconTrash,
  IconTruckDelivery,
  type Icon,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { numberRange } from '../../shared/format.ts';
import type { PadEvent, PadHistory } from '../../shared/schemas/ledger.ts';
import { useClock } from '../lib/clock.ts';
import { AppButton } from './app-button.tsx';
import { InvoiceDetailsView } from './invoice/invoice-details-view.tsx';

const KIND: Record<PadEvent['kind'], { label: string; color: string; icon: Icon }> = {
  received: { label: 'Received into stock', color: 'blue', icon: IconPackageImport },
  opening: { label: 'Opening balance', color: 'blue', icon: IconFlag },
  transfer_out: { label: 'Transferred out', color: 'violet', icon: IconArrowUpRight },
  transfer_in: { label: 'Received by transfer', color: 'violet', icon: IconArrowDownLeft },
  used: { label: 'Marked used', color: 'teal', icon: IconCircleCheck },
  used_reverted: { label: 'Unmarked (correction)', color: 'yellow', icon: IconArrowBackUp },
  cancelled: { label: 'Cancelled', color: 'gray', icon: IconBan },
  lost: { label: 'Lost', color: 'red', icon: IconAlertTriangle },
  cancel_reverted: { label: 'Cancellation undone', color: 'yellow', icon: IconArrowBackUp },
  found: { label: 'Found', color: 'green', icon: IconSearch },
  custody_out: { label: 'Booklet handed over', color: 'violet', icon: IconArrowUpRight },
  custody_in: { label: 'Booklet received', color: 'violet', icon: IconArrowDownLeft },
  voided: { label: 'Voided (pad deleted)', color: 'dark', icon: IconTrash },
};

const holderText = (user: PadEvent['holder_user'], branch: PadEvent['holder_branch']) =>
  user ? `${user.full_name}${branch ? ` (${branch.name})` : ''}` : (branch?.name ?? '-');

/** Where the numbers were: the holder, and for a transfer who they went to or came from. */
function whereText(event: PadEvent): string {
  const holder = holderText(event.holder_user, event.holder_branch);
  const other =
    event.counterparty_user || event.counterparty_branch ? holderText(event.counterparty_user, event.counterparty_branch) : null;
  if (event.kind === 'transfer_out' || event.kind === 'custody_out') return `From ${holder}${other ? ` to ${other}` : ''}`;
  if (event.kind === 'transfer_in' || event.kind === 'custody_in') return `To ${holder}${other ? ` from ${other}` : ''}`;
  return `Held by ${holder}`;
}

const wording = { noun: 'Invoice', typeLabel: 'Transaction Type' } as const;

/** "Held by": the person and branch, or the invoice and its courier while the pad is on the road. */
export function HeldBy({ history }: { history: Pick<PadHistory, 'holder' | 'in_transit_invoice'> }) {
  const transit = history.in_transit_invoice;
  return (
    <div>
      <Text size="xs" c="dimmed">
        Held by
      </Text>
      <Text fw={500} data-testid="held-by" style={{ overflowWrap: 'anywhere' }}>
        {holderText(history.holder.user, history.holder.branch)}
      </Text>
      {transit ? (
        <Text size="sm" c="orange" data-testid="in-transit">
          <IconTruckDelivery size={14} style={{ verticalAlign: -2 }} aria-hidden /> In transit on {transit.invoice_type.name} invoice #
          {transit.id} with {transit.assigned_user?.full_name ?? 'no courier'}
        </Text>
      ) : null}
    </div>
  );
}

/** A pad's (or one number's) events, oldest first: what happened to which numbers, where, who did it, when, and the invoice. */
export function PadHistoryTimeline({ events, label = 'History' }: { events: PadEvent[]; label?: string }) {
  const clock = useClock();
  const [invoiceId, setInvoiceId] = useState<number | null>(null);
  if (events.length === 0) return <Text c="dimmed">No history recorded.</Text>;
  return (
    <>
      <Timeline active={events.length - 1} bulletSize={24} lineWidth={2} role="list" aria-label={label}>
        {events.map((event) => {
          const kind = KIND[event.kind];
          const KindIcon = kind.icon;
          return (
            <Timeline.Item
              key={event.id}
              role="listitem"
              color={kind.color}
              bullet={
                <ThemeIcon size={24} radius="xl" color={kind.color}>
                  <KindIcon size={14} aria-hidden />
                </ThemeIcon>
              }
              title={
                <Text fw={600} size="sm">
                  {kind.label}: {numberRange(event.from_number, event.to_number)}{' '}
                  <Text span c="dimmed" size="sm">
                    ({event.qty})
                  </Text>
                </Text>
              }
            >
              <Text size="sm">{whereText(event)}</Text>
              {event.reason ? <Text size="sm">Reason: {event.reason}</Text> : null}
              {event.copies_retained != null ? <Text size="sm">All copies retained: {event.copies_retained ? 'Yes' : 'No'}</Text> : null}
              {event.incident ? (
                <Text size="sm">
                  Incident:{' '}
                  <Anchor component={Link} to={`/incidents?incident=${event.incident.id}`} size="sm">
                    {event.incident.number}
                  </Anchor>
                </Text>
              ) : null}
              {event.approver ? <Text size="sm">Approved by {event.approver.full_name}</Text> : null}
              <Text size="xs" c="dimmed">
                {clock.dayTime(event.recorded_at)} · by {event.actor?.full_name ?? 'the system'}
                {event.invoice_id ? (
                  <>
                    {' · '}
                    <Anchor component="button" type="button" size="xs" onClick={() => setInvoiceId(event.invoice_id)}>
                      Invoice #{event.invoice_id}
                    </Anchor>
                  </>
                ) : null}
              </Text>
            </Timeline.Item>
          );
        })}
      </Timeline>
      <InvoiceDetailsView
        invoiceId={invoiceId}
        onClose={() => setInvoiceId(null)}
        wording={wording}
        zIndex={400}
        actions={() => (
          <AppButton variant="secondary" onClick={() => setInvoiceId(null)}>
            Close
          </AppButton>
        )}
      />
    </>
  );
}
