/**
 * `npm run test:scale` (run by .ci/run): two app instances on one PostgreSQL behind HAProxy (Debian's),
 * round robin, TRUST_PROXY set to it. Runs a part of the API suite through the proxy, then a burst of
 * parallel custody actions during which one instance is killed (SIGKILL); at the end every acknowledged
 * action is stored exactly once and the ledger verifier is clean. The app connects as a role that owns nothing.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../src/server/db/client.ts';
import { runLedgerVerify } from '../src/server/features/ledger/verifier.ts';
import { createBranch, createRoute, createUser, TEST_PASSWORD } from '../src/server/test/factories.ts';

const PROXY_PORT = Number(process.env.SCALE_PROXY_PORT ?? 4230);
const PORTS = [PROXY_PORT + 1, PROXY_PORT + 2];
const BASE = `http://127.0.0.1:${PROXY_PORT}`;
const REQUESTERS = 40;
const serverUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const suffix = randomBytes(4).toString('hex');
const dbName = `padtrack_scale_${suffix}`;
const appRole = `padtrack_scale_app_${suffix}`;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'padtrack-scale-'));
const children: ChildProcess[] = [];
const failures: string[] = [];

const urlFor = (user: string | null) => {
  const url = new URL(serverUrl);
  if (user) {
    url.username = user;
    url.password = '';
  }
  url.pathname = `/${dbName}`;
  return url.toString();
};

function check(ok: boolean, what: string) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
}

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  server: string;
}

async function api(method: string, url: string, token?: string, body?: object): Promise<Answer> {
  try {
    const res = await fetch(`${BASE}${url}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = { text };
    }
    return { status: res.status, body: parsed, server: res.headers.get('x-served-by') ?? '?' };
  } catch (error) {
    return { status: 0, body: { error: (error as Error).message }, server: '-' };
  }
}

async function login(email: string, password = TEST_PASSWORD): Promise<string> {
  const res = await api('POST', '/api/login', undefined, { email, password });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.token as string;
}

async function waitHealthy(url: string, ms = 60_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not become healthy`);
}

function startInstance(port: number): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: urlFor(appRole),
      DATABASE_OWNER_URL: urlFor(null),
      TRUST_PROXY: '127.0.0.1',
      ADMIN_EMAIL: 'admin@scale.test',
      ADMIN_PASSWORD: 'Admin@12345',
      DATA_DIR: path.join(work, `data-${port}`),
      WEB_DIR: path.join(work, 'no-web'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

function startProxy(): ChildProcess {
  const config = `global
  maxconn 2000
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  retries 3
  option redispatch
  option forwardfor
frontend api
  bind 127.0.0.1:${PROXY_PORT}
  default_backend app
backend app
  balance roundrobin
  option httpchk GET /api/health
  timeout check 5s
  http-response set-header X-Served-By %s
${PORTS.map((port, i) => `  server app${i + 1} 127.0.0.1:${port} check inter 1s fall 2 rise 2`).join('\n')}
`;
  const file = path.join(work, 'haproxy.cfg');
  fs.writeFileSync(file, config);
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(child);
  return child;
}

async function apiSuite(adminToken: string, branchId: number) {
  const servedBy = new Set<string>();
  for (let i = 0; i < 4; i += 1) servedBy.add((await api('GET', '/api/user-profile', adminToken)).server);
  check(servedBy.size === 2, `round robin: 4 requests served by ${[...servedBy].join(', ')}`);

  const target = await createUser(db(), { role_id: 7, branch_id: branchId, first_name: 'Throttle', last_name: 'Target' });
  const attempts: number[] = [];
  const servers = new Set<string>();
  for (let i = 0; i < 5; i += 1) {
    const res = await api('POST', '/api/login', undefined, { email: target.email, password: 'Wrong@12345' });
    attempts.push(res.status);
    servers.add(res.server);
  }
  const sixth = await api('POST', '/api/login', undefined, { email: target.email, password: TEST_PASSWORD });
  check(
    attempts.every((s) => s === 422) && servers.size === 2 && sixth.status === 429,
    `5 failed sign-ins over ${servers.size} instances (${attempts.join(',')}), then ${sixth.status}`,
  );

  const user = await createUser(db(), { role_id: 7, branch_id: branchId, first_name: 'Logout', last_name: 'Check' });
  const token = await login(user.email);
  const warm = [await api('GET', '/api/user-profile', token), await api('GET', '/api/user-profile', token)];
  const logout = await api('POST', '/api/logout', token);
  const after = [await api('GET', '/api/user-profile', token), await api('GET', '/api/user-profile', token)];
  check(
    warm.every((r) => r.status === 200) &&
      logout.status === 200 &&
      after.every((r) => r.status === 401) &&
      new Set(after.map((r) => r.server)).size === 2,
    `logout on ${logout.server}: the token is refused at once on ${after.map((r) => `${r.server} (${r.status})`).join(' and ')}`,
  );

  const demoted = await createUser(db(), { role_id: 1, branch_id: branchId, first_name: 'Demoted', last_name: 'Admin' });
  const demotedToken = await login(demoted.email);
  const before = [await api('GET', '/api/get-users', demotedToken), await api('GET', '/api/get-users', demotedToken)];
  const update = await api('PUT', `/api/update-user/${demoted.id}`, adminToken, {
    first_name: 'Demoted',
    middle_name: null,
    last_name: 'Admin',
    email: demoted.email,
    contact_number: '09171234567',
    role_id: 9,
    branch_id: branchId,
    user_status_id: 1,
  });
  const afterDemotion = [await api('GET', '/api/get-users', demotedToken), await api('GET', '/api/get-users', demotedToken)];
  check(
    before.every((r) => r.status === 200) && update.status === 200 && afterDemotion.every((r) => r.status === 403),
    `a role change on ${update.server} applies at once on both (${afterDemotion.map((r) => r.status).join(',')})`,
  );

  const limited: number[] = [];
  for (let i = 0; i <= 20; i += 1)
    limited.push((await api('POST', '/api/forgot-password', undefined, { email: `spread-${i}@scale.test` })).status);
  check(
    limited.slice(0, 20).every((s) => s === 200) && limited[20] === 429,
    `forgot-password limit 20/min per client counted across instances: 21st answered ${limited[20]}`,
  );

  const hostile = await Promise.all(
    ['0000-01', '9999-12', '2026-13', '1969-12'].map((month) => api('GET', `/api/raaf?month=${month}&branch_id=${branchId}`, adminToken)),
  );
  check(
    hostile.every((r) => r.status === 422),
    `hostile RAAF months answer ${hostile.map((r) => r.status).join(',')}`,
  );
}

const opened: { database: Database | null } = { database: null };
const db = () => {
  if (!opened.database) throw new Error('database not open');
  return opened.database.db;
};

async function burst(routeId: number, branchId: number, custodianToken: string, courierId: number, killAfterAnswers: number) {
  const owner = new pg.Pool({ connectionString: urlFor(null), max: 4 });
  owner.on('error', () => undefined);
  const people = await Promise.all(
    Array.from({ length: REQUESTERS }, (_, i) =>
      createUser(db(), { role_id: 7, branch_id: branchId, first_name: 'Burst', last_name: `Holder ${String.fromCharCode(65 + (i % 26))}` }),
    ),
  );
  const tokens = await Promise.all(people.map((person) => login(person.email)));
  const { rows: freePads } = await owner.query<{ id: number }>(
    'select p.id from pads p join pad_custody c on c.pad_id = p.id where p.route_id = $1 and c.locked_by_invoice_id is null order by p.number limit $2',
    [routeId, REQUESTERS],
  );
  const acknowledged = {
    requests: new Map<number, number>(),
    issues: new Map<number, { invoiceId: number; padId: number }>(),
    accepts: new Set<number>(),
  };
  const statuses = new Map<string, number>();
  const victim = children[1];
  let answers = 0;
  let killedAt = -1;
  const count = (step: string, status: number) => {
    statuses.set(`${step} ${status}`, (statuses.get(`${step} ${status}`) ?? 0) + 1);
    answers += 1;
    if (answers === killAfterAnswers) {
      killedAt = Date.now() - started;
      victim.kill('SIGKILL');
    }
  };
  const started = Date.now();
  await Promise.all(
    people.map(async (person, i) => {
      const request = await api('POST', '/api/create-request-invoice', tokens[i], { route_id: routeId, pads: 1 });
      count('request', request.status);
      if (request.status !== 201) return;
      const requestId = (request.body.data as { id: number }).id;
      acknowledged.requests.set(person.id, requestId);
      const issue = await api('POST', '/api/issue-invoice', custodianToken, {
        invoice_id: requestId,
        pads: [freePads[i].id],
        assigned_user_id: courierId,
        expected_return: 3,
      });
      count('issue', issue.status);
      if (issue.status !== 201) return;
      const { rows } = await owner.query<{ id: number }>('select id from invoices where request_invoice_id = $1 and invoice_type_id = 2', [
        requestId,
      ]);
      acknowledged.issues.set(requestId, { invoiceId: rows[0]?.id ?? -1, padId: freePads[i].id });
      const accept = await api('POST', `/api/accept-invoice/${rows[0]?.id ?? 0}`, tokens[i]);
      count('accept', accept.status);
      if (accept.status === 200) acknowledged.accepts.add(rows[0].id);
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `burst: ${REQUESTERS} requesters × (request, issue, accept) in ${seconds.toFixed(1)} s; instance 2 killed (SIGKILL) after ${killAfterAnswers} answers, at ${killedAt} ms; answers: ${[...statuses.entries()].map(([k, v]) => `${k}×${v}`).join(', ')}`,
  );
  check(
    victim.signalCode === 'SIGKILL' && killedAt > 0 && answers > killAfterAnswers,
    `instance 2 was killed mid-burst (${answers - killAfterAnswers} answers came after)`,
  );

  const retried = new Map<string, number>();
  await Promise.all(
    people.map(async (person, i) => {
      const requestId = acknowledged.requests.get(person.id);
      if (requestId === undefined || acknowledged.issues.has(requestId)) return;
      const again = await api('POST', '/api/issue-invoice', custodianToken, {
        invoice_id: requestId,
        pads: [freePads[i].id],
        assigned_user_id: courierId,
        expected_return: 3,
      });
      retried.set(`${again.status}`, (retried.get(`${again.status}`) ?? 0) + 1);
    }),
  );
  console.log(
    `unacknowledged issues sent again to the surviving instance: ${[...retried.entries()].map(([k, v]) => `${k}×${v}`).join(', ') || 'none'}`,
  );
  check(
    [...retried.keys()].every((status) => ['201', '409', '422'].includes(status)),
    'each retry is issued now or refused as already done, never a 5xx',
  );

  const ids = people.map((person) => person.id);
  const { rows: requests } = await owner.query<{ user_id: number; n: number; ids: number[] }>(
    'select user_id, count(*)::int as n, array_agg(id) as ids from invoices where invoice_type_id = 1 and user_id = any($1) group by user_id',
    [ids],
  );
  const byUser = new Map(requests.map((row) => [row.user_id, row]));
  check(
    requests.every((row) => row.n === 1),
    `every requester has at most one request stored (${requests.length} stored for ${acknowledged.requests.size} acknowledged)`,
  );
  check(
    [...acknowledged.requests.entries()].every(([userId, id]) => byUser.get(userId)?.ids.includes(id)),
    'every acknowledged request is stored',
  );
  const { rows: issued } = await owner.query<{ request_invoice_id: number; n: number }>(
    'select request_invoice_id, count(*)::int as n from invoices where invoice_type_id = 2 and request_invoice_id = any($1) group by request_invoice_id',
    [[...acknowledged.requests.values()]],
  );
  check(
    issued.every((row) => row.n === 1) && issued.length === acknowledged.requests.size,
    `every request issued exactly once after the retries (${issued.length} of ${acknowledged.requests.size}; ${acknowledged.issues.size} acknowledged in the burst)`,
  );
  check(
    [...acknowledged.issues.values()].every((issue) => issue.invoiceId > 0),
    'every acknowledged issue is stored',
  );
  const { rows: padUse } = await owner.query<{ pad_id: number; n: number }>(
    'select ip.pad_id, count(*)::int as n from invoice_pads ip join invoices i on i.id = ip.invoice_id where i.invoice_type_id = 2 and ip.pad_id = any($1) group by ip.pad_id having count(*) > 1',
    [freePads.map((pad) => pad.id)],
  );
  check(padUse.length === 0, 'no pad issued on two invoices');
  const { rows: completed } = await owner.query<{ id: number; holder: number | null; pad: number }>(
    'select i.id, c.holder_user_id as holder, c.pad_id as pad from invoices i join invoice_pads ip on ip.invoice_id = i.id join pad_custody c on c.pad_id = ip.pad_id where i.id = any($1) and i.invoice_status_id = 4',
    [[...acknowledged.accepts]],
  );
  check(
    completed.length === acknowledged.accepts.size,
    `every acknowledged accept is Completed (${completed.length} of ${acknowledged.accepts.size})`,
  );
  const { rows: transfers } = await owner.query<{ invoice_id: number; n: number }>(
    "select invoice_id, count(*)::int as n from pad_events where kind = 'transfer_in' and invoice_id = any($1) group by invoice_id",
    [[...acknowledged.accepts]],
  );
  check(
    transfers.length === acknowledged.accepts.size && transfers.every((row) => row.n === 1),
    'each accepted hand-over is in the ledger exactly once',
  );
  await owner.end();
  return { acknowledged: acknowledged.requests.size + acknowledged.issues.size + acknowledged.accepts.size, seconds };
}

async function main() {
  if (spawnSync('haproxy', ['-v']).status !== 0)
    throw new Error('haproxy is missing: run `npx tsx scripts/ensure-system-packages.ts` (installs it from Debian).');
  await admin(`CREATE ROLE ${appRole} LOGIN`);
  await admin(`CREATE DATABASE ${dbName}`);
  const t0 = Date.now();
  startInstance(PORTS[0]);
  startInstance(PORTS[1]);
  await Promise.all(PORTS.map((port) => waitHealthy(`http://127.0.0.1:${port}/api/health`)));
  startProxy();
  await waitHealthy(`${BASE}/api/health`);
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  console.log(
    `two instances and HAProxy up in ${((Date.now() - t0) / 1000).toFixed(1)} s (both migrated at once, under the migration lock)`,
  );

  opened.database = await openDatabase({ url: urlFor(null), dataDir: null });
  const owner = new pg.Client({ connectionString: urlFor(null) });
  await owner.connect();
  const { rows: owned } = await owner.query<{ n: number }>(
    "select count(*)::int as n from pg_tables where schemaname = 'public' and tableowner = $1",
    [appRole],
  );
  await owner.end();
  check(owned[0].n === 0, 'the app role owns no table');
  const headOffice = await createBranch(db(), { name: 'Scale Head Office' });
  const adminToken = await login('admin@scale.test', 'Admin@12345');
  const custodian = await createUser(db(), { role_id: 3, branch_id: headOffice.id, first_name: 'Scale', last_name: 'Custodian' });
  const courier = await createUser(db(), { role_id: 10, branch_id: headOffice.id, first_name: 'Scale', last_name: 'Courier' });
  const route = await createRoute(db(), { name: `Scale Route ${suffix}` });
  const custodianToken = await login(custodian.email);
  const generated = await api('POST', '/api/add-pad', custodianToken, { route_id: route.id, series_from: 1, series_to: REQUESTERS * 50 });
  check(generated.status === 201, `pads generated through the proxy (${generated.status})`);

  await apiSuite(adminToken, headOffice.id);
  const { acknowledged, seconds } = await burst(route.id, headOffice.id, custodianToken, courier.id, 30);

  const lines: string[] = [];
  const code = await runLedgerVerify(db(), (line) => lines.push(line));
  console.log(lines.join('\n'));
  check(code === 0, 'the ledger verifier is clean after the burst and the kill');
  console.log(
    `scale-out: ${acknowledged} acknowledged custody actions in ${seconds.toFixed(1)} s, ${failures.length} failed check(s), ${((Date.now() - t0) / 1000).toFixed(0)} s in all`,
  );
}

try {
  await main();
} catch (error) {
  failures.push((error as Error).message);
  console.error(`scale-out test error: ${(error as Error).stack ?? String(error)}`);
} finally {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await opened.database?.close().catch(() => undefined);
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  await admin(`DROP ROLE IF EXISTS ${appRole}`).catch(() => undefined);
  fs.rmSync(work, { recursive: true, force: true });
}
process.exit(failures.length === 0 ? 0 : 1);
