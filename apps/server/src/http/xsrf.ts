import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from './errors';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function sameToken(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/**
 * Double-submit XSRF protection (spec §7): any response to a request without the cookie sets `XSRF-TOKEN`;
 * every non-GET request must echo it in `X-XSRF-TOKEN`, or it is refused with 403 before its body is read.
 */
export const xsrfPlugin = fp(async (app: FastifyInstance, opts: { secureCookie: boolean }) => {
  app.addHook('onRequest', async (request, reply) => {
    const cookie = request.cookies[XSRF_COOKIE];
    if (!cookie) {
      reply.setCookie(XSRF_COOKIE, randomBytes(24).toString('base64url'), {
        path: '/',
        sameSite: 'strict',
        secure: opts.secureCookie,
        httpOnly: false,
      });
    }
    if (SAFE_METHODS.has(request.method) || request.is404) return;
    const header = request.headers[XSRF_HEADER];
    if (!cookie || typeof header !== 'string' || !sameToken(cookie, header)) {
      throw new AppError('xsrf_mismatch', 'The request is missing its XSRF token. Reload the page and try again.');
    }
  });
});
