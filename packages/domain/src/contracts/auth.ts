import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_PROBLEM_MESSAGES, passwordProblems } from '../rules/password';
import { emailSchema } from './common';

/*
 * Auth contracts (spec §3 session info, §7 Auth). The answers the sign-in page reads (authConfigInfo, loginInfo,
 * distributorLoginInfo, permissionInfo, devIdTokenInfo) are in ./sign-in.ts (zod/mini, docs/decisions/110). Paths:
 *   GET  /api/auth/config                                   → authConfigInfo (public)
 *   POST /api/auth/authenticate            {idtoken}        → loginInfo
 *   GET  /api/auth/validate/{token}                         → validateInfo
 *   GET  /api/auth/logout/{token}                           → { released: true }
 *   GET  /api/auth/{x}/gettoken                             → makeTokenInfo
 *   GET  /api/auth/permission/{token}?privileges=a,b        → { permissions: {a: true, b: false} }
 *   PUT  /api/auth/getIdOrUpdateLoginRolePrivilegeEmail/{token}  roleLookupRequest → roleLookupInfo
 *   POST /api/customers/agents/checkemail/{token}  {email}  → checkEmailInfo
 *   GET  /api/currencies/{token}?code=                      → { currencies: [...] }
 *   POST /api/auth/distributor/login       {email,password} → distributorLoginInfo
 *   POST /api/auth/distributor/password/forgot {email}      → { sent: true } (always; no account enumeration)
 *   POST /api/auth/distributor/password/reset  {token,password} → { reset: true }
 *   POST /api/dev/idtoken                  {email}          → { idtoken } (local identity provider only)
 *   POST   /api/auth/integrationkeys/{token}  {name, agent_id} → integrationKeyInfo (Admin; the key is shown once)
 *   DELETE /api/auth/integrationkeys/{id}/{token}              → { revoked: true } (Admin)
 * Local identity provider only (not under /api): GET /.well-known/openid-configuration, GET /oidc/jwks.json,
 *   GET /oidc/authorize?redirect_uri=…&nonce=…&state=… (the chooser; redirects to `redirect_uri?id_token=…&state=…`).
 */

export const authenticateRequest = z.object({ idtoken: z.string().min(20).max(8192) });

const privilegeList = z.array(z.string());

/** POST /api/auth/distributor/login: the distributor's e-mail and password. */
export const distributorLoginRequest = z.object({
  email: emailSchema,
  password: z.string().min(1).max(PASSWORD_MAX_LENGTH),
});

export const passwordForgotRequest = z.object({ email: emailSchema });
export const passwordResetRequest = z
  .object({ token: z.string().min(20).max(200), password: z.string(), email: z.string().optional() })
  .superRefine((v, ctx) => {
    for (const problem of passwordProblems(v.password, v.email)) {
      ctx.addIssue({ code: 'custom', path: ['password'], message: PASSWORD_PROBLEM_MESSAGES[problem] });
    }
  });

/** GET /api/auth/validate/{token}. */
export const validateInfo = z.object({
  maketoken: z.boolean(),
  kind: z.enum(['staff', 'distributor', 'maketoken']),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  agent_id: z.number().int().nullable(),
  account_manager_username: z.string().nullable(),
  privileges: privilegeList,
  expires_at: z.string(),
});
export type ValidateInfo = z.infer<typeof validateInfo>;

export const makeTokenInfo = z.object({
  token: z.string(),
  maketoken: z.literal(true),
  agent_id: z.number().int(),
  role: z.string(),
});

export const permissionQuery = z.object({
  privileges: z
    .string()
    .min(1)
    .max(1000)
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
});

/**
 * `{email}` looks a staff user up. With `role_id` and/or `login_role_privilege_id` it changes them (Admin
 * only): the role, and the additional privileges replaced by those privilege ids (`[]` removes them all).
 */
export const roleLookupRequest = z.object({
  email: emailSchema,
  role_id: z.number().int().positive().optional(),
  login_role_privilege_id: z
    .union([z.number().int().positive(), z.array(z.number().int().positive()).max(100)])
    .optional(),
});
export const roleLookupInfo = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role_id: z.number().int(),
  role: z.string(),
  privileges: privilegeList,
  additional_privileges: privilegeList,
});

export const checkEmailRequest = z.object({ email: emailSchema });
export const checkEmailInfo = z.object({ exists: z.boolean(), agent_id: z.number().int().nullable() });

export const currencyQuery = z.object({ code: z.string().trim().toUpperCase().optional() });
export const currencyInfo = z.object({
  currencies: z.array(z.object({ code: z.string(), symbol: z.string(), name: z.string() })),
});

export const devIdTokenRequest = z.object({ email: z.string().trim().min(3).max(254) });

/** Integration keys for make-token sessions (`GET /api/auth/{x}/gettoken`); made by an Admin, tied to an agent. */
export const integrationKeyCreateRequest = z.object({
  name: z.string().trim().min(1).max(100),
  agent_id: z.number().int().positive(),
});
export const integrationKeyInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  agent_id: z.number().int(),
  /** The key itself: shown once, only its SHA-256 is stored. */
  key: z.string(),
});
