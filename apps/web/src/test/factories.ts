import { privilegesForRole, type CustomerRecord, type StoreRecord } from '@pos/domain';
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

/** A store of the customer of makeCustomer (Corner Deli, Austin TX; Regina SK for country 'CA'). */
export function makeStore(overrides: Partial<StoreRecord> = {}): StoreRecord {
  const id = overrides.store_id ?? 500002;
  const country = overrides.country ?? 'US';
  return {
    store_id: id,
    customer_id: 100001,
    store_name: `Corner Deli - ${id} Main St`,
    doing_business_as: 'Corner Deli',
    bracct: 'BR-0001',
    sales_rep: 'Jordan Reyes',
    sales_person_id: 1,
    account_manager: 'is',
    phone: '555-010-0000',
    mobile_phone: null,
    kind_of_business: 'Deli',
    address:
      country === 'CA'
        ? { address1: '12 Albert St', address2: null, city: 'Regina', state: 'SK', zip: 'S4P 3Y2', country: 'CA' }
        : { address1: '1 Main St', address2: null, city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
    dba_address: null,
    state: country === 'CA' ? 'SK' : 'TX',
    country,
    currency: country === 'CA' ? 'CAD' : 'USD',
    status: 'active',
    store_type: 'R',
    mid: '800000500002',
    license_expires_on: '2026-12-31',
    active_terminals: 1,
    terminals: 2,
    open_balance_cents: 0,
    created_at: '2024-01-02T10:00:00.000Z',
    updated_at: '2024-01-02T10:00:00.000Z',
    version: 3,
    ...overrides,
  };
}

/** A customer record with one store, as GET /api/customers/{id}/{token} answers. */
export function makeCustomer(overrides: Partial<CustomerRecord> = {}): CustomerRecord {
  const country = overrides.country ?? 'US';
  return {
    customer_id: 100001,
    legal_name: 'Corner Deli LLC',
    title: null,
    first_name: 'Pat',
    middle_name: null,
    last_name: 'Owner',
    phone: '555-010-1111',
    email: 'owner@cornerdeli.example',
    bracct: 'BR-0001',
    federal_tax_id: '12-3456789',
    ofa_customer_id: null,
    oasis_id: null,
    business_type: 'LLC',
    customer_category: 'DISTRIBUTOR',
    customer_class: 'POS',
    resale_certificate: null,
    country,
    currency: country === 'CA' ? 'CAD' : 'USD',
    status: 'active',
    home_address: null,
    billing_address: null,
    shipping_address: null,
    account_manager: 'is',
    sales_person: { id: 1, name: 'Jordan Reyes', email: 'jordan.reyes.sales@example.com', phone: null },
    mobile_consent: false,
    created_at: '2024-01-01T10:00:00.000Z',
    updated_at: '2024-01-01T10:00:00.000Z',
    version: 5,
    stores: [makeStore({ country })],
    open_balances: [],
    oldest_overdue_on: null,
    ...overrides,
  };
}
