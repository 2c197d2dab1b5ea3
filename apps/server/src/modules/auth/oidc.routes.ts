import { asc, eq, sql } from 'drizzle-orm';
import { devIdTokenInfo, devIdTokenRequest, isAllowedEmailDomain, normalizeEmail, successEnvelope } from '@pos/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { roles, staffUsers } from '../../db/schema';
import { AppError } from '../../http/errors';
import type { LocalIssuer } from '../../integrations/identity';
import { escapeHtml } from './html';

/** At most this many staff are offered by the chooser (the rest can be typed in). */
const CHOOSER_LIMIT = 100;

/** Active staff who may sign in (allowed domain) that the local chooser offers, demo staff first (lowest ids). */
export async function demoAccounts(
  db: Db,
  allowedDomains: readonly string[],
): Promise<Array<{ email: string; name: string; role: string }>> {
  const rows = await db
    .select({ email: staffUsers.email, name: staffUsers.name, role: roles.name })
    .from(staffUsers)
    .innerJoin(roles, eq(roles.id, staffUsers.roleId))
    .where(eq(staffUsers.active, true))
    .orderBy(asc(staffUsers.id))
    .limit(CHOOSER_LIMIT * 2);
  return rows.filter((r) => isAllowedEmailDomain(r.email, allowedDomains)).slice(0, CHOOSER_LIMIT);
}

/** The redirect target if it is this app's own origin (a path, or PUBLIC_URL's / the request's origin), else null. */
export function sameOriginRedirect(uri: string, request: FastifyRequest, publicUrl: string): string | null {
  if (uri.startsWith('/') && !uri.startsWith('//') && !uri.startsWith('/\\')) return uri;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  const origins = new Set([new URL(publicUrl).origin, `${request.protocol}://${request.host}`]);
  return origins.has(url.origin) ? uri : null;
}

function withParams(target: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return `${target}${target.includes('?') ? '&' : '?'}${query}`;
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
  ul { list-style: none; padding: 0; }
  li { margin: 0.5rem 0; }
  button { font: inherit; padding: 0.5rem 1rem; cursor: pointer; }
  .role { color: #555; margin-left: 0.5rem; }
  .note { color: #555; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

const authorizeQuery = z.object({
  redirect_uri: z.string().min(1).max(2000),
  nonce: z.string().max(500).optional(),
  state: z.string().max(500).optional(),
  client_id: z.string().max(200).optional(),
  login_hint: z.string().trim().max(254).optional(),
  response_type: z.string().max(50).optional(),
  scope: z.string().max(200).optional(),
});

/**
 * The built-in OpenID Connect issuer of IDENTITY_PROVIDER=local: discovery, keys, a chooser page (what the
 * sign-in button opens) and `POST /api/dev/idtoken` for tests and scripts. Registered only in local mode.
 */
export const localOidcRoutes: FastifyPluginAsyncZod<{ issuer: LocalIssuer }> = async (app, { issuer }) => {
  const { config } = app.ctx;
  const tags = ['local identity provider'];

  app.get(
    '/.well-known/openid-configuration',
    { schema: { tags, summary: 'OpenID Connect discovery (local provider)' } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return {
        issuer: issuer.issuer,
        authorization_endpoint: `${config.publicUrl}/oidc/authorize`,
        jwks_uri: `${config.publicUrl}/oidc/jwks.json`,
        response_types_supported: ['id_token'],
        response_modes_supported: ['query'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
        scopes_supported: ['openid', 'email', 'profile'],
        claims_supported: ['iss', 'sub', 'aud', 'exp', 'iat', 'nbf', 'email', 'email_verified', 'name', 'nonce'],
      };
    },
  );

  app.get(
    '/oidc/jwks.json',
    { schema: { tags, summary: 'Public keys of the local provider' } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return issuer.jwks();
    },
  );

  app.get(
    '/oidc/authorize',
    {
      schema: {
        tags,
        summary: 'Demo sign-in chooser; redirects to redirect_uri?id_token=…&state=…',
        querystring: authorizeQuery,
      },
    },
    async (request, reply) => {
      const q = request.query;
      reply.header('cache-control', 'no-store');
      const target = sameOriginRedirect(q.redirect_uri, request, config.publicUrl);
      const refuse = (message: string) =>
        reply
          .code(400)
          .type('text/html; charset=utf-8')
          .send(page('Sign-in request refused', `<h1>Sign-in request refused</h1>\n<p>${escapeHtml(message)}</p>`));
      if (!target) return refuse('The redirect_uri must be an address of this application.');
      if (q.client_id && q.client_id !== issuer.audience)
        return refuse(`Unknown client_id; this provider serves ${issuer.audience}.`);

      if (q.login_hint) {
        const email = normalizeEmail(q.login_hint);
        const [user] = await app.ctx.database.db
          .select({ name: staffUsers.name })
          .from(staffUsers)
          .where(sql`lower(${staffUsers.email}) = ${email}`)
          .limit(1);
        const idToken = await issuer.signIdToken({ email, name: user?.name, nonce: q.nonce });
        return reply.redirect(withParams(target, { id_token: idToken, ...(q.state ? { state: q.state } : {}) }), 303);
      }

      const accounts = await demoAccounts(app.ctx.database.db, config.allowedEmailDomains);
      const hidden = [
        `<input type="hidden" name="redirect_uri" value="${escapeHtml(q.redirect_uri)}">`,
        q.nonce ? `<input type="hidden" name="nonce" value="${escapeHtml(q.nonce)}">` : '',
        q.state ? `<input type="hidden" name="state" value="${escapeHtml(q.state)}">` : '',
      ]
        .filter(Boolean)
        .join('\n');
      const list = accounts.length
        ? `<ul>\n${accounts
            .map(
              (a) =>
                `<li><button type="submit" name="login_hint" value="${escapeHtml(a.email)}">Sign in as ${escapeHtml(a.name)} (${escapeHtml(a.email)})</button><span class="role">${escapeHtml(a.role)}</span></li>`,
            )
            .join('\n')}\n</ul>`
        : '<p>There are no active staff users yet. Seed the demo data (SEED_DEMO_DATA=true) or add staff.</p>';
      const body = `<h1>Choose a demo account</h1>
<p class="note">This is the built-in identity provider of a development install (IDENTITY_PROVIDER=local). Production uses Google sign-in.</p>
<form method="get" action="/oidc/authorize" aria-label="Demo staff">
${hidden}
${list}
</form>
<form method="get" action="/oidc/authorize" aria-label="Another staff e-mail">
${hidden}
<p><label for="login_hint">Another staff e-mail</label>
<input id="login_hint" name="login_hint" type="email" autocomplete="email" required>
<button type="submit">Sign in with this e-mail</button></p>
</form>`;
      return reply.type('text/html; charset=utf-8').send(page('Sign in — POS Back Office (local)', body));
    },
  );

  app.post(
    '/api/dev/idtoken',
    {
      schema: {
        tags,
        summary: 'An ID token of the local provider for any e-mail (tests and scripts; local provider only)',
        body: devIdTokenRequest,
        response: { 200: successEnvelope(devIdTokenInfo) },
      },
    },
    async (request) => {
      if (config.env === 'production') throw new AppError('not_found', 'Not available.');
      const email = normalizeEmail(request.body.email);
      const [user] = await app.ctx.database.db
        .select({ name: staffUsers.name })
        .from(staffUsers)
        .where(sql`lower(${staffUsers.email}) = ${email}`)
        .limit(1);
      return { info: { idtoken: await issuer.signIdToken({ email, name: user?.name }) } };
    },
  );
};
