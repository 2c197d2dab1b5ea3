import {
  idempotencyHeaders,
  orderPaymentHold,
  paymentAuthorization,
  paymentAuthorizationRequest,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSession } from '../../http/session';
import { serviceCtx } from '../../http/service-context';
import { z } from 'zod';
import { authorizePayment, getOrderHold, retryOrderHold } from './payment-authorizations.service';

const orderHoldParams = tokenParams.extend({ orderId: z.coerce.number().int().min(1).max(2_147_483_647) });
/** Who may see an order's hold: whoever may read the order (its visibility is checked by the service). */
const READ_ORDER: readonly Permission[] = ['search_orders_view', 'search_orders_edit', 'create_distributor_orders'];

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

  app.get(
    '/api/paymentauthorizations/orders/:orderId/:token',
    {
      onRequest: requireSession({ anyOf: READ_ORDER }),
      schema: {
        tags: ['orders'],
        summary:
          "The order's card hold as the order flow shows it: authorized, declined (in words), pending, or how the money comes without one",
        params: orderHoldParams,
        response: { 200: successEnvelope(orderPaymentHold) },
      },
    },
    async (request) => ({ info: await getOrderHold(serviceCtx(request), request.params.orderId) }),
  );

  app.post(
    '/api/paymentauthorizations/orders/:orderId/:token',
    {
      onRequest: requireSession({ anyOf: AUTHORIZE }),
      schema: {
        tags: ['orders'],
        summary:
          "Ask for the order's hold again (after a decline or a lost answer) on the card its document names (Idempotency-Key)",
        params: orderHoldParams,
        headers: idempotencyHeaders,
        response: { 200: successEnvelope(orderPaymentHold) },
      },
    },
    async (request) => ({
      info: await retryOrderHold(serviceCtx(request), request.params.orderId, request.headers['idempotency-key']),
    }),
  );
};
