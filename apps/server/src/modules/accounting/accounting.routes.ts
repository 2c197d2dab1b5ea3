import {
  generalLedgerQuery,
  successEnvelope,
  tokenParams,
  trialBalance as trialBalanceSchema,
  trialBalanceQuery,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { contentDisposition } from '../../http/content-disposition';
import { sendCsv } from '../../http/csv-reply';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { generalLedgerCsv, trialBalance, trialBalanceCsv } from './accounting.service';

/** #/accounting: AR's month-end outputs (decision 146). */
export const ACCOUNTING_GUARD: readonly Permission[] = ['ar_approvals'];
const canRead = requireSession({ anyOf: ACCOUNTING_GUARD });
const tags = ['accounting'];

export const accountingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/accounting/trial-balance/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary:
          'Trial balance of the journal for a month and currency, with the tie-outs; format=csv: the rows as CSV',
        params: tokenParams,
        querystring: trialBalanceQuery,
        response: { 200: successEnvelope(trialBalanceSchema) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const tb = await trialBalance(serviceCtx(request), q);
      if (q.format === 'csv')
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', contentDisposition(`trial-balance-${q.currency}-${q.month}.csv`))
          .header('cache-control', 'no-store')
          .send(trialBalanceCsv(tb) as never);
      return { info: tb };
    },
  );

  app.get(
    '/api/accounting/general-ledger/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'General-ledger export (CSV): one row per journal line effective in the range, provider account codes',
        params: tokenParams,
        querystring: generalLedgerQuery,
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      return sendCsv(
        reply,
        ctx,
        `general-ledger-${request.query.currency}-${request.query.from}-${request.query.to}`,
        generalLedgerCsv(ctx, request.query),
      );
    },
  );
};
