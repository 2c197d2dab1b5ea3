import type { FastifyRequest } from 'fastify';
import type { ServiceCtx } from '../context';
import { actorOfSession } from './audit';
import { sessionOf } from './session';

function client(request: FastifyRequest) {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : null };
}

/** The service context of a guarded request (its route has `requireSession`): the session names the actor. */
export function serviceCtx(request: FastifyRequest): ServiceCtx {
  const session = sessionOf(request);
  return {
    app: request.server.ctx,
    session,
    actor: actorOfSession(session),
    requestId: request.id,
    ...client(request),
  };
}

/**
 * The service context of a public request (sign-in, password reset, the merchant's link pages): no session; the actor
 * is anonymous until the service knows who (the merchant of the link, the person signing in).
 */
export function publicCtx(request: FastifyRequest): ServiceCtx<null> {
  const actor = { actorType: 'anonymous' } as const;
  return { app: request.server.ctx, session: null, actor, requestId: request.id, ...client(request) };
}
