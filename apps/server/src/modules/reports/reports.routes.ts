import { sendCsv } from '../../http/csv-reply';
import {
  agingInvoices,
  agingInvoicesQuery,
  agingQuery,
  agingReport,
  failedPaymentReport,
  failedPaymentReportQuery,
  revenueQuery,
  revenueReport,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  getAgingInvoices,
  getAgingInvoicesCsv,
  getAgingReport,
  getAgingReportCsv,
  getFailedPaymentReport,
  getFailedPaymentReportCsv,
  getRevenueReport,
  getRevenueReportCsv,
} from './reports.service';

/** The reports screen's privilege (#/reports); the server enforces it on every call. */
export const REPORTS_GUARD: readonly Permission[] = ['reports_edit'];
const canUse = requireSession({ anyOf: REPORTS_GUARD });
const tags = ['reports'];

/** The AR reports (issue 18 part 1, decision 128). Contracts: packages/domain/src/contracts/reports.ts. */
export const reportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/reports/aging/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          'AR aging as of a day: open balances (ledger) by days past due, totals per currency and by customer (paged, sorted). format=csv: every customer row as CSV',
        params: tokenParams,
        querystring: agingQuery,
        response: { 200: successEnvelope(agingReport) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      if (request.query.format === 'csv') return sendCsv(reply, ctx, 'ar-aging', getAgingReportCsv(ctx, request.query));
      return { info: await getAgingReport(ctx, request.query) };
    },
  );

  app.get(
    '/api/reports/aging/invoices/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          'The open invoices behind an aging figure (bucket, currency, country, customer), paged. format=csv: every invoice as CSV',
        params: tokenParams,
        querystring: agingInvoicesQuery,
        response: { 200: successEnvelope(agingInvoices) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      if (request.query.format === 'csv')
        return sendCsv(reply, ctx, 'ar-aging-invoices', getAgingInvoicesCsv(ctx, request.query));
      return { info: await getAgingInvoices(ctx, request.query) };
    },
  );

  app.get(
    '/api/reports/revenue/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          'Invoiced, reversed and collected by month, invoice type and currency (default: the last 12 months). format=csv: every row as CSV',
        params: tokenParams,
        querystring: revenueQuery,
        response: { 200: successEnvelope(revenueReport) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      if (request.query.format === 'csv')
        return sendCsv(reply, ctx, 'revenue', getRevenueReportCsv(ctx, request.query));
      return { info: await getRevenueReport(ctx, request.query) };
    },
  );

  app.get(
    '/api/reports/failed-payments/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          'Charge attempts, failures and recoveries by month and currency (default: the last 12 months). format=csv: every row as CSV',
        params: tokenParams,
        querystring: failedPaymentReportQuery,
        response: { 200: successEnvelope(failedPaymentReport) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      if (request.query.format === 'csv')
        return sendCsv(reply, ctx, 'failed-payments-report', getFailedPaymentReportCsv(ctx, request.query));
      return { info: await getFailedPaymentReport(ctx, request.query) };
    },
  );
};
