import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { ExportJob, ExportWorkers } from '../lib/export.ts';
import type { WorkerInput, WorkerMessage } from './worker.ts';

/** How many exports run at once; each holds a thread, its heap and a database connection while it runs. */
const MAX_EXPORT_WORKERS = 2;

/**
 * The worker's file: compiled JavaScript in dist-server/; under the tests and tsx this module is TypeScript, and so is the
 * worker, which then registers tsx's loader first (tsx's `--import` hook does not reach worker threads).
 */
const compiled = !import.meta.url.endsWith('.ts');
const workerFile = new URL(compiled ? './worker.js' : './worker.ts', import.meta.url);
const tsxApi = compiled ? '' : import.meta.resolve('tsx/esm/api');
const spawn = (workerData: WorkerInput) =>
  compiled
    ? new Worker(workerFile, { workerData })
    : new Worker(
        `import(${JSON.stringify(tsxApi)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(workerFile.href)}); })`,
        {
          eval: true,
          workerData,
        },
      );

/**
 * Issue 39: on PostgreSQL a list export is written by a worker thread with a connection of its own, which ends when the
 * file is written, so the heap the export grew goes with it instead of staying in the server until V8's next full
 * collection. The bytes come over in messages, each acknowledged once passed on to the download (backpressure); a
 * download abandoned or cut short stops the worker, which closes its connection. At most MAX_EXPORT_WORKERS run at once.
 */
export function exportWorkers(options: { databaseUrl: string; config: Config; badgeSecret: string }): ExportWorkers & {
  stopAll(): Promise<void>;
} {
  /** Each running worker with what ends its export: the download cut short and the thread terminated. */
  const running = new Map<Worker, (error: Error) => void>();
  const start = (job: ExportJob, log: FastifyBaseLogger): PassThrough | null => {
    if (running.size >= MAX_EXPORT_WORKERS) return null;
    const worker = spawn({ job, databaseUrl: options.databaseUrl, config: options.config, badgeSecret: options.badgeSecret });
    const out = new PassThrough();
    let settled = false;
    const stop = () => {
      settled = true;
      running.delete(worker);
      void worker.terminate();
    };
    const fail = (error: Error) => {
      if (settled) return;
      log.error({ err: error }, 'export failed');
      stop();
      out.destroy(error);
    };
    running.set(worker, fail);
    worker.on('message', (message: WorkerMessage) => {
      if (settled) return;
      if (message.type === 'bytes') {
        if (out.write(Buffer.from(message.bytes))) worker.postMessage('ack');
        else out.once('drain', () => worker.postMessage('ack'));
      } else if (message.type === 'done') {
        stop();
        out.end();
      } else fail(Object.assign(new Error(message.message), { stack: message.stack }));
    });
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the export worker ended (exit ${code}) before the file was written`)));
    out.on('close', () => {
      if (!settled) stop();
    });
    return out;
  };
  return {
    start,
    /** Before the server closes (a preClose hook): a download still being written is cut short, or the close would wait for its reader. */
    stopAll: async () => {
      const workers = [...running];
      for (const [, fail] of workers) fail(new Error('the server is shutting down before the export was written'));
      await Promise.all(workers.map(([worker]) => worker.terminate()));
    },
  };
}
