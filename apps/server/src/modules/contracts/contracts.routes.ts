import {
  contractLinkSendRequest,
  contractLinkSent,
  contractSignRequest,
  contractSignResult,
  contractView,
  linkTokenParams,
  orderContract,
  orderContractList,
  orderContractParams,
  orderContractPdfParams,
  reauthorizeRequest,
  reauthorizeResult,
  reauthorizeView,
  successEnvelope,
  type Permission,
} from '@pos/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { withTx } from '../../context';
import { contentDisposition } from '../../http/content-disposition';
import { AppError } from '../../http/errors';
import { publicCtx, serviceCtx } from '../../http/service-context';
import { requireSession, sessionOf } from '../../http/session';
import { loadVisibleOrder } from '../orders';
import { receiveUpload } from '../uploads';
import {
  contractPdf,
  contractPdfOfLink,
  listContracts,
  reauthorize,
  recordUploadedContract,
  sendContractLink,
  signContract,
  viewContract,
  viewReauthorize,
} from './contracts.service';
import { redeemCardToken } from '../payments';

const tags = ['contracts'];
/** Who works with an order's contract: the order writers (decision 082). */
const CONTRACT_STAFF: readonly Permission[] = ['search_orders_edit', 'create_distributor_orders'];
/** The merchant's pages: a link token is a credential, so guessing is slowed down. */
const publicLimit = { rateLimit: { max: 60, timeWindow: 60_000 } };

function sendPdf(
  reply: FastifyReply,
  file: { bytes: Uint8Array; contentType: string; fileName: string },
  inline: boolean,
) {
  return reply
    .header('content-type', file.contentType)
    .header('content-length', String(file.bytes.length))
    .header(
      'content-disposition',
      inline
        ? `inline; filename="${file.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`
        : contentDisposition(file.fileName),
    )
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(file.bytes));
}

/** Issue 7 contracts: the merchant's public sign / re-authorize pages and the staff calls (decision 082). */
export const contractRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/public/contracts/:tok',
    {
      config: publicLimit,
      schema: {
        tags,
        summary: "The merchant's contract page: the order's lines and total, and where its PDF is",
        params: linkTokenParams,
        response: { 200: successEnvelope(contractView) },
      },
    },
    async (request) => ({ info: await viewContract(publicCtx(request), request.params.tok) }),
  );

  app.get(
    '/api/public/contracts/:tok/pdf',
    {
      config: publicLimit,
      schema: { tags, summary: 'The contract PDF to read before signing', params: linkTokenParams },
    },
    async (request, reply) => sendPdf(reply, await contractPdfOfLink(publicCtx(request), request.params.tok), true),
  );

  app.post(
    '/api/public/contracts/:tok/sign',
    {
      config: publicLimit,
      schema: {
        tags,
        summary: 'Sign: typed name, drawn signature (PNG), consent; the link is used up',
        params: linkTokenParams,
        body: contractSignRequest,
        response: { 200: successEnvelope(contractSignResult) },
      },
    },
    async (request) => ({ info: await signContract(publicCtx(request), request.params.tok, request.body) }),
  );

  app.get(
    '/api/public/contracts/reauthorize/:tok',
    {
      config: publicLimit,
      schema: {
        tags,
        summary: 'The re-authorization page: the order and its payment method on file',
        params: linkTokenParams,
        response: { 200: successEnvelope(reauthorizeView) },
      },
    },
    async (request) => ({ info: await viewReauthorize(publicCtx(request), request.params.tok) }),
  );

  app.post(
    '/api/public/contracts/reauthorize/:tok',
    {
      config: publicLimit,
      schema: {
        tags,
        summary: 'Re-authorize the payment method (a card token or a bank account); the link is used up',
        params: linkTokenParams,
        body: reauthorizeRequest,
        response: { 200: successEnvelope(reauthorizeResult) },
      },
    },
    async (request) => {
      const body = request.body;
      const ctx = publicCtx(request);
      const card = body.kind === 'card' ? await redeemCardToken(ctx.app, body.card_token) : null;
      return { info: await reauthorize(ctx, request.params.tok, body, card) };
    },
  );

  const staff = { onRequest: requireSession({ anyOf: CONTRACT_STAFF }) };
  // Decision 102: an order the session may not see is 404, as if it did not exist.
  const visibleOrder = (request: FastifyRequest, orderId: number) =>
    loadVisibleOrder(app.ctx.database.db, sessionOf(request), { id: orderId });

  app.get(
    '/api/customers/contracts/:orderId/:token',
    {
      ...staff,
      schema: {
        tags,
        summary: "An order's contract versions, newest first",
        params: orderContractParams,
        response: { 200: successEnvelope(orderContractList) },
      },
    },
    async (request) => {
      const order = await visibleOrder(request, request.params.orderId);
      return { info: { contracts: await listContracts(app.ctx.database.db, order.id) } };
    },
  );

  app.get(
    '/api/customers/contracts/:orderId/:contractId/pdf/:token',
    {
      ...staff,
      schema: {
        tags,
        summary: 'A contract version as PDF (the signed copy once signed, the uploaded file once uploaded)',
        params: orderContractPdfParams,
      },
    },
    async (request, reply) => {
      const order = await visibleOrder(request, request.params.orderId);
      return sendPdf(reply, await contractPdf(serviceCtx(request), order.id, request.params.contractId), false);
    },
  );

  app.post(
    '/api/customers/contracts/:orderId/send/:token',
    {
      ...staff,
      schema: {
        tags,
        summary: 'E-mail the merchant a new signing (or re-authorization) link',
        params: orderContractParams,
        body: contractLinkSendRequest,
        response: { 200: successEnvelope(contractLinkSent) },
      },
    },
    async (request) => {
      const order = await visibleOrder(request, request.params.orderId);
      const kind = request.body.kind;
      if (kind === 'sign' && order.status !== '11') {
        throw new AppError(
          'conflict',
          `Order ${order.unifiedOrderId} is not Pending Contract Sign: a signing link is sent only while the contract waits for the merchant.`,
        );
      }
      const ctx = serviceCtx(request);
      const staffId = ctx.session.kind === 'staff' ? ctx.session.staffUserId : null;
      const sent = await withTx(ctx, (tx) => sendContractLink(ctx, tx, order, kind, ctx.app.clock.now(), { staffId }));
      return { info: { order_id: order.id, kind, sent_to: sent.to, expires_at: sent.expiresAt.toISOString() } };
    },
  );

  app.post(
    '/api/customers/contracts/:orderId/upload/:token',
    {
      ...staff,
      schema: {
        tags,
        summary:
          "Upload a signed paper contract (multipart field 'file': pdf, jpeg, png or gif ≤ 5 MB); the order moves on as if signed",
        consumes: ['multipart/form-data'],
        params: orderContractParams,
        response: { 201: successEnvelope(orderContract) },
      },
    },
    async (request, reply) => {
      const order = await visibleOrder(request, request.params.orderId);
      if (order.status !== '11') {
        throw new AppError(
          'conflict',
          `Order ${order.unifiedOrderId} is not Pending Contract Sign: a signed contract is uploaded while it waits for the signature.`,
        );
      }
      const ctx = serviceCtx(request);
      const upload = await receiveUpload(ctx, request, { kind: 'contract', owner: { type: 'order', id: order.id } });
      const contract = await recordUploadedContract(ctx, order.id, upload.id);
      return reply.code(201).send({ info: contract });
    },
  );
};
