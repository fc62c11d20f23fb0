/**
 * docs/BENCHMARKS.md "The phone at the pier", in Debian's Chromium on a phone profile (CDP: 4× CPU, 150 ms round trip,
 * 1.6 Mbit/s down, 750 kbit/s up, 412×823), each visit cold on a fresh profile unless said:
 * - /login: when the sign-in form first paints (median of BENCH_PHONE_RUNS, 5), beside its anchor, a bare HTML page with
 *   the same form and styles and no script under the same throttling; when the script has taken the form over; bytes.
 * - /invoices on a phone that has just signed in, with 40 transactions: the first and the longest task (PerformanceObserver
 *   'longtask') and the blocking time, with the CPU time of Chromium's processes, at idle and with one core busy (bench/cpu.ts).
 * - The sign-in itself: a cold /login taken over by React, the form filled and sent, Transactions drawn: the tasks after
 *   the form was sent, at idle and with one core busy.
 * - Lighthouse (mobile preset, its own simulated throttling), median of BENCH_PHONE_RUNS cold runs: /login where nobody has
 *   signed in, and /invoices just signed in.
 * BENCH_WEB_DIR measures another build (a baseline) instead; the anchor always comes from the current sources' build, in
 * BENCH_BUILD_DIR (.tmp/web-bench). BENCH_PHONE_PARTS (login,invoices,sign-in,lighthouse) runs some parts only;
 * BENCH_RESULT_NAME names the result file (.tmp/bench/phone.json).
 *   npx tsx bench/phone.ts
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type BrowserContext, type CDPSession, type Page } from '@playwright/test';
import { ROLE } from '../src/shared/lookups.ts';
import { buildIssuedInvoice, createBranch, createUser, TEST_PASSWORD } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { idleAndBusy, processCpuMs } from './cpu.ts';
import { loadAverage, machine, median, RESULTS_DIR, ROOT, saveResult } from './support.ts';
import { buildWeb, webBuildIsCurrent, webSourcesHash } from '../scripts/build/web-build-state.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DEBUG_PORT = Number(process.env.BENCH_CDP_PORT ?? 9333);
const RUNS = Number(process.env.BENCH_PHONE_RUNS ?? 5);
const PHONE = { width: 412, height: 823 };
/** The anchor of the form's first paint: login.html of the current sources without its script, served beside the app. */
const BARE_PAGE = 'bench-bare-login.html';

const PARTS = new Set((process.env.BENCH_PHONE_PARTS ?? 'login,invoices,sign-in,lighthouse').split(','));

const currentDir = process.env.BENCH_BUILD_DIR ?? path.join(ROOT, '.tmp/web-bench');
const hash = webSourcesHash(ROOT);
if (!webBuildIsCurrent(currentDir, hash)) await buildWeb(ROOT, currentDir, hash);
const webDir = process.env.BENCH_WEB_DIR ?? currentDir;
writeBarePage();

/** login.html stripped of every script and preload, its stylesheet copied beside it, into the measured build. */
function writeBarePage() {
  const html = fs.readFileSync(path.join(currentDir, 'login.html'), 'utf8');
  const css = html.match(/<link rel="stylesheet" crossorigin href="\/assets\/([^"]+)">/)?.[1];
  if (!css) throw new Error('login.html has no stylesheet');
  fs.copyFileSync(path.join(currentDir, 'assets', css), path.join(webDir, 'assets', `bench-bare-${css}`));
  const bare = html
    .replace(/<script[^>]*><\/script>\s*/g, '')
    .replace(/<link rel="(modulepreload|manifest)"[^>]*>\s*/g, '')
    .replace(`/assets/${css}`, `/assets/bench-bare-${css}`);
  fs.writeFileSync(path.join(webDir, BARE_PAGE), bare);
}

/** CPU time so far of every process in Chromium's process group (browser, renderers, GPU and network services). */
function chromiumCpuMs(groupId: number): number {
  const pids = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[2]) === groupId;
      } catch {
        return false;
      }
    });
  return processCpuMs(pids.map(Number));
}

