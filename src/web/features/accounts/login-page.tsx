import { Anchor, Group, Stack } from '@mantine/core';
import { useCallback, useState, type FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { MSG } from '../../../shared/messages.ts';
import { homePath } from '../../../shared/permissions.ts';
import { EMAIL_PATTERN } from '../../../shared/email-pattern.ts';
import { allReportedValid, type ExternalError } from '../../../shared/text-rules.ts';
import { AppButton } from '../../components/app-button.tsx';
import { LoadingOverlay } from '../../components/loading-overlay.tsx';
import { TextField } from '../../components/text-field.tsx';
import { ApiError } from '../../lib/api.ts';
import { sessionStore, useSession } from '../../lib/session.ts';
import { useLogin } from './api.ts';
import { AuthCard } from './auth-card.tsx';
import { prerenderedSignInValues, useTakeOverPrerenderedSignIn, type SignInValues } from './prerendered-sign-in.ts';

/** docs/spec.md §2 Sign in, built on the spec's shared text input: each field checks itself and reports its validity. */
export function LoginPage() {
  const session = useSession();
  const navigate = useNavigate();
  // -- the route guard is the only navigation that sets this state, with `from`.
  const from = (useLocation().state as { from?: string } | null)?.from ?? null;
  const login = useLogin();
  const [values, setValues] = useState<SignInValues>(() => prerenderedSignInValues() ?? { email: '', password: '' });
  const [validity, setValidity] = useState<Record<string, boolean>>({});
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<ExternalError>(null);
  const report = useCallback((id: string, valid: boolean) => setValidity((v) => (v[id] === valid ? v : { ...v, [id]: valid })), []);
  useTakeOverPrerenderedSignIn(setValues);
  if (session && !session.ended) return <Navigate to={from ?? homePath(session.user.role_id)} replace />;

  const change = (field: 'email' | 'password') => (value: string) => {
    setServerErrors(null);
    setValues((v) => ({ ...v, [field]: value }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (!allReportedValid(validity)) return;
    try {
      const result = await login.mutateAsync({ email: values.email.trim(), password: values.password });
      sessionStore.set(result);
      navigate(from ?? homePath(result.user.role_id), { replace: true });
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.errors).length > 0) setServerErrors(error.errors);
      else if (error instanceof ApiError)
        setServerErrors({ email: [error.hasResponse ? error.message || MSG.unexpected : MSG.loginFailed] });
      else setServerErrors({ email: [MSG.unexpected] });
    }
  };

  return (
    <AuthCard title="Sign in" subtitle="Receipt pads, transactions and custody in one place.">
      <LoadingOverlay visible={login.isPending} message="Logging in..." />
      {/* method and action only count before the script has taken the prerendered form over (src/server/app.ts POST /login). */}
      <form method="post" action="/login" onSubmit={submit} noValidate>
        <Stack>
          <TextField
            id="email"
            label="Email"
            type="email"
            autoComplete="username"
            required
            rule={{ pattern: EMAIL_PATTERN, patternMessage: MSG.invalidEmail }}
            value={values.email}
            onChange={change('email')}
            error={serverErrors}
            onValidity={report}
            showError={attempted}
          />
          <TextField
            id="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            required
            rule={{ minLength: 8 }}
            value={values.password}
            onChange={change('password')}
            error={serverErrors}
            onValidity={report}
            showError={attempted}
          />
          <Group justify="flex-end">
            <Anchor component={Link} to="/forgot-password" size="sm">
              Forgot password?
            </Anchor>
          </Group>
          <AppButton type="submit" fullWidth>
            Sign In
          </AppButton>
          <Anchor component={Link} to="/register" size="sm" ta="center">
            No account yet? Create Account
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
