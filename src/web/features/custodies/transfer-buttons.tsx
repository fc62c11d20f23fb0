import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { can } from '../../../shared/permissions.ts';
import type { HeldPad } from '../../../shared/schemas/custodies.ts';
import { AppButton } from '../../components/app-button.tsx';
import { useSession } from '../../lib/session.ts';
import { EditPadModal } from '../pads/edit-pad-modal.tsx';
import { custodyQueries } from './api.ts';
import { TransferModal } from './transfer-modal.tsx';

/** The Return button of /invoices and its Create Return Invoice modal; roles 5 to 8 get EDIT per pad. */
export function ReturnInvoiceButton({ onCreated }: { onCreated?: () => void }) {
  const session = useSession();
  const [opened, setOpened] = useState(false);
  const [editing, setEditing] = useState<HeldPad | null>(null);
  const queryClient = useQueryClient();
  const mayEdit = can(session?.user, 'invoice.returnPadEdit');
  return (
    <>
      <AppButton variant="secondary" onClick={() => setOpened(true)}>
        Return
      </AppButton>
      <TransferModal kind="return" opened={opened} onClose={() => setOpened(false)} onCreated={onCreated} onEditPad={mayEdit ? setEditing : undefined} />
      <EditPadModal
        pad={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          void queryClient.invalidateQueries({ queryKey: [...custodyQueries.all, 'user-pads'] });
        }}
      />
    </>
  );
}

/** The Turnover button of /invoices and its Create Turnover Invoice modal. */
export function TurnoverInvoiceButton({ onCreated }: { onCreated?: () => void }) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <AppButton variant="secondary" onClick={() => setOpened(true)}>
        Turnover
      </AppButton>
      <TransferModal kind="turnover" opened={opened} onClose={() => setOpened(false)} onCreated={onCreated} />
    </>
  );
}
