import { hasAnyPermission, type Permission } from '@pos/domain';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from './errors';
import { findLiveSession, touchSession, type SessionContext } from './session-store';

export type { SessionContext, SessionKind } from './session-store';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireSession`; null on public routes. Use `sessionOf(request)` in guarded handlers. */
    session: SessionContext | null;
  }
}

export interface RequireSessionOptions {
  /** A missing privilege → 403 `forbidden`; passes when any one is held (spec §6 one-of). */
  anyOf?: readonly Permission[];
  /** Only these roles (e.g. ['Admin']), and only staff sessions. */
  roles?: readonly string[];
}

export const SESSION_INVALID_MESSAGE = 'Your session has ended or is not valid. Sign in again.';

/** Marks the hooks made by requireSession, so a route list can tell guarded routes apart. */
export const SESSION_GUARD = Symbol('pos.sessionGuard');

/** Registers the `request.session` decoration (once, at the root). */
export const sessionPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('session', null);
});

/**
 * The session guard of every `/api` route with a `{token}` in its path: an onRequest hook (it runs before
 * the body is read or validated) that hashes `request.params.token`, loads the live session (not released,
 * not expired, its person still active), bumps last-seen at most once a minute, and sets `request.session`.
 * 403 `session_invalid` for a missing/unknown/ended session; 403 `forbidden` for a missing privilege or role.
 */
export function requireSession(options: RequireSessionOptions = {}): onRequestAsyncHookHandler {
  const hook: onRequestAsyncHookHandler = async (request) => {
    const { config, database, clock } = request.server.ctx;
    const token = (request.params as Record<string, unknown> | undefined)?.token;
    if (typeof token !== 'string' || token.length < 20 || token.length > 200) {
      throw new AppError('session_invalid', SESSION_INVALID_MESSAGE);
    }
    const now = clock.now();
    const session = await findLiveSession(database.db, config, token, now);
    if (!session) throw new AppError('session_invalid', SESSION_INVALID_MESSAGE);
    await touchSession(database.db, config, session, now);
    request.session = session;

    if (options.roles && (session.kind !== 'staff' || !options.roles.includes(session.role))) {
      throw new AppError('forbidden', `This needs the ${options.roles.join(' or ')} role.`);
    }
    if (options.anyOf && options.anyOf.length > 0 && !hasAnyPermission(session.privileges, options.anyOf)) {
      throw new AppError('forbidden', `This needs one of these privileges: ${options.anyOf.join(', ')}.`);
    }
  };
  Object.defineProperty(hook, SESSION_GUARD, { value: options });
  return hook;
}

/** The session of a guarded request (throws when a route forgot its guard). */
export function sessionOf(request: FastifyRequest): SessionContext {
  if (!request.session) throw new AppError('session_invalid', SESSION_INVALID_MESSAGE);
  return request.session;
}
