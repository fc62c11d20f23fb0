import { useSyncExternalStore } from 'react';
import type { SessionUser } from '../../shared/schemas/accounts.ts';

export interface Session {
  user: SessionUser;
  token: string;
  /** APP_TIMEZONE as the server said at sign-in: every date and time on screen is shown in it. */
  time_zone?: string;
  /** The password was chosen by an administrator: the server answers nothing else until it is changed. */
  must_change_credentials?: boolean;
  /** The server refused the token (expired, revoked): the screen stays and asks to sign in again in place. */
  ended?: boolean;
}

const USER_KEY = 'padtrack.user';
const TOKEN_KEY = 'padtrack.token';
const ZONE_KEY = 'padtrack.time-zone';
const MUST_CHANGE_KEY = 'padtrack.must-change-password';
const listeners = new Set<() => void>();

function read(): Session | null {
  try {
    const token = localStorage.getItem(TOKEN_KEY);
    const user = localStorage.getItem(USER_KEY);
    const zone = localStorage.getItem(ZONE_KEY) ?? undefined;
    const mustChange = localStorage.getItem(MUST_CHANGE_KEY) === 'true';
    // -- written only by this module, from a SessionUser.
    return token && user ? { token, user: JSON.parse(user) as SessionUser, time_zone: zone, must_change_credentials: mustChange } : null;
  } catch {
    return null;
  }
}

let current: Session | null = read();

function emit() {
  for (const listener of listeners) listener();
}

/** docs/spec.md §4 "Session": user and token persist in local storage. */
export const sessionStore = {
  get: () => current,
  set(session: Session) {
    localStorage.setItem(TOKEN_KEY, session.token);
    localStorage.setItem(USER_KEY, JSON.stringify(session.user));
    if (session.time_zone) localStorage.setItem(ZONE_KEY, session.time_zone);
    if (session.must_change_credentials) localStorage.setItem(MUST_CHANGE_KEY, 'true');
    else localStorage.removeItem(MUST_CHANGE_KEY);
    current = { ...session, time_zone: session.time_zone ?? current?.time_zone };
    emit();
  },
  updateUser(user: SessionUser) {
    if (!current) return;
    sessionStore.set({ ...current, user });
  },
  /** The token is dead but the user's screen and unsaved work stay; signing in again replaces the session. */
  end() {
    if (!current || current.ended) return;
    localStorage.removeItem(TOKEN_KEY);
    current = { user: current.user, token: '', time_zone: current.time_zone, ended: true };
    emit();
  },
  clear() {
    localStorage.removeItem(MUST_CHANGE_KEY);
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
    current = null;
    emit();
  },
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export function useSession(): Session | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
}
