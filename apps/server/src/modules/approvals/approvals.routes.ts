import {
  approvalDecisionsRequest,
  approvalDecisionsResult,
  approvalList,
  approvalListQuery,
  idempotencyHeaders,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { decideApprovals, listApprovals } from './approvals.service';

/** The #/approvals screen's privilege; the server checks it on every call. */
export const APPROVALS_GUARD: readonly Permission[] = ['ar_approvals'];
const canApprove = requireSession({ anyOf: APPROVALS_GUARD });
const tags = ['approvals'];

/** The approvals queue (issue 16 point 2, decision 121). Contracts: packages/domain/src/contracts/approvals.ts. */
export const approvalRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/approvals/:token',
    {
      onRequest: canApprove,
      schema: {
        tags,
        summary:
          'What waits for a second person: pending memos and write-offs, orders in Pending AR Approval (121); oldest first',
        params: tokenParams,
        querystring: approvalListQuery,
        response: { 200: successEnvelope(approvalList) },
      },
    },
    async (request) => ({ info: await listApprovals(serviceCtx(request), request.query) }),
  );

  app.post(
    '/api/approvals/decisions/:token',
    {
      onRequest: canApprove,
      schema: {
        tags,
        summary:
          'Approve or reject items of the queue, each on its own; the answer lists each outcome (Idempotency-Key)',
        params: tokenParams,
        headers: idempotencyHeaders,
        body: approvalDecisionsRequest,
        response: { 200: successEnvelope(approvalDecisionsResult) },
      },
    },
    async (request) => ({
      info: await decideApprovals(serviceCtx(request), request.body, request.headers['idempotency-key']),
    }),
  );
};
