import { Badge } from '@mantine/core';

const COLORS: Record<string, string> = { Pending: 'yellow', 'In-Transit': 'blue', Issued: 'grape', Completed: 'teal' };

export function StatusBadge({ name }: { name: string }) {
  return (
    <Badge color={COLORS[name] ?? 'gray'} variant="light" style={{ minWidth: 'max-content' }}>
      {name}
    </Badge>
  );
}
