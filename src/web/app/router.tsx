import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { ForgotPasswordPage } from '../features/accounts/forgot-password-page.tsx';
import { LoginPage } from '../features/accounts/login-page.tsx';
import { ProfilePage } from '../features/accounts/profile-page.tsx';
import { RegisterPage } from '../features/accounts/register-page.tsx';
import { ResetPasswordPage } from '../features/accounts/reset-password-page.tsx';
import { AppLayout } from './app-layout.tsx';
import { RequireScreen } from './guards.tsx';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * Signed-in screens: the path's first segment is the screen name that spec §2's access table
 * (SCREEN_ROLES in src/shared/permissions.ts) is checked against. Features add one line each here.
 */
const screens: Array<{ screen: string; element: ReactNode }> = [{ screen: 'user-profile', element: <ProfilePage /> }];

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
