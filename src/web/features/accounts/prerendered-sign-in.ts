import { useLayoutEffect } from 'react';

export interface SignInValues {
  email: string;
  password: string;
}

const FIELDS = ['email', 'password'] as const;

/**
 * The fields of the form login.html was served with (scripts/build/prerender-sign-in-plugin.ts), held from before
 * React replaces them: what a phone typed there while the script was on its way stays readable in the detached inputs.
 */
let prerendered: HTMLInputElement[] = [];
let focusedId: string | null = null;

if (typeof document !== 'undefined') {
  prerendered = FIELDS.map((id) => document.getElementById(id)).filter(
    (field): field is HTMLInputElement => field instanceof HTMLInputElement,
  );
  focusedId = prerendered.find((field) => field === document.activeElement)?.id ?? null;
  for (const field of prerendered) {
    field.addEventListener('focus', () => (focusedId = field.id));
    /* React's takeover removes the focused input, which blurs it while it is still in the page: only a blur that leaves
       the input in the page once the takeover's task is over is the user leaving the field. */
    field.addEventListener('blur', () =>
      queueMicrotask(() => {
        if (field.isConnected && focusedId === field.id) focusedId = null;
      }),
    );
  }
}

/** What was typed into the prerendered form so far, or null when the page came without one (index.html). */
export function prerenderedSignInValues(): SignInValues | null {
  if (prerendered.length === 0) return null;
  const value = (id: string) => prerendered.find((field) => field.id === id)?.value ?? '';
  return { email: value('email'), password: value('password') };
}

/**
 * Once React's form is on screen (a layout effect, so in the same task as the commit and before any keystroke can land
 * elsewhere): takes what was typed until then, and puts the focus back into the field that had it.
 */
export function useTakeOverPrerenderedSignIn(apply: (values: SignInValues) => void): void {
  useLayoutEffect(() => {
    const values = prerenderedSignInValues();
    if (!values) return;
    const focus = focusedId;
    prerendered = [];
    focusedId = null;
    apply(values);
    if (focus) document.getElementById(focus)?.focus();
  }, [apply]);
}
