import { Menu } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { exportFileName } from '../../shared/list-columns.ts';
import type { ExportFormat } from '../../shared/schemas/common.ts';
import { errorMessage, openBlob } from '../lib/api.ts';
import { useClock } from '../lib/clock.ts';
import { useMenuAfterFirstPaint } from '../lib/use-after-first-paint.ts';
import { AppButton } from './app-button.tsx';
import { notify } from './notify.ts';

const FORMATS: Array<{ format: ExportFormat; label: string }> = [
  { format: 'csv', label: 'CSV' },
  { format: 'xlsx', label: 'Excel (.xlsx)' },
];

/**
 * A list's **Export** (docs/design.md §10): every row matching the screen's current search and filters, all
 * pages, as CSV or .xlsx with the screen's columns. `download` fetches the file with those same parameters.
 */
export function ExportButton({ fileBase, download }: { fileBase: string; download: (format: ExportFormat) => Promise<Blob> }) {
  const [busy, setBusy] = useState(false);
  const clock = useClock();
  const save = async (format: ExportFormat) => {
    setBusy(true);
    try {
      const blob = await download(format);
      openBlob(blob, exportFileName(fileBase, new Date(), clock.zone, format), true);
    } catch (error) {
      notify.error(errorMessage(error, 'Could not export the list. Please try again.'));
    } finally {
      setBusy(false);
    }
  };
  const { mounted, openedEarly, ref, placeholder } = useMenuAfterFirstPaint<HTMLButtonElement>();
  const trigger = (
    <AppButton
      ref={ref}
      variant="secondary"
      leftSection={<IconDownload size={16} />}
      loading={busy}
      {...(mounted ? {} : { ...placeholder, 'aria-haspopup': 'menu', 'aria-expanded': false })}
    >
      Export
    </AppButton>
  );
  if (!mounted) return trigger;
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={openedEarly}>
      <Menu.Target>{trigger}</Menu.Target>
      <Menu.Dropdown>
        {FORMATS.map(({ format, label }) => (
          <Menu.Item key={format} onClick={() => void save(format)}>
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
