import { bankListInfo, bankListQuery, successEnvelope } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { listBanks } from './banks.service';

export const bankRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/customers/paymentinstruments/list/bank/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: 'Banks for payment instruments (optional ?country=US|CA)',
        params: z.object({ token: z.string() }),
        querystring: bankListQuery,
        response: { 200: successEnvelope(bankListInfo) },
      },
    },
    async (request) => ({ info: { banks: await listBanks(serviceCtx(request), { country: request.query.country }) } }),
  );
};
