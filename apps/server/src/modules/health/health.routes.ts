import { healthResponse, successEnvelope } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        summary: 'Liveness and database check',
        tags: ['system'],
        response: { 200: successEnvelope(healthResponse) },
      },
    },
    async () => {
      const { database, config } = app.ctx;
      await database.query('select 1');
      return { info: { status: 'ok' as const, version: config.version, database: database.kind } };
    },
  );
};
