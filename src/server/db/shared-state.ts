import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { AttemptLimiter } from '../lib/attempt-limiter.ts';
import type { Database, Db } from './client.ts';
import { rowsOf } from './rows.ts';

/** Failures per key in a sliding window: sign-in throttles. */
export interface FailureCounter {
  isBlocked(key: string): Promise<boolean>;
  fail(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

/** A try under way: judged wrong, it becomes a failure (false when the budget was spent meanwhile); judged right, it is returned. */
export interface TakenTry {
  fail(): Promise<{ within: boolean; left: number }>;
  giveBack(): Promise<void>;
}

/** The limits of a TryBudget: failures in the window, and tries under way beyond them (parallel scans of one user). */
export interface TryLimits {
  max: number;
  inFlight: number;
  windowMs: number;
}

/**
 * Tries of something guessable (a badge or label code) per key. A try is held as pending while it is judged, so a
 * burst of parallel guesses meets the limit (failures + pending at most max + inFlight) before any is judged; a wrong
 * one becomes a failure, a right one is returned and costs nothing. With `max` failures in the window every try is
 * refused, counting nothing, with the time until one is free.
 */
export interface TryBudget {
  take(key: string): Promise<TakenTry | { retryAfterMs: number }>;
}

const PENDING = '~pending';
/** When only the tries under way fill a budget, one of them ends within moments. */
const IN_FLIGHT_RETRY_MS = 1_000;

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
  tries(name: string, limits: TryLimits): TryBudget;
  rateLimitStore: new () => RateLimitStore;
  watchSessions(onChange: () => void): Promise<SessionWatch>;
}

export const SESSIONS_CHANNEL = 'padtrack_sessions';
const SETTLE_LIMIT_MS = 1_000;

/** Each route counts apart, as the plugin's own store does; the plugin hands child() the route as `routeInfo`. */
const routePrefix = (routeOptions: object) => {
  // -- fastify-rate-limit types child()'s argument as the route options; at run time it carries `routeInfo` as well.
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

function sqlTries(db: Db, name: string, { max, inFlight, windowMs }: TryLimits): TryBudget {
  const window = sql`now() - ${windowMs} * interval '1 millisecond'`;
  const insert = async (key: string) =>
    (await rowsOf<{ at: string }>(db, sql`insert into limit_hits (key) values (${key}) returning at::text as at`))[0].at;
  const remove = async (key: string, at: string) => {
    await db.execute(
      sql`delete from limit_hits where ctid = (select ctid from limit_hits where key = ${key} and at = ${at}::timestamptz limit 1)`,
    );
  };
  const count = async (key: string) =>
    (await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from limit_hits where key = ${key} and at > ${window}`))[0].n;
  return {
    async take(key) {
      const failures = `${name}:${key}`;
      const pending = failures + PENDING;
      const at = await insert(pending);
      const [failed, underWay] = [await count(failures), await count(pending)];
      if (failed < max && failed + underWay <= max + inFlight)
        return {
          async fail() {
            await remove(pending, at);
            await insert(failures);
            const now = await count(failures);
            return { within: now <= max, left: Math.max(0, max - now) };
          },
          giveBack: () => remove(pending, at),
        };
      await remove(pending, at);
      if (failed < max) return { retryAfterMs: IN_FLIGHT_RETRY_MS };
      const [oldest] = await rowsOf<{ ms: number }>(
        db,
        sql`select ceil(extract(epoch from at + ${windowMs} * interval '1 millisecond' - now()) * 1000)::int as ms from limit_hits
          where key = ${failures} and at > ${window} order by at desc offset ${max - 1} limit 1`,
      );
      return { retryAfterMs: Math.max(IN_FLIGHT_RETRY_MS, oldest?.ms ?? windowMs) };
    },
  };
}

function memoryTries(limiter: AttemptLimiter, { max, inFlight }: TryLimits): TryBudget {
  return {
    async take(key) {
      const pending = key + PENDING;
      const failed = limiter.count(key);
      if (failed >= max) return { retryAfterMs: Math.max(IN_FLIGHT_RETRY_MS, limiter.freeIn(key, max)) };
      if (failed + limiter.count(pending) + 1 > max + inFlight) return { retryAfterMs: IN_FLIGHT_RETRY_MS };
      const at = Date.now();
      limiter.fail(pending, at);
      return {
        async fail() {
          limiter.remove(pending, at);
          limiter.fail(key);
          const now = limiter.count(key);
          return { within: now <= max, left: Math.max(0, max - now) };
        },
        giveBack: async () => limiter.remove(pending, at),
      };
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
      tries: (name, limits) => sqlTries(database.db, name, limits),
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
    tries: (name, limits) => memoryTries(limiterOf(failures, `tries:${name}`, limits.max, limits.windowMs), limits),
    rateLimitStore: local.rateLimitStore,
    watchSessions: (onChange) => watchSessions(database, onChange),
  };
}

/** Forgets counters whose windows ended; run by the hourly purge job. */
export async function purgeLimits(db: Db, longestWindowMs: number): Promise<void> {
  await db.execute(sql`delete from limit_windows where reset_at < now()`);
  await db.execute(sql`delete from limit_hits where at < now() - ${longestWindowMs} * interval '1 millisecond'`);
}
