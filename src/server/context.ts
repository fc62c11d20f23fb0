import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Job } from './db/jobs.ts';
import type { SharedState } from './db/shared-state.ts';
import type { ExportWorkers } from './lib/export.ts';
import type { Mailer } from './lib/mail.ts';

/** What services need from the outside world; built once in main.ts or by the test app. */
export interface AppContext {
  db: Db;
  config: Config;
  mailer: Mailer;
  badgeSecret: string;
  /** Throttles, rate limits and session news that every app instance on this database shares. */
  shared: SharedState;
  log: FastifyBaseLogger;
  /** The server's background jobs (jobs.ts), for the Admin's jobs page and "run now"; start.ts fills it. */
  jobs: Job[];
  /** The instant ledger events are recorded at; unset is now. Only the demo loader and tests set it, to lay down a past month. */
  ledgerClock?: () => Date;
  /** On PostgreSQL: the worker threads list exports are written in (issue 39); unset, they are written in this process. */
  exportWorkers?: ExportWorkers;
}
