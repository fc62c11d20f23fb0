import { notifications } from '@mantine/notifications';
import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { MSG } from '../../shared/messages.ts';
import { Navigate, useLocation } from 'react-router';
import { canOpenScreen, homePath } from '../../shared/permissions.ts';
import { useSession } from '../lib/session.ts';

/** Loaded only when a session ends, so the sign-in page's bundle does not carry a modal. */
const SessionEndedModal = lazy(() =>
  import('../features/accounts/session-ended-modal.tsx').then((m) => ({ default: m.SessionEndedModal })),
);

/** A screen the role may not open: the user reads why, then lands home (one toast, however often React renders this). */
function SentHome({ to }: { to: string }) {
  useEffect(() => {
    notifications.show({ id: 'screen-forbidden', color: 'orange', message: MSG.screenForbidden, autoClose: 8000 });
  }, []);
  return <Navigate to={to} replace />;
}

/**
 * docs/spec.md §2: no session goes to /login (which returns to this exact address after sign-in); a role that may not open the
 * screen goes home. A session the server ended keeps the screen and asks for the password over it.
 */
export function RequireScreen({ screen, children }: { screen: string; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: `${location.pathname}${location.search}` }} />;
  if (session.must_change_credentials && !session.ended) return <Navigate to="/change-password" replace />;
  if (!canOpenScreen(session.user, screen)) return <SentHome to={homePath(session.user.role_id)} />;
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
