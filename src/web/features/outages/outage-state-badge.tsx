import { Badge } from '@mantine/core';
import type { OutageState } from '../../../shared/schemas/outages.ts';
import type { ExceptionState } from '../../../shared/schemas/paper-uses.ts';

const OUTAGE: Record<OutageState, { label: string; color: string }> = {
  open: { label: 'Open', color: 'orange' },
  closed: { label: 'Closed', color: 'gray' },
};

const EXCEPTION: Record<ExceptionState, { label: string; color: string }> = {
  open: { label: 'Open', color: 'red' },
  justified: { label: 'Justified', color: 'teal' },
  rejected: { label: 'Rejected', color: 'gray' },
};

export function OutageStateBadge({ state }: { state: OutageState }) {
  return (
    <Badge color={OUTAGE[state].color} variant="light" style={{ flexShrink: 0 }}>
      {OUTAGE[state].label}
    </Badge>
  );
}

export function ExceptionStateBadge({ state }: { state: ExceptionState }) {
  return (
    <Badge color={EXCEPTION[state].color} variant="light" style={{ flexShrink: 0 }}>
      {EXCEPTION[state].label}
    </Badge>
  );
}
