import {
  orderFileParams,
  orderIdTokenParams,
  ORDER_FILE_DELETERS,
  ORDER_FILE_READERS,
  storeFile,
  storeFileList,
  storeFileParams,
  storeFileQuery,
  STORE_FILE_DELETERS,
  STORE_FILE_READERS,
  STORE_FILE_UPLOADERS,
  storeIdTokenParams,
  successEnvelope,
} from '@pos/domain';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../http/content-disposition';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  deleteStoreFile,
  listStoreFiles,
  openStoreFile,
  uploadStoreFile,
  type OpenedStoreFile,
} from './store-files.service';

const UPLOAD_SUMMARY =
  "(multipart/form-data: the field 'kind' — store_picture, business_license or reseller_file — and one file in 'file', ≤ 5,242,880 bytes)";

/** The bytes of a file with the headers of every store file download (decision 160). */
function sendFile(reply: FastifyReply, { file, object }: OpenedStoreFile, thumb: boolean) {
  const inline = thumb && file.previewable;
  return reply
    .header('content-type', file.content_type)
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition(file.file_name, inline ? 'inline' : 'attachment'))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .send(object.body);
}

/**
 * A store's pictures, business licenses and reseller files (decision 160): on the store, and on a new merchant's order
 * before Complete gives them the new store. The same service serves both; the path names the holder.
 */
export const storeFileRoutes: FastifyPluginAsyncZod = async (app) => {
  // ── The store's ────────────────────────────────────────────────────────────────────────────────────────────
  app.post(
    '/api/stores/:storeId/files/:token',
    {
      onRequest: requireSession({ anyOf: STORE_FILE_UPLOADERS }),
      schema: {
        tags: ['stores'],
        summary: `Upload a store file ${UPLOAD_SUMMARY}`,
        consumes: ['multipart/form-data'],
        params: storeIdTokenParams,
        response: { 201: successEnvelope(storeFile) },
      },
    },
    async (request, reply) => {
      const info = await uploadStoreFile(serviceCtx(request), request, { storeId: request.params.storeId });
      return reply.code(201).send({ info });
    },
  );

  app.get(
    '/api/stores/:storeId/files/:token',
    {
      onRequest: requireSession({ anyOf: STORE_FILE_READERS }),
      schema: {
        tags: ['stores'],
        summary: "A store's files, newest first: kind, name, type, size, who uploaded it and when",
        params: storeIdTokenParams,
        response: { 200: successEnvelope(storeFileList) },
      },
    },
    async (request) => ({ info: await listStoreFiles(serviceCtx(request), { storeId: request.params.storeId }) }),
  );

  app.get(
    '/api/stores/:storeId/files/:fileId/:token',
    {
      onRequest: requireSession({ anyOf: STORE_FILE_READERS }),
      schema: {
        tags: ['stores'],
        summary:
          'A store file: inline for an image preview (?size=thumb — the image itself, the browser scales it; decision 160), else as an attachment',
        params: storeFileParams,
        querystring: storeFileQuery,
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await openStoreFile(serviceCtx(request), request.params, request.log),
        request.query.size === 'thumb',
      ),
  );

  app.delete(
    '/api/stores/:storeId/files/:fileId/:token',
    {
      onRequest: requireSession({ anyOf: STORE_FILE_DELETERS }),
      schema: {
        tags: ['stores'],
        summary: 'Delete a store file (audited)',
        params: storeFileParams,
        response: { 200: successEnvelope(z.object({ deleted: z.literal(true) })) },
      },
    },
    async (request) => {
      await deleteStoreFile(serviceCtx(request), request.params, request.log);
      return { info: { deleted: true as const } };
    },
  );

  // ── A new merchant's order's, until Complete gives them the new store ─────────────────────────────────────────
  app.post(
    '/api/orders/:orderId/files/:token',
    {
      onRequest: requireSession({ anyOf: STORE_FILE_UPLOADERS }),
      schema: {
        tags: ['orders'],
        summary: `Upload a store file to a new merchant's order; Complete gives it the new store ${UPLOAD_SUMMARY}`,
        consumes: ['multipart/form-data'],
        params: orderIdTokenParams,
        response: { 201: successEnvelope(storeFile) },
      },
    },
    async (request, reply) => {
      const info = await uploadStoreFile(serviceCtx(request), request, { orderId: request.params.orderId });
      return reply.code(201).send({ info });
    },
  );

  app.get(
    '/api/orders/:orderId/files/:token',
    {
      onRequest: requireSession({ anyOf: ORDER_FILE_READERS }),
      schema: {
        tags: ['orders'],
        summary: "The store files uploaded to an order, newest first (after Complete they are the store's too)",
        params: orderIdTokenParams,
        response: { 200: successEnvelope(storeFileList) },
      },
    },
    async (request) => ({ info: await listStoreFiles(serviceCtx(request), { orderId: request.params.orderId }) }),
  );

  app.get(
    '/api/orders/:orderId/files/:fileId/:token',
    {
      onRequest: requireSession({ anyOf: ORDER_FILE_READERS }),
      schema: {
        tags: ['orders'],
        summary: "A store file of an order: as the store's (?size=thumb: an image inline, else an attachment)",
        params: orderFileParams,
        querystring: storeFileQuery,
      },
    },
    async (request, reply) =>
      sendFile(
        reply,
        await openStoreFile(serviceCtx(request), request.params, request.log),
        request.query.size === 'thumb',
      ),
  );

  app.delete(
    '/api/orders/:orderId/files/:fileId/:token',
    {
      onRequest: requireSession({ anyOf: ORDER_FILE_DELETERS }),
      schema: {
        tags: ['orders'],
        summary: "Delete a store file of an order before Complete (audited); after Complete it is the store's (409)",
        params: orderFileParams,
        response: { 200: successEnvelope(z.object({ deleted: z.literal(true) })) },
      },
    },
    async (request) => {
      await deleteStoreFile(serviceCtx(request), request.params, request.log);
      return { info: { deleted: true as const } };
    },
  );
};
