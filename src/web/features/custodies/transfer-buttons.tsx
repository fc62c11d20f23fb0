import { lazy, useState, type ReactNode } from 'react';
import { can } from '../../../shared/permissions.ts';
import type { HeldPad } from '../../../shared/schemas/custodies.ts';
import { AppButton } from '../../components/app-button.tsx';
import { MountOnceOpened } from '../../components/mount-once-opened.tsx';
import { useSession } from '../../lib/session.ts';

const TransferModal = lazy(() => import('./transfer-modal.tsx').then((m) => ({ default: m.TransferModal })));

export interface PadEditorProps {
  pad: HeldPad | null;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * The Return button of /invoices and its Create Return Invoice modal (not offered to a read-only role); roles 5 to 8 get EDIT per pad,
 * which opens the pad editor the app composes in (the Inventories feature's Edit Pad modal).
 */
export function ReturnInvoiceButton({ padEditor }: { padEditor: (props: PadEditorProps) => ReactNode }) {
  const session = useSession();
  const [opened, setOpened] = useState(false);
  const [editing, setEditing] = useState<HeldPad | null>(null);
  const mayEdit = can(session?.user, 'invoice.returnPadEdit');
  if (!can(session?.user, 'invoice.transfer')) return null;
  return (
    <>
      <AppButton variant="secondary" onClick={() => setOpened(true)}>
        Return
      </AppButton>
      <MountOnceOpened when={opened}>
        <TransferModal kind="return" opened={opened} onClose={() => setOpened(false)} onEditPad={mayEdit ? setEditing : undefined} />
      </MountOnceOpened>
      {padEditor({
        pad: editing,
        onClose: () => setEditing(null),
        onSaved: () => setEditing(null),
      })}
    </>
  );
}

/** The Turnover button of /invoices and its Create Turnover Invoice modal; not offered to a read-only role. */
export function TurnoverInvoiceButton() {
  const session = useSession();
  const [opened, setOpened] = useState(false);
  if (!can(session?.user, 'invoice.transfer')) return null;
  return (
    <>
      <AppButton variant="secondary" onClick={() => setOpened(true)}>
        Turnover
      </AppButton>
      <MountOnceOpened when={opened}>
        <TransferModal kind="turnover" opened={opened} onClose={() => setOpened(false)} />
      </MountOnceOpened>
    </>
  );
}
