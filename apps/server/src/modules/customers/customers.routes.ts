import { sendCsv } from '../../http/csv-reply';
import {
  auditEntryList,
  createCustomerNoteRequest,
  customerAuditQuery,
  customerNote,
  customerNoteList,
  customerNotesQuery,
  customerOrderList,
  customerOrdersQuery,
  customerRecord,
  customerSearchQuery,
  customerSearchResult,
  customerStoresInfo,
  customerStoresQuery,
  domainDataInfo,
  domainDataQuery,
  fedTaxIdLookupInfo,
  fedTaxIdLookupQuery,
  idTokenParams,
  salesHistoryInfo,
  salesHistoryQuery,
  salesPersonInfo,
  storeAddressInfo,
  storeAddressRequest,
  storeEmailsInfo,
  storeIdTokenParams,
  storeRecord,
  successEnvelope,
  tokenParams,
  updateCustomerRequest,
  updateStoreRequest,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  addCustomerNote,
  getSalesHistory,
  getSalesPerson,
  getStoreEmails,
  listCustomerAudit,
  listCustomerNotes,
  listCustomerOrders,
  listDomainData,
} from './customer-activity.service';
import { searchCustomers, searchCustomersCsv } from './customer-search.service';
import {
  findCustomerIdByFederalTaxId,
  getCustomerRecord,
  listCustomerStores,
  saveStoreAddress,
  updateCustomer,
  updateStore,
} from './customers.service';

const VIEW: readonly Permission[] = ['customer_details_view', 'customer_details_edit'];
const EDIT: readonly Permission[] = ['customer_details_edit'];
const canView = requireSession({ anyOf: VIEW });
const canEdit = requireSession({ anyOf: EDIT });
const tags = ['customers'];

