import { useState } from 'react';

const keyOf = (userId: number) => `padtrack.nav-collapsed.${userId}`;

function stored(userId: number): boolean | null {
  const value = localStorage.getItem(keyOf(userId));
  return value === null ? null : value === '1';
}

/**
 * Whether the navigation rail is collapsed, remembered per user in local storage so each person on a shared
 * computer keeps their own choice; without a choice it starts collapsed when the screen is `narrow`.
 */
export function useNavCollapsed(userId: number | undefined, narrow: boolean): [boolean, () => void] {
  const id = userId ?? 0;
  const [chosen, setChosen] = useState<Record<number, boolean>>({});
  const collapsed = chosen[id] ?? stored(id) ?? narrow;
  const toggle = () => {
    localStorage.setItem(keyOf(id), collapsed ? '0' : '1');
    setChosen((current) => ({ ...current, [id]: !collapsed }));
  };
  return [collapsed, toggle];
}
