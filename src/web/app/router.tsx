import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { ForgotPasswordPage } from '../features/accounts/forgot-password-page.tsx';
import { LoginPage } from '../features/accounts/login-page.tsx';
import { ProfilePage } from '../features/accounts/profile-page.tsx';
import { PadsPage } from '../features/pads/pads-page.tsx';
import { TransactionsScreen } from './transactions-screen.tsx';
import { CustodiesPage } from '../features/custodies/custodies-page.tsx';
import { RegisterPage } from '../features/accounts/register-page.tsx';
import { ReportsPage } from '../features/reports/reports-page.tsx';
import { ResetPasswordPage } from '../features/accounts/reset-password-page.tsx';
import { UsersPage } from '../features/users/users-page.tsx';
import { RolesPage } from '../features/roles/roles-page.tsx';
import { CompaniesPage } from '../features/companies/companies-page.tsx';
import { RoutesPage } from '../features/routes/routes-page.tsx';
import { LocationsPage } from '../features/locations/locations-page.tsx';
import { BranchesPage } from '../features/branches/branches-page.tsx';
import { AppLayout } from './app-layout.tsx';
import { RequireScreen } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * Signed-in screens: the path's first segment is the screen name that spec §2's access table
 * (SCREEN_ROLES in src/shared/permissions.ts) is checked against. Features add one line each here.
 */
const screens: Array<{ screen: string; element: ReactNode }> = [
  { screen: 'reports', element: <ReportsPage /> },
  { screen: 'user-profile', element: <ProfilePage /> },
  { screen: 'users', element: <UsersPage /> },
  { screen: 'roles', element: <RolesPage /> },
  { screen: 'companies', element: <CompaniesPage /> },
  { screen: 'routes', element: <RoutesPage /> },
  { screen: 'locations', element: <LocationsPage /> },
  { screen: 'branches', element: <BranchesPage /> },
  { screen: 'custodies', element: <CustodiesPage /> },
  { screen: 'pads', element: <PadsPage /> },
  { screen: 'invoices', element: <TransactionsScreen /> },
];

export const router = createBrowserRouter([
  { path: '/', element: <Navigate to="/login" replace /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/register', element: <RegisterPage /> },
  { path: '/forgot-password', element: <ForgotPasswordPage /> },
  { path: '/reset-password/:token', element: <ResetPasswordPage /> },
  {
    element: <AppLayout />,
    children: screens.map(({ screen, element }) => ({ path: `/${screen}`, element: <RequireScreen screen={screen}>{element}</RequireScreen> })),
  },
  { path: '*', element: <NotFoundPage /> },
]);
