import type { IncidentStatus } from '../../../shared/lookups.ts';
import { Badge } from '@mantine/core';
import { STATUS_LABELS } from './api.ts';

/** Reported (waiting for an approver), Confirmed (lost, Notice of Loss sent) or Rejected. */
export function IncidentStatusBadge({ status }: { status: IncidentStatus }) {
  const shown = STATUS_LABELS[status];
  return (
    <Badge color={shown.color} variant="light">
      {shown.label}
    </Badge>
  );
}
