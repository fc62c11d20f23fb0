import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import { createBrowserRouter, Navigate } from 'react-router';
import { LoginPage } from '../features/accounts/login-page.tsx';
import { RequireScreen } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';

const loading = (
  <Center py="xl">
    <Loader />
  </Center>
);

/** A screen in a chunk of its own, with all of Mantine's styles, fetched the first time it is shown: the sign-in page loads none of them. */
function lazyScreen<K extends string>(load: () => Promise<{ [P in K]: ComponentType }>, name: K) {
  const Screen = lazy(async (): Promise<{ default: ComponentType }> => {
    const [module] = await Promise.all([load(), import('@mantine/core/styles.css'), import('@mantine/dates/styles.css')]);
    return { default: module[name] };
  });
  return (
    <Suspense fallback={loading}>
      <Screen />
    </Suspense>
  );
}

/** Confirmations (components/confirm.ts) are asked on signed-in screens only, so the modal stack loads with them. */
const ModalsProvider = lazy(async () => ({ default: (await import('@mantine/modals')).ModalsProvider }));

/**
 * Signed-in screens: the path's first segment is the screen name that spec §2's access table
 * (SCREEN_ROLES in src/shared/permissions.ts) is checked against. Features add one line each here.
 */
const screens: Array<{ screen: string; element: ReactNode }> = [
  { screen: 'dashboard', element: lazyScreen(() => import('../features/dashboard/dashboard-page.tsx'), 'DashboardPage') },
  { screen: 'reports', element: lazyScreen(() => import('../features/reports/reports-page.tsx'), 'ReportsPage') },
  { screen: 'user-profile', element: lazyScreen(() => import('../features/accounts/profile-page.tsx'), 'ProfilePage') },
  { screen: 'users', element: lazyScreen(() => import('../features/users/users-page.tsx'), 'UsersPage') },
  { screen: 'roles', element: lazyScreen(() => import('../features/roles/roles-page.tsx'), 'RolesPage') },
  { screen: 'companies', element: lazyScreen(() => import('../features/companies/companies-page.tsx'), 'CompaniesPage') },
  { screen: 'routes', element: lazyScreen(() => import('../features/routes/routes-page.tsx'), 'RoutesPage') },
  { screen: 'locations', element: lazyScreen(() => import('../features/locations/locations-page.tsx'), 'LocationsPage') },
  { screen: 'branches', element: lazyScreen(() => import('../features/branches/branches-page.tsx'), 'BranchesPage') },
  { screen: 'custodies', element: lazyScreen(() => import('./custodies-screen.tsx'), 'CustodiesScreen') },
  { screen: 'pads', element: lazyScreen(() => import('../features/pads/pads-page.tsx'), 'PadsPage') },
  { screen: 'invoices', element: lazyScreen(() => import('./transactions-screen.tsx'), 'TransactionsScreen') },
  { screen: 'accountability', element: lazyScreen(() => import('../features/accountability/accountability-page.tsx'), 'AccountabilityPage') },
];

export const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/login" replace /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/register', element: lazyScreen(() => import('../features/accounts/register-page.tsx'), 'RegisterPage') },
  { path: '/forgot-password', element: lazyScreen(() => import('../features/accounts/forgot-password-page.tsx'), 'ForgotPasswordPage') },
  { path: '/reset-password/:token', element: lazyScreen(() => import('../features/accounts/reset-password-page.tsx'), 'ResetPasswordPage') },
  {
    element: (
      <Suspense fallback={loading}>
        <ModalsProvider>{lazyScreen(() => import('./app-layout.tsx'), 'AppLayout')}</ModalsProvider>
      </Suspense>
    ),
    children: screens.map(({ screen, element }) => ({ path: `/${screen}`, element: <RequireScreen screen={screen}>{element}</RequireScreen> })),
  },
  { path: '*', element: <NotFoundPage /> },
]);
