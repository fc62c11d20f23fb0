import { MSG } from '../../../shared/messages.ts';
import { ApiError } from '../../lib/api.ts';
import { QrScanner, type ScanOutcome } from './qr-scanner.tsx';
import { checkScannedValue } from './scan-rules.ts';

export interface ScannedPerson {
  id: number;
  full_name: string;
}

/**
 * docs/spec.md §5 what a badge scan says: a value that is not a badge number is refused without asking; a number is
 * resolved with `resolve` (a server lookup), whose refusal (4xx) is shown in the server's words, anything else as an
 * invalid badge. A resolved person goes to `onResolved`.
 */
export async function readBadge(
  text: string,
  resolve: (code: string) => Promise<ScannedPerson>,
  onResolved: (person: ScannedPerson) => void,
): Promise<ScanOutcome> {
  const problem = checkScannedValue(text);
  if (problem) return { ok: false, message: problem };
  try {
    const person = await resolve(text.trim());
    onResolved(person);
    return { ok: true, message: `Scanned: ${person.full_name}` };
  } catch (error) {
    const message = error instanceof ApiError && error.hasResponse && error.status < 500 ? error.message : MSG.qrInvalidBadge;
    return { ok: false, message };
  }
}

/** The invoice-flow scanner (10 fps, 250 px box) of a courier's badge; a failed lookup shows as an error in the scanner. */
export function AssigneeScanner({
  resolve,
  onResolved,
}: {
  resolve: (code: string) => Promise<ScannedPerson>;
  onResolved: (person: ScannedPerson) => void;
}) {
  return <QrScanner onScan={(text) => readBadge(text, resolve, onResolved)} fps={10} box={250} autoStart />;
}
