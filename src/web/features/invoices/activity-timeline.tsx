import { Text, ThemeIcon, Timeline } from '@mantine/core';
import { IconCircle, IconCircleCheck, IconClock, IconFileExport, IconTruck } from '@tabler/icons-react';
import type { ActivityRow } from '../../../shared/schemas/invoices.ts';
import { formatDateTime } from './format.ts';

/** Spec §2 timeline icons: Completed check-circle, In-Transit truck, Issued file-export, Pending clock, otherwise a circle. */
function StatusIcon({ name }: { name: string }) {
  const size = 14;
  switch (name) {
    case 'Completed':
      return <IconCircleCheck size={size} aria-label="Completed" />;
    case 'In-Transit':
      return <IconTruck size={size} aria-label="In-Transit" />;
    case 'Issued':
      return <IconFileExport size={size} aria-label="Issued" />;
    case 'Pending':
      return <IconClock size={size} aria-label="Pending" />;
    default:
      return <IconCircle size={size} aria-label={name} />;
  }
}

const COLORS: Record<string, string> = { Pending: 'yellow', 'In-Transit': 'blue', Issued: 'grape', Completed: 'teal' };

/** The Invoice Activity timeline: status, time, description and place of each step, oldest first. */
export function ActivityTimeline({ activities, title = 'Invoice Activity' }: { activities: ActivityRow[]; title?: string }) {
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
            const color = COLORS[a.invoice_status.name] ?? 'gray';
            return (
              <Timeline.Item
                key={a.id}
                data-testid="activity"
                bullet={
                  <ThemeIcon size={24} radius="xl" color={color} variant="light">
                    <StatusIcon name={a.invoice_status.name} />
                  </ThemeIcon>
                }
                title={a.invoice_status.name}
              >
                <Text size="xs" c="dimmed">
                  {formatDateTime(a.created_at)}
                </Text>
                <Text size="sm">{a.description}</Text>
                {a.invoice_status.name === 'In-Transit' && a.assigned_user ? (
                  <Text size="sm" fw={500}>
                    Assigned to {a.assigned_user.full_name}
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
