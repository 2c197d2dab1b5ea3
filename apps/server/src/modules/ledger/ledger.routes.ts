import { ledgerCheck as ledgerCheckSchema, ledgerCheckQuery, ROLE, successEnvelope } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { ledgerCheck } from './ledger.service';

const adminOnly = requireSession({ roles: [ROLE.ADMIN] });

/** The ledger check (decision 112): stored invoice and receipt figures against the ledger's derivation; Admin only. */
export const ledgerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/billing/ledger-check/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['billing'],
        summary: 'Ledger check: invoices and receipts whose stored figures differ from the ledger',
        params: z.object({ token: z.string() }),
        querystring: ledgerCheckQuery,
        response: { 200: successEnvelope(ledgerCheckSchema) },
      },
    },
    async (request) => ({ info: await ledgerCheck(serviceCtx(request), request.query) }),
  );
};
