import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate } from 'react-router';
import { can, homePath } from '../../shared/permissions.ts';
import { LoginPage } from '../features/accounts/login-page.tsx';
import { myActionQueries } from '../features/my-actions/api.ts';
import { setupQueries } from '../features/setup/api.ts';
import { queryClient } from '../lib/query-client.ts';
import { sessionStore } from '../lib/session.ts';
import { RequireScreen } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';

const loading = (
  <Center py="xl">
    <Loader />
  </Center>
);

const loadStyles = () => Promise.all([import('@mantine/core/styles.css'), import('@mantine/dates/styles.css')]);

/** A screen in a chunk of its own, with all of Mantine's styles, fetched the first time it is shown: the sign-in page loads none of them. */
function lazyScreen<K extends string>(load: () => Promise<{ [P in K]: ComponentType }>, name: K) {
  const Screen = lazy(async (): Promise<{ default: ComponentType }> => {
    const [module] = await Promise.all([load(), loadStyles()]);
    return { default: module[name] };
  });
  return (
    <Suspense fallback={loading}>
      <Screen />
    </Suspense>
  );
}

function signedInScreen<K extends string>(screen: string, load: () => Promise<{ [P in K]: ComponentType }>, name: K) {
  return { screen, load, element: lazyScreen(load, name) };
}

const loadModals = () => import('@mantine/modals');
const loadLayout = () => import('./app-layout.tsx');

/** Confirmations (components/confirm.ts) are asked on signed-in screens only, so the modal stack loads with them. */
const ModalsProvider = lazy(async () => ({ default: (await loadModals()).ModalsProvider }));

/**
 * Signed-in screens: the path's first segment is the screen name that docs/spec.md §2's access table
 * (SCREEN_ROLES in src/shared/permissions.ts) is checked against. Features add one line each here.
 */
const screens: Array<{ screen: string; load: () => Promise<unknown>; element: ReactNode }> = [
  signedInScreen('dashboard', () => import('../features/dashboard/dashboard-page.tsx'), 'DashboardPage'),
  signedInScreen('reports', () => import('../features/reports/reports-page.tsx'), 'ReportsPage'),
  signedInScreen('user-profile', () => import('./profile-screen.tsx'), 'ProfileScreen'),
  signedInScreen('users', () => import('../features/users/users-page.tsx'), 'UsersPage'),
  signedInScreen('roles', () => import('../features/roles/roles-page.tsx'), 'RolesPage'),
  signedInScreen('companies', () => import('../features/companies/companies-page.tsx'), 'CompaniesPage'),
  signedInScreen('routes', () => import('../features/routes/routes-page.tsx'), 'RoutesPage'),
  signedInScreen('locations', () => import('../features/locations/locations-page.tsx'), 'LocationsPage'),
  signedInScreen('branches', () => import('../features/branches/branches-page.tsx'), 'BranchesPage'),
  signedInScreen('custodies', () => import('./custodies-screen.tsx'), 'CustodiesScreen'),
  signedInScreen('pads', () => import('./pads-screen.tsx'), 'PadsScreen'),
  signedInScreen('invoices', () => import('./transactions-screen.tsx'), 'TransactionsScreen'),
  signedInScreen('accountability', () => import('../features/accountability/accountability-page.tsx'), 'AccountabilityPage'),
  signedInScreen('incidents', () => import('../features/incidents/incidents-page.tsx'), 'IncidentsPage'),
  signedInScreen('outages', () => import('../features/outages/outages-page.tsx'), 'OutagesPage'),
  signedInScreen('counts', () => import('../features/counts/counts-page.tsx'), 'CountsPage'),
  signedInScreen('imports', () => import('../features/imports/imports-page.tsx'), 'ImportsPage'),
  signedInScreen('registered-series', () => import('../features/registered-series/registered-series-page.tsx'), 'RegisteredSeriesPage'),
  signedInScreen('unused-forms', () => import('../features/registered-series/unused-forms-page.tsx'), 'UnusedFormsPage'),
  signedInScreen('settings', () => import('../features/settings/settings-page.tsx'), 'SettingsPage'),
  signedInScreen('notifications', () => import('../features/notifications/notifications-page.tsx'), 'NotificationsPage'),
  signedInScreen('alert-settings', () => import('../features/notifications/alert-settings-page.tsx'), 'AlertSettingsPage'),
  signedInScreen('jobs', () => import('../features/jobs/jobs-page.tsx'), 'JobsPage'),
];

/**
 * Opening a signed-in screen by its address fetches the modal stack, the shell and the screen together, and at home the
 * answers its cards wait for (app-layout.tsx HomeScreen): rendered, each lazy part would ask for the next only once it had
 * arrived. A failure here is met again, and shown, when the part renders. It runs in a task of its own right after the
 * entry script: requests started while the entry script evaluates make DevTools (and Lighthouse) record that script's
 * stack for each of them (issue 39 point 8).
 */
function preloadScreenOf(pathname: string) {
  const entry = screens.find(({ screen }) => screen === pathname.split('/')[1]);
  const user = sessionStore.get()?.user;
  if (!entry || !user) return;
  for (const load of [loadModals, loadLayout, entry.load, loadStyles]) load().catch(() => undefined);
  if (pathname !== homePath(user.role_id)) return;
  if (can(user, 'administer')) void queryClient.prefetchQuery(setupQueries.status());
  void queryClient.prefetchQuery(myActionQueries.mine());
}

setTimeout(() => preloadScreenOf(window.location.pathname), 0);

export const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/login" replace /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/register', element: lazyScreen(() => import('../features/accounts/register-page.tsx'), 'RegisterPage') },
  { path: '/forgot-password', element: lazyScreen(() => import('../features/accounts/forgot-password-page.tsx'), 'ForgotPasswordPage') },
  { path: '/change-password', element: lazyScreen(() => import('../features/accounts/change-password-page.tsx'), 'ChangePasswordPage') },
  {
    path: '/reset-password/:token',
    element: lazyScreen(() => import('../features/accounts/reset-password-page.tsx'), 'ResetPasswordPage'),
  },
  {
    element: (
      <Suspense fallback={loading}>
        <ModalsProvider>{lazyScreen(loadLayout, 'AppLayout')}</ModalsProvider>
      </Suspense>
    ),
    children: screens.map(({ screen, element }) => ({
      path: `/${screen}`,
      element: <RequireScreen screen={screen}>{element}</RequireScreen>,
    })),
  },
  { path: '*', element: <NotFoundPage /> },
]);
