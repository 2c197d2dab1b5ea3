import {
  collectionCard,
  collectionCardRequest,
  idempotencyHeaders,
  merchantLinkParams,
  merchantMethodReplaced,
  merchantPaymentRequest,
  merchantPayRequest,
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
import {
  payThroughLink,
  replaceMethodThroughLink,
  viewMerchantPayment,
  type MerchantLinkPurpose,
} from './merchant-payments.service';

const tags = ['merchant-payments'];
/** Issue 15 points 6–7 (decisions 118, 155): the public payment-update and payment-method pages. */
export const merchantPaymentRoutes: FastifyPluginAsyncZod = async (app) => {
  /**
   * A link token is a credential, so guessing is slowed down as sign-in is (per client address and route, the
   * sign-in limit per minute). The token is the path parameter `tok`, which the request log redacts (http/redact.ts).
   */
  const publicLimit = { rateLimit: { max: app.ctx.config.signInRateLimitPerMinute, timeWindow: 60_000 } };
  const pages: Array<{ path: string; purpose: MerchantLinkPurpose; what: string }> = [
    {
      path: '/api/public/payment/:tok',
      purpose: 'payment_update',
      what: 'replace the payment method on file or pay what is owed',
    },
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
  }

  // Decision 155: on the payment-update page, replacing the method on file and paying are two separate calls.
  app.post(
    '/api/public/payment/:tok/method',
    {
      config: publicLimit,
      schema: {
        tags,
        summary:
          'The merchant replaces the payment method on file (the new default); nothing is charged (Idempotency-Key required)',
        params: merchantLinkParams,
        headers: requiredIdempotencyHeaders,
        body: merchantPaymentRequest,
        response: { 200: successEnvelope(merchantMethodReplaced) },
      },
    },
    async (request) => ({
      info: await replaceMethodThroughLink(
        publicCtx(request),
        request.params.tok,
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );
  app.post(
    '/api/public/payment/:tok',
    {
      config: publicLimit,
      schema: {
        tags,
        summary:
          'The merchant pays what is owed with the method on file or a new one (kept on file when make_default); the link is used up once money moved (Idempotency-Key required)',
        params: merchantLinkParams,
        headers: requiredIdempotencyHeaders,
        body: merchantPayRequest,
        response: { 200: successEnvelope(merchantPaymentResult) },
      },
    },
    async (request) => ({
      info: await payThroughLink(
        publicCtx(request),
        request.params.tok,
        'payment_update',
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );
  app.post(
    '/api/public/payment/instrument/:tok',
    {
      config: publicLimit,
      schema: {
        tags,
        summary:
          'The merchant gives a new payment method; failed invoices are retried at once; the link is used up (Idempotency-Key required)',
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
        'payment_instrument',
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );

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
