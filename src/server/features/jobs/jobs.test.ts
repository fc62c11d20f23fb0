import { and, eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE } from '../../../shared/lookups.ts';
import { JOBS_MSG, type JobItem } from '../../../shared/schemas/jobs.ts';
import { claimJobRun, dailyAt, runJob, startJobs, type Job } from '../../db/jobs.ts';
import { jobRuns } from '../../db/schema/infrastructure.ts';
import { signedIn } from '../../test/factories.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../test/test-app.ts';
import { lastRuns } from './read-model.ts';

const MINUTE = 60_000;
let t: TestApp;
let other: Awaited<ReturnType<typeof createSecondInstance>>;
let admin: { authorization: string };
let itAdmin: { authorization: string };
let custodian: { authorization: string };

beforeAll(async () => {
  t = await createTestApp();
  other = await createSecondInstance(t);
  admin = (await signedIn(t, { role_id: ROLE.ADMIN })).headers;
  itAdmin = (await signedIn(t, { role_id: ROLE.IT_ADMIN })).headers;
  custodian = (await signedIn(t, { role_id: ROLE.CUSTODIAN })).headers;
});
afterAll(async () => {
  await other.close();
  await t.close();
});

let seq = 0;
/** A job of the test's own, registered with the app so the jobs routes see it. */
function testJob(run: Job['run'], values: Partial<Job> = {}): Job & { runs: Date[] } {
  seq += 1;
  const runs: Date[] = [];
  /* One period for the whole test, so a test run near midnight UTC does not step into the next day's period. */
  const day = new Date().toISOString().slice(0, 10);
  const job = {
    name: `test-job-${seq}-${Date.now()}`,
    description: 'A test job',
    everyMs: 15 * MINUTE,
    period: () => day,
    ...values,
    runs,
    run: async (now: Date) => {
      runs.push(now);
      await run(now);
    },
  };
  t.ctx.jobs.push(job);
  return job;
}

