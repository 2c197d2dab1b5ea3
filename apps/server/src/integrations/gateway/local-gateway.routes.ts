import { gatewayToken, gatewayTokenRequest } from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LOCAL_GATEWAY_TOKENIZE_PATH, type LocalGateway } from './local-gateway';

/**
 * The local gateway's own host: POST /gateway-local/v1/tokens {number, exp_month, exp_year, cvc, name?} →
 * {token, brand, last4, exp_month, exp_year} (no envelope, like a real gateway). Registered only when the local
 * gateway is selected and usable. Stands in for the gateway's browser library: no session, touches no table, and
 * the request body is never logged (the request log line has the method, path and status only).
 */
export const localGatewayRoutes: FastifyPluginAsyncZod<{ gateway: LocalGateway }> = async (app, opts) => {
  app.post(
    LOCAL_GATEWAY_TOKENIZE_PATH,
    {
      schema: {
        tags: ['gateway-local'],
        summary: 'Local payment gateway: tokenize a card (development and tests only)',
        body: gatewayTokenRequest,
        response: { 201: gatewayToken },
      },
    },
    async (request, reply) => {
      const token = opts.gateway.tokenize(request.body);
      return reply.code(201).send(token);
    },
  );
};
