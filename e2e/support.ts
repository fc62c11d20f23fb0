import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { randomBytes } from 'node:crypto';

export const ADMIN = { email: 'admin@padtrack.test', password: 'Admin@12345' };
export const PASSWORD = 'Secret@123';
/** The password an administrator gives a new user; it must be changed at first sign-in (docs/design.md §5). */
export const FIRST_PASSWORD = 'Given@12345';
export const uniq = () => randomBytes(3).toString('hex');
/** Six random lowercase letters, for names where digits are not allowed. */
export const uniqLetters = () => Array.from(randomBytes(6), (b) => String.fromCharCode(97 + (b % 26))).join('');

/** Where browser tests keep the screenshots people look at, and the phone viewport they use. */
/** Browser tests save what they saw here; the README's pictures come from the demo (scripts/screenshots.ts). */
export const SHOTS = '.tmp/e2e-shots';
export const PHONE = { width: 390, height: 844 };
export const BASE_ARGS = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-gpu',
];

export interface Api {
  token: string;
  get<T = unknown>(path: string, params?: Record<string, string | number>): Promise<T>;
  post<T = unknown>(path: string, data?: unknown): Promise<T>;
  put<T = unknown>(path: string, data?: unknown): Promise<T>;
  del<T = unknown>(path: string): Promise<T>;
  /** Signs in as a new user with the first password and replaces it, as the first sign-in must. */
  changeFirstPassword(email: string, first: string, chosen: string): Promise<void>;
}

async function unwrap<T>(response: Awaited<ReturnType<APIRequestContext['get']>>, what: string): Promise<T> {
  if (!response.ok()) throw new Error(`${what} failed: ${response.status()} ${await response.text()}`);
  return (await response.json()) as T;
}

/** An API session signed in through /api/login, for setting up what a browser test needs. */
export async function apiAs(request: APIRequestContext, email: string, password: string): Promise<Api> {
  const login = await unwrap<{ token: string }>(await request.post('/api/login', { data: { email, password } }), `login ${email}`);
  const headers = { authorization: `Bearer ${login.token}` };
  return {
    token: login.token,
    get: async (path, params) => unwrap(await request.get(`/api/${path}`, { headers, params }), `GET ${path}`),
    post: async (path, data) => unwrap(await request.post(`/api/${path}`, { headers, data: data ?? {} }), `POST ${path}`),
    put: async (path, data) => unwrap(await request.put(`/api/${path}`, { headers, data: data ?? {} }), `PUT ${path}`),
    del: async (path) => unwrap(await request.delete(`/api/${path}`, { headers }), `DELETE ${path}`),
    changeFirstPassword: async (userEmail, first, chosen) => {
      const signIn = await unwrap<{ token: string }>(
        await request.post('/api/login', { data: { email: userEmail, password: first } }),
        `login ${userEmail}`,
      );
      await unwrap(
        await request.post('/api/change-password', {
          headers: { authorization: `Bearer ${signIn.token}` },
          data: { current_password: first, password: chosen, password_confirmation: chosen },
        }),
        `change-password ${userEmail}`,
      );
    },
  };
}

export const adminApi = (request: APIRequestContext) => apiAs(request, ADMIN.email, ADMIN.password);

export async function createLocation(admin: Api, name = `Pier ${uniq()}`) {
  return (await admin.post<{ data: { id: number; name: string } }>('add-location', { name })).data;
}

export async function createCompany(admin: Api, name = `Company ${uniq()}`, companyTypeId = 1) {
  return (await admin.post<{ data: { id: number; name: string } }>('add-company', { name, company_type_id: companyTypeId })).data;
}

export async function createBranch(admin: Api, name = `Branch ${uniq()}`) {
  const company = await createCompany(admin);
  const location = await createLocation(admin);
  return (
    await admin.post<{ data: { id: number; name: string } }>('add-branch', { name, company_id: company.id, location_id: location.id })
  ).data;
}

export async function createRoute(admin: Api, name = `Route ${uniq()}`) {
  const company = await createCompany(admin, `Lines ${uniq()}`);
  return (
    await admin.post<{ data: { id: number; name: string; tin: string } }>('add-route', {
      name,
      tin: `${Date.now() % 1e9}-000`,
      company_id: company.id,
    })
  ).data;
}

/** The head office (HEAD_OFFICE_BRANCH_ID): made on an empty database, found otherwise. */
export async function headOffice(admin: Api) {
  try {
    return (await admin.get<{ data: { id: number; name: string } }>('head-office-branch')).data;
  } catch {
    return createBranch(admin, 'Head Office').catch(
      async () => (await admin.get<{ data: { id: number; name: string } }>('head-office-branch')).data,
    );
  }
}

/**
 * A user of a role (and branch) created by the admin through /api/add-user, with password PASSWORD: the admin gives a first
 * password, and the user replaces it with PASSWORD through /api/change-password, as every first sign-in must.
 */
export async function createUser(admin: Api, values: { role_id: number; branch_id?: number; first_name?: string; last_name?: string }) {
  const id = uniq();
  const email = `user-${id}@padtrack.test`;
  const payload = {
    first_name: values.first_name ?? 'Test',
    last_name: values.last_name ?? `User ${uniqLetters()}`,
    email,
    contact_number: '0917-123-4567',
    password: FIRST_PASSWORD,
    role_id: values.role_id,
    branch_id: values.branch_id ?? (await createBranch(admin)).id,
    user_status_id: 1,
  };
  const created = await admin.post<{ data: { id: number; full_name: string } }>('add-user', payload);
  await admin.changeFirstPassword(email, FIRST_PASSWORD, PASSWORD);
  return { id: created.data.id, full_name: created.data.full_name, email, password: PASSWORD };
}

/** Signs in through the sign-in screen and waits to leave it. */
export async function uiLogin(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

/** Collects console errors and page errors so a test can assert a screen opened cleanly. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** Waits until nothing on the page is moving or fading (spinners, which never end, aside). */
export async function animationsSettled(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/** The serious and critical axe findings (WCAG 2.1 A and AA) inside `scope`, once the page's animations have settled. */
export async function seriousAxe(page: Page, scope = 'main'): Promise<string[]> {
  await animationsSettled(page);
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).include(scope).analyze();
  return result.violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id} at ${v.nodes[0]?.target.join(' ')}`);
}

/**
 * Waits for the toasts to close, with the pointer moved off them (a hovered toast does not close): on a phone they sit
 * over the bottom of the screen, where the last button of a long form is.
 */
export async function waitForToastsToClose(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await expect(page.locator('.mantine-Notifications-notification')).toHaveCount(0, { timeout: 15_000 });
}
