import { sendCsv } from '../../http/csv-reply';
import {
  idempotencyHeaders,
  returnCreateRequest,
  returnDetail,
  returnEligibility,
  returnEligibilityQuery,
  returnIdTokenParams,
  returnRefundRequest,
  returnSearchQuery,
  returnSearchResult,
  returnStatusRequest,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  changeReturnStatus,
  createReturn,
  eligibleSales,
  getReturn,
  refundReturn,
  searchReturns,
  searchReturnsCsv,
} from './returns.service';

/*
 * Who may do what (decision 122; the spec's routes are session-only): anyone who may see customers reads returns and
 * requests one; receiving and inspecting need customer_details_edit (the service checks per step; rejecting also
 * ar_approvals); the refund (money) needs ar_approvals, and above the credit threshold someone other than the requester.
 */
export const RETURNS_READ_GUARD: readonly Permission[] = [
  'customer_details_view',
  'customer_details_edit',
  'ar_approvals',
];
export const RETURNS_STATUS_GUARD: readonly Permission[] = ['customer_details_edit', 'ar_approvals'];
export const RETURNS_REFUND_GUARD: readonly Permission[] = ['ar_approvals'];
const canRead = requireSession({ anyOf: RETURNS_READ_GUARD });
const canStep = requireSession({ anyOf: RETURNS_STATUS_GUARD });
const canRefund = requireSession({ anyOf: RETURNS_REFUND_GUARD });
const tags = ['returns'];

/** Returns and refunds (issue 16 point 5, decision 122). Contracts: packages/domain/src/contracts/returns.ts. */
export const returnRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/returns/eligible/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'Hardware sales inside the return window (RETURN_WINDOW_DAYS) and their terminals that may come back',
        params: tokenParams,
        querystring: returnEligibilityQuery,
        response: { 200: successEnvelope(returnEligibility) },
      },
    },
    async (request) => ({ info: await eligibleSales(serviceCtx(request), request.query) }),
  );

  app.get(
    '/api/returns/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'Returns: filters (status, customer, age, name), sort, paging; format=csv streams every row as CSV',
        params: tokenParams,
        querystring: returnSearchQuery,
        response: { 200: successEnvelope(returnSearchResult) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const ctx = serviceCtx(request);
      if (q.format === 'csv') {
        return sendCsv(reply, ctx, 'returns', searchReturnsCsv(ctx, q));
      }
      return { info: await searchReturns(ctx, q) };
    },
  );

  app.post(
    '/api/returns/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: "Request a return of a store's terminals sold on one hardware invoice (inside the window)",
        params: tokenParams,
        body: returnCreateRequest,
        response: { 201: successEnvelope(returnDetail) },
      },
    },
    async (request, reply) => reply.code(201).send({ info: await createReturn(serviceCtx(request), request.body) }),
  );

  app.get(
    '/api/returns/:id/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: 'One return: terminals, the hardware invoice now, the refund it would pay',
        params: returnIdTokenParams,
        response: { 200: successEnvelope(returnDetail) },
      },
    },
    async (request) => ({ info: await getReturn(serviceCtx(request), request.params.id) }),
  );

  app.post(
    '/api/returns/:id/status/:token',
    {
      onRequest: canStep,
      schema: {
        tags,
        summary: 'Mark received (retires its terminals), inspected, or reject with a reason; version → 409 if stale',
        params: returnIdTokenParams,
        body: returnStatusRequest,
        response: { 200: successEnvelope(returnDetail) },
      },
    },
    async (request) => ({ info: await changeReturnStatus(serviceCtx(request), request.params.id, request.body) }),
  );

  app.post(
    '/api/returns/:id/refund/:token',
    {
      onRequest: canRefund,
      schema: {
        tags,
        summary:
          'Refund an inspected return: credit memo, then the rest to the card (gateway) or by check (Idempotency-Key)',
        params: returnIdTokenParams,
        headers: idempotencyHeaders,
        body: returnRefundRequest,
        response: { 200: successEnvelope(returnDetail) },
      },
    },
    async (request) => ({
      info: await refundReturn(
        serviceCtx(request),
        request.params.id,
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );
};
