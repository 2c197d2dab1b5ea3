import {
  AGENT_EDITOR_ROLES,
  authConfigInfo,
  authenticateRequest,
  checkEmailInfo,
  checkEmailRequest,
  integrationKeyCreateRequest,
  integrationKeyInfo,
  loginInfo,
  makeTokenInfo,
  permissionInfo,
  permissionQuery,
  roleLookupInfo,
  roleLookupRequest,
  successEnvelope,
  validateInfo,
} from '@pos/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireSession, sessionOf } from '../../http/session';
import { publicCtx, serviceCtx } from '../../http/service-context';
import {
  checkAgentEmail,
  createIntegrationKey,
  describeSession,
  lookupOrUpdateStaffRole,
  permissionMap,
  revokeIntegrationKey,
  signInStaff,
  signInWithIntegrationKey,
  signOut,
} from './auth.service';
import { demoAccounts } from './oidc.routes';

const tokenParams = z.object({ token: z.string() });
const tags = ['auth'];

/** Spec §7 Auth: sign-in, sessions, permissions, role lookup, agent e-mail check; plus integration keys. */
export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.ctx;
  const signInLimit = { rateLimit: { max: config.signInRateLimitPerMinute, timeWindow: 60_000 } };

  app.get(
    '/api/auth/config',
    {
      schema: {
        tags,
        summary: 'Which identity provider the sign-in button uses (public)',
        response: { 200: successEnvelope(authConfigInfo) },
      },
    },
    async () => {
      const { identity, database } = app.ctx;
      if (identity.kind === 'google') return { info: { provider: 'google' as const, clientId: identity.audience } };
      return {
        info: {
          provider: 'local' as const,
          clientId: identity.audience,
          authorizeUrl: '/oidc/authorize',
          accounts: await demoAccounts(database.db, config.allowedEmailDomains),
        },
      };
    },
  );

  app.post(
    '/api/auth/authenticate',
    {
      config: signInLimit,
      schema: {
        tags,
        summary: 'Staff sign-in with an OpenID Connect ID token (public, rate-limited)',
        body: authenticateRequest,
        response: { 200: successEnvelope(loginInfo) },
      },
    },
    async (request) => ({ info: await signInStaff(publicCtx(request), request.body) }),
  );

  app.get(
    '/api/auth/validate/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags,
        summary: 'Validate a session',
        params: tokenParams,
        response: { 200: successEnvelope(validateInfo) },
      },
    },
    async (request) => ({ info: describeSession(sessionOf(request)) }),
  );

  app.get(
    '/api/auth/logout/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags,
        summary: 'Release a session',
        params: tokenParams,
        response: { 200: successEnvelope(z.object({ released: z.literal(true) })) },
      },
    },
    async (request) => {
      await signOut(serviceCtx(request));
      return { info: { released: true as const } };
    },
  );

  app.get(
    '/api/auth/:x/gettoken',
    {
      config: signInLimit,
      schema: {
        tags,
        summary: 'Make-token ("distributor token") session for an integration key (public, rate-limited)',
        params: z.object({ x: z.string() }),
        response: { 200: successEnvelope(makeTokenInfo) },
      },
    },
    async (request) => ({ info: await signInWithIntegrationKey(publicCtx(request), request.params.x) }),
  );

  app.get(
    '/api/auth/permission/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags,
        summary: 'Which of the named privileges the session holds',
        params: tokenParams,
        querystring: permissionQuery,
        response: { 200: successEnvelope(permissionInfo) },
      },
    },
    async (request) => ({ info: { permissions: permissionMap(sessionOf(request), request.query.privileges) } }),
  );

  app.put(
    '/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/:token',
    {
      onRequest: requireSession(),
      schema: {
        tags,
        summary: "Look up a staff user's id, role and privileges, or change them (Admin)",
        params: tokenParams,
        body: roleLookupRequest,
        response: { 200: successEnvelope(roleLookupInfo) },
      },
    },
    async (request) => ({ info: await lookupOrUpdateStaffRole(serviceCtx(request), request.body) }),
  );

  app.post(
    '/api/customers/agents/checkemail/:token',
    {
      // Agent editors only (Admin, RAM, IS; the domain's mayEditAgents): whether an e-mail is an agent's, and its id,
      // is nobody else's business — refused before the body is read.
      onRequest: requireSession({ roles: AGENT_EDITOR_ROLES }),
      schema: {
        tags,
        summary: 'Is an agent registered with this e-mail (compared lower-cased)? Agent editors (Admin, RAM, IS) only',
        params: tokenParams,
        body: checkEmailRequest,
        response: { 200: successEnvelope(checkEmailInfo) },
      },
    },
    async (request) => ({ info: await checkAgentEmail(serviceCtx(request), request.body.email) }),
  );

  app.post(
    '/api/auth/integrationkeys/:token',
    {
      onRequest: requireSession({ roles: ['Admin'] }),
      schema: {
        tags,
        summary: 'Create an integration key for make-token sessions (Admin; the key is shown once)',
        params: tokenParams,
        body: integrationKeyCreateRequest,
        response: { 201: successEnvelope(integrationKeyInfo) },
      },
    },
    async (request, reply) => {
      const info = await createIntegrationKey(serviceCtx(request), request.body);
      return reply.code(201).send({ info });
    },
  );

  app.delete(
    '/api/auth/integrationkeys/:id/:token',
    {
      onRequest: requireSession({ roles: ['Admin'] }),
      schema: {
        tags,
        summary: 'Revoke an integration key (Admin)',
        params: z.object({ id: z.coerce.number().int().positive(), token: z.string() }),
        response: { 200: successEnvelope(z.object({ revoked: z.literal(true) })) },
      },
    },
    async (request) => {
      await revokeIntegrationKey(serviceCtx(request), request.params.id);
      return { info: { revoked: true as const } };
    },
  );
};
