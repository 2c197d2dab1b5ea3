import {
  billingItemCatalogue,
  billingItemCatalogueQuery,
  billingItemCategoryList,
  bundleCatalogue,
  bundlePriceOptionList,
  bundlePriceOptionsQuery,
  catalogueCurrencyQuery,
  productCatalogue,
  promotionLookup,
  promotionParams,
  promotionQuery,
  referralLookup,
  referralParams,
  successEnvelope,
  taxFetchRequest,
  taxFetchResult,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { listBillingItemCategories, listCatalogueBillingItems } from './catalogue.service';
import {
  findPromotions,
  findReferral,
  listBundlePriceOptions,
  listBundles,
  listProducts,
} from './order-catalogue.service';
import { fetchTaxes } from './taxes.service';

/** Catalogue reads of spec §7 (decision 070): any signed-in session — agents and distributors read them too (§1). */
export const catalogueRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/customers/billingitems/:token/all',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary:
          'Active billing items with their price in one currency (?currency=USD|CAD, else the ?custstoreid= store’s, else USD)',
        params: z.object({ token: z.string() }),
        querystring: billingItemCatalogueQuery,
        response: { 200: successEnvelope(billingItemCatalogue) },
      },
    },
    async (request) => ({ info: await listCatalogueBillingItems(serviceCtx(request), request.query) }),
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
    async (request) => ({ info: { categories: await listBillingItemCategories(serviceCtx(request)) } }),
  );

  // ── Order-flow catalogue (decision 074) and taxes (decision 075): any signed-in session. ──
  const tokenParams = z.object({ token: z.string() });

  app.get(
    '/api/products/:token/all',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: 'Active products with their price in ?currency= (default USD)',
        params: tokenParams,
        querystring: catalogueCurrencyQuery,
        response: { 200: successEnvelope(productCatalogue) },
      },
    },
    async (request) => ({ info: await listProducts(serviceCtx(request), request.query.currency) }),
  );

  app.get(
    '/api/products/terminals/:token/all',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: 'Active terminal products (§9 terminal product 1, Petro product 2) with their price',
        params: tokenParams,
        querystring: catalogueCurrencyQuery,
        response: { 200: successEnvelope(productCatalogue) },
      },
    },
    async (request) => ({ info: await listProducts(serviceCtx(request), request.query.currency, true) }),
  );

  app.get(
    '/api/bundles/:token/all',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: 'Active bundles with their items and monthly prices (NRS Pay bundles flagged)',
        params: tokenParams,
        querystring: catalogueCurrencyQuery,
        response: { 200: successEnvelope(bundleCatalogue) },
      },
    },
    async (request) => ({ info: await listBundles(serviceCtx(request), request.query.currency) }),
  );

  app.get(
    '/api/bundles/billingitempriceoptions/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: "Price options of a bundle's billing items (?bundle_id, ?currency, optional ?reference_id)",
        params: tokenParams,
        querystring: bundlePriceOptionsQuery,
        response: { 200: successEnvelope(bundlePriceOptionList) },
      },
    },
    async (request) => ({ info: await listBundlePriceOptions(serviceCtx(request), request.query) }),
  );

  app.get(
    '/api/customers/promotions/:code/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: 'Current promotions with a code (?expired=Y includes expired ones; ?promo_id= narrows)',
        params: promotionParams,
        querystring: promotionQuery,
        response: { 200: successEnvelope(promotionLookup) },
      },
    },
    async (request) => ({ info: await findPromotions(serviceCtx(request), request.params.code, request.query) }),
  );

  app.get(
    '/api/customers/referrals/:refId/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: 'An active referral by its code (or id)',
        params: referralParams,
        response: { 200: successEnvelope(referralLookup) },
      },
    },
    async (request) => ({ info: await findReferral(serviceCtx(request), request.params.refId) }),
  );

  app.post(
    '/api/customers/taxes/fetch/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: "Tax of an order's lines from the store's (or a state's) rate, per line, rounded half up",
        params: tokenParams,
        body: taxFetchRequest,
        response: { 200: successEnvelope(taxFetchResult) },
      },
    },
    async (request) => ({ info: await fetchTaxes(serviceCtx(request), request.body) }),
  );
};
