import { z } from 'zod/mini';

/*
 * The answers the sign-in page reads (spec §3 session info, §7 Auth), kept apart from ./auth.ts and written with
 * zod's tree-shakable build (`zod/mini`, the same schemas and parse rules, functions instead of methods), so the
 * web app's first route (#/login) validates them without loading zod's full build (issue 13: the first route's
 * JS ≤ 150 kB gzip; docs/decisions/110). The server uses the same schemas for its responses (fastify-type-provider-zod
 * reads any zod 4 schema). Paths:
 *   GET  /api/auth/config                                   → authConfigInfo (public)
 *   POST /api/auth/authenticate            {idtoken}        → loginInfo
 *   POST /api/auth/distributor/login       {email,password} → distributorLoginInfo
 *   GET  /api/auth/permission/{token}?privileges=a,b        → permissionInfo
 *   POST /api/dev/idtoken                  {email}          → devIdTokenInfo (local identity provider only)
 * Keep classic zod (`from 'zod'`) out of this file: one such import brings the whole build back into #/login.
 */

export const identityProviderSchema = z.enum(['local', 'google']);
export type IdentityProvider = z.infer<typeof identityProviderSchema>;

/** What the web app needs to show the right sign-in button (public). */
export const authConfigInfo = z.object({
  provider: identityProviderSchema,
  /** OIDC client id (the audience of ID tokens). */
  clientId: z.string(),
  /** Local provider: the chooser page the sign-in button opens (append `?redirect_uri=…&nonce=…`). */
  authorizeUrl: z.optional(z.string()),
  /** Local provider: the demo staff the one-tap prompt offers. */
  accounts: z.optional(z.array(z.object({ email: z.string(), name: z.string(), role: z.string() }))),
});
export type AuthConfigInfo = z.infer<typeof authConfigInfo>;

const privilegeList = z.array(z.string());

/** Spec §3: the login response. */
export const loginInfo = z.object({
  token: z.string(),
  portal_name: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  additional_privileges: privilegeList,
  product_id: z.optional(z.nullable(z.int())),
  field_name: z.optional(z.nullable(z.string())),
  agent_id: z.nullable(z.int()),
  account_manager_username: z.nullable(z.string()),
});
export type LoginInfo = z.infer<typeof loginInfo>;

/** Spec §3: the distributor login response. */
export const distributorLoginInfo = z.object({
  token: z.string(),
  name: z.string(),
  email: z.string(),
  agent_id: z.nullable(z.int()),
  account_manager_username: z.nullable(z.string()),
  role: z.string(),
  additional_privileges: privilegeList,
});
export type DistributorLoginInfo = z.infer<typeof distributorLoginInfo>;

/** `{permissions: {a: true, b: false}}`: which of the asked privileges the session has. */
export const permissionInfo = z.object({ permissions: z.record(z.string(), z.boolean()) });

export const devIdTokenInfo = z.object({ idtoken: z.string() });
