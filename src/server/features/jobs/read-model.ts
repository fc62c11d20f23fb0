import type { Conn } from '../../db/client.ts';
import { latestJobRuns, type JobRun } from '../../db/jobs.ts';

export type { JobRun };

/**
 * Each background job's newest run: period, status ('running' | 'ok' | 'failed'), attempts and last error. The jobs
 * page shows them; the notifications raise 'check_failed' for a daily backup whose newest run failed.
 */
export async function lastRuns(conn: Conn): Promise<JobRun[]> {
  return latestJobRuns(conn);
}
