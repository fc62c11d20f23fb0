import { ActionIcon, Popover, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { lazy, useState, type FormEvent, type ReactNode } from 'react';
import { MountOnceOpened } from '../components/mount-once-opened.tsx';
import { useMenuAfterFirstPaint } from '../lib/use-after-first-paint.ts';

const ReceiptFindingsModal = lazy(() => import('./receipt-findings-modal.tsx').then((m) => ({ default: m.ReceiptFindingsModal })));

/** The phone's search icon; its popover mounts after the first paint, or when the icon is pressed before then. */
function FoldedBox({ unfolded, setUnfolded, children }: { unfolded: boolean; setUnfolded: (open: boolean) => void; children: ReactNode }) {
  const { mounted, ref, placeholder } = useMenuAfterFirstPaint<HTMLButtonElement>();
  const icon = (
    <ActionIcon
      ref={ref}
      variant="subtle"
      color="gray"
      size="lg"
      aria-label="Find receipt no."
      aria-expanded={unfolded}
      aria-haspopup={mounted ? undefined : 'dialog'}
      onFocus={mounted ? undefined : placeholder.onFocus}
      onBlur={mounted ? undefined : placeholder.onBlur}
      onClick={() => {
        if (!mounted) placeholder.onClick();
        setUnfolded(!unfolded);
      }}
    >
      <IconSearch size={20} />
    </ActionIcon>
  );
  if (!mounted) return icon;
  return (
    <Popover opened={unfolded} onChange={setUnfolded} position="bottom-end" trapFocus withinPortal shadow="md">
      <Popover.Target>{icon}</Popover.Target>
      <Popover.Dropdown p="xs">{children}</Popover.Dropdown>
    </Popover>
  );
}

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
        <FoldedBox unfolded={unfolded} setUnfolded={setUnfolded}>
          {form}
        </FoldedBox>
      ) : (
        form
      )}
      <MountOnceOpened when={asked !== null}>
        <ReceiptFindingsModal asked={asked} onClose={() => setAsked(null)} />
      </MountOnceOpened>
    </>
  );
}
