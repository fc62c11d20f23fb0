import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { canOpenScreen, homePath } from '../../shared/permissions.ts';
import { useSession } from '../lib/session.ts';

/** Spec §2: no session goes to /login; a role that may not open the screen goes home. */
export function RequireScreen({ screen, children }: { screen: string; children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  if (!canOpenScreen(session.user, screen)) return <Navigate to={homePath(session.user.role_id)} replace />;
  return children;
}
