import {
  idempotencyHeaders,
  paymentAuthorization,
  paymentAuthorizationRequest,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSession } from '../../http/session';
import { serviceCtx } from '../../http/service-context';
import { authorizePayment } from './payment-authorizations.service';

/** Who may authorize a payment for an order: the order writers (decision 081). */
const AUTHORIZE: readonly Permission[] = ['create_distributor_orders', 'search_orders_edit'];

/** Spec §7 Other: POST /api/paymentauthorizations/{token}. */
export const paymentAuthorizationRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/paymentauthorizations/:token',
    {
      onRequest: requireSession({ anyOf: AUTHORIZE }),
      schema: {
        tags: ['orders'],
        summary:
          "Authorize (not capture) an amount on a card for an order (Idempotency-Key); a decline answers status 'declined'",
        params: tokenParams,
        headers: idempotencyHeaders,
        body: paymentAuthorizationRequest,
        response: { 200: successEnvelope(paymentAuthorization) },
      },
    },
    async (request) => ({
      info: await authorizePayment(serviceCtx(request), request.body, request.headers['idempotency-key']),
    }),
  );
};
