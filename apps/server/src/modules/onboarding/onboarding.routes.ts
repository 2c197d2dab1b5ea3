import { onboardParams, orderOnboarding, successEnvelope } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withTx } from '../../context';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { loadVisibleOrder } from '../orders';
import { onboardOrder } from './onboarding.service';

/** POST /api/customers/orderinfo/{orderId}/onboard/{token}: run a Complete order's onboarding again (Admin; idempotent). */
export const onboardingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/customers/orderinfo/:orderId/onboard/:token',
    {
      onRequest: requireSession({ roles: ['Admin'] }),
      schema: {
        tags: ['orders'],
        summary:
          'Onboard a Complete order (customer, store, terminals, plans, billing items, payment instruments) — once: a second call answers what exists',
        params: onboardParams,
        response: { 200: successEnvelope(orderOnboarding) },
      },
    },
    async (request) => {
      const ctx = serviceCtx(request);
      // Decision 102: every call that names an order reads it through the one access rule (404 if not visible).
      await loadVisibleOrder(ctx.app.database.db, ctx.session, { id: request.params.orderId });
      return { info: await withTx(ctx, (tx) => onboardOrder(ctx, tx, request.params.orderId)) };
    },
  );
};
