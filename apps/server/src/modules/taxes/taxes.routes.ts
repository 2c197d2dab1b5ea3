import {
  adminTaxRateCreate,
  adminTaxRates,
  adminTaxState,
  ROLE,
  successEnvelope,
  taxCertificate,
  taxCertificateCreate,
  taxCertificateList,
  taxCertificateParams,
  taxCertificateQuery,
  uploadInfo,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { addTaxRateVersion, listTaxRates } from './admin-taxes.service';
import { createCertificate, listCertificates, revokeCertificate, uploadCertificateFile } from './certificates.service';

const tokenParams = z.object({ token: z.string() });
const adminOnly = requireSession({ roles: [ROLE.ADMIN] });
/** Decision 127: #/arizona is a session route; reading needs customer details, recording and revoking the edit right. */
const canRead = requireSession({ anyOf: ['customer_details_view', 'customer_details_edit'] });
const canRecord = requireSession({ anyOf: ['customer_details_edit'] });

/** Tax rates per state/province with effective dates (Admin) and Arizona certificates (issue 17, decision 127). */
export const taxRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/admin/taxes/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['admin'],
        summary: 'Tax rates: per US state and Canadian province the rate in force today and the scheduled ones',
        params: tokenParams,
        response: { 200: successEnvelope(adminTaxRates) },
      },
    },
    async (request) => ({ info: await listTaxRates(serviceCtx(request)) }),
  );

  app.post(
    '/api/admin/taxes/:token',
    {
      onRequest: adminOnly,
      schema: {
        tags: ['admin'],
        summary: "A new version of a state's / province's rate (GST/HST/PST/STATE) from an effective date ≥ today",
        params: tokenParams,
        body: adminTaxRateCreate,
        response: { 201: successEnvelope(adminTaxState) },
      },
    },
    async (request, reply) => {
      const info = await addTaxRateVersion(serviceCtx(request), request.body);
      return reply.code(201).send({ info });
    },
  );

  app.get(
    '/api/taxcertificates/:token',
    {
      onRequest: canRead,
      schema: {
        tags: ['taxes'],
        summary: "A store's Arizona tax certificates (store_id), or those expiring within `expiring` days",
        params: tokenParams,
        querystring: taxCertificateQuery,
        response: { 200: successEnvelope(taxCertificateList) },
      },
    },
    async (request) => ({ info: await listCertificates(serviceCtx(request), request.query) }),
  );

  app.post(
    '/api/taxcertificates/upload/:token',
    {
      onRequest: canRecord,
      schema: {
        tags: ['taxes'],
        summary:
          "Upload a certificate's file (multipart/form-data, one file in the field 'certificate': pdf, jpeg, png, ≤ 5,242,880 bytes)",
        consumes: ['multipart/form-data'],
        params: tokenParams,
        response: { 201: successEnvelope(uploadInfo) },
      },
    },
    async (request, reply) => {
      const info = await uploadCertificateFile(serviceCtx(request), request);
      return reply.code(201).send({ info });
    },
  );

  app.post(
    '/api/taxcertificates/:token',
    {
      onRequest: canRecord,
      schema: {
        tags: ['taxes'],
        summary: "Record an Arizona store's TPT / resale certificate (number, expiry, uploaded file)",
        params: tokenParams,
        body: taxCertificateCreate,
        response: { 201: successEnvelope(taxCertificate) },
      },
    },
    async (request, reply) => {
      const info = await createCertificate(serviceCtx(request), request.body);
      return reply.code(201).send({ info });
    },
  );

  app.post(
    '/api/taxcertificates/:certificateId/revoke/:token',
    {
      onRequest: canRecord,
      schema: {
        tags: ['taxes'],
        summary: 'Revoke a certificate: sales from now on are taxed again',
        params: taxCertificateParams,
        response: { 200: successEnvelope(taxCertificate) },
      },
    },
    async (request) => ({
      info: await revokeCertificate(serviceCtx(request), { certificateId: request.params.certificateId }),
    }),
  );
};
