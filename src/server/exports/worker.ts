import { Writable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import { DEFAULT_POOL_TIMEOUTS, exportDatabase } from '../db/client.ts';
import { sharedStateOf } from '../db/shared-state.ts';
import type { ExportJob } from '../lib/export.ts';
import { createMailer } from '../lib/mail.ts';
import { listExportOf } from './registry.ts';

/** What the main thread hands an export worker (workers.ts): the job, and what its AppContext is made of. */
export interface WorkerInput {
  job: ExportJob;
  databaseUrl: string;
  config: Config;
  badgeSecret: string;
}

/** worker → main thread. */
export type WorkerMessage = { type: 'bytes'; bytes: ArrayBuffer } | { type: 'done' } | { type: 'failed'; message: string; stack?: string };

/** The most bytes one message carries: the pieces written meanwhile are sent together, up to this. */
const MESSAGE_BYTES = 64 * 1024;

/**
 * The file's bytes to the main thread: each message's buffer is transferred, not copied, and the next is sent only once
 * the main thread says it passed the last one on (an 'ack'), so a slow download holds about one message here.
 */
class ToMainThread extends Writable {
  private waiting: ((error?: Error | null) => void) | null = null;

  constructor(private readonly port: NonNullable<typeof parentPort>) {
    super({ highWaterMark: MESSAGE_BYTES });
    port.on('message', () => {
      const callback = this.waiting;
      this.waiting = null;
      callback?.();
    });
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, callback: (error?: Error | null) => void): void {
    const bytes = new Uint8Array(chunks.reduce((sum, { chunk }) => sum + chunk.length, 0));
    let at = 0;
    for (const { chunk } of chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    this.waiting = callback;
    const message: WorkerMessage = { type: 'bytes', bytes: bytes.buffer };
    this.port.postMessage(message, [bytes.buffer]);
  }
}

async function run(port: NonNullable<typeof parentPort>, input: WorkerInput): Promise<void> {
  const { job, config } = input;
  const database = exportDatabase(input.databaseUrl, { ...DEFAULT_POOL_TIMEOUTS, statementTimeoutMs: config.dbStatementTimeoutMs });
  const log = pino({ level: config.logLevel });
  const ctx: AppContext = {
    db: database.db,
    config,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log }),
    badgeSecret: input.badgeSecret,
    shared: sharedStateOf(database),
    log,
    jobs: [],
  };
  const out = new ToMainThread(port);
  const finished = new Promise<void>((resolve, reject) => out.once('finish', resolve).once('error', reject));
  try {
    const list = await listExportOf(job.kind);
    await list.write(out, job.format, ctx, job.actor, job.query, job.meta);
    await finished;
  } finally {
    await database.close();
  }
}

if (parentPort) {
  const port = parentPort;
  // -- workers.ts starts this file with a WorkerInput as its workerData.
  run(port, workerData as WorkerInput).then(
    () => port.postMessage({ type: 'done' } satisfies WorkerMessage),
    (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      port.postMessage({ type: 'failed', message: failure.message, stack: failure.stack } satisfies WorkerMessage);
    },
  );
}
