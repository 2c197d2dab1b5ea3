import type { HTTPMethods, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffUser } from '../db/factories';
import { createTestApp, type TestApp } from '../test/test-app';
import { SESSION_GUARD } from './session';

/**
 * Every route the app registers answers non-2xx without a valid session, except this explicit list of
 * public routes. A new route is either guarded by `requireSession` or added here on purpose.
 */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'GET /api/openapi.json',
  'GET /api/auth/config',
  'POST /api/auth/authenticate',
  'GET /api/auth/:x/gettoken',
  'POST /api/auth/distributor/login',
  'POST /api/auth/distributor/password/forgot',
  'POST /api/auth/distributor/password/reset',
  'POST /api/dev/idtoken',
  'GET /.well-known/openid-configuration',
  'GET /oidc/jwks.json',
  'GET /oidc/authorize',
  // The local payment gateway's tokenization endpoint stands in for a gateway's browser API (decision 059).
  'POST /gateway-local/v1/tokens',
  // The merchant's contract pages: the single-use link token is the credential (decision 082).
  'GET /api/public/contracts/:tok',
  'GET /api/public/contracts/:tok/pdf',
  'POST /api/public/contracts/:tok/sign',
  'GET /api/public/contracts/reauthorize/:tok',
  'POST /api/public/contracts/reauthorize/:tok',
  // The merchant's payment pages (decision 118): a single-use link token in the path, no session.
  'GET /api/public/payment/:tok',
  'POST /api/public/payment/:tok',
  'POST /api/public/payment/:tok/method',
  'GET /api/public/payment/instrument/:tok',
  'POST /api/public/payment/instrument/:tok',
  // The merchant's feature-change page (decision 123): a single-use link token in the path, no session.
  'GET /api/public/features/:tok',
  'POST /api/public/features/:tok',
]);
/** The single-page app's files (which of these exist depends on whether the web app is built). */
const WEB_APP_ROUTES = new Set(['GET /', 'GET /*']);
const isPublic = (name: string) => PUBLIC_ROUTES.has(name) || WEB_APP_ROUTES.has(name);

interface WalkedRoute {
  method: string;
  url: string;
  guarded: boolean;
}

function fillParams(url: string, token: string): string {
  return url
    .split('/')
    .map((segment) => {
      if (segment === '*') return 'index.html';
      if (!segment.startsWith(':')) return segment;
      return segment === ':token' ? token : '1';
    })
    .join('/');
}

describe('route walk: no route answers 2xx without a valid session', () => {
  let t: TestApp;
  const routes: WalkedRoute[] = [];
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({
      onRoute(route: RouteOptions) {
        const methods = ([] as HTTPMethods[]).concat(route.method);
        const hooks = ([] as unknown[]).concat(route.onRequest ?? []);
        const guarded = hooks.some((h) => typeof h === 'function' && SESSION_GUARD in h);
        for (const method of methods) routes.push({ method, url: route.url, guarded });
      },
    });
    await createStaffUser(t.database.db, { email: 'walker@example.com', role: 'Admin' });
    const signIn = async () => {
      const { idtoken } = (
        await t.request({ method: 'POST', url: '/api/dev/idtoken', payload: { email: 'walker@example.com' } })
      ).json().info;
      return (await t.request({ method: 'POST', url: '/api/auth/authenticate', payload: { idtoken } })).json().info
        .token as string;
    };
    tokens.unknown = 'Q'.repeat(43);
    tokens.released = await signIn();
    await t.request({ method: 'GET', url: `/api/auth/logout/${tokens.released}` });
    tokens.expired = await signIn();
    t.clock.advance(13 * 3600_000);
  });
  afterAll(() => t.close());

  it('collected the routes, and every public route in the list exists', () => {
    expect(routes.length).toBeGreaterThan(PUBLIC_ROUTES.size);
    const registered = new Set(routes.map((r) => `${r.method} ${r.url}`));
    for (const r of PUBLIC_ROUTES) expect(registered, r).toContain(r);
  });

  it('every route not in the public list carries the session guard', () => {
    const unguarded = routes.filter((r) => r.method !== 'HEAD' && !isPublic(`${r.method} ${r.url}`) && !r.guarded);
    expect(unguarded.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('every route not in the public list answers 403 session_invalid for an unknown, released or expired token', async () => {
    const failures: string[] = [];
    let walked = 0;
    for (const route of routes) {
      const name = `${route.method} ${route.url}`;
      if (isPublic(name) || (route.method === 'HEAD' && isPublic(`GET ${route.url}`))) continue;
      for (const [kind, token] of Object.entries(tokens)) {
        const res = await t.request({
          method: route.method as HTTPMethods,
          url: fillParams(route.url, token),
          ...(['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(route.method) ? {} : { payload: {} }),
        });
        walked++;
        const code =
          route.method === 'HEAD' ? 'session_invalid' : (res.json() as { error?: { code?: string } }).error?.code;
        if (res.statusCode !== 403 || code !== 'session_invalid')
          failures.push(`${name} with ${kind} token → ${res.statusCode} ${code}`);
      }
    }
    // validate, logout, permission, role lookup, checkemail, integration keys ×2, currencies — and HEADs.
    expect(walked).toBeGreaterThanOrEqual(8 * Object.keys(tokens).length);
    expect(failures).toEqual([]);
  });

  it('a guarded route without its token is not found rather than open', async () => {
    const res = await t.request({ method: 'GET', url: '/api/auth/validate/' });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
  });
});
