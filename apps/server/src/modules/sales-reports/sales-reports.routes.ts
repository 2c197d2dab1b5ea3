import { sendCsv } from '../../http/csv-reply';
import {
  ordersReport,
  ordersReportList,
  ordersReportListQuery,
  ordersReportQuery,
  repCustomerList,
  repCustomersQuery,
  repHistoryQuery,
  repIdParams,
  repSalesHistory,
  salesReport,
  salesReportQuery,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  getOrdersReport,
  getRepSalesHistory,
  getRepSalesHistoryCsv,
  getSalesReport,
  getSalesReportCsv,
  listRepCustomers,
  listRepCustomersCsv,
  listReportOrders,
  listReportOrdersCsv,
  ordersReportCsv,
} from './sales-reports.service';

/** The reports screen's privilege (#/reports, #/sales-person/:salesPersonId); the server enforces it on every call. */
export const SALES_REPORTS_GUARD: readonly Permission[] = ['reports_edit'];
const canUse = requireSession({ anyOf: SALES_REPORTS_GUARD });
const tags = ['reports'];

/** Orders and sales reports (issue 18 parts 1 and 3, decision 129). Contracts: packages/domain/src/contracts/sales-reports.ts. */
export const salesReportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/reports/orders/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          'Orders per status, flow and sales channel, per currency (default: the last 365 days). format=csv: the figures as CSV',
        params: tokenParams,
        querystring: ordersReportQuery,
        response: { 200: successEnvelope(ordersReport) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      if (request.query.format === 'csv')
        return sendCsv(reply, ctx, 'orders-report', ordersReportCsv(ctx, request.query));
      return { info: await getOrdersReport(ctx, request.query) };
    },
  );

  app.get(
    '/api/reports/orders/list/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary: 'The orders behind a figure of the orders report, newest first. format=csv: every order as CSV',
        params: tokenParams,
        querystring: ordersReportListQuery,
        response: { 200: successEnvelope(ordersReportList) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      if (request.query.format === 'csv') return sendCsv(reply, ctx, 'orders', listReportOrdersCsv(ctx, request.query));
      return { info: await listReportOrders(ctx, request.query) };
    },
  );

  app.get(
    '/api/reports/sales/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          'Sales (sales_history) per sales person or agent, per currency and month (default: the last 12 months). format=csv: every line as CSV',
        params: tokenParams,
        querystring: salesReportQuery,
        response: { 200: successEnvelope(salesReport) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      if (request.query.format === 'csv')
        return sendCsv(reply, ctx, 'sales-report', getSalesReportCsv(ctx, request.query));
      return { info: await getSalesReport(ctx, request.query) };
    },
  );

  app.get(
    '/api/reports/sales/reps/:id/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary:
          "A sales person's record and monthly sales of the last 24 months, per currency. format=csv: the months",
        params: repIdParams,
        querystring: repHistoryQuery,
        response: { 200: successEnvelope(repSalesHistory) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      const id = request.params.id;
      if (request.query.format === 'csv')
        return sendCsv(reply, ctx, `sales-person-${id}`, await getRepSalesHistoryCsv(ctx, id));
      return { info: await getRepSalesHistory(ctx, id) };
    },
  );

  app.get(
    '/api/reports/sales/reps/:id/customers/:token',
    {
      onRequest: canUse,
      schema: {
        tags,
        summary: "A sales person's customers by legal name. format=csv: every customer as CSV",
        params: repIdParams,
        querystring: repCustomersQuery,
        response: { 200: successEnvelope(repCustomerList) },
      },
    },
    async (request, reply) => {
      const ctx = serviceCtx(request);
      const id = request.params.id;
      if (request.query.format === 'csv')
        return sendCsv(reply, ctx, `sales-person-${id}-customers`, await listRepCustomersCsv(ctx, id, request.query));
      return { info: await listRepCustomers(ctx, id, request.query) };
    },
  );
};
