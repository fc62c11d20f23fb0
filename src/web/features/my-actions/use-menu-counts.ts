import { useQuery } from '@tanstack/react-query';
import { myActionQueries } from './api.ts';

/** Issue 14.1 menu badges: how many things need the user, by the menu path of the screen that opens them. */
export function useMenuCounts(): Partial<Record<string, number>> {
  const mine = useQuery(myActionQueries.mine());
  const counts: Partial<Record<string, number>> = {};
  for (const group of mine.data?.groups ?? []) counts[group.menu_path] = (counts[group.menu_path] ?? 0) + group.count;
  return counts;
}
