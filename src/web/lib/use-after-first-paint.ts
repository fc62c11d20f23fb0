import { startTransition, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

let waiting: Array<() => void> = [];

/** Calls every waiter in one task after the next frame has painted, so their updates make one commit together. */
function afterPaint(waiter: () => void): () => void {
  waiting.push(waiter);
  if (waiting.length === 1) {
    requestAnimationFrame(() =>
      setTimeout(() => {
        const due = waiting;
        waiting = [];
        for (const call of due) call();
      }),
    );
  }
  return () => {
    waiting = waiting.filter((other) => other !== waiter);
  };
}

/**
 * False in the commit that mounts the caller, true a frame after it has painted. Menus and popovers (Mantine's Popover, Portal) set state in layout effects when they
 * mount, which makes React re-render synchronously and run the whole new tree's effects in the same task: on a phone
 * that held the main thread 350–550 ms in the commit that first shows a screen. Mounted a frame later, in a transition
 * of their own, they cost a short task instead.
 */
export function useAfterFirstPaint(): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => (ready ? undefined : afterPaint(() => startTransition(() => setReady(true)))), [ready]);
  return ready;
}

/**
 * A menu or popover drawn as its trigger alone until the page has painted (useAfterFirstPaint). A click on the trigger
 * before then mounts it at once, opened (`openedEarly`), and a trigger that had the keyboard focus keeps it: pass `ref`
 * to the trigger in both forms and spread `placeholder` on it while `mounted` is false.
 */
export function useMenuAfterFirstPaint<T extends HTMLElement>(): {
  mounted: boolean;
  openedEarly: boolean;
  ref: RefObject<T | null>;
  placeholder: { onClick: () => void; onFocus: () => void; onBlur: () => void };
} {
  const [openedEarly, setOpenedEarly] = useState(false);
  const mounted = useAfterFirstPaint() || openedEarly;
  const ref = useRef<T>(null);
  const focused = useRef(false);
  useLayoutEffect(() => {
    if (!mounted || !focused.current) return;
    focused.current = false;
    ref.current?.focus();
  }, [mounted]);
  return {
    mounted,
    openedEarly,
    ref,
    placeholder: {
      onClick: () => setOpenedEarly(true),
      onFocus: () => {
        focused.current = true;
      },
      onBlur: () => {
        focused.current = false;
      },
    },
  };
}
