import {
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
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../http/content-disposition';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { deleteStoreFile, listStoreFiles, openStoreFile, uploadStoreFile } from './store-files.service';

const tags = ['stores'];

/** A store's pictures, business licenses and reseller files (decision 160). */
export const storeFileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/stores/:storeId/files/:token',
    {
      onRequest: requireSession({ anyOf: STORE_FILE_UPLOADERS }),
      schema: {
        tags,
        summary:
          "Upload a store file (multipart/form-data: the field 'kind' — store_picture, business_license or reseller_file — and one file in 'file', ≤ 5,242,880 bytes)",
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
        tags,
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
        tags,
        summary:
          'A store file: inline for an image preview (?size=thumb — the image itself, the browser scales it; decision 160), else as an attachment',
        params: storeFileParams,
        querystring: storeFileQuery,
      },
    },
    async (request, reply) => {
      const { file, object } = await openStoreFile(serviceCtx(request), request.params, request.log);
      const inline = request.query.size === 'thumb' && file.previewable;
      return reply
        .header('content-type', file.content_type)
        .header('content-length', String(file.size))
        .header('content-disposition', contentDisposition(file.file_name, inline ? 'inline' : 'attachment'))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(object.body);
    },
  );

  app.delete(
    '/api/stores/:storeId/files/:fileId/:token',
    {
      onRequest: requireSession({ anyOf: STORE_FILE_DELETERS }),
      schema: {
        tags,
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
};
