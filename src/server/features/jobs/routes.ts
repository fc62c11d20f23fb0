import { can } from '../../../shared/permissions.ts';
import { JOBS_MSG, jobItem, jobNameParams, jobRunResult } from '../../../shared/schemas/jobs.ts';
import { listResponse, ok, savedResponse } from '../../../shared/schemas/responses.ts';
import type { App } from '../../app-type.ts';
import type { AppContext } from '../../context.ts';
import { authorize } from '../../lib/auth.ts';
import * as service from './service.ts';

const onRequest = authorize((user) => can(user, 'jobs.manage'));

export function jobRoutes(app: App, ctx: AppContext) {
  app.get(
    '/api/jobs',
    {
      schema: {
        operationId: 'listJobs',
        summary: "Lists the background jobs with each one's last run, result, error and next run",
        tags: ['jobs'],
        response: ok(listResponse(jobItem)),
      },
      onRequest,
    },
    async () => ({ data: await service.list(ctx) }),
  );

  app.post(
    '/api/jobs/:name/run',
    {
      schema: {
        operationId: 'runJob',
        summary: 'Runs a background job now, once across instances, and answers how it went',
        tags: ['jobs'],
        params: jobNameParams,
        response: ok(savedResponse(jobRunResult), 404, 409),
      },
      onRequest,
    },
    async (request) => {
      const result = await service.runNow(ctx, request.params.name);
      return { message: result.error === null ? JOBS_MSG.ran : JOBS_MSG.failed(result.error), data: result };
    },
  );
}
