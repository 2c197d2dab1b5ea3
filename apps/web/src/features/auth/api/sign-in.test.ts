import { LOGIN_REDIRECT_PRIVILEGES, loginRedirect, ROLE_PRIVILEGES, ROLES } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import {
  getFlag,
  getLastActive,
  getReturnUrl,
  getSession,
  getToken,
  isLoggedIn,
  setFlag,
  setReturnUrl,
} from '../../../lib/session';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { makeLoginInfo, permissionAnswer } from '../../../test/factories';
import { signInDistributor, signInWithIdToken } from './sign-in';

function serverFor(role: string, granted: Iterable<string>) {
  return fakeApi({
    'POST /api/auth/authenticate': makeLoginInfo({ role, token: 'tok-new' }),
    'GET /api/auth/permission/tok-new': (req: FakeRequest) =>
      permissionAnswer((req.query.get('privileges') ?? '').split(','), granted),
  });
}

describe('staff sign-in and the redirect rules (spec §4)', () => {
  it('creates the session from the login response and stores the §3 flags', async () => {
    fakeApi({
      'POST /api/auth/authenticate': makeLoginInfo({
        agent_id: 12,
        account_manager_username: 'amy',
        additional_privileges: ['receipts'],
      }),
      'GET /api/auth/permission/tok-new': permissionAnswer(LOGIN_REDIRECT_PRIVILEGES, ['search_orders_view']),
    });
    setFlag('distributor_token', true);
    const before = Date.now();

    await signInWithIdToken('id-token-from-provider');

    expect(getSession()).toEqual({
      token: 'tok-new',
      name: 'Dana Staff',
      email: 'dana@example.com',
      agentID: '12',
      role: 'Customer Support',
      account_manager: 'amy',
      additional_privileges: ['receipts'],
    });
    expect(isLoggedIn()).toBe(true);
    expect(window.sessionStorage.getItem('role')).toBe('Customer Support');
    expect(getLastActive()).toBeGreaterThanOrEqual(before);
    expect(getFlag('distributor_token')).toBeNull();
  });

  it('sends the credential once and asks for the redirect privileges in one permission call', async () => {
    const { calls } = serverFor('Marketing', ROLE_PRIVILEGES.Marketing);
    await signInWithIdToken('the-id-token');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /api/auth/authenticate',
      'GET /api/auth/permission/tok-new',
    ]);
    expect(calls[0]?.body).toEqual({ idtoken: 'the-id-token' });
    expect(calls[1]?.query.get('privileges')).toBe(LOGIN_REDIRECT_PRIVILEGES.join(','));
  });

  it.each(ROLES)('role %s lands where rules 1–7 say', async (role) => {
    serverFor(role, ROLE_PRIVILEGES[role]);
    const expected = loginRedirect({ returnUrl: null, granted: ROLE_PRIVILEGES[role] })?.path ?? null;
    await expect(signInWithIdToken('id')).resolves.toBe(expected);
  });

  it('rule 1: a saved new-order CRM URL wins when create_distributor_orders is granted, and is cleared', async () => {
    setReturnUrl('/neworder?zoholeadid=4455');
    serverFor('RAM', ROLE_PRIVILEGES.RAM);
    await expect(signInWithIdToken('id')).resolves.toBe('/neworder?zoholeadid=4455');
    expect(getReturnUrl()).toBeNull();
  });

  it('rule 1 does not apply without create_distributor_orders; the saved URL stays', async () => {
    setReturnUrl('/neworder?zoholeadid=4455');
    serverFor('Customer Support', ROLE_PRIVILEGES['Customer Support']);
    await expect(signInWithIdToken('id')).resolves.toBe('/order');
    expect(getReturnUrl()).toBe('/neworder?zoholeadid=4455');
  });

  it('a saved return URL that is neither a CRM new-order link nor a shared list view does not change the landing page', async () => {
    setReturnUrl('/editplan?customerid=9');
    serverFor('Customer Care', ROLE_PRIVILEGES['Customer Care']);
    await expect(signInWithIdToken('id')).resolves.toBe('/order');
  });

  it('a shared list view saved as the return URL is where sign-in goes (decision 156)', async () => {
    setReturnUrl('/view-invoices?status=N&id=12');
    serverFor('AR Team', ROLE_PRIVILEGES['AR Team']);
    await expect(signInWithIdToken('id')).resolves.toBe('/view-invoices?status=N&id=12');
  });

  it('caches create_distributor_orders and search_orders_edit from the answer', async () => {
    serverFor('IS', ROLE_PRIVILEGES.IS);
    await signInWithIdToken('id');
    expect(getFlag('create_distributor_orders')).toBe(true);
    expect(getFlag('search_orders_edit')).toBe(true);
  });

  it('a refused credential leaves no session', async () => {
    fakeApi({
      'POST /api/auth/authenticate': errorResponse(401, 'invalid_token', 'The sign-in could not be verified.'),
    });
    await expect(signInWithIdToken('garbage-token-garbage-token')).rejects.toMatchObject({ status: 401 });
    expect(getToken()).toBeNull();
    expect(isLoggedIn()).toBe(false);
  });

  it('a login answer that breaks its contract is refused and leaves no session', async () => {
    const { token: _dropped, ...withoutToken } = makeLoginInfo();
    const { calls } = fakeApi({ 'POST /api/auth/authenticate': withoutToken });
    await expect(signInWithIdToken('id')).rejects.toThrow(/token/);
    expect(calls).toHaveLength(1);
    expect(getToken()).toBeNull();
    expect(isLoggedIn()).toBe(false);
  });

  it('a permission answer that breaks its contract leaves no session', async () => {
    fakeApi({
      'POST /api/auth/authenticate': makeLoginInfo(),
      'GET /api/auth/permission/tok-new': { permissions: { search_orders_view: 'yes' } },
    });
    await expect(signInWithIdToken('id')).rejects.toThrow();
    expect(getToken()).toBeNull();
  });

  it('a failed permission call after sign-in leaves no session either', async () => {
    fakeApi({
      'POST /api/auth/authenticate': makeLoginInfo(),
      'GET /api/auth/permission/tok-new': errorResponse(500, 'internal', 'boom'),
    });
    await expect(signInWithIdToken('id')).rejects.toMatchObject({ status: 500 });
    expect(getToken()).toBeNull();
  });
});

describe('distributor sign-in', () => {
  it('stores the distributor session and goes to /order', async () => {
    const { calls } = fakeApi({
      'POST /api/auth/distributor/login': {
        token: 'dist-tok',
        name: 'Dee Distributor',
        email: 'distributor@example.com',
        agent_id: 33,
        account_manager_username: null,
        role: 'Distributor',
        additional_privileges: [],
      },
    });
    await expect(signInDistributor({ email: 'distributor@example.com', password: 'distributor-demo' })).resolves.toBe(
      '/order',
    );
    expect(calls[0]?.body).toEqual({ email: 'distributor@example.com', password: 'distributor-demo' });
    expect(getSession()).toMatchObject({
      token: 'dist-tok',
      name: 'Dee Distributor',
      agentID: '33',
      role: 'Distributor',
    });
    expect(isLoggedIn()).toBe(true);
  });
});
