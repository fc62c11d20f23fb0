import { useMediaQuery } from '@mantine/hooks';

/** Mantine's `sm` breakpoint, where the screens switch between a phone's cards and a desk's tables. */
const PHONE = '(max-width: 48em)';

/**
 * Whether a media query matches, known on the first render: the app draws only in the browser, so a phone's first render
 * is already the phone layout instead of the desk layout replaced a moment later (a second render of the whole screen).
 */
export function useMedia(query: string): boolean {
  return useMediaQuery(query, undefined, { getInitialValueInEffect: false });
}

/** The phone layout: cards instead of tables, full-screen modals. */
export function usePhone(): boolean {
  return useMedia(PHONE);
}
