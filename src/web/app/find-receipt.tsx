import { ActionIcon, Popover, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { lazy, useState, type FormEvent } from 'react';
import { MountOnceOpened } from '../components/mount-once-opened.tsx';

const ReceiptFindingsModal = lazy(() => import('./receipt-findings-modal.tsx').then((m) => ({ default: m.ReceiptFindingsModal })));

/**
 * The header's "Find receipt no." box (docs/user-guide.md "Screens"): answers in a panel with every route's pad holding that number. On a
 * phone (`compact`) it folds into a search icon, so the header keeps the user's name and role.
 */
export function FindReceiptBox({ compact = false }: { compact?: boolean }) {
  const [text, setText] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const [unfolded, setUnfolded] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) return;
    setAsked(value);
    setUnfolded(false);
  };
  const form = (
    <form onSubmit={submit} role="search" aria-label="Find receipt">
      <TextInput
        size="xs"
        placeholder="Find receipt no."
        aria-label="Find receipt no."
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        leftSection={<IconSearch size={14} />}
        w={compact ? 220 : { base: 130, sm: 190 }}
        inputMode="numeric"
        data-autofocus
      />
    </form>
  );
  return (
    <>
      {compact ? (
        <Popover opened={unfolded} onChange={setUnfolded} position="bottom-end" trapFocus withinPortal shadow="md">
          <Popover.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              aria-label="Find receipt no."
              aria-expanded={unfolded}
              onClick={() => setUnfolded((open) => !open)}
            >
              <IconSearch size={20} />
            </ActionIcon>
          </Popover.Target>
          <Popover.Dropdown p="xs">{form}</Popover.Dropdown>
        </Popover>
      ) : (
        form
      )}
      <MountOnceOpened when={asked !== null}>
        <ReceiptFindingsModal asked={asked} onClose={() => setAsked(null)} />
      </MountOnceOpened>
    </>
  );
}
