import http from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fullName } from '../../shared/format.ts';
import { invoiceListQuery } from '../../shared/schemas/invoices.ts';
import { padListQuery } from '../../shared/schemas/pads.ts';
import { EXPORT_CONNECTION_NAME } from '../db/client.ts';
import { rowsOf } from '../db/rows.ts';
import { invoiceListExport } from '../features/invoices/export-read-model.ts';
import { padListExport } from '../features/pads/export-read-model.ts';
import { EXPORTS_BUSY, type ExportJob, type ExportWorkers, type ListExport } from '../lib/export.ts';
import { readExport } from '../test/export.ts';
import { buildIssuedInvoice, buildPads, createRoute, signedIn } from '../test/factories.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../test/test-app.ts';
import { LIST_EXPORT_KINDS, listExportOf } from './registry.ts';

/** Export workers exist on PostgreSQL only, so this file runs on it in either suite (as migrate-to-postgres-command.test.ts does). */
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

let t: TestApp;
let custodian: Awaited<ReturnType<typeof signedIn>>;
let workers: ExportWorkers;
const log = pino({ level: 'silent' });
let address: string | null = null;
const listening = async () => (address ??= await t.app.listen({ port: 0, host: '127.0.0.1' }));

beforeAll(async () => {
  t = await createTestApp({ APP_TIMEZONE: 'Asia/Manila' });
  custodian = await signedIn(t, { role_id: 3, first_name: 'Carmen', last_name: 'Custodian' });
  if (!t.ctx.exportWorkers) throw new Error('an app on PostgreSQL has export workers');
  workers = t.ctx.exportWorkers;
});
afterAll(async () => {
  await t.close();
});

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** The export connections open on the test's database now. */
async function exportConnections(): Promise<number> {
  const [{ count }] = await rowsOf<{ count: number }>(
    t.db,
    sql`select count(*)::int as count from pg_stat_activity where datname = current_database() and application_name = ${EXPORT_CONNECTION_NAME}`,
  );
  return count;
}

let bigRoute: Promise<number> | null = null;
/** A route of 40,000 pads: a CSV of some 4 MB, more than the sockets between server and client hold, so a stalled download holds its worker. */
const routeOfManyPads = () =>
  (bigRoute ??= (async () => {
    const route = await createRoute(t.db, { name: `Many Pads Route ${Date.now()}` });
    for (let made = 0; made < 40_000; made += 4_000) await buildPads(t.db, route.id, 4_000);
    return route.id;
  })());

/**
 * A download whose reader stops after the headers, as a browser's stalled tab; `abandon` closes its connection as a
 * closed tab does (fetch's abort would leave the socket open with the server's unsent bytes, holding the server's close).
 */
async function stalledDownload(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; abandon(): void; resume(): void; ended: Promise<'complete' | 'cut short'> }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      response.pause();
      const ended = new Promise<'complete' | 'cut short'>((done) => {
        response.on('error', () => undefined);
        response.on('close', () => done(response.complete ? 'complete' : 'cut short'));
      });
      resolve({ status: response.statusCode ?? 0, abandon: () => request.destroy(), resume: () => response.resume(), ended });
    });
    request.on('error', reject);
  });
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (let waited = 0; !(await check()); waited += 50) {
    if (waited > 15_000) throw new Error(`waited 15 s for ${what}`);
    await sleep(50);
  }
}

