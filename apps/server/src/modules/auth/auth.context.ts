import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';

/** Who is calling, for sessions and the audit trail. */
export interface RequestMeta {
  requestId: string;
  ip: string;
  userAgent: string | null;
}

export function requestMeta(request: FastifyRequest): RequestMeta {
  const ua = request.headers['user-agent'];
  return { requestId: request.id, ip: request.ip, userAgent: typeof ua === 'string' ? ua : null };
}

/** What auth services get: the app's context plus the caller. */
export type AuthCtx = AppContext & { meta: RequestMeta };

export function authCtx(request: FastifyRequest): AuthCtx {
  return { ...request.server.ctx, meta: requestMeta(request) };
}
