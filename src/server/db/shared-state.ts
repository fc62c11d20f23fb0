import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { AttemptLimiter } from '../lib/attempt-limiter.ts';
import type { Database, Db } from './client.ts';

/** Failures per key in a sliding window: sign-in throttles. */
export interface FailureCounter {
  isBlocked(key: string): Promise<boolean>;
  fail(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

/** One try counted against a budget: how many the key has left after it, and a way to return it when it succeeded. */
export interface TakenTry {
  left: number;
  giveBack(): Promise<void>;
}

/**
 * Tries of something guessable (a badge or label code) per key in a sliding window. A try is counted before it is
 * judged and given back when it succeeds, so parallel wrong tries cannot pass the limit together and right ones cost
 * nothing; at the limit the try is refused, counting nothing, with the time until one is free.
 */
export interface TryBudget {
  take(key: string): Promise<TakenTry | { retryAfterMs: number }>;
}

interface RateLimitState {
  current: number;
  ttl: number;
}
type RateLimitCallback = (error: Error | null, state?: RateLimitState) => void;

/** The store contract of @fastify/rate-limit: a fixed window per key; child() gets the route's merged limit settings. */
export interface RateLimitStore {
  incr(key: string, callback: RateLimitCallback, timeWindow: number, max: number): void;
  read(key: string, callback: RateLimitCallback, timeWindow: number, max: number): void;
  child(routeOptions: object): RateLimitStore;
}

/** Hears that sign-ins changed anywhere; settle() returns once every instance has heard of this instance's change. */
export interface SessionWatch {
  settle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * What app instances must agree on. On PostgreSQL it lives in the database, so any number of instances
 * behind a load balancer count one client's attempts together; on the embedded database (one process by
 * construction) it lives in memory, shared by every app built on that database.
 */
export interface SharedState {
  where: 'database' | 'process';
  failures(name: string, max: number, windowMs: number): FailureCounter;
  tries(name: string, max: number, windowMs: number): TryBudget;
  rateLimitStore: new () => RateLimitStore;
  watchSessions(onChange: () => void): Promise<SessionWatch>;
}

export const SESSIONS_CHANNEL = 'padtrack_sessions';
const SETTLE_LIMIT_MS = 1_000;

async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Each route counts apart, as the plugin's own store does; the plugin hands child() the route as `routeInfo`. */
const routePrefix = (routeOptions: object) => {
  const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
  return `${[route?.method ?? ''].flat().join(',')} ${route?.url ?? ''}|`;
};

function sqlRateLimitStore(db: Db): new () => RateLimitStore {
  class SqlRateLimitStore implements RateLimitStore {
    constructor(private readonly prefix = '') {}

    incr(key: string, callback: RateLimitCallback, timeWindow: number): void {
      rowsOf<{ hits: number; ttl: number }>(
        db,
        sql`insert into limit_windows (key, hits, reset_at) values (${this.prefix + key}, 1, now() + ${timeWindow} * interval '1 millisecond')
          on conflict (key) do update set
            hits = case when limit_windows.reset_at <= now() then 1 else limit_windows.hits + 1 end,
            reset_at = case when limit_windows.reset_at <= now() then excluded.reset_at else limit_windows.reset_at end
          returning hits, ceil(extract(epoch from reset_at - now()) * 1000)::int as ttl`,
      ).then(
        ([row]) => callback(null, { current: row.hits, ttl: Math.max(0, row.ttl) }),
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: RateLimitCallback): void {
      rowsOf<{ hits: number; ttl: number }>(
        db,
        sql`select hits, ceil(extract(epoch from reset_at - now()) * 1000)::int as ttl from limit_windows where key = ${this.prefix + key} and reset_at > now()`,
      ).then(
        ([row]) => callback(null, row ? { current: row.hits, ttl: Math.max(0, row.ttl) } : { current: 0, ttl: 0 }),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: object): RateLimitStore {
      return new SqlRateLimitStore(routePrefix(routeOptions));
    }
  }
  return SqlRateLimitStore;
}

function memoryRateLimitStore(): new () => RateLimitStore {
  const windows = new Map<string, { hits: number; resetAt: number }>();
  class MemoryRateLimitStore implements RateLimitStore {
    constructor(private readonly prefix = '') {}

    incr(key: string, callback: RateLimitCallback, timeWindow: number): void {
      const now = Date.now();
      const id = this.prefix + key;
      let entry = windows.get(id);
      if (!entry || entry.resetAt <= now) {
        if (windows.size > 50_000) for (const [k, v] of windows) if (v.resetAt <= now) windows.delete(k);
        entry = { hits: 0, resetAt: now + timeWindow };
        windows.set(id, entry);
      }
      entry.hits += 1;
      callback(null, { current: entry.hits, ttl: entry.resetAt - now });
    }

    read(key: string, callback: RateLimitCallback): void {
      const now = Date.now();
      const entry = windows.get(this.prefix + key);
      callback(null, entry && entry.resetAt > now ? { current: entry.hits, ttl: entry.resetAt - now } : { current: 0, ttl: 0 });
    }

    child(routeOptions: object): RateLimitStore {
      return new MemoryRateLimitStore(routePrefix(routeOptions));
    }
  }
  return MemoryRateLimitStore;
}

function sqlFailures(db: Db, name: string, max: number, windowMs: number): FailureCounter {
  return {
    async isBlocked(key) {
      const [row] = await rowsOf<{ n: number }>(
        db,
        sql`select count(*)::int as n from limit_hits where key = ${`${name}:${key}`} and at > now() - ${windowMs} * interval '1 millisecond'`,
      );
      return row.n >= max;
    },
    async fail(key) {
      await db.execute(sql`insert into limit_hits (key) values (${`${name}:${key}`})`);
    },
    async clear(key) {
      await db.execute(sql`delete from limit_hits where key = ${`${name}:${key}`}`);
    },
  };
}

function sqlTries(db: Db, name: string, max: number, windowMs: number): TryBudget {
  return {
    async take(key) {
      const id = `${name}:${key}`;
      const [hit] = await rowsOf<{ at: string }>(db, sql`insert into limit_hits (key) values (${id}) returning at::text as at`);
      const giveBack = async () => {
        await db.execute(
          sql`delete from limit_hits where ctid = (select ctid from limit_hits where key = ${id} and at = ${hit.at}::timestamptz limit 1)`,
        );
      };
      const [counted] = await rowsOf<{ n: number }>(
        db,
        sql`select count(*)::int as n from limit_hits where key = ${id} and at > now() - ${windowMs} * interval '1 millisecond'`,
      );
      if (counted.n <= max) return { left: max - counted.n, giveBack };
      await giveBack();
      const [oldest] = await rowsOf<{ ms: number }>(
        db,
        sql`select ceil(extract(epoch from at + ${windowMs} * interval '1 millisecond' - now()) * 1000)::int as ms from limit_hits
          where key = ${id} and at > now() - ${windowMs} * interval '1 millisecond' order by at desc offset ${max - 1} limit 1`,
      );
      return { retryAfterMs: Math.max(1_000, oldest?.ms ?? windowMs) };
    },
  };
}

function memoryTries(limiter: AttemptLimiter): TryBudget {
  return {
    async take(key) {
      const taken = limiter.take(key);
      if ('retryAfterMs' in taken) return taken;
      return { left: taken.left, giveBack: async () => limiter.giveBack(key, taken.at) };
    },
  };
}

function memoryFailures(limiter: AttemptLimiter): FailureCounter {
  return {
    isBlocked: async (key) => limiter.isBlocked(key),
    fail: async (key) => limiter.fail(key),
    clear: async (key) => limiter.clear(key),
  };
}

/**
 * Tells every instance's session cache to forget, through LISTEN/NOTIFY on either database. Instances greet
 * each other on the channel ("hello"), so each knows its peers; settle() sends a marker after the change and
 * returns once every known peer has answered that it heard it. A peer hears notifications in commit order, so
 * by then it has forgotten the changed sign-in. A peer silent for SETTLE_LIMIT_MS is taken for gone.
 */
async function watchSessions(database: Database, onChange: () => void): Promise<SessionWatch> {
  const self = randomUUID();
  const peers = new Set<string>();
  const waiting = new Map<string, { missing: Set<string>; done: () => void }>();
  const send = (payload: string) => database.db.execute(sql`select pg_notify(${SESSIONS_CHANNEL}, ${payload})`);
  const stop = await database.listen(SESSIONS_CHANNEL, (payload) => {
    const [kind, token, from] = (payload ?? '').split(':');
    if (kind === 'hello' && token !== self) {
      if (!peers.has(token)) {
        peers.add(token);
        send(`hello:${self}`).catch(() => undefined);
      }
      return;
    }
    if (kind === 'settle') {
      onChange();
      send(`heard:${token}:${self}`).catch(() => undefined);
      return;
    }
    if (kind === 'heard') {
      if (from !== self) peers.add(from);
      const wait = waiting.get(token);
      wait?.missing.delete(from);
      if (wait && wait.missing.size === 0) wait.done();
      return;
    }
    onChange();
  });
  await send(`hello:${self}`);
  return {
    async settle() {
      const token = randomUUID();
      const missing = new Set([self, ...peers]);
      let timer: NodeJS.Timeout | undefined;
      const heard = new Promise<void>((resolve) => {
        waiting.set(token, { missing, done: resolve });
        timer = setTimeout(resolve, SETTLE_LIMIT_MS);
      });
      try {
        await send(`settle:${token}`);
        await heard;
        for (const gone of missing) peers.delete(gone);
      } finally {
        clearTimeout(timer);
        waiting.delete(token);
      }
    },
    stop,
  };
}

const inProcess = new WeakMap<Db, { failures: Map<string, AttemptLimiter>; rateLimitStore: new () => RateLimitStore }>();

/** One limiter per name in this process, made with the limits of its first use. */
function limiterOf(limiters: Map<string, AttemptLimiter>, name: string, max: number, windowMs: number): AttemptLimiter {
  let limiter = limiters.get(name);
  if (!limiter) {
    limiter = new AttemptLimiter(max, windowMs);
    limiters.set(name, limiter);
  }
  return limiter;
}

/** The shared state for the apps built on one database: in PostgreSQL itself, or in this process for PGlite. */
export function sharedStateOf(database: Database): SharedState {
  if (database.kind === 'postgres') {
    return {
      where: 'database',
      failures: (name, max, windowMs) => sqlFailures(database.db, name, max, windowMs),
      tries: (name, max, windowMs) => sqlTries(database.db, name, max, windowMs),
      rateLimitStore: sqlRateLimitStore(database.db),
      watchSessions: (onChange) => watchSessions(database, onChange),
    };
  }
  let local = inProcess.get(database.db);
  if (!local) {
    local = { failures: new Map(), rateLimitStore: memoryRateLimitStore() };
    inProcess.set(database.db, local);
  }
  const { failures } = local;
  return {
    where: 'process',
    failures: (name, max, windowMs) => memoryFailures(limiterOf(failures, name, max, windowMs)),
    tries: (name, max, windowMs) => memoryTries(limiterOf(failures, `tries:${name}`, max, windowMs)),
    rateLimitStore: local.rateLimitStore,
    watchSessions: (onChange) => watchSessions(database, onChange),
  };
}

/** Forgets counters whose windows ended; run by the hourly purge job. */
export async function purgeLimits(db: Db, longestWindowMs: number): Promise<void> {
  await db.execute(sql`delete from limit_windows where reset_at < now()`);
  await db.execute(sql`delete from limit_hits where at < now() - ${longestWindowMs} * interval '1 millisecond'`);
}
