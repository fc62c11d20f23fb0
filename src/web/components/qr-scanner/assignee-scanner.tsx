import { badgeUserId } from '../../../shared/badge-code.ts';
import { MSG } from '../../../shared/messages.ts';
import { ApiError } from '../../lib/api.ts';
import { QrScanner, type ScanOutcome } from './qr-scanner.tsx';
import { checkScannedValue } from './scan-rules.ts';

export interface ScannedPerson {
  id: number;
  full_name: string;
}

/** A badge read: whose it is and its number, as the hand-over sends it for the server to check. */
export interface BadgeRead {
  person: ScannedPerson;
  code: string;
}

/**
 * docs/design.md §2 offline: without network a badge picks the person its user id names from the saved couriers; the
 * server checks the whole number when the queued action is sent. Someone not in the list cannot be told valid or not.
 */
function readOffline(code: string, saved: readonly ScannedPerson[], onResolved: (read: BadgeRead) => void): ScanOutcome {
  const id = badgeUserId(code);
  if (id === null) return { ok: false, message: MSG.qrInvalidBadge };
  const person = saved.find((p) => p.id === id);
  if (!person) return { ok: false, message: MSG.badgeUncheckable };
  onResolved({ person, code });
  return { ok: true, message: MSG.badgeScannedOffline(person.full_name) };
}

/**
 * docs/spec.md §5 what a badge scan says: a value that is not a badge number is refused without asking; a number is
 * resolved with `resolve` (a server lookup), whose refusal (4xx) is shown in the server's words. A lookup that never
 * reached the server falls back on the `saved` couriers; a server error calls the badge invalid.
 */
export async function readBadge(
  text: string,
  resolve: (code: string) => Promise<ScannedPerson>,
  onResolved: (read: BadgeRead) => void,
  saved: () => readonly ScannedPerson[] = () => [],
): Promise<ScanOutcome> {
  const problem = checkScannedValue(text);
  if (problem) return { ok: false, message: problem };
  const code = text.trim();
  try {
    const person = await resolve(code);
    onResolved({ person, code });
    return { ok: true, message: `Scanned: ${person.full_name}` };
  } catch (error) {
    if (error instanceof ApiError && !error.hasResponse) return readOffline(code, saved(), onResolved);
    const message = error instanceof ApiError && error.status < 500 ? error.message : MSG.qrInvalidBadge;
    return { ok: false, message };
  }
}

/** The invoice-flow scanner (10 fps, 250 px box) of a courier's badge; a failed lookup shows as an error in the scanner. */
export function AssigneeScanner({
  resolve,
  saved,
  onResolved,
}: {
  resolve: (code: string) => Promise<ScannedPerson>;
  onResolved: (read: BadgeRead) => void;
  /** The people a badge may name when the lookup cannot reach the server; none by default. */
  saved?: () => readonly ScannedPerson[];
}) {
  return <QrScanner onScan={(text) => readBadge(text, resolve, onResolved, saved)} fps={10} box={250} autoStart />;
}
