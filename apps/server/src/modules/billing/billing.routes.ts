import {
  billingRunInfo,
  billingRunList,
  billingRunListQuery,
  billingRunParams,
  billingRunRequest,
  billingRunStarted,
  ROLE,
  successEnvelope,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { getBillingRun, listBillingRuns, startBillingRun } from './billing.service';

const adminOnly = requireSession({ roles: [ROLE.ADMIN] });
const tags = ['billing'];

/** The billing engine's runs (issue 14, decision 113); Admin only. */
export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/billing/runs/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Start a billing run now (as of today in the billing time zone, or a given date outside production)',
        params: z.object({ token: z.string() }),
        body: billingRunRequest.optional(),
        response: { 202: successEnvelope(billingRunStarted) },
      },
    },
    async (request, reply) => {
      const info = await startBillingRun(serviceCtx(request), request.body ?? {});
      return reply.code(202).send({ info });
    },
  );

  app.get(
    '/api/billing/runs/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Billing runs, newest first',
        params: z.object({ token: z.string() }),
        querystring: billingRunListQuery,
        response: { 200: successEnvelope(billingRunList) },
      },
    },
    async (request) => ({ info: await listBillingRuns(serviceCtx(request), request.query) }),
  );

  app.get(
    '/api/billing/runs/:runId/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'One billing run: status and progress',
        params: billingRunParams,
        response: { 200: successEnvelope(billingRunInfo) },
      },
    },
    async (request) => ({ info: await getBillingRun(serviceCtx(request), request.params.runId) }),
  );
};
