import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { lazy, useState, type FormEvent } from 'react';
import { MountOnceOpened } from '../components/mount-once-opened.tsx';

const ReceiptFindingsModal = lazy(() => import('./receipt-findings-modal.tsx').then((m) => ({ default: m.ReceiptFindingsModal })));

/** The header's "Find receipt no." box (README "Screens"): answers in a panel with every route's pad holding that number. */
export function FindReceiptBox() {
  const [text, setText] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (value) setAsked(value);
  };
  return (
    <>
      <form onSubmit={submit} role="search" aria-label="Find receipt">
        <TextInput
          size="xs"
          placeholder="Find receipt no."
          aria-label="Find receipt no."
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          leftSection={<IconSearch size={14} />}
          w={{ base: 130, sm: 190 }}
          inputMode="numeric"
        />
      </form>
      <MountOnceOpened when={asked !== null}>
        <ReceiptFindingsModal asked={asked} onClose={() => setAsked(null)} />
      </MountOnceOpened>
    </>
  );
}
