import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { cssVariablesResolver, theme } from '../../src/web/app/theme.ts';
import { LoginPage } from '../../src/web/features/accounts/login-page.tsx';

/**
 * The sign-in screen as main.tsx first draws it, rendered once at build time: the same components, classes and texts,
 * so the form served in login.html looks exactly like the one React puts in its place.
 */
export function signInMarkup(): string {
  return renderToString(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter initialEntries={['/login']}>
          <LoginPage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}
