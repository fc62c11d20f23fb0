import { createTheme, darken, luminance, type CSSVariablesResolver } from '@mantine/core';

/** WCAG 2.1 AA for normal text. */
const MIN_CONTRAST = 4.6;

const contrast = (a: string, b: string) => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light + 0.05) / (dark + 0.05);
};

/** The same hue, darkened in small steps until text in it reads on `background`. */
function readableOn(color: string, background: string): string {
  let shade = color;
  for (let step = 0.05; contrast(shade, background) < MIN_CONTRAST && step <= 0.6; step += 0.05) shade = darken(color, step);
  return shade;
}

/**
 * Mantine's light scheme draws dimmed text, links, errors, light badges (shade 9 on shade 1) and filled
 * buttons (white on shade 6) below 4.5:1 for several colours. Each colour keeps its hue (so a status keeps
 * its meaning) and is only darkened as far as AA contrast needs. Links are measured on gray 0, a striped
 * table line's ground, so they read there and on white.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': readableOn(theme.colors.blue[6], theme.colors.gray[0]),
    '--mantine-color-error': readableOn(theme.colors.red[6], theme.white),
  };
  for (const [name, shades] of Object.entries(theme.colors)) {
    const filled = readableOn(shades[6], theme.white);
    light[`--mantine-color-${name}-filled`] = filled;
    light[`--mantine-color-${name}-filled-hover`] = darken(filled, 0.12);
    light[`--mantine-color-${name}-outline`] = filled;
    light[`--mantine-color-${name}-light-color`] = readableOn(shades[9], shades[1]);
  }
  return { variables: {}, light, dark: {} };
};

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  /* Modals, drawers, collapses and toasts appear without motion for people whose device asks for less. */
  respectReducedMotion: true,
  fontFamily: 'Inter, system-ui, -apple-system, Segoe UI, Roboto, sans-serif',
  /* Plain objects rather than Modal.extend(): the sign-in chunk should not load the modal code. Every close button is named. */
  components: {
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Alert: { defaultProps: { closeButtonLabel: 'Close' } },
  },
});
