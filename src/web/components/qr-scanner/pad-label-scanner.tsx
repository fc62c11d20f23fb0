import { Stack } from '@mantine/core';
import { IconQrcode } from '@tabler/icons-react';
import { useState } from 'react';
import { isPadLabel, LABEL_MSG } from '../../../shared/custody-rules.ts';
import type { Pad } from '../../../shared/schemas/pads.ts';
import { api, ApiError } from '../../lib/api.ts';
import { AppButton } from '../app-button.tsx';
import { notify } from '../notify.ts';
import { QrScanner, type ScanOutcome } from './qr-scanner.tsx';

/** The pad a scanned label stands for (GET pad-by-label); a code that is not a label is refused without asking. */
export async function padOfLabel(code: string): Promise<Pad> {
  if (!isPadLabel(code)) throw new Error(LABEL_MSG.unknown);
  return (await api.get<{ data: Pad }>('pad-by-label', { code: code.trim() })).data;
}

/** Why a label did not resolve: the server's words for a refusal, else that it is not a pad label. */
export const labelFailure = (error: unknown) =>
  error instanceof ApiError && error.hasResponse && error.status < 500 ? error.message : LABEL_MSG.unknown;

/**
 * What a pad picker's scanner says about a scanned code: a pad label is looked up and handed to `onPad` (a count records
 * it) or else to `choose` (a picker selects it); anything else, or a label the server refuses, says why.
 */
export async function readPadLabel(
  text: string,
  choose: (pad: Pad) => ScanOutcome,
  onPad?: (padId: number, padNumber: number) => Promise<ScanOutcome>,
): Promise<ScanOutcome> {
  try {
    const pad = await padOfLabel(text);
    return onPad ? await onPad(pad.id, pad.number) : choose(pad);
  } catch (error) {
    return { ok: false, message: labelFailure(error) };
  }
}

/**
 * A pad picker's scanner (docs/design.md §9 scan to select): Open Scanner starts the camera, a scanned pad label is
 * looked up and handed to `choose`, which selects the pad and answers what to say, or says why it cannot.
 */
export function PadLabelScanner({
  choose,
  onPad,
  continuous = false,
}: {
  choose: (pad: Pad) => ScanOutcome;
  /** Instead of choose: records the pad elsewhere (a count) and answers what to say. */
  onPad?: (padId: number, padNumber: number) => Promise<ScanOutcome>;
  /** Label after label without a tap between them (a count); see QrScanner. */
  continuous?: boolean;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Stack gap="xs">
      <AppButton
        variant="secondary"
        leftSection={<IconQrcode size={16} />}
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        style={{ alignSelf: 'flex-start' }}
      >
        {open ? 'Close Pad Scanner' : 'Scan Pad Labels'}
      </AppButton>
      {open ? (
        <QrScanner onScan={(text) => readPadLabel(text, choose, onPad)} fps={10} box={250} autoStart continuous={continuous} />
      ) : null}
    </Stack>
  );
}

/**
 * A handheld USB or Bluetooth scanner types a label into a picker's search box (then Enter): the box hands a label to
 * `onLabel` and keeps anything else as a search.
 */
export const takeLabel = (onLabel: (code: string) => void) => (text: string) => {
  if (!isPadLabel(text)) return false;
  onLabel(text);
  return true;
};

/** Looks a typed label up and says, as a notice, what the picker made of it. */
export async function announceLabel(code: string, choose: (pad: Pad) => ScanOutcome | Promise<ScanOutcome>) {
  try {
    const outcome = await choose(await padOfLabel(code));
    (outcome.ok ? notify.success : notify.error)(outcome.message);
  } catch (error) {
    notify.error(labelFailure(error));
  }
}
