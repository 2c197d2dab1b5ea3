import {
  CURRENCY_CODES,
  CURRENCY_SYMBOLS,
  currencyInfo,
  currencyQuery,
  successEnvelope,
  type CurrencyCode,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSession } from '../../http/session';

const CURRENCY_NAMES: Readonly<Record<CurrencyCode, string>> = {
  USD: 'US dollar',
  CAD: 'Canadian dollar',
};

/** The currencies of spec §9 (USD $, CAD C$), optionally one by code; an unknown code gives an empty list. */
export function listCurrencies(code?: string) {
  return CURRENCY_CODES.filter((c) => code === undefined || code === '' || c === code).map((c) => ({
    code: c,
    symbol: CURRENCY_SYMBOLS[c],
    name: CURRENCY_NAMES[c],
  }));
}

export const currencyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/currencies/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags: ['catalogue'],
        summary: 'Currencies (optional ?code=)',
        params: z.object({ token: z.string() }),
        querystring: currencyQuery,
        response: { 200: successEnvelope(currencyInfo) },
      },
    },
    async (request) => ({ info: { currencies: listCurrencies(request.query.code) } }),
  );
};
