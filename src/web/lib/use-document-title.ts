import { useEffect } from 'react';

/** Names the browser tab and history entry after the screen, e.g. "Transactions · PadTrack", for screen readers and tab lists. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = `${title} · PadTrack`;
  }, [title]);
}
