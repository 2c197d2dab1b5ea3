import {
  decisionRequest,
  idempotencyHeaders,
  memoCreateRequest,
  memoDecisionResult,
  memoIdParams,
  memoItem,
  memoList,
  memoListQuery,
  successEnvelope,
  tokenParams,
  writeOffCreateRequest,
  writeOffDecisionResult,
  writeOffIdParams,
  writeOffItem,
  writeOffList,
  writeOffListQuery,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { createMemo, decideMemo, listMemos } from './memos.service';
import { createWriteOff, decideWriteOff, listWriteOffs } from './writeoffs.service';

/** Who may ask for a memo or a write-off, and read them (decision 120): AR work on invoices. */
export const MEMO_REQUEST_GUARD: readonly Permission[] = ['invoices', 'ar_approvals'];
/** Who may decide one (and above the threshold, not the requester: rules/approvals.ts). */
export const MEMO_DECIDE_GUARD: readonly Permission[] = ['ar_approvals'];
const canRequest = requireSession({ anyOf: MEMO_REQUEST_GUARD });
const canDecide = requireSession({ anyOf: MEMO_DECIDE_GUARD });
const tags = ['memos'];

/** Memos and write-offs (issue 16 points 1 and 4). Contracts: packages/domain/src/contracts/memos.ts. */
export const memoRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/memos/:token',
    {
      onRequest: canRequest,
      schema: {
        tags,
        summary:
          'Ask for a credit (C), refund (R) or adjustment (A) memo, against an invoice or on account (Idempotency-Key)',
        params: tokenParams,
        headers: idempotencyHeaders,
        body: memoCreateRequest,
        response: { 201: successEnvelope(memoItem) },
      },
    },
    async (request, reply) => {
      const info = await createMemo(serviceCtx(request), request.body, request.headers['idempotency-key']);
      return reply.code(201).send({ info });
    },
  );

  app.get(
    '/api/memos/:token',
    {
      onRequest: canRequest,
      schema: {
        tags,
        summary: 'Memos, newest first: by status, type, customer, invoice',
        params: tokenParams,
        querystring: memoListQuery,
        response: { 200: successEnvelope(memoList) },
      },
    },
    async (request) => ({ info: await listMemos(serviceCtx(request), request.query) }),
  );

  app.post(
    '/api/memos/:memoId/decision/:token',
    {
      onRequest: canDecide,
      schema: {
        tags,
        summary:
          'Approve or reject a pending memo (ar_approvals; over $1,000 not by its requester). A refund by the gateway refunds the charge (Idempotency-Key)',
        params: memoIdParams,
        headers: idempotencyHeaders,
        body: decisionRequest,
        response: { 200: successEnvelope(memoDecisionResult) },
      },
    },
    async (request) => ({
      info: await decideMemo(
        serviceCtx(request),
        request.params.memoId,
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );

  app.post(
    '/api/writeoffs/:token',
    {
      onRequest: canRequest,
      schema: {
        tags,
        summary:
          "Ask to write off an invoice's open balance: 142 Write_Off or 164 Write_Off Unrecoverable (Idempotency-Key)",
        params: tokenParams,
        headers: idempotencyHeaders,
        body: writeOffCreateRequest,
        response: { 201: successEnvelope(writeOffItem) },
      },
    },
    async (request, reply) => {
      const info = await createWriteOff(serviceCtx(request), request.body, request.headers['idempotency-key']);
      return reply.code(201).send({ info });
    },
  );

  app.get(
    '/api/writeoffs/:token',
    {
      onRequest: canRequest,
      schema: {
        tags,
        summary: 'Write-offs, newest first: by status, customer, invoice',
        params: tokenParams,
        querystring: writeOffListQuery,
        response: { 200: successEnvelope(writeOffList) },
      },
    },
    async (request) => ({ info: await listWriteOffs(serviceCtx(request), request.query) }),
  );

  app.post(
    '/api/writeoffs/:writeOffId/decision/:token',
    {
      onRequest: canDecide,
      schema: {
        tags,
        summary:
          'Approve or reject a pending write-off (ar_approvals; over $1,000 not by its requester); approval stops dunning (Idempotency-Key)',
        params: writeOffIdParams,
        headers: idempotencyHeaders,
        body: decisionRequest,
        response: { 200: successEnvelope(writeOffDecisionResult) },
      },
    },
    async (request) => ({
      info: await decideWriteOff(
        serviceCtx(request),
        request.params.writeOffId,
        request.body,
        request.headers['idempotency-key'],
      ),
    }),
  );
};
