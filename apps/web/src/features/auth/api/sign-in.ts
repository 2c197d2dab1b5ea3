import {
  assertNever,
  DISTRIBUTOR_LOGIN_REDIRECT,
  LOGIN_REDIRECT_PRIVILEGES,
  loginRedirect,
  type DistributorLoginInfo,
  type LoginInfo,
} from '@pos/domain';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import {
  clearReturnUrl,
  clearToken,
  getReturnUrl,
  removeFlag,
  setLastActive,
  setSession,
  type SessionInfo,
} from '../../../lib/session';
import { readSignInAnswer } from '../../../lib/sign-in-contracts';
import { checkPermissions } from '../../../api/permissions';
import { acceptRedirectResult, readJwtClaims } from '../lib/oidc-redirect';

/** Spec §3: session info kept from the login response. */
export function sessionFromLogin(info: LoginInfo): SessionInfo {
  return {
    token: info.token,
    name: info.name,
    email: info.email,
    agentID: info.agent_id === null ? null : String(info.agent_id),
    role: info.role,
    account_manager: info.account_manager_username,
    additional_privileges: info.additional_privileges,
  };
}

/** Spec §3: session info kept from the distributor login response. */
export function sessionFromDistributorLogin(info: DistributorLoginInfo): SessionInfo {
  return {
    token: info.token,
    name: info.name,
    email: info.email,
    agentID: info.agent_id === null ? null : String(info.agent_id),
    role: info.role,
    account_manager: info.account_manager_username,
    additional_privileges: info.additional_privileges,
  };
}

/** A new session: memory + session storage (isLoggedIn 'true', role), a fresh last-active time, no make-token flag. */
function startSession(info: SessionInfo): void {
  setSession(info);
  removeFlag('distributor_token');
  setLastActive(Date.now());
}

/** POST /api/auth/authenticate {idtoken} → the login response (spec §7). */
export async function authenticate(idtoken: string): Promise<LoginInfo> {
  return readSignInAnswer(api.post<unknown>('/api/auth/authenticate', { idtoken }), (c) => c.loginInfo);
}

/** POST /api/dev/idtoken {email} → an ID token from the built-in (local) identity provider. */
export async function getDevIdToken(email: string): Promise<string> {
  return (await readSignInAnswer(api.post<unknown>('/api/dev/idtoken', { email }), (c) => c.devIdTokenInfo)).idtoken;
}

/**
 * Staff sign-in after the identity provider returned a credential (spec §4): create the session, ask the
 * server once for the privileges the redirect rules need, and apply rules 1–7 with the saved return URL
 * (rule 1 clears it). Returns the landing path, or null when no rule matches (stay on the sign-in page).
 * Any failure leaves no session behind.
 */
export async function signInWithIdToken(idtoken: string): Promise<string | null> {
  const info = await authenticate(idtoken);
  startSession(sessionFromLogin(info));
  try {
    const granted = await checkPermissions(LOGIN_REDIRECT_PRIVILEGES);
    const redirect = loginRedirect({ returnUrl: getReturnUrl(), granted });
    if (redirect?.clearReturnUrl) clearReturnUrl();
    return redirect?.path ?? null;
  } catch (error) {
    clearToken();
    throw error;
  }
}

export interface DistributorCredentials {
  readonly email: string;
  readonly password: string;
}

/** POST /api/auth/distributor/login; after it the distributor goes to /order (spec §2). */
export async function signInDistributor(credentials: DistributorCredentials): Promise<string> {
  const info = await readSignInAnswer(
    api.post<unknown>('/api/auth/distributor/login', credentials),
    (c) => c.distributorLoginInfo,
  );
  startSession(sessionFromDistributorLogin(info));
  return DISTRIBUTOR_LOGIN_REDIRECT;
}

// ── Mutations: one hook per operation (issue 30, item 3). A sign-in refreshes nothing: sign-out drops every cached
// answer (useSignOut), so a new session starts with none. The pages show a refusal themselves.

/** Where the staff credential came from: the provider page's redirect, Google, or the demo-account prompt. */
export type SignInInput =
  | { readonly via: 'redirect'; readonly idtoken: string; readonly state: string | null }
  | { readonly via: 'google'; readonly idtoken: string; readonly nonce: string }
  | { readonly via: 'demo'; readonly email: string };

class ForeignCredential extends Error {
  constructor() {
    super('The credential does not answer a sign-in started in this tab');
    this.name = 'ForeignCredential';
  }
}

/** The ID token to sign in with; a credential this tab did not ask for (state or nonce differ) is refused. */
async function credentialOf(input: SignInInput): Promise<string> {
  switch (input.via) {
    case 'redirect':
      if (!acceptRedirectResult(input.idtoken, input.state)) throw new ForeignCredential();
      return input.idtoken;
    case 'google':
      if (readJwtClaims(input.idtoken)?.nonce !== input.nonce) throw new ForeignCredential();
      return input.idtoken;
    case 'demo':
      return getDevIdToken(input.email);
    default:
      return assertNever(input);
  }
}

/** Staff sign-in with the provider's credential (signInWithIdToken): the answer is the landing path, or null. */
export function useSignIn() {
  return useMutation({
    mutationFn: async (input: SignInInput) => signInWithIdToken(await credentialOf(input)),
    meta: { silentError: true },
  });
}

/** Distributor sign-in with e-mail and password (signInDistributor): the answer is the landing path. */
export function useSignInDistributor() {
  return useMutation({ mutationFn: signInDistributor, meta: { silentError: true } });
}
