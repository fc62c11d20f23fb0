import { TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 300;

/** A search box that tells its owner 300 ms after the last keystroke (spec §9). */
export function SearchInput({ placeholder, onSearch, initial = '' }: { placeholder: string; onSearch: (text: string) => void; initial?: string }) {
  const [value, setValue] = useState(initial);
  const debounced = useDebouncedCallback((text: string) => onSearch(text.trim()), SEARCH_DEBOUNCE_MS);
  return (
    <TextInput
      placeholder={placeholder}
      aria-label={placeholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(event) => {
        setValue(event.currentTarget.value);
        debounced(event.currentTarget.value);
      }}
      style={{ flex: '1 1 260px', maxWidth: 420 }}
    />
  );
}