describe('export workers (issue 39)', () => {
  it('when each registered kind is loaded, then it is the list export of that kind', async () => {
    expect(LIST_EXPORT_KINDS).toHaveLength(11);
    for (const kind of LIST_EXPORT_KINDS) expect((await listExportOf(kind)).kind).toBe(kind);
    await expect(listExportOf('nothing')).rejects.toThrow('no list export "nothing"');
  });

  it('when a list is written by a worker, then its CSV and .xlsx are byte for byte what this process writes, within the caller’s scope', async () => {
    const route = await createRoute(t.db, { name: `Worker Route ${Date.now()}` });
    for (let made = 0; made < 4_500; made += 1_500)
      await buildPads(t.db, route.id, 1_500, { remarks: 'kept at the "front" desk,\nshelf 2' });
    const requester = await signedIn(t, { role_id: 7, first_name: 'Rita', last_name: 'Requester' });
    for (let i = 0; i < 3; i += 1) await buildIssuedInvoice(t.db, { route, padCount: 1, requester: requester.user });
    for (let i = 0; i < 2; i += 1) await buildIssuedInvoice(t.db, { route, padCount: 1 });
    const cases: Array<{ list: ListExport<unknown>; actor: typeof custodian.user; query: unknown; rows: number }> = [
      { list: padListExport, actor: custodian.user, query: padListQuery.parse({ route: String(route.id) }), rows: 4_505 },
      { list: invoiceListExport, actor: requester.user, query: invoiceListQuery.parse({ search: route.name }), rows: 3 },
    ];
    for (const { list, actor, query, rows } of cases)
      for (const format of ['csv', 'xlsx'] as const) {
        const meta = { title: list.fileBase, filter: [], exportedAt: new Date(), timeZone: 'Asia/Manila', exportedBy: fullName(actor) };
        const job: ExportJob = { kind: list.kind, format, actor, query, meta };
        const written = workers.start(job, log);
        if (!written) throw new Error('no worker was free');
        const fromWorker = await bytesOf(written);
        const here = new PassThrough();
        const [fromHere] = await Promise.all([bytesOf(here), list.write(here, format, t.ctx, actor, query, meta)]);
        expect(fromWorker.equals(fromHere), `${list.kind} ${format}`).toBe(true);
        expect(await readExport(fromWorker, format)).toHaveLength(rows + 1);
      }
    await until('the workers to close their connections', async () => (await exportConnections()) === 0);
  }, 120_000);

  it('when two exports are being written, then a third is answered 503; when their downloads are abandoned, then their workers end and close their connections', async () => {
    const route = await routeOfManyPads();
    const start = vi.spyOn(workers, 'start');
    const url = `/api/get-pads?route=${route}&format=csv`;
    const base = await listening();
    const downloads = await Promise.all([0, 1].map(() => stalledDownload(`${base}${url}`, custodian.headers)));
    expect(downloads.map((download) => download.status)).toEqual([200, 200]);
    await until('both workers to read', async () => (await exportConnections()) === 2);

    const third = await t.app.inject({ method: 'GET', url, headers: custodian.headers });
    expect(third.statusCode).toBe(503);
    expect(third.headers['retry-after']).toBe('30');
    expect(third.json()).toEqual({ message: EXPORTS_BUSY });

    for (const download of downloads) download.abandon();
    await until('the abandoned workers to close their connections', async () => (await exportConnections()) === 0);
    const next = await t.app.inject({ method: 'GET', url, headers: custodian.headers });
    expect(next.statusCode).toBe(200);
    expect(await readExport(next.rawPayload, 'csv')).toHaveLength(40_001);
    expect(start).toHaveBeenCalledTimes(4);
  }, 180_000);

  it('when a worker’s connection is cut after the first bytes, then the download ends short instead of finishing a partial file', async () => {
    const route = await routeOfManyPads();
    const response = await fetch(`${await listening()}/api/get-pads?route=${route}&format=csv`, { headers: custodian.headers });
    expect(response.status).toBe(200);
    if (!response.body) throw new Error('the download has a body');
    const reader = response.body.getReader();
    expect((await reader.read()).value?.length).toBeGreaterThan(0);
    await until('the worker to read', async () => (await exportConnections()) === 1);
    await t.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = ${EXPORT_CONNECTION_NAME}`,
    );
    const rest = (async () => {
      for (;;) if ((await reader.read()).done) return 'complete';
    })();
    await expect(rest).rejects.toThrow();
    await until('the worker to be gone', async () => (await exportConnections()) === 0);
  }, 180_000);

  it('when the server closes while a download waits for its reader, then the download is cut short and the close does not wait for it', async () => {
    const route = await routeOfManyPads();
    const other = await createSecondInstance(t);
    const base = await other.app.listen({ port: 0, host: '127.0.0.1' });
    const download = await stalledDownload(`${base}/api/get-pads?route=${route}&format=csv`, custodian.headers);
    expect(download.status).toBe(200);
    await until('the worker to read', async () => (await exportConnections()) === 1);
    await other.close();
    /* The reader stalled, so it learns of the cut only when it reads again: the bytes sent before it, then no end. */
    download.resume();
    expect(await download.ended).toBe('cut short');
    await until('the worker to close its connection', async () => (await exportConnections()) === 0);
  }, 180_000);
});
