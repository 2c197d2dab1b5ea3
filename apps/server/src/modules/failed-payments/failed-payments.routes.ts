import { sendCsv } from '../../http/csv-reply';
import {
  failedPaymentSearchQuery,
  failedPaymentSearchResult,
  recoveryQuery,
  recoveryReport,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { getRecoveryReport, searchFailedPayments, searchFailedPaymentsCsv } from './failed-payments.service';

/** The failed-payments screen's privilege (#/payments); the server enforces it on every call. */
export const FAILED_PAYMENTS_GUARD: readonly Permission[] = ['failed_payments_edit'];
const canUse = requireSession({ anyOf: FAILED_PAYMENTS_GUARD });
const tags = ['payments'];

/** Failed payments (issue 15 point 5, decision 117). Contracts: packages/domain/src/contracts/failed-payments.ts. */
export const failedPaymentRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/payments/failed/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          'Failed charges with dunning state: filters, sort, paging; total exact up to 1,000 (total_capped beyond). format=csv: every row as CSV',
        params: tokenParams,
        querystring: failedPaymentSearchQuery,
        response: { 200: successEnvelope(failedPaymentSearchResult) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const ctx = serviceCtx(request);
      if (q.format === 'csv') {
        return sendCsv(reply, ctx, 'failed-payments', searchFailedPaymentsCsv(ctx, q));
      }
      return { info: await searchFailedPayments(ctx, q) };
    },
  );

  app.get(
    '/api/payments/recovery/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary: "A month's failed and recovered amounts per currency and per decline reason (default: this month)",
        params: tokenParams,
        querystring: recoveryQuery,
        response: { 200: successEnvelope(recoveryReport) },
      },
    },
    async (request) => ({ info: await getRecoveryReport(serviceCtx(request), request.query) }),
  );
};
