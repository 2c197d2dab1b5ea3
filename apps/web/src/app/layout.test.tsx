import { INACTIVITY_TIMEOUT_MS } from '@pos/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { appUpdater } from '../lib/app-update';
import { getToken, setSession } from '../lib/session';
import { fakeApi } from '../test/fake-api';
import { makeSession } from '../test/factories';
import { renderApp } from '../test/render-app';
import { pages, type PageMap } from './router';

function CustomerTestPage() {
  return <h1>Customer page</h1>;
}
const map: PageMap = { ...pages, customer: () => Promise.resolve({ default: CustomerTestPage }) };

function signedInServer() {
  return fakeApi({
    'GET /api/auth/validate/tok': {
      maketoken: false,
      kind: 'staff',
      email: 'dana@example.com',
      name: 'Dana',
      role: 'Customer Support',
      agent_id: null,
      account_manager_username: null,
      privileges: [],
      expires_at: '2030-01-01T00:00:00Z',
    },
    'GET /api/auth/permission/tok': { permissions: { customer_details_view: true, customer_details_edit: true } },
    'GET /api/auth/logout/tok': { released: true },
  });
}

function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

describe('layout: inactivity overlay', () => {
  it('after an hour idle on a signed-in page: the overlay counts down; Extend keeps the session; 0 signs out', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setSession(makeSession({ token: 'tok' }));
    const { calls } = signedInServer();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderApp('#/customer', map);
    await screen.findByRole('heading', { name: 'Customer page' });

    advance(INACTIVITY_TIMEOUT_MS);
    const dialog = await screen.findByRole('dialog', { name: 'Session Timeout' });
    expect(within(dialog).getByText('Your session will expire in 50 seconds due to inactivity.')).toBeTruthy();
    advance(5000);
    expect(within(dialog).getByText('Your session will expire in 45 seconds due to inactivity.')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Extend my Session' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Session Timeout' })).toBeNull());
    expect(getToken()).toBe('tok');

    advance(INACTIVITY_TIMEOUT_MS);
    await screen.findByRole('dialog', { name: 'Session Timeout' });
    advance(50_000);
    await waitFor(() => expect(window.location.hash).toBe('#/login'));
    expect(getToken()).toBeNull();
    expect(calls.some((c) => c.path === '/api/auth/logout/tok')).toBe(true);
    expect(screen.queryByRole('dialog', { name: 'Session Timeout' })).toBeNull();
  });

  it('never runs on /login, even with a session', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setSession(makeSession({ token: 'tok' }));
    signedInServer();
    renderApp('#/login');
    await screen.findByRole('heading', { name: 'Sign in' });
    advance(INACTIVITY_TIMEOUT_MS + 60_000);
    expect(screen.queryByRole('dialog', { name: 'Session Timeout' })).toBeNull();
    expect(getToken()).toBe('tok');
  });

  it('never runs on /distributor', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    setSession(makeSession({ token: 'tok' }));
    signedInServer();
    renderApp('#/distributor');
    await screen.findByRole('heading', { name: 'Distributor sign-in' });
    advance(2 * INACTIVITY_TIMEOUT_MS);
    expect(screen.queryByRole('dialog', { name: 'Session Timeout' })).toBeNull();
    expect(getToken()).toBe('tok');
  });
});

describe('layout: update banner', () => {
  it('shows the banner on any page once a new version is active', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined);
    renderApp('#/login');
    await screen.findByRole('heading', { name: 'Sign in' });
    act(() => appUpdater.beginCountdown());
    expect(await screen.findByText('New update is available.')).toBeTruthy();
    expect(screen.getByText('page will be reloaded in 10 sec')).toBeTruthy();
    advance(3000);
    expect(screen.getByText('page will be reloaded in 7 sec')).toBeTruthy();
    advance(7000);
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
