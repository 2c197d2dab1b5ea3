import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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

  // The soak (bench --soak) reads the heap before and after its traffic: after a full collection, so what remains
  // is what the server holds on to. gc() is exposed for this process only when the route is registered.
  let gc: (() => void) | undefined;
  app.get(
    '/api/bench/heap',
    {
      schema: {
        hide: true,
        response: {
          200: z.object({
            info: z.object({ heap_used_bytes: z.number(), rss_bytes: z.number(), collected: z.boolean() }),
          }),
        },
      },
    },
    async () => {
      if (!gc) {
        setFlagsFromString('--expose-gc');
        gc = runInNewContext('gc') as () => void;
      }
      // Twice: objects with finalizers (and weak references) are freed only by the second collection.
      gc();
      gc();
      const memory = process.memoryUsage();
      return { info: { heap_used_bytes: memory.heapUsed, rss_bytes: memory.rss, collected: true } };
    },
  );
};
