import { useCallback } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { currentSearchParams } from './current-search-params.ts';

/**
 * A details modal kept in the address (docs/user-guide.md "Screens", Transactions), e.g. `?invoice=123`: Reload and a shared link reopen
 * it, and Back (the phone's back gesture) closes it instead of leaving the screen. Opening adds a
 * history entry; closing one this screen opened steps back over it, otherwise drops the param in place.
 */
export function useUrlModal(name: string) {
  const [url, setUrl] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const raw = url.get(name);
  const id = raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
  // -- this hook is the only navigation that sets this state, with `modal`.
  const openedHere = (location.state as { modal?: string } | null)?.modal === name;

  const open = useCallback(
    (value: number) => {
      const next = currentSearchParams();
      next.set(name, String(value));
      setUrl(next, { state: { modal: name } });
    },
    [name, setUrl],
  );
  const close = useCallback(() => {
    if (openedHere) {
      void navigate(-1);
      return;
    }
    const next = currentSearchParams();
    next.delete(name);
    setUrl(next, { replace: true });
  }, [name, navigate, openedHere, setUrl]);
  return { id, open, close };
}
