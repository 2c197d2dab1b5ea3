import { LOGIN_REDIRECT_PRIVILEGES, ROLE_PRIVILEGES } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { getToken, setSession } from '../../../lib/session';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { fakeJwt, makeLoginInfo, makeSession, permissionAnswer } from '../../../test/factories';
import { renderApp, withPages } from '../../../test/render-app';
import type { GoogleAccountsId } from '../lib/google-identity';

const accounts = [
  { email: 'admin@example.com', name: 'Ada Admin', role: 'Admin' },
  { email: 'marketing@example.com', name: 'Mo Marketing', role: 'Marketing' },
];
const localConfig = { provider: 'local', clientId: 'pos-backoffice', authorizeUrl: '/oidc/authorize', accounts };

function OrdersTestPage() {
  return <h1>Orders test page</h1>;
}
const withLandingPages = withPages({ order: () => Promise.resolve({ default: OrdersTestPage }) });

const validation = {
  maketoken: false,
  kind: 'staff',
  email: 'x@example.com',
  name: 'X',
  role: 'Admin',
  agent_id: null,
  account_manager_username: null,
  privileges: [],
  expires_at: '2030-01-01T00:00:00Z',
};

/** The server as the sign-in page sees it: config, credentials for `role`, and the guard's calls. */
function server(role: keyof typeof ROLE_PRIVILEGES = 'Admin', authenticate?: Response) {
  const granted = ROLE_PRIVILEGES[role];
  return fakeApi({
    'GET /api/auth/config': localConfig,
    'POST /api/dev/idtoken': (req: FakeRequest) => ({
      idtoken: fakeJwt({ email: (req.body as { email: string }).email }),
    }),
    'POST /api/auth/authenticate':
      authenticate ?? makeLoginInfo({ role, name: 'Ada Admin', email: 'admin@example.com' }),
    'GET /api/auth/permission/tok-new': (req: FakeRequest) =>
      permissionAnswer((req.query.get('privileges') ?? '').split(','), granted),
    'GET /api/auth/validate/tok-new': validation,
  });
}

function stubAlert() {
  const alert = vi.fn();
  vi.stubGlobal('alert', alert);
  return alert;
}

async function signInButton() {
  const main = await screen.findByRole('main');
  return within(main).findByRole('button', { name: 'Sign in' });
}