async function listed(name: string): Promise<JobItem | undefined> {
  const res = await t.app.inject({ method: 'GET', url: '/api/jobs', headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { data: JobItem[] }).data.find((job) => job.name === name);
}

const storedRuns = (name: string) => t.db.select().from(jobRuns).where(eq(jobRuns.name, name)).orderBy(jobRuns.period);

describe('the job runner', () => {
  it('when a job throws, then its error is kept, it is retried after the backoff within its period, and the jobs page shows it', async () => {
    const job = testJob(async () => {
      if (job.runs.length === 1) throw new Error('disk full');
    });
    const t0 = Date.now();
    const at = (ms: number) => ({ now: () => new Date(t0 + ms) });
    expect(await runJob(t.db, job, at(0))).toEqual({ period: job.period(new Date(t0)), status: 'failed', attempts: 1, error: 'disk full' });
    const failed = await listed(job.name);
    expect(failed?.last_run).toMatchObject({ status: 'failed', attempts: 1, last_error: 'disk full' });
    expect(failed?.next_run_at).toBe(new Date(t0 + MINUTE).toISOString());
    expect(await runJob(other.ctx.db, job, at(MINUTE - 1000))).toBeNull();
    expect(await runJob(other.ctx.db, job, at(MINUTE))).toMatchObject({ status: 'ok', attempts: 2 });
    expect(await runJob(t.db, job, at(2 * MINUTE))).toBeNull();
    expect(job.runs).toHaveLength(2);
    const shown = await listed(job.name);
    expect(shown?.last_run).toMatchObject({ status: 'ok', attempts: 2, last_error: 'disk full' });
    expect(shown?.last_run?.finished_at).not.toBeNull();
    const [row] = await storedRuns(job.name);
    expect(row).toMatchObject({ status: 'ok', attempts: 2, last_error: 'disk full', next_attempt_at: null });
  });

  it('when the instance running a job stops, then another takes the run over once its lease has ended', async () => {
    const job = testJob(async () => undefined, { leaseMs: 10 * MINUTE });
    const t0 = Date.now();
    expect(await claimJobRun(t.db, job, job.period(new Date(t0)), new Date(t0))).toBe(1);
    expect(await runJob(other.ctx.db, job, { now: () => new Date(t0 + 5 * MINUTE) })).toBeNull();
    expect(await runJob(other.ctx.db, job, { now: () => new Date(t0 + 10 * MINUTE) })).toMatchObject({ status: 'ok', attempts: 2 });
    expect(job.runs).toHaveLength(1);
  });

  it('when the server starts at 09:00 after being down at 07:00, then the daily run happens once, and a second start runs nothing', async () => {
    const job = testJob(async () => undefined, { period: dailyAt('Asia/Manila', 7) });
    const manila = (local: string) => new Date(`${local}+08:00`);
    expect(await runJob(t.db, job, { now: () => manila('2026-11-19T07:00:30') })).toMatchObject({ period: '2026-11-19', status: 'ok' });
    const start = async (local: string) => {
      const stop = startJobs(t.db, [job], pino({ level: 'silent' }), { now: () => manila(local), firstLookMs: 0 });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await stop();
    };
    await start('2026-11-20T09:00:00');
    expect(job.runs.map((at) => at.toISOString())).toEqual(
      [manila('2026-11-19T07:00:30'), manila('2026-11-20T09:00:00')].map((at) => at.toISOString()),
    );
    await start('2026-11-20T09:30:00');
    expect(job.runs).toHaveLength(2);
    // Down all of the 21st and started before the hour on the 22nd: the 21st (the last missed day only) runs once.
    await start('2026-11-22T06:00:00');
    await start('2026-11-22T06:10:00');
    expect(job.runs).toHaveLength(3);
    expect((await storedRuns(job.name)).map((row) => [row.period, row.status, row.attempts])).toEqual([
      ['2026-11-19', 'ok', 1],
      ['2026-11-20', 'ok', 1],
      ['2026-11-21', 'ok', 1],
    ]);
  });

  it('when the daily period is read around the hour, then it is the day before until 07:00 local and the day from then', () => {
    const period = dailyAt('Asia/Manila', 7);
    expect(period(new Date('2026-11-29T22:59:59Z'))).toBe('2026-11-29');
    expect(period(new Date('2026-11-29T23:00:00Z'))).toBe('2026-11-30');
    expect(period(new Date('2026-12-01T06:59:00+08:00'))).toBe('2026-11-30');
  });
});

describe('GET /api/jobs and POST /api/jobs/{name}/run', () => {
  it('when the Admin lists the jobs, then each server job is there with its next run, and others are refused', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/jobs', headers: admin });
    expect(res.statusCode).toBe(200);
    const names = (res.json() as { data: JobItem[] }).data.map((job) => job.name);
    expect(names).toEqual(expect.arrayContaining(['purge', 'ledger-check', 'send-mail']));
    const sender = (res.json() as { data: JobItem[] }).data.find((job) => job.name === 'send-mail');
    expect(sender).toMatchObject({ every_seconds: 60, last_run: null });
    for (const headers of [itAdmin, custodian]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/jobs', headers })).statusCode).toBe(403);
    }
  });

  it('when the Admin runs a job now, then it runs even though its period already ran, and the answer says how it went', async () => {
    const job = testJob(async () => undefined);
    await runJob(t.db, job);
    const res = await t.app.inject({ method: 'POST', url: `/api/jobs/${job.name}/run`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: JOBS_MSG.ran,
      data: { name: job.name, period: job.period(new Date()), status: 'ok', attempts: 2, error: null },
    });
    expect(job.runs).toHaveLength(2);
    const [row] = await storedRuns(job.name);
    expect(row).toMatchObject({ status: 'ok', attempts: 2 });
  });

  it('when a job run now fails, then the answer carries its error and the run is kept as failed', async () => {
    const job = testJob(async () => {
      throw new Error('backup directory missing');
    });
    const res = await t.app.inject({ method: 'POST', url: `/api/jobs/${job.name}/run`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: JOBS_MSG.failed('backup directory missing'),
      data: { status: 'failed', attempts: 1, error: 'backup directory missing' },
    });
    expect((await lastRuns(t.db)).find((run) => run.name === job.name)).toMatchObject({
      status: 'failed',
      last_error: 'backup directory missing',
    });
  });

  it('when someone other than the Admin runs a job, or the job is unknown, or it is running, then 403, 404 and 409', async () => {
    let release: () => void = () => undefined;
    const job = testJob(() => new Promise<void>((resolve) => (release = resolve)));
    for (const headers of [itAdmin, custodian]) {
      const res = await t.app.inject({ method: 'POST', url: `/api/jobs/${job.name}/run`, headers });
      expect(res.statusCode).toBe(403);
    }
    expect(job.runs).toHaveLength(0);
    const unknown = await t.app.inject({ method: 'POST', url: '/api/jobs/no-such-job/run', headers: admin });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: JOBS_MSG.unknown });
    const first = t.app.inject({ method: 'POST', url: `/api/jobs/${job.name}/run`, headers: admin });
    await expect.poll(() => job.runs.length).toBe(1);
    const second = await t.app.inject({ method: 'POST', url: `/api/jobs/${job.name}/run`, headers: admin });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ message: JOBS_MSG.running });
    release();
    expect((await first).statusCode).toBe(200);
    const [row] = await t.db
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.name, job.name), eq(jobRuns.status, 'ok')));
    expect(row.attempts).toBe(1);
  });
});
