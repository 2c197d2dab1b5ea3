import { jobStatusInfo, jobStatusParams, successEnvelope } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { getJobStatus } from './jobs.service';

/** GET /api/jobs/{jobId}/{token}: a job's queue, state, retries, times and output or error — staff only. */
export const jobRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/jobs/:jobId/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['jobs'],
        summary:
          "A job's state: queue, state, retry count, created/started/completed times, output or error (staff only)",
        params: jobStatusParams,
        response: { 200: successEnvelope(jobStatusInfo) },
      },
    },
    async (request) => ({ info: await getJobStatus(serviceCtx(request), request.params.jobId) }),
  );
};
