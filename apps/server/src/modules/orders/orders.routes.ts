import { sendCsv } from '../../http/csv-reply';
import {
  customerMatchDecisionRequest,
  customerMatchInfo,
  customerMatchParams,
  errorTestParams,
  orderInfoQuery,
  orderInfoResponse,
  orderInfoSaveParams,
  orderInfoSaveRequest,
  orderInfoSaveResult,
  orderIdTokenParams,
  orderRowInfo,
  orderSearchQuery,
  orderSearchResult,
  pendingOrdersInfo,
  pendingOrdersQuery,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../http/errors';
import { requireSession } from '../../http/session';
import { serviceCtx } from '../../http/service-context';
import { decideCustomerMatch, getCustomerMatch } from './customer-match.service';
import { getOrderRow, searchOrders, searchOrdersCsv } from './order-search.service';
import { getOrderInfo, getOrderQueue, listPendingOrders, saveOrderInfo } from './orders.service';

/** Order reads and writes (decision 078); a distributor is further limited to its own agent's orders. */
const READ: readonly Permission[] = ['search_orders_view', 'search_orders_edit', 'create_distributor_orders'];
const WRITE: readonly Permission[] = ['search_orders_edit', 'create_distributor_orders'];
const canRead = requireSession({ anyOf: READ });
const canWrite = requireSession({ anyOf: WRITE });
/** Deciding an existing-customer match (decision 142): customer privileges; never an agent-scoped session (service). */
const canDecideMatch = requireSession({ anyOf: ['customer_details_edit'] });
const tags = ['orders'];

/** Issue 7 (orders): the order document, the role queues, pending lists and the deliberate test error. */
export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/customers/orderinfo/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary:
          "One order's document, status and version (id or unifiedid); neither → the caller's role queue (paged)",
        params: tokenParams,
        querystring: orderInfoQuery,
        response: { 200: successEnvelope(orderInfoResponse) },
      },
    },
    async (request) => {
      const q = request.query;
      const ctx = serviceCtx(request);
      if (q.id !== undefined || q.unifiedid !== undefined) return { info: await getOrderInfo(ctx, q) };
      return { info: await getOrderQueue(ctx, q) };
    },
  );

  app.get(
    '/api/customers/orderinfo/pending/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'Orders awaiting AR approval (type=ar: 121/125/126) or RAM (type=ram: 11), optionally one by id',
        params: tokenParams,
        querystring: pendingOrdersQuery,
        response: { 200: successEnvelope(pendingOrdersInfo) },
      },
    },
    async (request) => ({ info: await listPendingOrders(serviceCtx(request), request.query) }),
  );

  app.post(
    '/api/customers/orderinfo/:orderInfoId/:token',
    {
      onRequest: canWrite,
      schema: {
        tags,
        summary:
          "Save an order's document: orderInfoId 'new' creates a Draft; otherwise with version; submit → Pending Contract Sign",
        params: orderInfoSaveParams,
        body: orderInfoSaveRequest,
        response: { 200: successEnvelope(orderInfoSaveResult) },
      },
    },
    async (request) => ({
      info: await saveOrderInfo(serviceCtx(request), { orderInfoId: request.params.orderInfoId, body: request.body }),
    }),
  );

  // Decision 142: an agent-scoped session's order for an existing customer it may not see waits for staff.
  app.get(
    '/api/customers/orderinfo/:orderId/customermatch/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary:
          "The order's existing-customer match (its tax id is a customer's its agent may not see), or null; the customer only for unscoped staff",
        params: customerMatchParams,
        response: { 200: successEnvelope(customerMatchInfo) },
      },
    },
    async (request) => ({ info: await getCustomerMatch(serviceCtx(request), request.params.orderId) }),
  );

  app.post(
    '/api/customers/orderinfo/:orderId/customermatch/:token',
    {
      onRequest: canDecideMatch,
      schema: {
        tags,
        summary:
          "Staff decide an order's existing-customer match: confirm (onboarding attaches the order to that customer) or reject (a new customer); audited",
        params: customerMatchParams,
        body: customerMatchDecisionRequest,
        response: { 200: successEnvelope(customerMatchInfo) },
      },
    },
    async (request) => ({
      info: await decideCustomerMatch(serviceCtx(request), request.params.orderId, request.body),
    }),
  );

  app.get(
    '/api/customers/:token/error/test',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'A deliberate server error (500 test_error) to check error reporting end to end',
        params: errorTestParams,
      },
    },
    async () => {
      throw new AppError('test_error', 'This is a deliberate test error: the error path works.');
    },
  );
  // Decision 080: the order list of /order (filters, sort, paging; format=csv streams all matching rows).
  app.get(
    '/api/customers/orders/search/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary:
          'Order list: status (code or comma list), flow, sales_rep, agent_id, date_from/date_to, q, mine=queue (format=csv: all rows as CSV)',
        params: tokenParams,
        querystring: orderSearchQuery,
        response: { 200: successEnvelope(orderSearchResult) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const ctx = serviceCtx(request);
      if (q.format === 'csv') {
        return sendCsv(reply, ctx, 'orders', searchOrdersCsv(ctx, q));
      }
      return { info: await searchOrders(ctx, q) };
    },
  );

  // Decision 102: one order as a row of the list, for a link to one order (#/order?id=…); 404 when not visible.
  app.get(
    '/api/customers/orders/:orderId/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary:
          'One order as a row of the order list (404 for an order the session may not see, as for a missing one)',
        params: orderIdTokenParams,
        response: { 200: successEnvelope(orderRowInfo) },
      },
    },
    async (request) => ({
      info: { order: await getOrderRow(serviceCtx(request), request.params.orderId) },
    }),
  );
};
