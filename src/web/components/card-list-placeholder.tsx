import { Text } from '@mantine/core';

/** What a phone card list shows before it has rows: "Loading..." while its query runs, its empty text when there are none. */
export function CardListPlaceholder({ loading, empty, emptyText }: { loading: boolean; empty: boolean; emptyText: string }) {
  if (empty) {
    return (
      <Text ta="center" c="dimmed" py="md">
        {emptyText}
      </Text>
    );
  }
  return loading ? (
    <Text c="dimmed" ta="center" py="md" data-testid="table-loader">
      Loading...
    </Text>
  ) : null;
}
