import { IconFilter } from '@tabler/icons-react';
import { AppButton } from './app-button.tsx';

/** A list toolbar's Filter button: shows or hides the list's filters, and says which to screen readers. */
export function FilterToggle({ open, onToggle }: { open: boolean; onToggle: () => void }) {
  return (
    <AppButton variant="secondary" leftSection={<IconFilter size={16} />} aria-expanded={open} onClick={onToggle}>
      Filter
    </AppButton>
  );
}
