import { jobStatusInfo, jobStatusParams, successEnvelope } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../http/errors';
import { requireSession, sessionOf } from '../../http/session';
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
    async (request) => {
      if (sessionOf(request).kind !== 'staff') throw new AppError('forbidden', 'Only staff can see jobs.');
      return { info: await getJobStatus(app.ctx.database, request.params.jobId) };
    },
  );
};
