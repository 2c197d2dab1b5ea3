import { successEnvelope, uploadFileParams, uploadInfo, type UploadKind } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../http/content-disposition';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { openUpload, receiveUpload, uploadFieldOf } from './uploads.service';

const tags = ['uploads'];
const tokenParams = z.object({ token: z.string() });

/** The spec's two image uploads (§7 Other) and the download of any upload. */
export const uploadRoutes: FastifyPluginAsyncZod = async (app) => {
  const imageUpload = (url: string, kind: UploadKind, summary: string) =>
    app.post(
      url,
      {
        onRequest: requireSession({ anyOf: ['customer_details_edit'] }),
        schema: {
          tags,
          summary: `${summary} (multipart/form-data, one file in the field '${uploadFieldOf(kind)}', ≤ 5,242,880 bytes)`,
          consumes: ['multipart/form-data'],
          params: tokenParams,
          response: { 201: successEnvelope(uploadInfo) },
        },
      },
      async (request, reply) => {
        const { info } = await receiveUpload(serviceCtx(request), request, { kind });
        return reply.code(201).send({ info });
      },
    );

  imageUpload('/api/customers/paymentinstruments/check/addimage/:token', 'checkImage', 'Upload a check image');
  imageUpload(
    '/api/customers/paymentinstruments/achcad/addimage/:token',
    'achCadImage',
    'Upload a bank-account (ACH/CAD) image',
  );

  app.get(
    '/api/uploads/:id/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags,
        summary:
          'Download an upload by its public id (as an attachment, with its stored content type); 404 unless the session may read the record it belongs to',
        params: uploadFileParams,
      },
    },
    async (request, reply) => {
      const file = await openUpload(serviceCtx(request), { publicId: request.params.id }, request.log);
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('content-disposition', contentDisposition(file.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.object.body);
    },
  );
};
