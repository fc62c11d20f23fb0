import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { canOpenScreen, homePath } from '../../shared/permissions.ts';
import { useSession } from '../lib/session.ts';

/** Loaded only when a session ends, so the sign-in page's bundle does not carry a modal. */
const SessionEndedModal = lazy(() =>
  import('../features/accounts/session-ended-modal.tsx').then((m) => ({ default: m.SessionEndedModal })),
);

/**
 * docs/spec.md §2: no session goes to /login (which returns to this exact address after sign-in); a role that may not open the
 * screen goes home. A session the server ended keeps the screen and asks for the password over it.
 */
export function RequireScreen({ screen, children }: { screen: string; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  if (!canOpenScreen(session.user, screen)) return <Navigate to={homePath(session.user.role_id)} replace />;
  return (
    <>
      {children}
      {session.ended ? (
        <Suspense fallback={null}>
          <SessionEndedModal session={session} />
        </Suspense>
      ) : null}
    </>
  );
}
