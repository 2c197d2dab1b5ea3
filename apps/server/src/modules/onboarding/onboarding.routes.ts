import { onboardParams, orderOnboarding, successEnvelope } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOfSession } from '../../http/audit';
import { requireSession, sessionOf } from '../../http/session';
import { loadVisibleOrder } from '../orders';
import { onboardOrder } from './onboarding.service';

/** POST /api/customers/orderinfo/{orderId}/onboard/{token}: run a Complete order's onboarding again (Admin; idempotent). */
export const onboardingRoutes: FastifyPluginAsyncZod = async (app) => {
  const ctx = app.ctx;
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
      const session = sessionOf(request);
      // Decision 102: every call that names an order reads it through the one access rule (404 if not visible).
      await loadVisibleOrder(ctx.database.db, session, { id: request.params.orderId });
      const by = { actor: actorOfSession(session), requestId: request.id };
      return {
        info: await ctx.database.db.transaction((tx) =>
          onboardOrder(ctx, tx as unknown as Db, request.params.orderId, by),
        ),
      };
    },
  );
};
