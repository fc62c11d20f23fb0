import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /** PostgreSQL: the role that owns the tables and runs the migrations; DATABASE_URL's role then owns nothing. */
  databaseOwnerUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  appUrl: string;
  adminEmail: string;
  adminPassword: string | null;
  headOfficeBranchId: number;
  timeZone: string;
  padSize: number;
  /** COUNT_EVERY_DAYS: docs/design.md §9 count schedule: a holder not counted for this many days is "count due". */
  countEveryDays: number;
  /** LEDGER_VERIFY_EVERY_DAYS: the full ledger check runs on its own once in this many days (docs/design.md §8 verifier). */
  ledgerVerifyEveryDays: number;
  /** REQUIRE_REGISTERED_SERIES=true: generating pads outside every registered series is refused, not only warned (docs/design.md §10). */
  requireRegisteredSeries: boolean;
  tokenTtlHours: number;
  logLevel: string;
  /** Longest a database statement may run before it is cancelled and answered 503. */
  dbStatementTimeoutMs: number;
  /** Fastify's trustProxy: false (no proxy, the default), true, a hop count, or proxy addresses. */
  trustProxy: boolean | number | string[];
  /** BACKUP_DIR: where the scheduled daily backup goes; unset, there is none. */
  backupDir: string | null;
  /** BACKUP_KEEP: how many daily backups are kept (older ones are deleted). */
  backupKeep: number;
  /** Where the built UI lives; null serves the API only. */
  webDir: string | null;
  /** CHECK_RESPONSES=true: every answer is also checked against its zod schema (the tests run so). */
  checkResponses: boolean;
  /** TWO_PARTY_HANDOVER (default on): a hand-over to a courier picked from the list waits for him to accept. */
  twoPartyHandOver: boolean;
}

const int = (value: string | undefined, fallback: number) => {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

/** TRUST_PROXY: unset or "false" trusts nobody; "true", a hop count, or comma-separated addresses/CIDRs. */
export function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  const raw = (value ?? '').trim();
  if (raw === '' || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** Reads the settings of docs/design.md §3 from the environment, with the documented defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 3000);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    databaseOwnerUrl: env.DATABASE_OWNER_URL || null,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'PadTrack <no-reply@padtrack.local>',
    appUrl: (env.APP_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    adminEmail: (env.ADMIN_EMAIL || 'admin@padtrack.local').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || null,
    headOfficeBranchId: int(env.HEAD_OFFICE_BRANCH_ID, 1),
    timeZone: env.APP_TIMEZONE || 'Asia/Manila',
    padSize: int(env.PAD_SIZE, 50),
    countEveryDays: int(env.COUNT_EVERY_DAYS, 90),
    ledgerVerifyEveryDays: int(env.LEDGER_VERIFY_EVERY_DAYS, 7),
    requireRegisteredSeries: env.REQUIRE_REGISTERED_SERIES === 'true',
    tokenTtlHours: int(env.TOKEN_TTL_HOURS, 12),
    logLevel: env.LOG_LEVEL || 'info',
    dbStatementTimeoutMs: int(env.DB_STATEMENT_TIMEOUT_MS, 30_000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    backupDir: env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : null,
    backupKeep: int(env.BACKUP_KEEP, 7),
    webDir: path.resolve(env.WEB_DIR || 'dist'),
    checkResponses: env.CHECK_RESPONSES === 'true',
    twoPartyHandOver: env.TWO_PARTY_HANDOVER !== 'false',
  };
}
