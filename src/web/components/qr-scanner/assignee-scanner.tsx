import { MSG } from '../../../shared/messages.ts';
import { ApiError } from '../../lib/api.ts';
import { QrScanner, type ScanOutcome } from './qr-scanner.tsx';
import { checkScannedValue } from './scan-rules.ts';

export interface ScannedPerson {
  id: number;
  full_name: string;
}

/**
 * The invoice-flow scanner (10 fps, 250 px box): checks the scanned badge number, resolves it to a person
 * with `resolve` (a server lookup), and hands the person to `onResolved`. A failed lookup shows the server's
 * message in the scanner as an error.
 */
export function AssigneeScanner({
  resolve,
  onResolved,
}: {
  resolve: (code: string) => Promise<ScannedPerson>;
  onResolved: (person: ScannedPerson) => void;
}) {
  const onScan = async (text: string): Promise<ScanOutcome> => {
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
  };
  return <QrScanner onScan={onScan} fps={10} box={250} autoStart />;
}
