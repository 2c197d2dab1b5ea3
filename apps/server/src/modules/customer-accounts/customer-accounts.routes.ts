import {
  accountInstrumentParams,
  accountInvoiceParams,
  creditInvoiceList,
  creditInvoiceListQuery,
  accountParams,
  accountPlanParams,
  accountTerminalParams,
  accountTransactionParams,
  customerBillingItem,
  customerBillingItemCreateRequest,
  customerBillingItemList,
  customerBillingItemListQuery,
  customerBundleList,
  expiringCardList,
  expiringCardsQuery,
  featuresQuery,
  featuresUpdateRequest,
  featuresUpdateResult,
  fieldsFromZodError,
  gatewayConfig,
  hasAnyPermission,
  idempotencyHeaders,
  invoiceDetail,
  invoiceList,
  invoiceListQuery,
  invoiceReverseRequest,
  invoiceReverseResult,
  licenseExpiryUpdateRequest,
  orderPromotionList,
  paymentInstrument,
  paymentInstrumentCreateRequest,
  paymentInstrumentList,
  paymentInstrumentListQuery,
  paymentInstrumentRemoveQuery,
  paymentInstrumentUpdateRequest,
  paymentPlan,
  paymentPlanCreateRequest,
  paymentPlanDetail,
  paymentPlanList,
  paymentPlanListQuery,
  paymentPlanUpdateRequest,
  retireTerminalParams,
  retireTerminalQuery,
  retireTerminalRequest,
  storeFeatures,
  storeFilterQuery,
  successEnvelope,
  terminal,
  terminalList,
  terminalListQuery,
  terminalUpdateRequest,
  terminalValidateParams,
  terminalValidation,
  transactionActionRequest,
  transactionActionResult,
  transactionList,
  transactionListQuery,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/errors';
import { requireSession, sessionOf } from '../../http/session';
import { serviceCtx } from '../../http/service-context';
import { addBillingItem, listBillingItems } from './billing-items.service';
import { listBundles, listPromotions } from './bundles-promotions.service';
import { getFeatures, updateFeatures } from './features.service';
import { getInvoice, listCreditInvoices, listInvoices, reverseInvoice } from './invoices.service';
import { addInstrument, getInstrument, listInstruments } from './payment-instruments.service';
import { listExpiringCards, removeInstrument, setDefaultInstrument } from './instrument-changes.service';
import { addPlan, getPlan, listPlans, updateLicenseExpiry, updatePlan } from './plans.service';
import { listTerminals, retireTerminal, updateTerminal, validateTerminal } from './terminals.service';
import { actOnTransaction, listTransactions } from './transactions.service';
import { gatewayInfo } from '../payments';

/** Who may call what (any one privilege passes, spec §6). */
export const ACCOUNT_GUARDS = {
  read: ['customer_details_view', 'customer_details_edit'],
  write: ['customer_details_edit'],
  /** The features list is read on the customer page and on /editplan. */
  featuresRead: [
    'customer_details_view',
    'customer_details_edit',
    'customer_features_edit',
    'customer_features_limited',
  ],
  featuresWrite: ['customer_features_edit', 'customer_features_limited'],
  /** Transactions: also the failed-payments list (/payments, failed_payments_edit) across customers. */
  transactionsRead: ['customer_details_view', 'customer_details_edit', 'failed_payments_edit'],
} as const satisfies Record<string, readonly Permission[]>;

const read = requireSession({ anyOf: ACCOUNT_GUARDS.read });
const write = requireSession({ anyOf: ACCOUNT_GUARDS.write });
const tags = ['customer accounts'];
const BASE = '/api/customers/:id/:token';

/**
 * Customers back office, accounts (issue 6): terminals, payment plans, billing items, features, bundles, promotions,
 * transactions, invoices, payment instruments (the local gateway's tokenize route is registered by app.ts).
 * Contracts: packages/domain/src/contracts/customer-accounts.ts.
 */
export const customerAccountRoutes: FastifyPluginAsyncZod = async (app) => {
  // ── Terminals ─────────────────────────────────────────────────────────────────────────────────
  app.get(
    `${BASE}/customerterminals`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Terminals by order, plan, store or terminal id (exactly one)',
        params: accountParams,
        querystring: terminalListQuery,
        response: { 200: successEnvelope(terminalList) },
      },
    },
    async (request) => ({ info: await listTerminals(serviceCtx(request), request.params.id, request.query) }),
  );

  app.put(
    `${BASE}/customerterminals/:terminalId`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Mark/unmark a terminal under transfer, or set its processor serial',
        params: accountTerminalParams,
        body: terminalUpdateRequest,
        response: { 200: successEnvelope(terminal) },
      },
    },
    async (request) => ({
      info: await updateTerminal(serviceCtx(request), request.params.id, request.params.terminalId, request.body),
    }),
  );

  app.delete(
    '/api/customers/:token/customerterminals/:terminalId',
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Retire a terminal: {reason_id, version} in the JSON body or the query',
        params: retireTerminalParams,
        querystring: retireTerminalQuery,
        response: { 200: successEnvelope(terminal) },
      },
    },
    async (request) => {
      const fromBody =
        request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
      const parsed = retireTerminalRequest.safeParse({ ...request.query, ...fromBody });
      if (!parsed.success) {
        const fields = fieldsFromZodError(parsed.error);
        throw new AppError(
          'validation_failed',
          `Please correct the request (${Object.entries(fields)
            .map(([k, v]) => `${k}: ${v}`)
            .join('; ')}).`,
          fields,
        );
      }
      return { info: await retireTerminal(serviceCtx(request), request.params.terminalId, parsed.data) };
    },
  );

  app.get(
    '/api/customers/:token/terminals/validate/:a/:b',
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'May this terminal id (a) and serial number (b) be used together?',
        params: terminalValidateParams,
        response: { 200: successEnvelope(terminalValidation) },
      },
    },
    async (request) => ({ info: await validateTerminal(serviceCtx(request), request.params.a, request.params.b) }),
  );

  // ── Payment plans ────────────────────────────────────────────────────────────────────────────
  app.get(
    `${BASE}/customerpaymentplans`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Payment plans (optional storeid, status)',
        params: accountParams,
        querystring: paymentPlanListQuery,
        response: { 200: successEnvelope(paymentPlanList) },
      },
    },
    async (request) => ({ info: await listPlans(serviceCtx(request), request.params.id, request.query) }),
  );

  app.get(
    `${BASE}/customerpaymentplans/:planId`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'A payment plan with its billing items and terminal counts',
        params: accountPlanParams,
        response: { 200: successEnvelope(paymentPlanDetail) },
      },
    },
    async (request) => ({ info: await getPlan(serviceCtx(request), request.params.id, request.params.planId) }),
  );

  app.post(
    `${BASE}/customerpaymentplans`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Add a payment plan (Idempotency-Key)',
        params: accountParams,
        headers: idempotencyHeaders,
        body: paymentPlanCreateRequest,
        response: { 201: successEnvelope(paymentPlan) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        info: await addPlan(serviceCtx(request), request.params.id, request.body, request.headers['idempotency-key']),
      }),
  );

  app.post(
    `${BASE}/customerpaymentplans/:planId`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: "Update a plan's license expiry (the store's follows)",
        params: accountPlanParams,
        body: licenseExpiryUpdateRequest,
        response: { 200: successEnvelope(paymentPlan) },
      },
    },
    async (request) => ({
      info: await updateLicenseExpiry(serviceCtx(request), request.params.id, request.params.planId, request.body),
    }),
  );

  app.put(
    `${BASE}/customerpaymentplans/:planId`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: "Edit a plan's name, amounts, term, interval",
        params: accountPlanParams,
        body: paymentPlanUpdateRequest,
        response: { 200: successEnvelope(paymentPlan) },
      },
    },
    async (request) => ({
      info: await updatePlan(serviceCtx(request), request.params.id, request.params.planId, request.body),
    }),
  );

  // ── Billing items ────────────────────────────────────────────────────────────────────────────
  app.get(
    `${BASE}/customerbillingitems`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Customer billing items (custstoreid 999999999 = all stores)',
        params: accountParams,
        querystring: customerBillingItemListQuery,
        response: { 200: successEnvelope(customerBillingItemList) },
      },
    },
    async (request) => ({ info: await listBillingItems(serviceCtx(request), request.params.id, request.query) }),
  );

  app.post(
    `${BASE}/customerbillingitems`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Add a billing item (Idempotency-Key)',
        params: accountParams,
        headers: idempotencyHeaders,
        body: customerBillingItemCreateRequest,
        response: { 201: successEnvelope(customerBillingItem) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        info: await addBillingItem(
          serviceCtx(request),
          request.params.id,
          request.body,
          request.headers['idempotency-key'],
        ),
      }),
  );

  // ── Features (/editplan) ─────────────────────────────────────────────────────────────────────
  app.get(
    `${BASE}/features`,
    {
      onRequest: requireSession({ anyOf: ACCOUNT_GUARDS.featuresRead }),
      schema: {
        tags,
        summary: "A store's features, on or off",
        params: accountParams,
        querystring: featuresQuery,
        response: { 200: successEnvelope(storeFeatures) },
      },
    },
    async (request) => ({ info: await getFeatures(serviceCtx(request), request.params.id, request.query.custstoreid) }),
  );

  app.put(
    `${BASE}/features`,
    {
      onRequest: requireSession({ anyOf: ACCOUNT_GUARDS.featuresWrite }),
      schema: {
        tags,
        summary: "Set a store's features (limited privilege: LIMITED_FEATURES only)",
        params: accountParams,
        body: featuresUpdateRequest,
        response: { 200: successEnvelope(featuresUpdateResult) },
      },
    },
    async (request) => ({ info: await updateFeatures(serviceCtx(request), request.params.id, request.body) }),
  );

  // ── Bundles and promotions ───────────────────────────────────────────────────────────────────
  app.get(
    '/api/customers/:id/customerbundles/:token',
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Customer bundles (optional custstoreid)',
        params: accountParams,
        querystring: storeFilterQuery,
        response: { 200: successEnvelope(customerBundleList) },
      },
    },
    async (request) => ({ info: await listBundles(serviceCtx(request), request.params.id, request.query) }),
  );

  app.get(
    `${BASE}/orderpromotions`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Promotions applied to orders (optional custstoreid)',
        params: accountParams,
        querystring: storeFilterQuery,
        response: { 200: successEnvelope(orderPromotionList) },
      },
    },
    async (request) => ({ info: await listPromotions(serviceCtx(request), request.params.id, request.query) }),
  );

  // ── Transactions ─────────────────────────────────────────────────────────────────────────────
  app.get(
    `${BASE}/transactions`,
    {
      onRequest: requireSession({ anyOf: ACCOUNT_GUARDS.transactionsRead }),
      schema: {
        tags,
        summary: 'Transactions (fetch=true: all customers)',
        params: accountParams,
        querystring: transactionListQuery,
        response: { 200: successEnvelope(transactionList) },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      if (!request.query.fetch && !hasAnyPermission(session.privileges, ACCOUNT_GUARDS.read)) {
        throw new AppError('forbidden', `This needs one of these privileges: ${ACCOUNT_GUARDS.read.join(', ')}.`);
      }
      return { info: await listTransactions(serviceCtx(request), request.params.id, request.query) };
    },
  );

  app.post(
    `${BASE}/transactions/:txId`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Retry a failed or void a pending transaction (Idempotency-Key)',
        params: accountTransactionParams,
        headers: idempotencyHeaders,
        body: transactionActionRequest,
        response: { 200: successEnvelope(transactionActionResult) },
      },
    },
    async (request) => ({
      info: await actOnTransaction(
        serviceCtx(request),
        request.params.id,
        request.params.txId,
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );

  // ── Invoices ─────────────────────────────────────────────────────────────────────────────────
  app.get(
    `${BASE}/customerinvoices`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Invoices (optional storeid, status, type)',
        params: accountParams,
        querystring: invoiceListQuery,
        response: { 200: successEnvelope(invoiceList) },
      },
    },
    async (request) => ({ info: await listInvoices(serviceCtx(request), request.params.id, request.query) }),
  );

  app.get(
    `${BASE}/customerinvoices/:invoiceId`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'An invoice with lines, charges and credit memos',
        params: accountInvoiceParams,
        response: { 200: successEnvelope(invoiceDetail) },
      },
    },
    async (request) => ({ info: await getInvoice(serviceCtx(request), request.params.id, request.params.invoiceId) }),
  );

  app.post(
    `${BASE}/customerinvoices/:invoiceId/reverse`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Reverse an invoice (Idempotency-Key)',
        params: accountInvoiceParams,
        headers: idempotencyHeaders,
        body: invoiceReverseRequest,
        response: { 200: successEnvelope(invoiceReverseResult) },
      },
    },
    async (request) => ({
      info: await reverseInvoice(
        serviceCtx(request),
        request.params.id,
        request.params.invoiceId,
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );

  app.get(
    `${BASE}/creditinvoices`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Credit invoices (R: nets a reversed invoice; B: promotion rewards), newest first (optional storeid)',
        params: accountParams,
        querystring: creditInvoiceListQuery,
        response: { 200: successEnvelope(creditInvoiceList) },
      },
    },
    async (request) => ({ info: await listCreditInvoices(serviceCtx(request), request.params.id, request.query) }),
  );

  // ── Payment instruments (/editpayment) ───────────────────────────────────────────────────────
  app.get(
    '/api/customers/paymentinstruments/gateway/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags,
        summary: 'Where the browser tokenizes cards',
        params: z.object({ token: z.string() }),
        response: { 200: successEnvelope(gatewayConfig) },
      },
    },
    async () => ({ info: gatewayInfo(app.ctx) }),
  );

  app.get(
    `${BASE}/paymentinstruments`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Payment instruments, masked',
        params: accountParams,
        querystring: paymentInstrumentListQuery,
        response: { 200: successEnvelope(paymentInstrumentList) },
      },
    },
    async (request) => ({ info: await listInstruments(serviceCtx(request), request.params.id, request.query) }),
  );

  app.get(
    `${BASE}/paymentinstruments/:instrumentId`,
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'A payment instrument, masked',
        params: accountInstrumentParams,
        response: { 200: successEnvelope(paymentInstrument) },
      },
    },
    async (request) => ({
      info: await getInstrument(serviceCtx(request), request.params.id, request.params.instrumentId),
    }),
  );

  app.post(
    `${BASE}/paymentinstruments`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Add a card (gateway token) or bank account (Idempotency-Key)',
        params: accountParams,
        headers: idempotencyHeaders,
        body: paymentInstrumentCreateRequest,
        response: { 201: successEnvelope(paymentInstrument) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        info: await addInstrument(
          serviceCtx(request),
          request.params.id,
          request.body,
          request.headers['idempotency-key'],
        ),
      }),
  );

  // ── Payment instruments (#/payment/instruments; decision 115) ────────────────────────────────
  app.put(
    `${BASE}/paymentinstruments/:instrumentId`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: "Make a payment instrument the customer's default (version; the other default is unset)",
        params: accountInstrumentParams,
        body: paymentInstrumentUpdateRequest,
        response: { 200: successEnvelope(paymentInstrument) },
      },
    },
    async (request) => ({
      info: await setDefaultInstrument(
        serviceCtx(request),
        request.params.id,
        request.params.instrumentId,
        request.body,
      ),
    }),
  );

  app.delete(
    `${BASE}/paymentinstruments/:instrumentId`,
    {
      onRequest: write,
      schema: {
        tags,
        summary: 'Remove a payment instrument (soft: status inactive; not the default while plans are active)',
        params: accountInstrumentParams,
        querystring: paymentInstrumentRemoveQuery,
        response: { 200: successEnvelope(paymentInstrument) },
      },
    },
    async (request) => ({
      info: await removeInstrument(serviceCtx(request), request.params.id, request.params.instrumentId, request.query),
    }),
  );

  app.get(
    '/api/customers/paymentinstruments/expiring/:token',
    {
      onRequest: read,
      schema: {
        tags,
        summary: 'Active cards expiring within `days` (default 30), all customers, soonest first',
        params: z.object({ token: z.string() }),
        querystring: expiringCardsQuery,
        response: { 200: successEnvelope(expiringCardList) },
      },
    },
    async (request) => ({ info: await listExpiringCards(serviceCtx(request), request.query) }),
  );
};
