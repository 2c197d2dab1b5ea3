import {
  idempotencyHeaders,
  reconcileDayRequest,
  reconcileDayResult,
  reconciliationList,
  reconciliationListQuery,
  reconciliationRunDetail,
  reconciliationRunParams,
  ROLE,
  successEnvelope,
  tokenParams,
  type Role,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendCsv } from '../../http/csv-reply';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  getReconciliationRun,
  listReconciliationRuns,
  reconcileDayNow,
  reconciliationRunsCsv,
} from './reconciliation.service';

/** Admin → Reconciliation (#/admin/reconciliation): AR's work, and Admin's (decision 146). */
export const RECONCILIATION_ROLES: readonly Role[] = [ROLE.ADMIN, ROLE.AR_TEAM];
const arOrAdmin = requireSession({ roles: RECONCILIATION_ROLES });
const tags = ['reconciliation'];

/** Reconciliation with the gateway's books (issue 28 item 4). Contracts: packages/domain/src/contracts/reconciliation.ts. */
export const reconciliationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/reconciliation/runs/:token',
    {
      onRequest: arOrAdmin,
      schema: {
        tags,
        summary:
          'Reconciliation runs: filters (days, currency, status), sort, paging; format=csv: every matching run as CSV',
        params: tokenParams,
        querystring: reconciliationListQuery,
        response: { 200: successEnvelope(reconciliationList) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      if (request.query.format === 'csv')
        return sendCsv(reply, ctx, 'reconciliation', reconciliationRunsCsv(ctx, request.query));
      return { info: await listReconciliationRuns(ctx, request.query) };
    },
  );

  app.get(
    '/api/reconciliation/runs/:runId/:token',
    {
      onRequest: arOrAdmin,
      schema: {
        tags,
        summary: 'One reconciliation run: both sides’ totals and the lines that differ, with our transactions',
        params: reconciliationRunParams,
        response: { 200: successEnvelope(reconciliationRunDetail) },
      },
    },
    async (request) => ({ info: await getReconciliationRun(serviceCtx(request), request.params.runId) }),
  );

  app.post(
    '/api/reconciliation/runs/:token',
    {
      onRequest: arOrAdmin,
      schema: {
        tags,
        summary: 'Reconcile a UTC day now: one currency or every currency; one run each (Idempotency-Key)',
        params: tokenParams,
        headers: idempotencyHeaders,
        body: reconcileDayRequest,
        response: { 201: successEnvelope(reconcileDayResult) },
      },
    },
    async (request, reply) => {
      const info = await reconcileDayNow(serviceCtx(request), request.body, request.headers['idempotency-key']);
      return reply.code(201).send({ info });
    },
  );
};
