import type { RouteGuard } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { errorResponse, fakeApi } from '../test/fake-api';
import { makeSession } from '../test/factories';
import { getFlag, getReturnUrl, getToken, isDistributorToken, setSession } from '../lib/session';
import { checkRouteAccess } from './route-access';

const validation = (maketoken: boolean) => ({
  maketoken,
  kind: maketoken ? 'maketoken' : 'staff',
  email: 'dana@example.com',
  name: 'Dana Staff',
  role: 'Customer Support',
  agent_id: null,
  account_manager_username: null,
  privileges: [],
  expires_at: '2030-01-01T00:00:00.000Z',
});

const orderGuard: RouteGuard = {
  kind: 'permissions',
  anyOf: ['search_orders_edit', 'search_orders_view', 'create_distributor_orders'],
};
const sessionGuard: RouteGuard = { kind: 'session' };
const adminGuard: RouteGuard = { kind: 'roles', anyOf: ['Admin'] };

describe('route guard (spec §4)', () => {
  it('lets public routes through without a session or a call', async () => {
    const { calls } = fakeApi({});
    await expect(checkRouteAccess({ kind: 'none' }, '/confirmation')).resolves.toBe('allowed');
    expect(calls).toEqual([]);
  });

  it('without a session saves the target as return URL and sends to sign-in', async () => {
    const { calls } = fakeApi({});
    await expect(checkRouteAccess(orderGuard, '/neworder?zoholeadid=77')).resolves.toBe('login');
    expect(getReturnUrl()).toBe('/neworder?zoholeadid=77');
    expect(calls).toEqual([]);
  });

  it('restores the session from session storage when memory has none', async () => {
    window.sessionStorage.setItem('sessionInfo', JSON.stringify(makeSession({ token: 'stored' })));
    const { calls } = fakeApi({ 'GET /api/auth/validate/stored': validation(false) });
    await expect(checkRouteAccess(sessionGuard, '/arizona')).resolves.toBe('allowed');
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/validate/stored']);
  });

  it('on failed validation clears the token, saves the return URL and sends to sign-in', async () => {
    setSession(makeSession({ token: 'old' }));
    fakeApi({ 'GET /api/auth/validate/old': errorResponse(403, 'session_expired', 'Your session has expired.') });
    await expect(checkRouteAccess(sessionGuard, '/view-agents')).resolves.toBe('login');
    expect(getToken()).toBeNull();
    expect(getReturnUrl()).toBe('/view-agents');
  });

  it('treats any refusal of the token (not only 403) the same way', async () => {
    setSession(makeSession({ token: 'tok' }));
    fakeApi({ 'GET /api/auth/validate/tok': errorResponse(401, 'unauthorized', 'Not signed in.') });
    await expect(checkRouteAccess(sessionGuard, '/refund')).resolves.toBe('login');
    expect(getToken()).toBeNull();
    expect(getReturnUrl()).toBe('/refund');
  });

  it('keeps the session when the server could not judge the token (a server error): the failure is shown', async () => {
    setSession(makeSession({ token: 'tok' }));
    fakeApi({ 'GET /api/auth/validate/tok': errorResponse(500, 'internal', 'boom') });
    await expect(checkRouteAccess(sessionGuard, '/refund')).rejects.toMatchObject({ status: 500 });
    expect(getToken()).toBe('tok');
  });

  it('sets the distributor-token flag from the validation and denies exactly /order to it', async () => {
    setSession(makeSession({ token: 'mk' }));
    const { calls } = fakeApi({
      'GET /api/auth/validate/mk': validation(true),
      'GET /api/auth/permission/mk': { permissions: { create_distributor_orders: true } },
    });
    await expect(checkRouteAccess(orderGuard, '/order')).resolves.toBe('denied');
    expect(isDistributorToken()).toBe(true);
    expect(calls.some((c) => c.path.startsWith('/api/auth/permission/'))).toBe(false);

    // Not exactly /order: the permission check decides.
    await expect(checkRouteAccess(orderGuard, '/order?status=1')).resolves.toBe('allowed');
    await expect(
      checkRouteAccess({ kind: 'permissions', anyOf: ['create_distributor_orders'] }, '/neworder'),
    ).resolves.toBe('allowed');
  });

  it('clears the distributor-token flag when the validation says it is not one', async () => {
    setSession(makeSession({ token: 'tok' }));
    fakeApi({ 'GET /api/auth/validate/tok': validation(false) });
    await checkRouteAccess(sessionGuard, '/arizona');
    expect(getFlag('distributor_token')).toBe(false);
    expect(isDistributorToken()).toBe(false);
  });

  it('asks the permission call for the route list and passes when any one is granted', async () => {
    setSession(makeSession({ token: 'tok' }));
    const { calls } = fakeApi({
      'GET /api/auth/validate/tok': validation(false),
      'GET /api/auth/permission/tok': {
        permissions: { search_orders_edit: false, search_orders_view: true, create_distributor_orders: false },
      },
    });
    await expect(checkRouteAccess(orderGuard, '/order')).resolves.toBe('allowed');
    const permissionCall = calls.find((c) => c.path === '/api/auth/permission/tok');
    expect(permissionCall?.query.get('privileges')).toBe(
      'search_orders_edit,search_orders_view,create_distributor_orders',
    );
  });

  it('denies when none is granted, and caches create_distributor_orders and search_orders_edit', async () => {
    setSession(makeSession({ token: 'tok' }));
    fakeApi({
      'GET /api/auth/validate/tok': validation(false),
      'GET /api/auth/permission/tok': {
        permissions: { search_orders_edit: false, search_orders_view: false, create_distributor_orders: false },
      },
    });
    await expect(checkRouteAccess(orderGuard, '/order')).resolves.toBe('denied');
    expect(window.sessionStorage.getItem('search_orders_edit')).toBe('false');
    expect(window.sessionStorage.getItem('create_distributor_orders')).toBe('false');
  });

  it('caches the two flags as true when granted', async () => {
    setSession(makeSession({ token: 'tok' }));
    fakeApi({
      'GET /api/auth/validate/tok': validation(false),
      'GET /api/auth/permission/tok': {
        permissions: { search_orders_edit: true, search_orders_view: true, create_distributor_orders: true },
      },
    });
    await checkRouteAccess(orderGuard, '/order');
    expect(getFlag('search_orders_edit')).toBe(true);
    expect(getFlag('create_distributor_orders')).toBe(true);
  });

  it('a role-guarded route (admin tools) passes a staff session with a listed role, without a permission call', async () => {
    setSession(makeSession({ token: 'tok', role: 'Admin' }));
    const { calls } = fakeApi({ 'GET /api/auth/validate/tok': { ...validation(false), role: 'Admin' } });
    await expect(checkRouteAccess(adminGuard, '/admin/mailbox')).resolves.toBe('allowed');
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/validate/tok']);
  });

  it('a role-guarded route denies other roles and sessions that are not staff, even with the role name', async () => {
    setSession(makeSession({ token: 'tok' }));
    const answers = [
      { ...validation(false), role: 'Customer Support' },
      { ...validation(false), kind: 'distributor', role: 'Admin' },
      { ...validation(true), role: 'Admin' },
    ];
    let next = 0;
    const { calls } = fakeApi({ 'GET /api/auth/validate/tok': () => answers[next++] });
    for (const _answer of answers) await expect(checkRouteAccess(adminGuard, '/admin/jobs')).resolves.toBe('denied');
    expect(getToken()).toBe('tok');
    expect(calls.some((c) => c.path.startsWith('/api/auth/permission/'))).toBe(false);
  });

  it('a role-guarded route without a session sends to sign-in with the return URL', async () => {
    const { calls } = fakeApi({});
    await expect(checkRouteAccess(adminGuard, '/admin/jobs')).resolves.toBe('login');
    expect(getReturnUrl()).toBe('/admin/jobs');
    expect(calls).toEqual([]);
  });

  it('a failed permission call (not a 403) is an error to show, not a denial', async () => {
    setSession(makeSession({ token: 'tok' }));
    fakeApi({
      'GET /api/auth/validate/tok': validation(false),
      'GET /api/auth/permission/tok': errorResponse(500, 'internal', 'The server ran into a problem.'),
    });
    await expect(checkRouteAccess(orderGuard, '/order')).rejects.toMatchObject({ status: 500 });
  });
});
