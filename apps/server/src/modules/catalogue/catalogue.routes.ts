import { billingItemCatalogue, billingItemCatalogueQuery, billingItemCategoryList, successEnvelope } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSession } from '../../http/session';
import { listBillingItemCategories, listCatalogueBillingItems } from './catalogue.service';

/** Catalogue reads of spec §7 (decision 070): any signed-in session — agents and distributors read them too (§1). */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/customers/billingitems/:token/all',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: 'Active billing items with their price in one currency (?currency=USD|CAD, else the ?custstoreid= store’s, else USD)',
        params: z.object({ token: z.string() }),
        querystring: billingItemCatalogueQuery,
        response: { 200: successEnvelope(billingItemCatalogue) },
      },
    },
    async (request) => ({ info: await listCatalogueBillingItems(request.server.ctx, request.query) }),
  );

  app.get(
    '/api/customers/billingitemcategories/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: 'Billing item categories, by name',
        params: z.object({ token: z.string() }),
        response: { 200: successEnvelope(billingItemCategoryList) },
      },
    },
    async (request) => ({ info: { categories: await listBillingItemCategories(request.server.ctx) } }),
  );
};
