/* Only what the sign-in page draws; every other screen loads all of Mantine's styles with its chunk (app/router.tsx). */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/LoadingOverlay.css';
import '@mantine/core/styles/Overlay.css';
import '@mantine/core/styles/Notification.css';
import '@mantine/core/styles/CloseButton.css';
import '@mantine/core/styles/VisuallyHidden.css';
import '@mantine/notifications/styles.css';
import './app/app.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './app/router.tsx';
import { cssVariablesResolver, theme } from './app/theme.ts';
import { queryClient } from './lib/query-client.ts';
import { useAfterFirstPaint } from './lib/use-after-first-paint.ts';

/** The toasts' portal and transitions mount a frame after the first paint (use-after-first-paint.ts); a toast asked for before then waits in their store. */
function ToastsAfterFirstPaint() {
  return useAfterFirstPaint() ? <Notifications position="bottom-right" /> : null;
}

// -- index.html has the root element.
const root = createRoot(document.getElementById('root') as HTMLElement);
/* As a transition the first render yields to the browser every few milliseconds instead of holding a phone's main thread for one long task. */
startTransition(() =>
  root.render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <QueryClientProvider client={queryClient}>
          {/* Toasts sit at the bottom so they never cover a modal's title bar and close button. */}
          <ToastsAfterFirstPaint />
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
