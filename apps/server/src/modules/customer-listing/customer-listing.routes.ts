import { sendCsv } from '../../http/csv-reply';
import {
  customerListingOptions,
  customerListingQuery,
  customerListingResult,
  successEnvelope,
  tokenParams,
  type Permission,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import {
  customerListing,
  customerListingCount,
  customerListingCsv,
  customerListingOptions as listingOptions,
} from './customer-listing.service';

/** #/customer-listing (route id customerListing). */
export const CUSTOMER_LISTING_GUARD: readonly Permission[] = ['reports_edit'];
const canList = requireSession({ anyOf: CUSTOMER_LISTING_GUARD });
const tags = ['reports'];

/** Customer listing (issue 18 part 2, decision 130). Contract: packages/domain/src/contracts/customer-listing.ts. */
export const customerListingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/reports/customer-listing/:token',
    {
      onRequest: canList,
      schema: {
        tags,
        summary:
          'Customer listing: one row per store; filters, sort, paging; total exact up to 1,000 (total_capped beyond). ' +
          'format=csv: every row as CSV, streamed, with the exact row count in x-total-count',
        params: tokenParams,
        querystring: customerListingQuery,
        response: { 200: successEnvelope(customerListingResult) },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const ctx = serviceCtx(request);
      if (q.format === 'csv') {
        if (q.count !== false) reply.header('x-total-count', String(await customerListingCount(ctx, q)));
        return sendCsv(reply, ctx, 'customer-listing', customerListingCsv(ctx, q));
      }
      return { info: await customerListing(ctx, q) };
    },
  );

  app.get(
    '/api/reports/customer-listing/options/:token',
    {
      onRequest: canList,
      schema: {
        tags,
        summary: 'Customer listing: the agents and sales reps its filters offer',
        params: tokenParams,
        response: { 200: successEnvelope(customerListingOptions) },
      },
    },
    async (request) => ({ info: await listingOptions(serviceCtx(request)) }),
  );
};
