import { privilegesForRole } from '@pos/domain';
import { setSession, type SessionInfo } from '../lib/session';
import type { FakeRequest } from './fake-api';

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

/** Signs in a staff user of `role` with token 'tok'; the fake routes validate it and answer permission checks by the role. */
export function signInAs(role: string) {
  setSession(makeSession({ token: 'tok', role, name: 'Dana Whitfield', email: 'support@example.com' }));
  const granted = privilegesForRole(role);
  return {
    'GET /api/auth/validate/tok': {
      maketoken: false,
      kind: 'staff',
      email: 'support@example.com',
      name: 'Dana Whitfield',
      role,
      agent_id: null,
      account_manager_username: null,
      privileges: granted,
      expires_at: '2030-01-01T00:00:00.000Z',
    },
    'GET /api/auth/permission/tok': (r: FakeRequest) =>
      permissionAnswer((r.query.get('privileges') ?? '').split(','), granted),
  };
}
