import { Text } from '@mantine/core';

/** A small label over its value, as the phone cards of the list screens show each column. */
export function LabelledValue({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} style={{ wordBreak: 'break-word' }}>
        {value}
      </Text>
    </div>
  );
}
