import { isNotFoundDecodeError } from './scan-rules.ts';

/** docs/design.md §7: a code held too close never decodes; after this long without a read the scanner says so. */
export const TOO_CLOSE_AFTER_MS = 3000;
export const TOO_CLOSE_HINT = 'Move the code farther from the camera';

/**
 * One camera session's bookkeeping, apart from the camera: the camera keeps decoding the same code many times a second
 * while the owner looks the first read up, so reads are dropped from the first one until Resume; a decoder error is
 * worth one alert a session, and a frame with no code in it none. A continuous session (a count, issue 36) resumes by
 * itself after each answer and takes each code once, however long it stays in front of the camera.
 */
export function scanSession(options: { continuous?: boolean } = {}) {
  let held = false;
  const reported = new Set<string>();
  const taken = new Set<string>();
  return {
    /** Whether this read is the one to settle: false while an earlier read waits for its answer or its Resume. */
    take(text?: string): boolean {
      if (held) return false;
      if (options.continuous && text !== undefined) {
        if (taken.has(text)) return false;
        taken.add(text);
      }
      held = true;
      return true;
    },
    resume(): void {
      held = false;
    },
    /** The alert a decoder error deserves, or null: none for an empty frame or a message already shown. */
    alertFor(message: string): string | null {
      if (isNotFoundDecodeError(message) || reported.has(message)) return null;
      reported.add(message);
      return `QR Scanner error: ${message}`;
    },
  };
}

/**
 * A code the owner accepted from the camera ends the session; a refused one leaves it paused with the reason, for Resume.
 * A continuous session never stops for a code.
 */
export const stopsCamera = (outcome: { ok: boolean }, fromCamera: boolean, continuous = false) => !continuous && fromCamera && outcome.ok;

/**
 * Calls `onTooClose` once scanning has gone TOO_CLOSE_AFTER_MS without decoding anything; the returned function cancels
 * it. `lastDecodeAt` moves the deadline on: a continuous scan still decodes the label it already took, so the camera
 * reads fine at that distance.
 */
export function watchTooClose(onTooClose: () => void, lastDecodeAt: () => number = () => 0): () => void {
  let timer: ReturnType<typeof setTimeout>;
  const arm = (wait: number) => {
    timer = setTimeout(() => {
      const quiet = Date.now() - lastDecodeAt();
      if (quiet < TOO_CLOSE_AFTER_MS) arm(TOO_CLOSE_AFTER_MS - quiet);
      else onTooClose();
    }, wait);
  };
  arm(TOO_CLOSE_AFTER_MS);
  return () => clearTimeout(timer);
}
