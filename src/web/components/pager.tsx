import { ActionIcon, Group, Button } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { pagerWindow } from '../../shared/format.ts';

/** Spec §2 pager: at most five numbers around the current page; previous/next disabled at the ends. */
export function Pager({ page, lastPage, onChange }: { page: number; lastPage: number; onChange: (page: number) => void }) {
  if (lastPage <= 1) return null;
  return (
    <Group gap={4} justify="center" mt="md" aria-label="Pagination" role="navigation">
      <ActionIcon variant="default" size="lg" aria-label="Previous page" disabled={page <= 1} onClick={() => onChange(page - 1)}>
        <IconChevronLeft size={16} />
      </ActionIcon>
      {pagerWindow(page, lastPage).map((n) => (
        <Button
          key={n}
          size="compact-md"
          h={34}
          miw={34}
          variant={n === page ? 'filled' : 'default'}
          aria-current={n === page ? 'page' : undefined}
          onClick={() => onChange(n)}
        >
          {n}
        </Button>
      ))}
      <ActionIcon variant="default" size="lg" aria-label="Next page" disabled={page >= lastPage} onClick={() => onChange(page + 1)}>
        <IconChevronRight size={16} />
      </ActionIcon>
    </Group>
  );
}
