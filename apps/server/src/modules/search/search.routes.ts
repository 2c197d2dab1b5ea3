import {
  GLOBAL_SEARCH_PRIVILEGES,
  globalSearchQuery,
  globalSearchResult,
  successEnvelope,
  tokenParams,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { serviceCtx } from '../../http/service-context';
import { requireSession } from '../../http/session';
import { globalSearch } from './search.service';

/** The global search (⌘K, decision 106): one call over customers, stores, terminals and orders. */
export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/search/:token',
    {
      // Any privilege that opens one kind; each kind is then searched only for a session that may see it.
      onRequest: requireSession({ anyOf: GLOBAL_SEARCH_PRIVILEGES }),
      schema: {
        tags: ['search'],
        summary:
          'Global search: customers (id, legal name, tax id), stores (id, name, DBA, bracct), terminals (terminal id, serial), orders (id, unified id); ≤ 20, grouped by kind',
        params: tokenParams,
        querystring: globalSearchQuery,
        response: { 200: successEnvelope(globalSearchResult) },
      },
    },
    async (request) => ({ info: await globalSearch(serviceCtx(request), request.query) }),
  );
};
