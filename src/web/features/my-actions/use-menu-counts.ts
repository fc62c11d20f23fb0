import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../lib/session.ts';
import { myActionQueries } from './api.ts';

/** The menu badges of "Needs my action" (docs/user-guide.md "Screens"): how many things need the user, by the menu path of the screen that opens them. */
export function useMenuCounts(): Partial<Record<string, number>> {
  /* The shell also draws for a signed-out visitor on the way to sign in; asking then is a 401. */
  const mine = useQuery({ ...myActionQueries.mine(), enabled: useSession() !== null });
  const counts: Partial<Record<string, number>> = {};
  for (const group of mine.data?.groups ?? []) counts[group.menu_path] = (counts[group.menu_path] ?? 0) + group.count;
  return counts;
}
