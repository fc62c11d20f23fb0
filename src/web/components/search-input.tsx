import { ActionIcon, Popover, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconInfoCircle, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useMenuAfterFirstPaint } from '../lib/use-after-first-paint.ts';

export const SEARCH_DEBOUNCE_MS = 300;

/** What a search box finds, behind an info button beside it; screen readers hear it as the box's description. */
function SearchHint({ hint }: { hint: string }) {
  const { mounted, openedEarly, ref, placeholder } = useMenuAfterFirstPaint<HTMLButtonElement>();
  const button = (
    <ActionIcon
      ref={ref}
      variant="subtle"
      color="gray"
      aria-label="What search finds"
      {...(mounted ? {} : { ...placeholder, 'aria-haspopup': 'dialog', 'aria-expanded': false })}
    >
      <IconInfoCircle size={18} />
    </ActionIcon>
  );
  if (!mounted) return button;
  return (
    <Popover width={280} position="bottom-end" withArrow shadow="md" defaultOpened={openedEarly}>
      <Popover.Target>{button}</Popover.Target>
      <Popover.Dropdown>
        <Text size="sm">{hint}</Text>
      </Popover.Dropdown>
    </Popover>
  );
}

/**
 * A search box that tells its owner 300 ms after the last keystroke (docs/spec.md §9), or at once on Enter, which
 * never submits the form around it. `initial` is the search the list holds (from the address): when Back or a link
 * changes it, the box shows it. `take` lets the owner claim what was typed whole (a handheld scanner typing a pad
 * label): the box empties and no search runs.
 */
export function SearchInput({
  placeholder,
  onSearch,
  initial = '',
  hint,
  take,
}: {
  placeholder: string;
  onSearch: (text: string) => void;
  initial?: string;
  hint?: string;
  take?: (text: string) => boolean;
}) {
  const [value, setValue] = useState(initial);
  const settle = (text: string) => {
    const trimmed = text.trim();
    if (take?.(trimmed)) setValue('');
    else onSearch(trimmed);
  };
  const debounced = useDebouncedCallback(settle, SEARCH_DEBOUNCE_MS);
  const [held, setHeld] = useState(initial);
  if (held !== initial) {
    setHeld(initial);
    if (value.trim() !== initial) setValue(initial);
  }
  return (
    <TextInput
      placeholder={placeholder}
      aria-label={placeholder}
      aria-description={hint}
      leftSection={<IconSearch size={16} />}
      rightSection={hint ? <SearchHint hint={hint} /> : undefined}
      rightSectionPointerEvents="all"
      value={value}
      onChange={(event) => {
        setValue(event.currentTarget.value);
        debounced(event.currentTarget.value);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Enter') return;
        event.preventDefault();
        debounced.cancel();
        settle(event.currentTarget.value);
      }}
      style={{ flex: '1 1 260px', maxWidth: 420 }}
    />
  );
}
