import {
  jobActionInfo,
  jobActionParams,
  jobRunInfo,
  jobRunParams,
  jobList,
  jobListQuery,
  mailList,
  mailListQuery,
  mailMessage,
  ROLE,
  successEnvelope,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { actOnJob, getMail, listJobs, listMail, runScheduledJobNow } from './admin.service';

const adminOnly = requireSession({ roles: [ROLE.ADMIN] });
const tags = ['admin'];

/** The staff Mailbox (messages kept or sent) and the job monitor; Admin only. */
export const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/mail/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Mailbox: recent messages',
        params: z.object({ token: z.string() }),
        querystring: mailListQuery,
        response: { 200: successEnvelope(mailList) },
      },
    },
    async (request) => ({ info: await listMail(serviceCtx(request), request.query) }),
  );

  app.get(
    '/api/admin/mail/:id/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Mailbox: one message with its HTML',
        params: z.object({ id: z.coerce.number().int().positive(), token: z.string() }),
        response: { 200: successEnvelope(mailMessage) },
      },
    },
    async (request) => ({ info: await getMail(serviceCtx(request), request.params.id) }),
  );

  app.get(
    '/api/admin/jobs/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Job monitor: recent jobs by queue and state',
        params: z.object({ token: z.string() }),
        querystring: jobListQuery,
        response: { 200: successEnvelope(jobList) },
      },
    },
    async (request) => ({ info: await listJobs(serviceCtx(request), request.query) }),
  );

  app.post(
    '/api/admin/jobs/:queue/run/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Job monitor: run a scheduled job now (the payment sweep, the gateway reconciliation, …)',
        params: jobRunParams,
        response: { 200: successEnvelope(jobRunInfo) },
      },
    },
    async (request) => ({ info: await runScheduledJobNow(serviceCtx(request), request.params.queue) }),
  );

  for (const action of ['retry', 'cancel'] as const) {
    app.post(
      `/api/admin/jobs/:queue/:id/${action}/:token`,
      {
        onRequest: adminOnly,
        schema: {
          tags,
          summary: `Job monitor: ${action} a job`,
          params: jobActionParams,
          response: { 200: successEnvelope(jobActionInfo) },
        },
      },
      async (request) => ({
        info: await actOnJob(serviceCtx(request), { queue: request.params.queue, id: request.params.id, action }),
      }),
    );
  }
};