/** Customers back office, core (issue 6): search, customer record and edits, stores, notes, orders, audit. */
export const customerRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/customers/:token/all',
    {
      onRequest: canView,
      schema: {
        tags,
        summary:
          'Customer search: exactly one of customerid, search, storeid, federaltaxid (format=csv: all rows as CSV)',
        params: tokenParams,
        querystring: customerSearchQuery,
        response: { 200: successEnvelope(customerSearchResult) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const ctx = serviceCtx(request);
      if (q.format === 'csv') {
        return sendCsv(reply, ctx, 'customers', searchCustomersCsv(ctx, q));
      }
      return { info: await searchCustomers(ctx, q) };
    },
  );

  app.get(
    '/api/customers/:token',
    {
      onRequest: canView,
      schema: {
        tags,
        summary: 'The customer id of a federal tax id',
        params: tokenParams,
        querystring: fedTaxIdLookupQuery,
        response: { 200: successEnvelope(fedTaxIdLookupInfo) },
      },
    },
    async (request) => ({ info: await findCustomerIdByFederalTaxId(serviceCtx(request), request.query.fedtaxid) }),
  );

  app.get(
    '/api/customers/:id/:token',
    {
      onRequest: canView,
      schema: {
        tags,
        summary: 'A customer with its stores',
        params: idTokenParams,
        response: { 200: successEnvelope(customerRecord) },
      },
    },
    async (request) => ({ info: await getCustomerRecord(serviceCtx(request), request.params.id) }),
  );

  app.get(
    '/api/customers/:id/:token/customerorders',
    {
      onRequest: canView,
      schema: {
        tags,
        summary: "A customer's orders (newest first)",
        params: idTokenParams,
        querystring: customerOrdersQuery,
        response: { 200: successEnvelope(customerOrderList) },
      },
    },
    async (request) => ({
      info: await listCustomerOrders(serviceCtx(request), {
        customerId: request.params.id,
        storeId: request.query.storeid,
        ...request.query,
      }),
    }),
  );

  app.get(
    '/api/customers/:id/:token/customernotes',
    {
      onRequest: canView,
      schema: {
        tags,
        summary: "A customer's notes (newest first), optionally of one store",
        params: idTokenParams,
        querystring: customerNotesQuery,
        response: { 200: successEnvelope(customerNoteList) },
      },
    },
    async (request) => ({
      info: await listCustomerNotes(serviceCtx(request), {
        customerId: request.params.id,
        storeId: request.query.customer_store_id,
        limit: request.query.limit,
        offset: request.query.offset,
      }),
    }),
  );

  app.post(
    '/api/customers/:id/:token/customernotes',
    {
      onRequest: canEdit,
      schema: {
        tags,
        summary: 'Add a note to a customer (or one of its stores)',
        params: idTokenParams,
        body: createCustomerNoteRequest,
        response: { 200: successEnvelope(customerNote) },
      },
    },
    async (request) => ({
      info: await addCustomerNote(serviceCtx(request), { customerId: request.params.id, body: request.body }),
    }),
  );

  app.get(
    '/api/customers/:id/customerstores/:token',
    {
      onRequest: canView,
      schema: {
        tags,
        summary: "A customer's stores (or the one of cust_store_id)",
        params: idTokenParams,
        querystring: customerStoresQuery,
        response: { 200: successEnvelope(customerStoresInfo) },
      },
    },
    async (request) => ({
      info: await listCustomerStores(serviceCtx(request), {
        customerId: request.params.id,
        storeId: request.query.cust_store_id,
      }),
    }),
  );

  app.post(
    '/api/customers/:id/customerstores/address/:token',
    {
      onRequest: canEdit,
      schema: {
        tags,
        summary: "Change a store's address (customer_store_id + version) or open a new store at an address",
        params: idTokenParams,
        body: storeAddressRequest,
        response: { 200: successEnvelope(storeAddressInfo) },
      },
    },
    async (request) => ({
      info: await saveStoreAddress(serviceCtx(request), { customerId: request.params.id, body: request.body }),
    }),
  );

  app.get(
    '/api/customers/stores/:storeId/:token/emails',
    {
      onRequest: canView,
      schema: {
        tags,
        summary: "A store's e-mail addresses (and the customer's) with the mail sent to them",
        params: storeIdTokenParams,
        response: { 200: successEnvelope(storeEmailsInfo) },
      },
    },
    async (request) => ({ info: await getStoreEmails(serviceCtx(request), request.params.storeId) }),
  );

  app.put(
    '/api/storeinfo/:id/:token',
    {
      onRequest: canEdit,
      schema: {
        tags,
        summary: 'Edit a store (id = store id; send its version)',
        params: idTokenParams,
        body: updateStoreRequest,
        response: { 200: successEnvelope(storeRecord) },
      },
    },
    async (request) => ({
      info: await updateStore(serviceCtx(request), { storeId: request.params.id, body: request.body }),
    }),
  );

  app.put(
    '/api/customerinfo/:id/:token',
    {
      onRequest: canEdit,
      schema: {
        tags,
        summary: 'Edit a customer (id = customer id; send its version)',
        params: idTokenParams,
        body: updateCustomerRequest,
        response: { 200: successEnvelope(customerRecord) },
      },
    },
    async (request) => ({
      info: await updateCustomer(serviceCtx(request), { customerId: request.params.id, body: request.body }),
    }),
  );

  app.get(
    '/api/salesperson/:id/:token',
    {
      onRequest: canView,
      schema: {
        tags,
        summary: 'A sales person (id = sales person id)',
        params: idTokenParams,
        response: { 200: successEnvelope(salesPersonInfo) },
      },
    },
    async (request) => ({ info: await getSalesPerson(serviceCtx(request), request.params.id) }),
  );

  app.get(
    '/api/saleshistory/:id/:token',
    {
      onRequest: canView,
      schema: {
        tags,
        summary: "A customer's monthly sales, last 24 months (id = customer id; optional storeid)",
        params: idTokenParams,
        querystring: salesHistoryQuery,
        response: { 200: successEnvelope(salesHistoryInfo) },
      },
    },
    async (request) => ({
      info: await getSalesHistory(serviceCtx(request), {
        customerId: request.params.id,
        storeId: request.query.storeid,
      }),
    }),
  );

  app.get(
    '/api/customers/:id/audit/:token',
    {
      onRequest: canView,
      schema: {
        tags,
        summary: "A customer's audit trail (newest first)",
        params: idTokenParams,
        querystring: customerAuditQuery,
        response: { 200: successEnvelope(auditEntryList) },
      },
    },
    async (request) => ({
      info: await listCustomerAudit(serviceCtx(request), { customerId: request.params.id, ...request.query }),
    }),
  );

  app.get(
    '/api/domaindata/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: 'A look-up list (retire reasons, business types…)',
        params: tokenParams,
        querystring: domainDataQuery,
        response: { 200: successEnvelope(domainDataInfo) },
      },
    },
    async (request) => ({ info: await listDomainData(serviceCtx(request), request.query.type) }),
  );
};
