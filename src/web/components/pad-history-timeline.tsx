import { Anchor, Text, Timeline } from '@mantine/core';
import { Link } from 'react-router';
import type { PadEvent, PadHistory } from '../../shared/schemas/ledger.ts';
import { formatDateTime } from '../lib/format.ts';

const KIND_LABEL: Record<PadEvent['kind'], string> = {
  received: 'Received into stock',
  opening: 'Opening balance',
  transfer_out: 'Transferred out',
  transfer_in: 'Received by transfer',
  used: 'Marked used',
  used_reverted: 'Unmarked (correction)',
  cancelled: 'Cancelled',
  lost: 'Lost',
};

const holderText = (user: PadEvent['holder_user'], branch: PadEvent['holder_branch']) =>
  [user?.full_name, branch?.name].filter(Boolean).join(', ') || '-';

const rangeText = (event: PadEvent) => (event.from_number === event.to_number ? `${event.from_number}` : `${event.from_number}-${event.to_number}`);

/** "Held by": the person and branch, or the invoice and its courier while the pad is on the road. */
export function HeldBy({ history }: { history: Pick<PadHistory, 'holder' | 'in_transit_invoice'> }) {
  const transit = history.in_transit_invoice;
  return (
    <div>
      <Text size="xs" c="dimmed">
        Held by
      </Text>
      <Text fw={500} data-testid="held-by">
        {holderText(history.holder.user, history.holder.branch)}
        {transit ? ` — in transit on invoice #${transit.id} (${transit.invoice_type.name}) with ${transit.assigned_user?.full_name ?? 'no courier'}` : ''}
      </Text>
    </div>
  );
}

/** A pad's (or one number's) events, oldest first: what, which numbers, who held them, who did it, when, and the invoice. */
export function PadHistoryTimeline({ events }: { events: PadEvent[] }) {
  if (events.length === 0) return <Text c="dimmed">No history recorded.</Text>;
  return (
    <Timeline active={events.length - 1} bulletSize={14} lineWidth={2} aria-label="History">
      {events.map((event) => (
        <Timeline.Item key={event.id} title={`${KIND_LABEL[event.kind]}: ${rangeText(event)} (${event.qty})`}>
          <Text size="sm">
            {event.kind === 'transfer_out' ? 'From ' : event.kind === 'transfer_in' ? 'To ' : 'Holder: '}
            {holderText(event.holder_user, event.holder_branch)}
            {event.counterparty_user || event.counterparty_branch
              ? `${event.kind === 'transfer_out' ? ' to ' : ' from '}${holderText(event.counterparty_user, event.counterparty_branch)}`
              : ''}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(event.recorded_at)} · by {event.actor?.full_name ?? 'system'}
            {event.reason ? ` · ${event.reason}` : ''}
            {event.invoice_id ? (
              <>
                {' · '}
                <Anchor component={Link} to={`/invoices?search=${event.invoice_id}`} size="xs">
                  Invoice #{event.invoice_id}
                </Anchor>
              </>
            ) : null}
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
