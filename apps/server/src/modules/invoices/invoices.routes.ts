import { sendCsv } from '../../http/csv-reply';
import {
  invoiceEmailResult,
  invoiceIdParams,
  invoicePage,
  invoiceSearchQuery,
  invoiceSearchResult,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contentDisposition } from '../../http/content-disposition';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { emailInvoice, getInvoicePage, getInvoicePdf, searchInvoices, searchInvoicesCsv } from './invoices.service';

/** The invoices screen's privilege (#/view-invoices); the server enforces it on every call. */
export const INVOICES_GUARD: readonly Permission[] = ['invoices'];
const canUse = requireSession({ anyOf: INVOICES_GUARD });
const tags = ['invoices'];

/** The invoices screen (issue 14 point 4, decision 114). Contracts: packages/domain/src/contracts/invoices.ts. */
export const invoiceRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/invoices/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          'Invoices: filters, sort, paging; total exact up to 1,000 (total_capped beyond). format=csv: every row as CSV',
        params: tokenParams,
        querystring: invoiceSearchQuery,
        response: { 200: successEnvelope(invoiceSearchResult) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const ctx = serviceCtx(request);
      if (q.format === 'csv') {
        return sendCsv(reply, ctx, 'invoices', searchInvoicesCsv(ctx, q));
      }
      return { info: await searchInvoices(ctx, q) };
    },
  );

  app.get(
    '/api/invoices/:invoiceId/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary: 'One invoice: lines, payments, credits, write-offs, receipts, the ledger balance, history',
        params: invoiceIdParams,
        response: { 200: successEnvelope(invoicePage) },
      },
    },
    async (request) => ({ info: await getInvoicePage(serviceCtx(request), request.params.invoiceId) }),
  );

  app.get(
    '/api/invoices/:invoiceId/pdf/:token',
    {
      onRequest: canUse,
      schema: { tags, summary: 'The invoice as PDF (attachment)', params: invoiceIdParams },
    },
    async (request, reply) => {
      const { pdf, fileName } = await getInvoicePdf(serviceCtx(request), request.params.invoiceId);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(pdf.length))
        .header('content-disposition', contentDisposition(fileName))
        .header('cache-control', 'no-store')
        .send(Buffer.from(pdf));
    },
  );

  app.post(
    '/api/invoices/:invoiceId/email/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary: "E-mail the invoice PDF to the merchant (the customer's e-mail; locally the Mailbox)",
        params: invoiceIdParams,
        body: z.strictObject({}, { message: 'This call takes no body.' }).nullish(),
        response: { 200: successEnvelope(invoiceEmailResult) },
      },
    },
    async (request) => ({ info: await emailInvoice(serviceCtx(request), request.params.invoiceId) }),
  );
};