/** Debian's Chromium on a profile of its own, reached over CDP; `use` gets its browser context and process group id. */
async function withFreshChromium<T>(use: (context: BrowserContext, groupId: number) => Promise<T>): Promise<T> {
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-bench-chromium-'));
  const browserProcess = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      `--remote-debugging-port=${DEBUG_PORT}`,
      `--user-data-dir=${profileDir}`,
      'about:blank',
    ],
    { stdio: 'ignore', detached: true },
  );
  try {
    let browser = null;
    for (let attempt = 0; attempt < 50 && !browser; attempt += 1) {
      browser = await chromium.connectOverCDP(`http://127.0.0.1:${DEBUG_PORT}`).catch(() => null);
      if (!browser) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (!browser) throw new Error(`Chromium at ${CHROMIUM} did not open its debugging port`);
    const result = await use(browser.contexts()[0], browserProcess.pid ?? 0);
    await browser.close();
    return result;
  } finally {
    /* Chromium's helpers (renderers, crash handler) outlive the browser process unless their group is stopped; they keep writing the profile. */
    const exited = new Promise((resolve) => browserProcess.once('exit', resolve));
    if (browserProcess.exitCode === null && browserProcess.pid) process.kill(-browserProcess.pid, 'SIGTERM');
    if (browserProcess.exitCode === null) await exited;
    await new Promise((resolve) => setTimeout(resolve, 300));
    fs.rmSync(profileDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

/** The phone profile on one page: throttled network and CPU, cache off for a cold visit. */
async function throttle(context: BrowserContext, page: Page, cacheDisabled: boolean): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: 1_600_000 / 8,
    uploadThroughput: 750_000 / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return cdp;
}

type Recorded = { tasks: Array<[number, number]>; takeover: number | null; submitted: number | null };

/**
 * Recorded in the page from its first script on: the long tasks, when the prerendered form was replaced by React's
 * (its <main> left the document) and when a form was sent. Installed with addInitScript, so it sees everything from the
 * navigation on.
 */
function recordInPage() {
  const w = window as unknown as { __bench: Recorded };
  w.__bench = { tasks: [], takeover: null, submitted: null };
  document.addEventListener('submit', () => (w.__bench.submitted ??= Math.round(performance.now())), true);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__bench.tasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((records, observer) => {
    if (!records.some((record) => [...record.removedNodes].some((node) => node.nodeName === 'MAIN'))) return;
    w.__bench.takeover = Math.round(performance.now());
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true });
}

type InPage = Recorded & { fcp: number; bytes: number };
const readInPage = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __bench: Recorded };
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    const bytes = performance
      .getEntriesByType('resource')
      .concat(performance.getEntriesByType('navigation'))
      .reduce((sum, entry) => sum + ((entry as PerformanceResourceTiming).encodedBodySize ?? 0), 0);
    return { ...w.__bench, fcp: Math.round(fcp), bytes };
  }) as Promise<InPage>;

