/**
 * The goal of docs/BENCHMARKS.md "The phone at the pier": /login in Debian's Chromium with CDP throttling (4× CPU, 150 ms
 * round trip, 1.6 Mbit/s down, 750 kbit/s up, phone screen), cold cache: bytes transferred and the time
 * until the sign-in form is on screen; a second visit with the cache. Then Lighthouse (mobile preset, its own
 * simulated throttling), three runs each on a fresh profile, the median reported: /login where nobody has signed
 * in, and /invoices on a phone that has just signed in. BENCH_WEB_DIR measures another build (a baseline) instead.
 *   npx tsx bench/phone.ts
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { ROLE } from '../src/shared/lookups.ts';
import { createBranch, createUser, TEST_PASSWORD } from '../src/server/test/factories.ts';
import { createTestApp } from '../src/server/test/test-app.ts';
import { loadAverage, machine, median, RESULTS_DIR, ROOT, saveResult } from './support.ts';
import { buildWeb, webBuildIsCurrent, webSourcesHash } from '../scripts/build/web-build-state.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DEBUG_PORT = Number(process.env.BENCH_CDP_PORT ?? 9333);
const RUNS = 3;

const webDir = process.env.BENCH_WEB_DIR ?? path.join(ROOT, '.tmp/web-bench');
const hash = webSourcesHash(ROOT);
if (!process.env.BENCH_WEB_DIR && !webBuildIsCurrent(webDir, hash)) await buildWeb(ROOT, webDir, hash);

/** Debian's Chromium on a profile of its own, reached over CDP; `use` gets its one browser context, and the profile is removed after. */
async function withFreshChromium<T>(use: (context: BrowserContext) => Promise<T>): Promise<T> {
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
    const result = await use(browser.contexts()[0]);
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

const t = await createTestApp({ WEB_DIR: webDir });
try {
  const headOffice = await createBranch(t.db, { name: 'Head Office' });
  t.ctx.config.headOfficeBranchId = headOffice.id;
  const admin = await createUser(t.db, { role_id: ROLE.ADMIN, branch_id: headOffice.id });
  const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: admin.email, password: TEST_PASSWORD } });
  if (login.statusCode !== 200) throw new Error(`login answered ${login.statusCode}: ${login.body}`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const body = login.json() as { token: string; user: unknown };

  /**
   * A phone that has just signed in: its cache holds what the sign-in page loaded and nothing the signed-in screens load,
   * and its storage holds the session.
   */
  const signIn = async (context: BrowserContext) => {
    const page = await context.newPage();
    await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
    await page.evaluate(
      ([token, user]) => {
        localStorage.setItem('padtrack.token', token);
        localStorage.setItem('padtrack.user', user);
      },
      [body.token, JSON.stringify(body.user)],
    );
    await page.close();
  };
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
        transferred_bytes: audit('total-byte-weight'),
        final_url: lhr.finalDisplayedUrl,
        lighthouse: lhr.lighthouseVersion,
      };
    });
  /** Lighthouse's own advice for a score that moves between runs: the run with the median score of three, beside all three. */
  const score = async (name: string, url: string, signedIn: boolean) => {
    const runs = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await lighthouseRun(name, url, signedIn, run));
    const byScore = [...runs].sort((a, b) => a.performance - b.performance);
    return { ...byScore[Math.floor(RUNS / 2)], runs: runs.map((r) => r.performance) };
  };
  /** One visit of /login on the phone profile: bytes over the wire and milliseconds until the form shows. */
  const visit = async (context: BrowserContext, page: Page, cacheDisabled: boolean) => {
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
    let bytes = 0;
    let requests = 0;
    cdp.on('Network.loadingFinished', (event) => {
      bytes += event.encodedDataLength;
      requests += 1;
    });
    const start = performance.now();
    await page.goto(`${base}/login`, { waitUntil: 'commit' });
    await page.getByLabel('Email').first().waitFor({ state: 'visible', timeout: 60_000 });
    const formMs = performance.now() - start;
    await page.waitForLoadState('networkidle');
    await cdp.detach();
    return { form_ms: Math.round(formMs), transferred_bytes: bytes, requests };
  };

  const { cold, warm } = await withFreshChromium(async (context) => {
    const coldRuns = [];
    for (let i = 0; i < RUNS; i += 1) {
      const page = await context.newPage();
      await page.setViewportSize({ width: 412, height: 823 });
      coldRuns.push(await visit(context, page, true));
      await page.close();
    }
    const page = await context.newPage();
    await page.setViewportSize({ width: 412, height: 823 });
    await visit(context, page, false);
    return { cold: coldRuns, warm: await visit(context, page, false) };
  });
  /** On a profile where nobody signed in: /login itself, not where a held session would send it. */
  const lighthouseLogin = await score('login', `${base}/login`, false);
  if (new URL(lighthouseLogin.final_url).pathname !== '/login') throw new Error(`Lighthouse /login ended on ${lighthouseLogin.final_url}`);
  const lighthouseInvoices = await score('invoices', `${base}/invoices`, true);

  saveResult(process.env.BENCH_WEB_DIR ? 'phone-baseline' : 'phone', {
    date: new Date().toISOString(),
    machine: machine(),
    chromium: CHROMIUM,
    load_average_1m: loadAverage(),
    web_dir: webDir,
    profile: '4x CPU, 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up, 412x823, cold cache (CDP)',
    login_cold: {
      runs: cold,
      form_ms_median: median(cold.map((r) => r.form_ms)),
      transferred_bytes_median: median(cold.map((r) => r.transferred_bytes)),
    },
    login_second_visit: warm,
    lighthouse_login: lighthouseLogin,
    lighthouse_invoices_signed_in: lighthouseInvoices,
    goals: 'login ≤ 150 kB, form ≤ 2,000 ms, Lighthouse ≥ 95 (/login) and ≥ 90 (/invoices)',
  });
} finally {
  await t.close();
}
