import {
  collectionCard,
  collectionCardRequest,
  idempotencyHeaders,
  merchantLinkParams,
  merchantPaymentRequest,
  merchantPaymentResult,
  merchantPaymentView,
  paymentCollectionParams,
  paymentCollectionView,
  requiredIdempotencyHeaders,
  successEnvelope,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicCtx, serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { addCollectionCard, viewPaymentCollection } from './collection-view.service';
import { payThroughLink, viewMerchantPayment, type MerchantLinkPurpose } from './merchant-payments.service';

const tags = ['merchant-payments'];
/** Issue 15 points 6–7 (decision 118): the public payment-update and payment-method pages. */
export const merchantPaymentRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * A link token is a credential, so guessing is slowed down as sign-in is (per client address and route, the
   * sign-in limit per minute). The token is the path parameter `tok`, which the request log redacts (http/redact.ts).
   */
  const publicLimit = { rateLimit: { max: app.ctx.config.signInRateLimitPerMinute, timeWindow: 60_000 } };
  const pages: Array<{ path: string; purpose: MerchantLinkPurpose; what: string }> = [
    { path: '/api/public/payment/:tok', purpose: 'payment_update', what: 'pay what is owed with a new method' },
    {
      path: '/api/public/payment/instrument/:tok',
      purpose: 'payment_instrument',
      what: 'give a new payment method (failed invoices are retried at once)',
    },
  ];
  for (const page of pages) {
    app.get(
      page.path,
      {
        config: publicLimit,
        schema: {
          tags,
          summary: `The merchant's page to ${page.what}: the store, its open invoices and total, the method on file`,
          params: merchantLinkParams,
          response: { 200: successEnvelope(merchantPaymentView) },
        },
      },
      async (request) => ({ info: await viewMerchantPayment(publicCtx(request), request.params.tok, page.purpose) }),
    );
    app.post(
      page.path,
      {
        config: publicLimit,
        schema: {
          tags,
          summary: `The merchant ${page.what}; the link is used up (Idempotency-Key required)`,
          params: merchantLinkParams,
          headers: requiredIdempotencyHeaders,
          body: merchantPaymentRequest,
          response: { 200: successEnvelope(merchantPaymentResult) },
        },
      },
      async (request) => ({
        info: await payThroughLink(
          publicCtx(request),
          request.params.tok,
          page.purpose,
          request.body,
          request.headers['idempotency-key'],
        ),
      }),
    );
  }

  app.get(
    '/api/customers/paymentcollection/:paymentPlanId/:token',
    {
      onRequest: requireSession({ anyOf: ['collect_payment'] }),
      schema: {
        tags,
        summary:
          "The collection page: the plan's customer and store, past-due invoices, payment methods (collect_payment)",
        params: paymentCollectionParams.extend({ token: z.string() }),
        response: { 200: successEnvelope(paymentCollectionView) },
      },
    },
    async (request) => ({ info: await viewPaymentCollection(serviceCtx(request), request.params.paymentPlanId) }),
  );

  app.post(
    '/api/customers/paymentcollection/:paymentPlanId/card/:token',
    {
      onRequest: requireSession({ anyOf: ['collect_payment'] }),
      schema: {
        tags,
        summary:
          "A new card for a collection: stored for the plan's store, not the default (collect_payment; Idempotency-Key)",
        params: paymentCollectionParams.extend({ token: z.string() }),
        headers: idempotencyHeaders,
        body: collectionCardRequest,
        response: { 201: successEnvelope(collectionCard) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        info: await addCollectionCard(
          serviceCtx(request),
          request.params.paymentPlanId,
          request.body,
          request.headers['idempotency-key'],
        ),
      }),
  );
};
