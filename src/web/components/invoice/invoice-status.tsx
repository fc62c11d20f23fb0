import { Badge } from '@mantine/core';
import { IconCircle, IconCircleCheck, IconClock, IconFileExport, IconTruck, type Icon } from '@tabler/icons-react';
import { INVOICE_STATUS } from '../../../shared/lookups.ts';
import type { NamedRef } from '../../../shared/schemas/common.ts';

/** One colour and icon per invoice status, keyed by the seeded id: the names are data and may be renamed. */
const STATUS_LOOK: Record<number, { color: string; icon: Icon }> = {
  [INVOICE_STATUS.PENDING]: { color: 'yellow', icon: IconClock },
  [INVOICE_STATUS.IN_TRANSIT]: { color: 'blue', icon: IconTruck },
  [INVOICE_STATUS.ISSUED]: { color: 'grape', icon: IconFileExport },
  [INVOICE_STATUS.COMPLETED]: { color: 'teal', icon: IconCircleCheck },
};

/** docs/spec.md §2 timeline icons (check-circle, truck, file-export, clock, otherwise a circle) and their badge colour. */
export const statusLook = (statusId: number) => STATUS_LOOK[statusId] ?? { color: 'gray', icon: IconCircle };

/** The invoice status badge of every list, card and details table. */
export function InvoiceStatusBadge({ status }: { status: NamedRef }) {
  return (
    <Badge color={statusLook(status.id).color} variant="light" style={{ minWidth: 'max-content' }}>
      {status.name}
    </Badge>
  );
}
