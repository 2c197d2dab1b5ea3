import {
  adminBillingItem,
  adminBillingItemList,
  adminBundle,
  adminBundleList,
  adminCategory,
  adminDomainDataEntry,
  adminDomainDataList,
  adminDomainDataQuery,
  adminProduct,
  adminProductList,
  billingItemCreate,
  billingItemUpdate,
  bundleCreate,
  bundleUpdate,
  catalogueIdParams,
  categoryInput,
  domainDataCreate,
  domainDataUpdate,
  priceOptionCreate,
  priceOptionParams,
  priceOptionUpdate,
  productCreate,
  productUpdate,
  ROLE,
  successEnvelope,
  tokenParams,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  addPriceOption,
  createBillingItem,
  createBundle,
  createCategory,
  createDomainData,
  createProduct,
  listAdminBillingItems,
  listAdminBundles,
  listAdminDomainData,
  listAdminProducts,
  renameCategory,
  updateBillingItem,
  updateBundle,
  updateDomainData,
  updatePriceOption,
  updateProduct,
} from './catalogue-admin.service';

/** Admin only, as the other admin tools (modules/admin). */
const adminOnly = requireSession({ roles: [ROLE.ADMIN] });
const tags = ['catalogue-admin'];
const base = '/api/admin/catalogue';

/** Catalogue management (#/admin/catalogue; issue 17 point 4, decision 126). Contracts: contracts/catalogue-admin.ts. */
export const catalogueAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  // ── Billing items and categories
  app.get(
    `${base}/billingitems/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Every billing item (inactive too) with its price per currency; the categories',
        params: tokenParams,
        response: { 200: successEnvelope(adminBillingItemList) },
      },
    },
    async (request) => ({ info: await listAdminBillingItems(serviceCtx(request)) }),
  );
  app.post(
    `${base}/billingitems/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Add a billing item with its prices',
        params: tokenParams,
        body: billingItemCreate,
        response: { 200: successEnvelope(adminBillingItem) },
      },
    },
    async (request) => ({ info: await createBillingItem(serviceCtx(request), request.body) }),
  );
  app.put(
    `${base}/billingitems/:id/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Edit, reprice or deactivate a billing item (stale version → 409)',
        params: catalogueIdParams,
        body: billingItemUpdate,
        response: { 200: successEnvelope(adminBillingItem) },
      },
    },
    async (request) => ({
      info: await updateBillingItem(serviceCtx(request), { id: request.params.id, body: request.body }),
    }),
  );
  app.post(
    `${base}/categories/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Add a billing-item category',
        params: tokenParams,
        body: categoryInput,
        response: { 200: successEnvelope(adminCategory) },
      },
    },
    async (request) => ({ info: await createCategory(serviceCtx(request), request.body) }),
  );
  app.put(
    `${base}/categories/:id/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Rename a billing-item category',
        params: catalogueIdParams,
        body: categoryInput,
        response: { 200: successEnvelope(adminCategory) },
      },
    },
    async (request) => ({
      info: await renameCategory(serviceCtx(request), { id: request.params.id, body: request.body }),
    }),
  );

  // ── Bundles and price options
  app.get(
    `${base}/bundles/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Every bundle (inactive too) with its price options',
        params: tokenParams,
        response: { 200: successEnvelope(adminBundleList) },
      },
    },
    async (request) => ({ info: await listAdminBundles(serviceCtx(request)) }),
  );
  app.post(
    `${base}/bundles/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Add a bundle',
        params: tokenParams,
        body: bundleCreate,
        response: { 200: successEnvelope(adminBundle) },
      },
    },
    async (request) => ({ info: await createBundle(serviceCtx(request), request.body) }),
  );
  app.put(
    `${base}/bundles/:id/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Edit or deactivate a bundle (stale version → 409)',
        params: catalogueIdParams,
        body: bundleUpdate,
        response: { 200: successEnvelope(adminBundle) },
      },
    },
    async (request) => ({
      info: await updateBundle(serviceCtx(request), { id: request.params.id, body: request.body }),
    }),
  );
  app.post(
    `${base}/bundles/:id/options/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: "Add a price option to a bundle (the bundle's version; stale → 409)",
        params: catalogueIdParams,
        body: priceOptionCreate,
        response: { 200: successEnvelope(adminBundle) },
      },
    },
    async (request) => ({
      info: await addPriceOption(serviceCtx(request), { bundleId: request.params.id, body: request.body }),
    }),
  );
  app.put(
    `${base}/bundles/:id/options/:optionId/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: "Edit a bundle's price option (the bundle's version; stale → 409)",
        params: priceOptionParams,
        body: priceOptionUpdate,
        response: { 200: successEnvelope(adminBundle) },
      },
    },
    async (request) => ({
      info: await updatePriceOption(serviceCtx(request), {
        bundleId: request.params.id,
        optionId: request.params.optionId,
        body: request.body,
      }),
    }),
  );

  // ── Products and terminal models
  app.get(
    `${base}/products/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Every product and terminal model (inactive too) with its price per currency',
        params: tokenParams,
        response: { 200: successEnvelope(adminProductList) },
      },
    },
    async (request) => ({ info: await listAdminProducts(serviceCtx(request)) }),
  );
  app.post(
    `${base}/products/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Add a product or terminal model with its prices',
        params: tokenParams,
        body: productCreate,
        response: { 200: successEnvelope(adminProduct) },
      },
    },
    async (request) => ({ info: await createProduct(serviceCtx(request), request.body) }),
  );
  app.put(
    `${base}/products/:id/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Edit, reprice or deactivate a product (stale version → 409)',
        params: catalogueIdParams,
        body: productUpdate,
        response: { 200: successEnvelope(adminProduct) },
      },
    },
    async (request) => ({
      info: await updateProduct(serviceCtx(request), { id: request.params.id, body: request.body }),
    }),
  );

  // ── Domain data lists
  app.get(
    `${base}/domaindata/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Every entry of a look-up list (inactive too), with how many records use it',
        params: tokenParams,
        querystring: adminDomainDataQuery,
        response: { 200: successEnvelope(adminDomainDataList) },
      },
    },
    async (request) => ({ info: await listAdminDomainData(serviceCtx(request), request.query.type) }),
  );
  app.post(
    `${base}/domaindata/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Add an entry to a look-up list',
        params: tokenParams,
        body: domainDataCreate,
        response: { 200: successEnvelope(adminDomainDataEntry) },
      },
    },
    async (request) => ({ info: await createDomainData(serviceCtx(request), request.body) }),
  );
  app.put(
    `${base}/domaindata/:id/:token`,
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Rename, reorder or deactivate a look-up entry (never deleted; stale version → 409)',
        params: catalogueIdParams,
        body: domainDataUpdate,
        response: { 200: successEnvelope(adminDomainDataEntry) },
      },
    },
    async (request) => ({
      info: await updateDomainData(serviceCtx(request), { id: request.params.id, body: request.body }),
    }),
  );
};
