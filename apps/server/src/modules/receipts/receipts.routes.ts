import { sendCsv } from '../../http/csv-reply';
import {
  idempotencyHeaders,
  receiptAllocationParams,
  receiptApply,
  receiptCreate,
  receiptPage,
  receiptParams,
  receiptSearchQuery,
  receiptSearchResult,
  receiptUnapplyQuery,
  successEnvelope,
  tokenParams,
  uploadInfo,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { receiveUpload } from '../uploads';
import {
  applyReceipt,
  getReceipt,
  recordReceipt,
  searchReceipts,
  searchReceiptsCsv,
  unapplyReceipt,
} from './receipts.service';

/** #/view-receipts: list, read and record receipts. */
export const RECEIPTS_GUARD: readonly Permission[] = ['receipts'];
/** #/view-receipts/{id}: apply and un-apply (reading the receipt is allowed with either privilege). */
export const APPLY_RECEIPT_GUARD: readonly Permission[] = ['apply_receipt'];
const canList = requireSession({ anyOf: RECEIPTS_GUARD });
const canRead = requireSession({ anyOf: [...RECEIPTS_GUARD, ...APPLY_RECEIPT_GUARD] });
const canApply = requireSession({ anyOf: APPLY_RECEIPT_GUARD });
const tags = ['receipts'];

/** Receipts (issue 16 point 3, decision 119). Contracts: packages/domain/src/contracts/receipts.ts. */
export const receiptRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/receipts/:token',
    {
      onRequest: canList,
      schema: {
        tags,
        summary:
          'Receipts: filters, sort, paging; total exact up to 1,000 (total_capped beyond). format=csv: every row as CSV',
        params: tokenParams,
        querystring: receiptSearchQuery,
        response: { 200: successEnvelope(receiptSearchResult) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const ctx = serviceCtx(request);
      if (q.format === 'csv') {
        return sendCsv(reply, ctx, 'receipts', searchReceiptsCsv(ctx, q));
      }
      return { info: await searchReceipts(ctx, q) };
    },
  );

  app.post(
    '/api/receipts/checkimage/:token',
    {
      onRequest: canList,
      schema: {
        tags,
        summary:
          "Upload a check image for a receipt (multipart/form-data, one file in the field 'checkimage', ≤ 5,242,880 bytes)",
        consumes: ['multipart/form-data'],
        params: tokenParams,
        response: { 201: successEnvelope(uploadInfo) },
      },
    },
    async (request, reply) => {
      const { info } = await receiveUpload(serviceCtx(request), request, { kind: 'checkImage' });
      return reply.code(201).send({ info });
    },
  );

  app.post(
    '/api/receipts/:token',
    {
      onRequest: canList,
      schema: {
        tags,
        summary: 'Record a receipt (check, cash, wire, ACH, card); with charge_fee the cash/check fee invoice',
        params: tokenParams,
        headers: idempotencyHeaders,
        body: receiptCreate,
        response: { 201: successEnvelope(receiptPage) },
      },
    },
    async (request, reply) => {
      const info = await recordReceipt(serviceCtx(request), request.body, request.headers['idempotency-key']);
      return reply.code(201).send({ info });
    },
  );

  app.get(
    '/api/receipts/:receiptId/:token',
    {
      onRequest: canRead,
      schema: {
        tags,
        summary: "A receipt with its applications and the customer's open invoices in its currency",
        params: receiptParams,
        response: { 200: successEnvelope(receiptPage) },
      },
    },
    async (request) => ({ info: await getReceipt(serviceCtx(request), request.params.receiptId) }),
  );

  app.post(
    '/api/receipts/:receiptId/applications/:token',
    {
      onRequest: canApply,
      schema: {
        tags,
        summary:
          "Apply the receipt to open invoices: never more than its unapplied amount nor an invoice's balance; 409 on a stale version",
        params: receiptParams,
        headers: idempotencyHeaders,
        body: receiptApply,
        response: { 200: successEnvelope(receiptPage) },
      },
    },
    async (request) => ({
      info: await applyReceipt(
        serviceCtx(request),
        request.params.receiptId,
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );

  app.delete(
    '/api/receipts/:receiptId/applications/:allocationId/:token',
    {
      onRequest: canApply,
      schema: {
        tags,
        summary: "Un-apply one application: the receipt's unapplied amount and the invoice's balance come back",
        params: receiptAllocationParams,
        querystring: receiptUnapplyQuery,
        headers: idempotencyHeaders,
        response: { 200: successEnvelope(receiptPage) },
      },
    },
    async (request) => ({
      info: await unapplyReceipt(
        serviceCtx(request),
        {
          receiptId: request.params.receiptId,
          allocationId: request.params.allocationId,
          version: request.query.version,
        },
        request.headers['idempotency-key'],
      ),
    }),
  );
};
