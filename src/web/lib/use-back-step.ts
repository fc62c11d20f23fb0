import { useCallback, useEffect, useRef } from 'react';

/** Pops this hook caused itself (a closed modal stepping back over its entry), which no modal may take as the user's Back. */
let ownPops = 0;

/**
 * A modal opened over another one (Cancel numbers over Pad Details) gets its own history entry, at the same address, so
 * the phone's Back closes only it: `onBack` runs when that entry is popped, and answers false when the modal stays open
 * (it asks first), which puts the entry back. Closing it any other way steps back over the entry.
 */
export function useBackStep(onBack: () => boolean): void {
  const latest = useRef(onBack);
  const pushed = useRef(false);
  useEffect(() => {
    latest.current = onBack;
  });
  const stay = useCallback(() => {
    // -- the router keeps its own fields in history.state; the entry copies them so the router sees the same place.
    window.history.pushState({ ...(window.history.state as object | null), stacked: true }, '');
    pushed.current = true;
  }, []);
  useEffect(() => {
    stay();
    const pop = () => {
      if (ownPops > 0 || !pushed.current) return;
      pushed.current = false;
      if (!latest.current()) stay();
    };
    window.addEventListener('popstate', pop);
    return () => {
      window.removeEventListener('popstate', pop);
      if (!pushed.current) return;
      pushed.current = false;
      ownPops += 1;
      window.addEventListener('popstate', () => (ownPops -= 1), { once: true });
      window.history.back();
    };
  }, [stay]);
}
