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
