import type { SessionInfo } from '../lib/session';

export function makeSession(overrides: Partial<SessionInfo> = {}): SessionInfo {
  return {
    token: 'tok-123',
    name: 'Dana Staff',
    email: 'dana@example.com',
    agentID: null,
    role: 'Customer Support',
    account_manager: null,
    additional_privileges: [],
    ...overrides,
  };
}

/** A fetch Response carrying JSON. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The staff login response (spec §3) as the server sends it. */
export function makeLoginInfo(overrides: Record<string, unknown> = {}) {
  return {
    token: 'tok-new',
    portal_name: 'POS Back Office',
    name: 'Dana Staff',
    email: 'dana@example.com',
    role: 'Customer Support',
    additional_privileges: [],
    agent_id: null,
    account_manager_username: null,
    ...overrides,
  };
}

/** A permission answer granting exactly `granted` among `asked`. */
export function permissionAnswer(asked: readonly string[], granted: Iterable<string>) {
  const set = new Set(granted);
  return { permissions: Object.fromEntries(asked.map((p) => [p, set.has(p)])) };
}

function base64url(text: string): string {
  const binary = String.fromCharCode(...new TextEncoder().encode(text));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An unsigned JWT with these claims (the web only reads claims; the server verifies signatures). */
export function fakeJwt(claims: Record<string, unknown>): string {
  return `${base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}.c2lnbmF0dXJl`;
}
