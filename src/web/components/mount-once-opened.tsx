import { Suspense, useState, type ReactNode } from 'react';

/**
 * Mounts its children the first time `when` is true and keeps them mounted after: a lazy modal's chunk is fetched when it is
 * first opened instead of with the screen, and its close transition and state stay as they were.
 */
export function MountOnceOpened({ when, children }: { when: boolean; children: ReactNode }) {
  const [mounted, setMounted] = useState(when);
  if (when && !mounted) setMounted(true);
  return mounted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
