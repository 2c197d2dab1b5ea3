import {
  distributorLoginInfo,
  distributorLoginRequest,
  passwordForgotRequest,
  passwordResetRequest,
  successEnvelope,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { publicCtx } from '../../http/service-context';
import { requestPasswordReset, resetPassword, signInDistributor } from './distributor.service';

const tags = ['auth'];

/** Distributor login and password reset (public, rate-limited). */
export const distributorRoutes: FastifyPluginAsyncZod = async (app) => {
  const limit = { rateLimit: { max: app.ctx.config.signInRateLimitPerMinute, timeWindow: 60_000 } };

  app.post(
    '/api/auth/distributor/login',
    {
      config: limit,
      schema: {
        tags,
        summary: 'Distributor login',
        body: distributorLoginRequest,
        response: { 200: successEnvelope(distributorLoginInfo) },
      },
    },
    async (request) => ({ info: await signInDistributor(publicCtx(request), request.body) }),
  );

  app.post(
    '/api/auth/distributor/password/forgot',
    {
      config: limit,
      schema: {
        tags,
        summary: 'E-mail a password-reset link (the answer is the same whether or not the account exists)',
        body: passwordForgotRequest,
        response: { 200: successEnvelope(z.object({ sent: z.literal(true) })) },
      },
    },
    async (request) => {
      await requestPasswordReset(publicCtx(request), request.body);
      return { info: { sent: true as const } };
    },
  );

  app.post(
    '/api/auth/distributor/password/reset',
    {
      config: limit,
      schema: {
        tags,
        summary: 'Set a new password with a reset link token; ends every session of the distributor',
        body: passwordResetRequest,
        response: { 200: successEnvelope(z.object({ reset: z.literal(true) })) },
      },
    },
    async (request) => {
      await resetPassword(publicCtx(request), request.body);
      return { info: { reset: true as const } };
    },
  );
};