const t = await createTestApp({ WEB_DIR: webDir });
try {
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const admin = await createUser(t.db, { role_id: ROLE.ADMIN, branch_id: headOffice.id });
  const first = await buildIssuedInvoice(t.db, { fromBranch: headOffice });
  for (let i = 1; i < 40; i += 1) {
    await buildIssuedInvoice(t.db, { ...first, createdAt: new Date(Date.now() - (i + 3) * 86_400_000) });
  }
  const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: admin.email, password: TEST_PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`login answered ${login.statusCode}: ${login.body}`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const body = login.json() as { token: string; user: unknown; time_zone: string };

  /**
   * A phone that has just signed in: its cache holds what the sign-in page loaded and nothing the signed-in screens load,
   * and its storage holds the session as src/web/lib/session.ts keeps it (with the server's time zone, so the screens do
   * not ask /api/health for it).
   */
  const signIn = async (context: BrowserContext) => {
    const page = await context.newPage();
    await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
    await page.evaluate(
      ([token, user, zone]) => {
        localStorage.setItem('padtrack.token', token);
        localStorage.setItem('padtrack.user', user);
        localStorage.setItem('padtrack.time-zone', zone);
      },
      [body.token, JSON.stringify(body.user), body.time_zone],
    );
    await page.close();
  };

  /** One cold visit of a sign-in page: first paint of the form, React's takeover, bytes, longest task. */
  const formVisit = (url: string) =>
    withFreshChromium(async (context) => {
      const page = await context.newPage();
      await page.setViewportSize(PHONE);
      await page.addInitScript(recordInPage);
      const cdp = await throttle(context, page, true);
      await page.goto(url, { waitUntil: 'commit' });
      await page.getByLabel('Email').first().waitFor({ state: 'visible', timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      const seen = await readInPage(page);
      await cdp.detach();
      return {
        form_painted_ms: seen.fcp,
        takeover_ms: seen.takeover,
        transferred_bytes: seen.bytes,
        longest_task_ms: Math.max(0, ...seen.tasks.map(([, d]) => d)),
      };
    });

  /** /invoices on a phone that has just signed in: its long tasks until the list is drawn and the page is quiet. */
  const invoicesVisit = () =>
    withFreshChromium(async (context, groupId) => {
      await signIn(context);
      const page = await context.newPage();
      await page.setViewportSize(PHONE);
      await page.addInitScript(recordInPage);
      const cdp = await throttle(context, page, false);
      const cpuBefore = chromiumCpuMs(groupId);
      const start = performance.now();
      await page.goto(`${base}/invoices`, { waitUntil: 'commit' });
      await page
        .getByRole('button', { name: /^View .* invoice \d+$/ })
        .first()
        .waitFor({ state: 'visible', timeout: 90_000 });
      const listMs = performance.now() - start;
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(2_000);
      const cpuMs = chromiumCpuMs(groupId) - cpuBefore;
      const seen = await readInPage(page);
      await cdp.detach();
      const durations = seen.tasks.map(([, d]) => d);
      return {
        list_visible_ms: Math.round(listMs),
        first_task_ms: durations[0] ?? 0,
        longest_task_ms: Math.max(0, ...durations),
        tasks_over_200_ms: durations.filter((d) => d > 200).length,
        blocking_ms: durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
        long_tasks: seen.tasks,
        chromium_cpu_ms: cpuMs,
      };
    });

  /**
   * The sign-in as a phone does it: a cold /login, its form taken over by React, filled and sent; Transactions drawn.
   * The tasks that end after the form was sent, and the time from sending to the first row's View button.
   */
  const signInFlowVisit = () =>
    withFreshChromium(async (context, groupId) => {
      const page = await context.newPage();
      await page.setViewportSize(PHONE);
      await page.addInitScript(recordInPage);
      const cdp = await throttle(context, page, false);
      await page.goto(`${base}/login`, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as unknown as { __bench: Recorded }).__bench.takeover !== null, null, { timeout: 60_000 });
      await page.waitForLoadState('networkidle');
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      const cpuBefore = chromiumCpuMs(groupId);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page
        .getByRole('button', { name: /^View .* invoice \d+$/ })
        .first()
        .waitFor({ state: 'visible', timeout: 90_000 });
      const listAt = await page.evaluate(() => Math.round(performance.now()));
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(2_000);
      const cpuMs = chromiumCpuMs(groupId) - cpuBefore;
      const seen = await readInPage(page);
      await cdp.detach();
      const sent = seen.submitted ?? 0;
      const after = seen.tasks.filter(([start, duration]) => start + duration > sent);
      const durations = after.map(([, d]) => d);
      return {
        list_visible_after_sending_ms: listAt - sent,
        longest_task_ms: Math.max(0, ...durations),
        tasks_over_200_ms: durations.filter((d) => d > 200).length,
        blocking_ms: durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
        long_tasks: after.map(([start, duration]) => [start - sent, duration]),
        chromium_cpu_ms: cpuMs,
      };
    });

  /** Lighthouse's performance figures for one run on a fresh profile; its whole report goes to .tmp/bench/lighthouse-<name>-<run>.json. */
  const lighthouseRun = (name: string, url: string, signedIn: boolean, run: number) =>
    withFreshChromium(async (context) => {
      if (signedIn) await signIn(context);
      let lhr = null;
      for (let attempt = 0; attempt < 3 && !(lhr && !lhr.runtimeError); attempt += 1) {
        lhr =
          (
            await lighthouse(url, {
              port: DEBUG_PORT,
              output: 'json',
              logLevel: 'error',
              onlyCategories: ['performance'],
              disableStorageReset: signedIn,
            })
          )?.lhr ?? null;
      }
      if (!lhr || lhr.runtimeError) throw new Error(`Lighthouse gave no result for ${url}: ${lhr?.runtimeError?.message ?? 'no report'}`);
      fs.mkdirSync(RESULTS_DIR, { recursive: true });
      fs.writeFileSync(path.join(RESULTS_DIR, `lighthouse-${name}-${run}.json`), JSON.stringify(lhr));
      const audit = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? 0);
      return {
        performance: Math.round((lhr.categories.performance.score ?? 0) * 100),
        first_contentful_paint_ms: audit('first-contentful-paint'),
        largest_contentful_paint_ms: audit('largest-contentful-paint'),
        total_blocking_time_ms: audit('total-blocking-time'),
        cumulative_layout_shift: Number((lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)),
        transferred_bytes: audit('total-byte-weight'),
        final_url: lhr.finalDisplayedUrl,
        lighthouse: lhr.lighthouseVersion,
      };
    });
  /** Lighthouse's own advice for a score that moves between runs: the run with the median score, beside all of them. */
  const score = async (name: string, url: string, signedIn: boolean) => {
    const runs = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await lighthouseRun(name, url, signedIn, run));
    const byScore = [...runs].sort((a, b) => a.performance - b.performance);
    return { ...byScore[Math.floor(RUNS / 2)], runs: runs.map((r) => r.performance), tbt: runs.map((r) => r.total_blocking_time_ms) };
  };
  const repeat = async <T>(work: () => Promise<T>) => {
    const runs: T[] = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await work());
    return runs;
  };

  /* The app's /login and its anchor alternate, so a slow phase of the machine falls on both. */
  const loginRuns: Array<Awaited<ReturnType<typeof formVisit>>> = [];
  const bareRuns: Array<Awaited<ReturnType<typeof formVisit>>> = [];
  for (let run = 0; run < (PARTS.has('login') ? RUNS : 0); run += 1) {
    loginRuns.push(await formVisit(`${base}/login`));
    bareRuns.push(await formVisit(`${base}/${BARE_PAGE}`));
  }
  const noRuns = { idle: [], busy: [] };
  const invoices = PARTS.has('invoices') ? await idleAndBusy(() => repeat(invoicesVisit)) : noRuns;
  const signInFlow = PARTS.has('sign-in') ? await idleAndBusy(() => repeat(signInFlowVisit)) : noRuns;
  const summary = (runs: Array<Awaited<ReturnType<typeof invoicesVisit>>>) => ({
    first_task_ms_median: median(runs.map((r) => r.first_task_ms)),
    longest_task_ms_median: median(runs.map((r) => r.longest_task_ms)),
    blocking_ms_median: median(runs.map((r) => r.blocking_ms)),
    list_visible_ms_median: median(runs.map((r) => r.list_visible_ms)),
    chromium_cpu_ms_median: median(runs.map((r) => r.chromium_cpu_ms)),
    runs,
  });
  const flowSummary = (runs: Array<Awaited<ReturnType<typeof signInFlowVisit>>>) => ({
    longest_task_ms_median: median(runs.map((r) => r.longest_task_ms)),
    blocking_ms_median: median(runs.map((r) => r.blocking_ms)),
    list_visible_after_sending_ms_median: median(runs.map((r) => r.list_visible_after_sending_ms)),
    runs,
  });
  /** On a profile where nobody signed in: /login itself, not where a held session would send it. */
  const lighthouseLogin = PARTS.has('lighthouse') ? await score('login', `${base}/login`, false) : null;
  if (lighthouseLogin && new URL(lighthouseLogin.final_url).pathname !== '/login')
    throw new Error(`Lighthouse /login ended on ${lighthouseLogin.final_url}`);
  const lighthouseInvoices = PARTS.has('lighthouse') ? await score('invoices', `${base}/invoices`, true) : null;

  saveResult(process.env.BENCH_RESULT_NAME ?? (process.env.BENCH_WEB_DIR ? 'phone-baseline' : 'phone'), {
    date: new Date().toISOString(),
    machine: machine(),
    chromium: CHROMIUM,
    load_average_1m: loadAverage(),
    web_dir: webDir,
    profile: '4x CPU, 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up, 412x823, cold cache (CDP)',
    login_cold: {
      form_painted_ms_median: median(loginRuns.map((r) => r.form_painted_ms)),
      takeover_ms_median: median(loginRuns.map((r) => r.takeover_ms ?? r.form_painted_ms)),
      transferred_bytes_median: median(loginRuns.map((r) => r.transferred_bytes)),
      runs: loginRuns,
    },
    anchor_bare_form: {
      form_painted_ms_median: median(bareRuns.map((r) => r.form_painted_ms)),
      transferred_bytes_median: median(bareRuns.map((r) => r.transferred_bytes)),
      runs: bareRuns,
    },
    parts: [...PARTS],
    invoices_signed_in: { idle: summary(invoices.idle), busy_core: summary(invoices.busy) },
    sign_in_to_transactions: { idle: flowSummary(signInFlow.idle), busy_core: flowSummary(signInFlow.busy) },
    lighthouse_login: lighthouseLogin,
    lighthouse_invoices_signed_in: lighthouseInvoices,
    goals: 'form painted ≤ 1,500 ms; no task over 200 ms on /invoices; Lighthouse ≥ 95 (/login) and ≥ 90 (/invoices)',
  });
} finally {
  await t.close();
}
