import { ActionIcon, Button, Group, NativeSelect, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import { useEffect } from 'react';
import { pagerWindow } from '../../shared/format.ts';
import { PAGE_SIZES } from '../../shared/lookups.ts';

/** Thousands with commas, as en-US writes them; a list screen's first paint then does not wait for Intl to load its locale data. */
const count = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * "1–10 of 2,991": the rows shown and the total the filters let through; "of 10,000+" when the list stopped counting,
 * "of about 4,500" when the total is the database's estimate.
 */
export const rangeText = (page: number, perPage: number, total: number, capped = false, estimate = false) =>
  `${count(Math.min((page - 1) * perPage + 1, total))}–${count(Math.min(page * perPage, total))} of ${estimate && !capped ? 'about ' : ''}${count(total)}${capped ? '+' : ''}`;

/**
 * docs/spec.md §2 pager: at most five numbers around the current page; previous/next disabled at the ends.
 * Beyond the spec's pager: first/last page, and, when the list gives its total, the "1–10 of 2,991" count and a
 * rows-per-page choice.
 */
export function Pager({
  page,
  lastPage,
  onChange,
  total,
  perPage,
  onPerPageChange,
  onOutOfRange,
  totalCapped = false,
  totalIsEstimate = false,
}: {
  page: number;
  lastPage: number;
  onChange: (page: number) => void;
  total?: number;
  perPage?: number;
  onPerPageChange?: (perPage: number) => void;
  /** Told the last page when `page` lies past it. */
  onOutOfRange?: (lastPage: number) => void;
  /** The list counted only up to its bound: the total reads "10,000+" and the pages stop at the bound. */
  totalCapped?: boolean;
  /** The total is the database's estimate past the rows counted exactly: it reads "about 4,500". */
  totalIsEstimate?: boolean;
}) {
  const beyond = total !== undefined && page > lastPage;
  useEffect(() => {
    if (beyond) onOutOfRange?.(lastPage);
  }, [beyond, lastPage, onOutOfRange]);
  const counted = total !== undefined && perPage !== undefined && total > 0;
  const sizes = onPerPageChange !== undefined && perPage !== undefined && ((total ?? 0) > PAGE_SIZES[0] || perPage !== PAGE_SIZES[0]);
  if (lastPage <= 1 && !counted) return null;
  return (
    <Group justify="space-between" align="center" gap="xs" mt="md" wrap="wrap">
      {counted ? (
        <Text size="sm" c="dimmed" data-testid="list-range" aria-live="polite">
          {rangeText(page, perPage, total, totalCapped, totalIsEstimate)}
          {totalCapped ? ` · pages up to ${count(lastPage)} shown; narrow the search to see the rest` : ''}
        </Text>
      ) : (
        <span />
      )}
      {lastPage > 1 ? (
        <Group gap={4} justify="center" aria-label="Pagination" role="navigation" wrap="nowrap">
          <ActionIcon variant="default" size="lg" aria-label="First page" disabled={page <= 1} onClick={() => onChange(1)}>
            <IconChevronsLeft size={16} />
          </ActionIcon>
          <ActionIcon variant="default" size="lg" aria-label="Previous page" disabled={page <= 1} onClick={() => onChange(page - 1)}>
            <IconChevronLeft size={16} />
          </ActionIcon>
          {pagerWindow(page, lastPage).map((n) => (
            <Button
              key={n}
              size="compact-md"
              h={34}
              miw={34}
              px={6}
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
          <ActionIcon variant="default" size="lg" aria-label="Last page" disabled={page >= lastPage} onClick={() => onChange(lastPage)}>
            <IconChevronsRight size={16} />
          </ActionIcon>
        </Group>
      ) : null}
      {sizes ? (
        <NativeSelect
          aria-label="Rows per page"
          size="sm"
          w={120}
          data={PAGE_SIZES.map((n) => ({ value: String(n), label: `${n} / page` }))}
          value={String(perPage)}
          onChange={(event) => onPerPageChange(Number(event.currentTarget.value))}
        />
      ) : (
        <span />
      )}
    </Group>
  );
}
