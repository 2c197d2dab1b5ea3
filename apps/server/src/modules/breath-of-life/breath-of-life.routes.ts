import { sendCsv } from '../../http/csv-reply';
import {
  idempotencyHeaders,
  successEnvelope,
  tokenParams,
  winbackActivityCreate,
  winbackCase,
  winbackListQuery,
  winbackListResult,
  winbackOfferCreate,
  winbackOutcomeCreate,
  winbackReactivate,
  winbackReactivation,
  winbackStoreParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  getWinbackCase,
  listWinback,
  listWinbackCsv,
  logWinbackActivity,
  makeWinbackOffer,
  reactivateWinback,
  recordWinbackOutcome,
} from './breath-of-life.service';

/** #/breathoflife's privilege; the server enforces it on every call (decision 131). */
export const BREATH_OF_LIFE_GUARD: readonly Permission[] = ['breath_of_life'];
const canUse = requireSession({ anyOf: BREATH_OF_LIFE_GUARD });
const tags = ['breath of life'];

/** Breath of life (issue 18 part 4, decision 131). Contracts: packages/domain/src/contracts/breath-of-life.ts. */
export const breathOfLifeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/breathoflife/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          'The win-back list: lapsed and canceled stores with their case; filters, sort, paging. format=csv: every row as CSV',
        params: tokenParams,
        querystring: winbackListQuery,
        response: { 200: successEnvelope(winbackListResult) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const ctx = serviceCtx(request);
      if (q.format === 'csv') {
        return sendCsv(reply, ctx, 'breath-of-life', listWinbackCsv(ctx, q));
      }
      return { info: await listWinback(ctx, q) };
    },
  );

  app.get(
    '/api/breathoflife/:storeId/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary: "A store's win-back case: contact, last invoice, reason, history, the promotions one may offer",
        params: winbackStoreParams,
        response: { 200: successEnvelope(winbackCase) },
      },
    },
    async (request) => ({ info: await getWinbackCase(serviceCtx(request), request.params.storeId) }),
  );

  app.post(
    '/api/breathoflife/:storeId/activities/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary: 'Log a call (a new case becomes contacted) or a note',
        params: winbackStoreParams,
        body: winbackActivityCreate,
        response: { 200: successEnvelope(winbackCase) },
      },
    },
    async (request) => ({
      info: await logWinbackActivity(serviceCtx(request), request.params.storeId, request.body),
    }),
  );

  app.post(
    '/api/breathoflife/:storeId/offer/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary: 'Make an offer: the reactivation fee waived, or an active promotion in the store currency',
        params: winbackStoreParams,
        body: winbackOfferCreate,
        response: { 200: successEnvelope(winbackCase) },
      },
    },
    async (request) => ({ info: await makeWinbackOffer(serviceCtx(request), request.params.storeId, request.body) }),
  );

  app.post(
    '/api/breathoflife/:storeId/outcome/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary: 'Record the outcome: won, or lost with the reason',
        params: winbackStoreParams,
        body: winbackOutcomeCreate,
        response: { 200: successEnvelope(winbackCase) },
      },
    },
    async (request) => ({
      info: await recordWinbackOutcome(serviceCtx(request), request.params.storeId, request.body),
    }),
  );

  app.post(
    '/api/breathoflife/:storeId/reactivate/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          "Reactivate: re-open the store's plan and license (US fee invoice unless waived), mail the payment link; the case is won",
        params: winbackStoreParams,
        headers: idempotencyHeaders,
        body: winbackReactivate,
        response: { 200: successEnvelope(winbackReactivation) },
      },
    },
    async (request) => ({
      info: await reactivateWinback(
        serviceCtx(request),
        request.params.storeId,
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );
};
