import {
  orderIdTokenParams,
  orderNoteCreateRequest,
  orderNoteInfo,
  orderNotesInfo,
  orderStatusChangeInfo,
  orderStatusChangeRequest,
  orderStatusHistoryInfo,
  orderStatusReasonsInfo,
  orderStatusReasonsQuery,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireSession } from '../../http/session';
import { serviceCtx } from '../../http/service-context';
import {
  addOrderNote,
  changeOrderStatus,
  listOrderNotes,
  listStatusHistory,
  listStatusReasons,
} from './order-status.service';

/**
 * Who may call (decision 072): reads need any order privilege; writes (notes, status changes) need
 * search_orders_edit or create_distributor_orders — a status change is further checked against the
 * transition table's rule for the move (403 naming it).
 */
export const ORDER_READ: readonly Permission[] = [
  'search_orders_view',
  'search_orders_edit',
  'create_distributor_orders',
];
export const ORDER_WRITE: readonly Permission[] = ['search_orders_edit', 'create_distributor_orders'];
const canRead = requireSession({ anyOf: ORDER_READ });
const canWrite = requireSession({ anyOf: ORDER_WRITE });
const tags = ['orders'];

/** Issue 7 (orders): status reasons, order notes, status history and status changes. */
export const orderStatusRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/customers/orderstatus/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'Status reasons grouped by status (optional ?status=)',
        params: tokenParams,
        querystring: orderStatusReasonsQuery,
        response: { 200: successEnvelope(orderStatusReasonsInfo) },
      },
    },
    async (request) => ({ info: await listStatusReasons(serviceCtx(request), request.query.status) }),
  );

  app.get(
    '/api/customers/orderstatus/history/:orderId/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'Status changes of an order, newest first',
        params: orderIdTokenParams,
        response: { 200: successEnvelope(orderStatusHistoryInfo) },
      },
    },
    async (request) => ({ info: await listStatusHistory(serviceCtx(request), request.params.orderId) }),
  );

  app.get(
    '/api/customers/ordernotes/:orderId/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'Notes of an order, newest first',
        params: orderIdTokenParams,
        response: { 200: successEnvelope(orderNotesInfo) },
      },
    },
    async (request) => ({ info: await listOrderNotes(serviceCtx(request), request.params.orderId) }),
  );

  app.post(
    '/api/customers/ordernotes/:orderId/:token',
    {
      onRequest: canWrite,
      schema: {
        tags,
        summary: 'Add a note to an order',
        params: orderIdTokenParams,
        body: orderNoteCreateRequest,
        response: { 201: successEnvelope(orderNoteInfo) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send({ info: await addOrderNote(serviceCtx(request), request.params.orderId, request.body.note) }),
  );

  app.put(
    '/api/customers/ordernotes/:token',
    {
      onRequest: canWrite,
      schema: {
        tags,
        summary: "Change an order's status (transition table, reason where needed, version checked)",
        params: tokenParams,
        body: orderStatusChangeRequest,
        response: { 200: successEnvelope(orderStatusChangeInfo) },
      },
    },
    async (request) => ({ info: await changeOrderStatus(serviceCtx(request), request.body) }),
  );
};
