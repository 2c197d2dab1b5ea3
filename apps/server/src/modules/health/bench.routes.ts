import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The bare route's answer: constant, so a bench measures only HTTP, routing and serialization. */
export const BENCH_BARE_ANSWER = { info: { status: 'ok' as const } };

/**
 * `npm run bench`'s baseline (issue 13): a constant JSON answer that touches no database, measured in the same
 * run as every scenario so a scenario's throughput reads as a ratio of what this machine's HTTP stack can do.
 * Registered only with BENCH_ROUTES=true, which the configuration refuses in production.
 */
export const benchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/bench/bare',
    {
      schema: {
        hide: true,
        response: { 200: z.object({ info: z.object({ status: z.literal('ok') }) }) },
      },
    },
    async () => BENCH_BARE_ANSWER,
  );
};
