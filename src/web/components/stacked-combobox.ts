import type { ComboboxProps } from '@mantine/core';

/**
 * The dropdown of a select in a modal opened over another one (Cancel numbers over Pad Details). Mantine hides a
 * dropdown whose input it takes for scrolled away (hideDetached); in a full-screen modal on a phone that test flips, the
 * hidden dropdown is measured 0 px wide and centred on the input, so it reappears shifted half off the screen, widens
 * the page and moves the input, and the list blinks several times a second. Here it stays shown, starts at the input's
 * left edge and is kept inside the screen; it sits above the stacked modal (z-index 350).
 */
export const STACKED_COMBOBOX: ComboboxProps = {
  withinPortal: true,
  zIndex: 400,
  position: 'bottom-start',
  hideDetached: false,
  middlewares: { flip: true, shift: { mainAxis: true, padding: 8 } },
};
