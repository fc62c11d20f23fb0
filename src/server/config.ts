import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  appUrl: string;
  adminEmail: string;
  adminPassword: string | null;
  headOfficeBranchId: number;
  timeZone: string;
  padSize: number;
  tokenTtlHours: number;
  logLevel: string;
  /** Where the built UI lives; null serves the API only. */
  webDir: string | null;
}

const int = (value: string | undefined, fallback: number) => {
  const n = Number.parseInt(value ?? '', 10);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};

/** Reads DESIGN §3's settings from the environment, with the documented defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 3000);
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'PadTrack <no-reply@padtrack.local>',
    appUrl: (env.APP_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    adminEmail: (env.ADMIN_EMAIL || 'admin@padtrack.local').toLowerCase(),
    adminPassword: env.ADMIN_PASSWORD || null,
    headOfficeBranchId: int(env.HEAD_OFFICE_BRANCH_ID, 1),
    timeZone: env.APP_TIMEZONE || 'Asia/Manila',
    padSize: int(env.PAD_SIZE, 50),
    tokenTtlHours: int(env.TOKEN_TTL_HOURS, 12),
    logLevel: env.LOG_LEVEL || 'info',
    webDir: path.resolve(env.WEB_DIR || 'dist'),
  };
}
