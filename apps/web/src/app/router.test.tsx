import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, useSearchParams } from 'react-router';
import { describe, expect, it } from 'vitest';
import { getReturnUrl, getToken, setSession } from '../lib/session';
import { errorResponse, fakeApi } from '../test/fake-api';
import { makeSession } from '../test/factories';
import { renderApp } from '../test/render-app';
import { pages, type PageMap } from './router';

const valid = (maketoken = false) => ({
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

function PublicTestPage() {
  return <h1>Confirmation page</h1>;
}
function GuardedTestPage() {
  return <h1>Customer page</h1>;
}
function FilteredTestPage() {
  const [params] = useSearchParams();
  return (
    <>
      <h1>Customer page {params.get('status') ?? 'all'}</h1>
      <Link to="/customer?status=B">Show B</Link>
    </>
  );
}

describe('router', () => {
  it('sends the root path to the login page', async () => {
    renderApp('');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.hash).toBe('#/login');
    await waitFor(() => expect(document.title).toBe('Sign in · POS Back Office'));
  });

  it('sends an unknown path to the root, which ends at the login page', async () => {
    renderApp('#/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.hash).toBe('#/login');
  });

  it('shows a signed-in user "Page not found" inside the app for an unknown path, still signed in', async () => {
    setSession(makeSession({ token: 'tok', name: 'Dana Staff', email: 'dana@example.com' }));
    renderApp('#/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText(/There is no page at #\/no\/such\/page/)).toBeTruthy();
    expect(window.location.hash).toBe('#/no/such/page');
    expect(getToken()).toBe('tok');
    // Inside the app: the navigation is at hand.
    expect(await screen.findByRole('navigation', { name: /main/i })).toBeTruthy();
  });

  it('runs the guard of a route whose page does not exist yet, then ends at the login page (decision 020)', async () => {
    renderApp('#/order');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.hash).toBe('#/login');
    expect(getReturnUrl()).toBe('/order');
  });

  it('a signed-in user allowed on a page-less route also ends at the login page, still signed in', async () => {
    setSession(makeSession({ token: 'tok', name: 'Dana Staff', email: 'dana@example.com' }));
    const { calls } = fakeApi({
      'GET /api/auth/validate/tok': valid(),
      'GET /api/auth/permission/tok': { permissions: { reports_edit: true } },
    });
    // A route whose page is not in the map (taken out here) stands for a page still being built.
    const { customerListing: _unbuilt, ...map } = pages;
    renderApp('#/customer-listing', map as PageMap);
    expect(await screen.findByText('You are signed in as Dana Staff (dana@example.com).')).toBeTruthy();
    expect(window.location.hash).toBe('#/login');
    expect(calls.map((c) => c.path)).toEqual([
      '/api/auth/validate/tok',
      '/api/auth/permission/tok',
      '/api/auth/config',
    ]);
  });

  it('loads a public page registered in the page map', async () => {
    const map: PageMap = { ...pages, confirmation: () => Promise.resolve({ default: PublicTestPage }) };
    renderApp('#/confirmation', map);
    expect(await screen.findByRole('heading', { name: 'Confirmation page' })).toBeTruthy();
  });

  it('keeps a guarded page closed without a session and saves where the user was going', async () => {
    const map: PageMap = { ...pages, customer: () => Promise.resolve({ default: GuardedTestPage }) };
    renderApp('#/customer?customerid=5', map);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Customer page' })).toBeNull();
    expect(getReturnUrl()).toBe('/customer?customerid=5');
  });

  it('opens a guarded page once the token is valid and one listed permission is granted', async () => {
    setSession(makeSession({ token: 'tok' }));
    const { calls } = fakeApi({
      'GET /api/auth/validate/tok': valid(),
      'GET /api/auth/permission/tok': { permissions: { customer_details_view: false, customer_details_edit: true } },
    });
    const map: PageMap = { ...pages, customer: () => Promise.resolve({ default: GuardedTestPage }) };
    renderApp('#/customer', map);
    expect(await screen.findByRole('heading', { name: 'Customer page' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/auth/permission/tok')?.query.get('privileges')).toBe(
      'customer_details_view,customer_details_edit',
    );
  });

  it('does not ask the guard again when only the query changes (a list filter, issue 30)', async () => {
    setSession(makeSession({ token: 'tok' }));
    const { calls } = fakeApi({
      'GET /api/auth/validate/tok': valid(),
      'GET /api/auth/permission/tok': { permissions: { customer_details_view: true, customer_details_edit: false } },
    });
    const map: PageMap = { ...pages, customer: () => Promise.resolve({ default: FilteredTestPage }) };
    renderApp('#/customer', map);
    expect(await screen.findByRole('heading', { name: 'Customer page all' })).toBeTruthy();
    const guardCalls = () => calls.filter((c) => c.path === '/api/auth/permission/tok').length;
    const before = guardCalls();
    await userEvent.click(screen.getByRole('link', { name: 'Show B' }));
    expect(await screen.findByRole('heading', { name: 'Customer page B' })).toBeTruthy();
    expect(guardCalls()).toBe(before);
  });

  it('keeps the session when the token cannot be checked (no connection, or a reload cut the call off)', async () => {
    setSession(makeSession({ token: 'tok' }));
    // No fake API: every call fails like a lost connection (test/setup.ts).
    const map: PageMap = { ...pages, customer: () => Promise.resolve({ default: GuardedTestPage }) };
    renderApp('#/customer', map);
    expect(await screen.findByText(/Reload the page to try again/)).toBeTruthy();
    expect(getToken()).toBe('tok');
    expect(window.location.hash).toBe('#/customer');
  });

  it('shows Access denied when no listed permission is granted', async () => {
    setSession(makeSession({ token: 'tok' }));
    fakeApi({
      'GET /api/auth/validate/tok': valid(),
      'GET /api/auth/permission/tok': { permissions: { customer_details_view: false, customer_details_edit: false } },
    });
    const map: PageMap = { ...pages, customer: () => Promise.resolve({ default: GuardedTestPage }) };
    renderApp('#/customer', map);
    expect(await screen.findByRole('heading', { name: 'Access denied' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Customer page' })).toBeNull();
    expect(window.location.hash).toBe('#/customer');
  });

  it('denies exactly /order to a distributor (make-token) session, and hides Signout', async () => {
    setSession(makeSession({ token: 'mk' }));
    fakeApi({
      'GET /api/auth/validate/mk': valid(true),
      'GET /api/auth/permission/mk': { permissions: { create_distributor_orders: true } },
    });
    const map: PageMap = { ...pages, order: () => Promise.resolve({ default: GuardedTestPage }) };
    renderApp('#/order', map);
    expect(await screen.findByRole('heading', { name: 'Access denied' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Signout' })).toBeNull();
  });

  it('a token the server no longer accepts is cleared, the target saved, and the user sent to sign in', async () => {
    setSession(makeSession({ token: 'gone' }));
    fakeApi({ 'GET /api/auth/validate/gone': errorResponse(403, 'session_expired', 'Your session has expired.') });
    const map: PageMap = { ...pages, viewAgents: () => Promise.resolve({ default: GuardedTestPage }) };
    renderApp('#/view-agents', map);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(getToken()).toBeNull();
    expect(getReturnUrl()).toBe('/view-agents');
  });

  it('the login page has one Sign in button and a place for the sign-in error', async () => {
    renderApp('#/login');
    const main = await screen.findByRole('main');
    await within(main).findByRole('heading', { name: 'Sign in' });
    expect(screen.getAllByRole('button', { name: 'Sign in' })).toHaveLength(1);
    expect(within(main).getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });
});
