import { Text, ThemeIcon, Timeline } from '@mantine/core';
import { INVOICE_STATUS } from '../../../shared/lookups.ts';
import type { ActivityRow } from '../../../shared/schemas/invoices.ts';
import { shownDayTime } from '../../../shared/format.ts';
import { deviceZone } from '../../lib/clock.ts';
import { InvoiceLinkedText } from './invoice-linked-text.tsx';
import { statusLook } from './invoice-status.tsx';

/**
 * docs/spec.md §2 activity timeline, oldest first: status, time, description and place of each step; an
 * In-Transit step names the person carrying the pads.
 */
export function InvoiceTimeline({ activities, title, timeZone }: { activities: ActivityRow[]; title: string; timeZone: string }) {
  return (
    <section aria-label={title}>
      <Text fw={600} mb="xs">
        {title}
      </Text>
      {activities.length === 0 ? (
        <Text c="dimmed" size="sm">
          No activity yet
        </Text>
      ) : (
        <Timeline active={activities.length - 1} bulletSize={26} lineWidth={2}>
          {activities.map((a) => {
            const look = statusLook(a.invoice_status_id);
            const carrier = a.invoice_status_id === INVOICE_STATUS.IN_TRANSIT ? (a.assigned_user ?? a.user) : null;
            return (
              <Timeline.Item
                key={a.id}
                data-testid="activity"
                bullet={
                  <ThemeIcon size={24} radius="xl" color={look.color} variant="light">
                    <look.icon size={14} aria-label={a.invoice_status.name} />
                  </ThemeIcon>
                }
                title={a.invoice_status.name}
              >
                <Text size="xs" c="dimmed">
                  {shownDayTime(a.created_at, timeZone, deviceZone())}
                </Text>
                <Text size="sm">
                  <InvoiceLinkedText text={a.description} />
                </Text>
                {carrier ? (
                  <Text size="sm" fw={500}>
                    Assigned to {carrier.full_name}
                  </Text>
                ) : null}
                {a.location ? (
                  <Text size="xs" c="dimmed">
                    {a.location}
                  </Text>
                ) : null}
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
    </section>
  );
}
