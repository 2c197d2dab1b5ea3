import { readItem, removeItem, writeItem } from '../../../lib/storage';

/**
 * The redirect leg of staff sign-in with the local identity provider: the sign-in button sends the browser
 * to the provider's page with a fresh `state` and `nonce`; the provider sends it back to
 * `/#/login?id_token=…&state=…`. Both values are kept in session storage (same tab) and checked on return,
 * so a credential this tab did not ask for is refused.
 */
const STATE_KEY = 'oidc_state';
const NONCE_KEY = 'oidc_nonce';

export function randomToken(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** The provider page's address for this tab, remembering the state and nonce it carries. */
export function buildAuthorizeUrl(authorizeUrl: string, origin: string = window.location.origin): string {
  const state = randomToken();
  const nonce = randomToken();
  writeItem(STATE_KEY, state);
  writeItem(NONCE_KEY, nonce);
  const query = new URLSearchParams({ redirect_uri: `${origin}/`, state, nonce });
  return `${authorizeUrl}${authorizeUrl.includes('?') ? '&' : '?'}${query.toString()}`;
}

/** The claims of a JWT, unverified (the server verifies the signature); null when it is not a JWT. */
export function readJwtClaims(jwt: string): Record<string, unknown> | null {
  const payload = jwt.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
    const claims: unknown = JSON.parse(json);
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * Whether a returned credential belongs to the sign-in this tab started: the `state` must be the one we
 * sent, and the token's `nonce` claim the nonce we sent. The stored values are used once.
 */
export function acceptRedirectResult(idToken: string, state: string | null): boolean {
  const expectedState = readItem(STATE_KEY);
  const expectedNonce = readItem(NONCE_KEY);
  removeItem(STATE_KEY);
  removeItem(NONCE_KEY);
  if (!expectedState || !expectedNonce || state !== expectedState) return false;
  return readJwtClaims(idToken)?.nonce === expectedNonce;
}

/**
 * The provider answers at `redirect_uri?id_token=…&state=…`. With redirect_uri `${origin}/` that is the
 * page's real query string, outside the hash route; move it to `#/login?…`, where the sign-in page reads
 * it, and off the path (so a reload or a bookmark does not carry the credential).
 */
export function adoptProviderAnswer(location: Location = window.location, history: History = window.history): void {
  const query = new URLSearchParams(location.search);
  if (!query.has('id_token')) return;
  history.replaceState(history.state, '', `${location.pathname}#/login?${query.toString()}`);
}