describe('/login with the local identity provider', () => {
  it('Sign in opens the provider page with redirect_uri, state and nonce', async () => {
    server();
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    renderApp('#/login');
    const button = await signInButton();
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));

    await userEvent.click(button);

    expect(assign).toHaveBeenCalledTimes(1);
    const url = new URL(String(assign.mock.calls[0]?.[0]), window.location.origin);
    expect(url.pathname).toBe('/oidc/authorize');
    expect(url.searchParams.get('redirect_uri')).toBe(`${window.location.origin}/`);
    expect(url.searchParams.get('state')).toBe(window.sessionStorage.getItem('oidc_state'));
    expect(url.searchParams.get('nonce')).toBe(window.sessionStorage.getItem('oidc_nonce'));
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
  });

  it('back from the provider with this tab’s state and nonce: signs in and lands by the rules', async () => {
    const { calls } = server('Admin');
    window.sessionStorage.setItem('oidc_state', 'state-1');
    window.sessionStorage.setItem('oidc_nonce', 'nonce-1');
    const idtoken = fakeJwt({ email: 'admin@example.com', nonce: 'nonce-1' });

    renderApp(`#/login?id_token=${idtoken}&state=state-1`, withLandingPages);

    expect(await screen.findByRole('heading', { name: 'Orders test page' })).toBeTruthy();
    expect(window.location.hash).toBe('#/order');
    expect(calls.find((c) => c.path === '/api/auth/authenticate')?.body).toEqual({ idtoken });
    expect(calls.find((c) => c.path === '/api/auth/permission/tok-new')?.query.get('privileges')).toBe(
      LOGIN_REDIRECT_PRIVILEGES.join(','),
    );
    expect(window.sessionStorage.getItem('oidc_state')).toBeNull();
  });

  it('a role no rule matches (Distributor staff) stays on the sign-in page, signed in', async () => {
    server('Distributor');
    window.sessionStorage.setItem('oidc_state', 's');
    window.sessionStorage.setItem('oidc_nonce', 'n');
    renderApp(`#/login?id_token=${fakeJwt({ nonce: 'n' })}&state=s`, withLandingPages);
    expect(await screen.findByText('You are signed in as Ada Admin (admin@example.com).')).toBeTruthy();
    expect(window.location.hash).toBe('#/login');
    expect(screen.queryByText('Authentication failed.')).toBeNull();
  });

  it('a garbage id_token: red "Authentication failed.", an alert with the same text, no spinner, no session', async () => {
    const { calls } = server();
    const alert = stubAlert();
    renderApp('#/login?id_token=garbage');

    const main = await screen.findByRole('main');
    expect(await within(main).findByText('Authentication failed.')).toBeTruthy();
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Authentication failed.'));
    expect(screen.queryByRole('status', { name: 'Loading' })).toBeNull();
    expect(getToken()).toBeNull();
    expect(calls.some((c) => c.path === '/api/auth/authenticate')).toBe(false);
    expect(window.location.hash).toBe('#/login');
  });

  it('a token the server refuses fails the same way', async () => {
    server('Admin', errorResponse(401, 'invalid_token', 'The sign-in could not be verified.'));
    const alert = stubAlert();
    window.sessionStorage.setItem('oidc_state', 's');
    window.sessionStorage.setItem('oidc_nonce', 'n');
    renderApp(`#/login?id_token=${fakeJwt({ nonce: 'n' })}&state=s`);

    expect(await screen.findByText('Authentication failed.')).toBeTruthy();
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Authentication failed.'));
    expect(getToken()).toBeNull();
  });

  it('refuses a credential whose nonce is not the one this tab sent', async () => {
    const { calls } = server();
    stubAlert();
    window.sessionStorage.setItem('oidc_state', 's');
    window.sessionStorage.setItem('oidc_nonce', 'n');
    renderApp(`#/login?id_token=${fakeJwt({ nonce: 'other' })}&state=s`);
    expect(await screen.findByText('Authentication failed.')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/auth/authenticate')).toBe(false);
  });

  it('offers the demo-account prompt on first load without a session; an account signs in', async () => {
    const { calls } = server('Admin');
    renderApp('#/login', withLandingPages);

    const prompt = await screen.findByRole('region', { name: 'Sign in with your demo account' });
    await userEvent.click(within(prompt).getByRole('button', { name: 'Continue as Ada Admin (admin@example.com)' }));

    expect(await screen.findByRole('heading', { name: 'Orders test page' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/dev/idtoken')?.body).toEqual({ email: 'admin@example.com' });
  });

  it('the prompt can be closed', async () => {
    server();
    renderApp('#/login');
    const prompt = await screen.findByRole('region', { name: 'Sign in with your demo account' });
    await userEvent.click(within(prompt).getByRole('button', { name: 'Close the demo account prompt' }));
    expect(screen.queryByRole('region', { name: 'Sign in with your demo account' })).toBeNull();
  });

  it('does not offer the prompt to a user flagged logged in', async () => {
    server();
    setSession(makeSession({ name: 'Dana Staff', email: 'dana@example.com' }));
    renderApp('#/login');
    expect(await screen.findByText('You are signed in as Dana Staff (dana@example.com).')).toBeTruthy();
    await waitFor(() =>
      expect((screen.getAllByRole('button', { name: 'Sign in' })[0] as HTMLButtonElement).disabled).toBe(false),
    );
    expect(screen.queryByRole('region', { name: 'Sign in with your demo account' })).toBeNull();
  });

  it('explains when the sign-in settings cannot be loaded', async () => {
    renderApp('#/login');
    expect(await screen.findByText(/Sign-in is not available right now/)).toBeTruthy();
  });

  it('refuses settings that break their contract (checked though the contract loads after the page)', async () => {
    fakeApi({ 'GET /api/auth/config': { provider: 'saml', clientId: 'pos-backoffice' } });
    renderApp('#/login');
    expect(await screen.findByText(/Sign-in is not available right now/)).toBeTruthy();
    expect((screen.getAllByRole('button', { name: 'Sign in' })[0] as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('/login with Google', () => {
  function fakeGoogle() {
    const id: GoogleAccountsId & { callback?: (r: { credential: string }) => void; nonce?: string } = {
      initialize: vi.fn((config) => {
        id.callback = config.callback;
        id.nonce = config.nonce;
      }),
      renderButton: vi.fn(),
      prompt: vi.fn(),
    };
    window.google = { accounts: { id } };
    onTestFinished(() => {
      delete window.google;
    });
    return id;
  }

  it('loads Google Identity Services only in google mode: its button, one-tap, and sign-in with its credential', async () => {
    const gis = fakeGoogle();
    const { calls } = fakeApi({
      'GET /api/auth/config': { provider: 'google', clientId: 'client-123.apps.googleusercontent.com' },
      'POST /api/auth/authenticate': makeLoginInfo({ role: 'Admin' }),
      'GET /api/auth/permission/tok-new': (req: FakeRequest) =>
        permissionAnswer((req.query.get('privileges') ?? '').split(','), ROLE_PRIVILEGES.Admin),
      'GET /api/auth/validate/tok-new': validation,
    });
    renderApp('#/login', withLandingPages);

    await waitFor(() =>
      expect(gis.initialize).toHaveBeenCalledWith(
        expect.objectContaining({ client_id: 'client-123.apps.googleusercontent.com' }),
      ),
    );
    expect(gis.renderButton).toHaveBeenCalledTimes(1);
    expect(gis.prompt).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('region', { name: 'Sign in with your demo account' })).toBeNull();

    gis.callback?.({ credential: fakeJwt({ nonce: gis.nonce }) });
    expect(await screen.findByRole('heading', { name: 'Orders test page' })).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/auth/authenticate')).toHaveLength(1);
  });
});
