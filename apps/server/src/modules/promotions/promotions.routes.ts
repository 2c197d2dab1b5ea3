import { sendCsv } from '../../http/csv-reply';
import {
  promotionCreateRequest,
  promotionExpireRequest,
  promotionIdParams,
  promotionOrderList,
  promotionRecord,
  promotionSearchQuery,
  promotionSearchResult,
  promotionUpdateRequest,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  createPromotion,
  expirePromotion,
  listPromotionOrders,
  searchPromotions,
  searchPromotionsCsv,
  updatePromotion,
} from './promotions.service';

/** #/promotions (route table): promotions_view or promotions_edit reads; promotions_edit writes. */
export const PROMOTIONS_VIEW_GUARD: readonly Permission[] = ['promotions_view', 'promotions_edit'];
export const PROMOTIONS_EDIT_GUARD: readonly Permission[] = ['promotions_edit'];
const canView = requireSession({ anyOf: PROMOTIONS_VIEW_GUARD });
const canEdit = requireSession({ anyOf: PROMOTIONS_EDIT_GUARD });
const tags = ['promotions'];

/** Promotions (issue 17 point 3, decision 125). Contracts: packages/domain/src/contracts/promotions.ts. */
export const promotionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/promotions/:token',
    {
      onRequest: canView,
      schema: {
        tags,
        summary:
          'Promotions with usage: filters (text, state, currency, customer type), sort, paging; format=csv: every row as CSV',
        params: tokenParams,
        querystring: promotionSearchQuery,
        response: { 200: successEnvelope(promotionSearchResult) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const ctx = serviceCtx(request);
      if (q.format === 'csv') {
        return sendCsv(reply, ctx, 'promotions', searchPromotionsCsv(ctx, q));
      }
      return { info: await searchPromotions(ctx, q) };
    },
  );

  app.post(
    '/api/promotions/:token',
    {
      onRequest: canEdit,
      schema: {
        tags,
        summary: 'Create a promotion (code unique per currency)',
        params: tokenParams,
        body: promotionCreateRequest,
        response: { 201: successEnvelope(promotionRecord) },
      },
    },
    async (request, reply) => {
      const info = await createPromotion(serviceCtx(request), request.body);
      return reply.code(201).send({ info });
    },
  );

  app.put(
    '/api/promotions/:id/:token',
    {
      onRequest: canEdit,
      schema: {
        tags,
        summary: 'Edit a promotion (send the version read; stale → 409 version_conflict)',
        params: promotionIdParams,
        body: promotionUpdateRequest,
        response: { 200: successEnvelope(promotionRecord) },
      },
    },
    async (request) => ({
      info: await updatePromotion(serviceCtx(request), { id: request.params.id, body: request.body }),
    }),
  );

  app.post(
    '/api/promotions/:id/expire/:token',
    {
      onRequest: canEdit,
      schema: {
        tags,
        summary: 'Expire a promotion today (its expiry becomes yesterday; stale version → 409)',
        params: promotionIdParams,
        body: promotionExpireRequest,
        response: { 200: successEnvelope(promotionRecord) },
      },
    },
    async (request) => ({
      info: await expirePromotion(serviceCtx(request), { id: request.params.id, version: request.body.version }),
    }),
  );

  app.get(
    '/api/promotions/:id/orders/:token',
    {
      onRequest: canView,
      schema: {
        tags,
        summary: 'The orders that used a promotion, newest first',
        params: promotionIdParams,
        response: { 200: successEnvelope(promotionOrderList) },
      },
    },
    async (request) => ({ info: await listPromotionOrders(serviceCtx(request), request.params.id) }),
  );
};
