import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession, isLoggedIn } from '../../../lib/session';
import { errorResponse, fakeApi } from '../../../test/fake-api';
import { renderApp, withPages } from '../../../test/render-app';

function OrdersTestPage() {
  return <h1>Orders test page</h1>;
}
const withOrders = withPages({ order: () => Promise.resolve({ default: OrdersTestPage }) });

const distributorLogin = {
  token: 'dist-tok',
  name: 'Nora Quinn',
  email: 'distributor@example.com',
  agent_id: 4,
  account_manager_username: 'ram',
  role: 'Distributor',
  additional_privileges: [],
};

async function fill(email: string, password: string) {
  await userEvent.type(await screen.findByLabelText('E-mail'), email);
  await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), password);
}

describe('/distributor', () => {
  it('has a heading, labelled E-mail and Password fields, Sign in and Forgot password?', async () => {
    renderApp('#/distributor');
    expect(await screen.findByRole('heading', { name: 'Distributor sign-in' })).toBeTruthy();
    expect(screen.getByLabelText('E-mail')).toBeTruthy();
    expect(screen.getByLabelText('Password', { selector: 'input' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Sign in' })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeTruthy();
  });

  it('signs the distributor in and goes to /order', async () => {
    const { calls } = fakeApi({
      'POST /api/auth/distributor/login': distributorLogin,
      'GET /api/auth/validate/dist-tok': {
        maketoken: false,
        kind: 'distributor',
        email: 'distributor@example.com',
        name: 'Nora Quinn',
        role: 'Distributor',
        agent_id: 4,
        account_manager_username: 'ram',
        privileges: ['create_distributor_orders'],
        expires_at: '2030-01-01T00:00:00Z',
      },
      'GET /api/auth/permission/dist-tok': {
        permissions: { search_orders_edit: false, search_orders_view: false, create_distributor_orders: true },
      },
    });
    renderApp('#/distributor', withOrders);
    await fill('distributor@example.com', 'distributor-demo');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { name: 'Orders test page' })).toBeTruthy();
    expect(window.location.hash).toBe('#/order');
    expect(calls[0]?.body).toEqual({ email: 'distributor@example.com', password: 'distributor-demo' });
    expect(getSession()).toMatchObject({
      token: 'dist-tok',
      role: 'Distributor',
      agentID: '4',
      account_manager: 'ram',
    });
    expect(isLoggedIn()).toBe(true);
  });

  it('checks the fields with the contract before calling the server', async () => {
    const { calls } = fakeApi({});
    renderApp('#/distributor');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toEqual([]);
  });

  it("shows the server's reason when the sign-in is refused", async () => {
    fakeApi({
      'POST /api/auth/distributor/login': errorResponse(
        401,
        'unauthenticated',
        'Authentication failed: the e-mail address or password is wrong.',
      ),
    });
    renderApp('#/distributor');
    await fill('distributor@example.com', 'wrong-password-1');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(/the e-mail address or password is wrong\. Try again\./)).toBeTruthy();
    expect(window.location.hash).toBe('#/distributor');
  });

  it('Forgot password? sends a reset link for the e-mail and says so without revealing accounts', async () => {
    const { calls } = fakeApi({ 'POST /api/auth/distributor/password/forgot': { sent: true } });
    renderApp('#/distributor');
    await userEvent.type(await screen.findByLabelText('E-mail'), 'distributor@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeTruthy();
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('distributor@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));

    expect(await screen.findByText(/If a distributor account exists for distributor@example.com/)).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/auth/distributor/password/forgot')?.body).toEqual({
      email: 'distributor@example.com',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Back to sign-in' }));
    expect(screen.getByRole('heading', { name: 'Distributor sign-in' })).toBeTruthy();
  });
});

describe('/distributor/passsword/reset/{tok}', () => {
  it.each(['passsword', 'password'])(
    '/distributor/%s/reset/{tok}: the policy messages from the domain, then success → /distributor',
    async (spelling) => {
      const { calls } = fakeApi({ 'POST /api/auth/distributor/password/reset': { reset: true } });
      renderApp(`#/distributor/${spelling}/reset/link-token-0123456789abcdef`);
      expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeTruthy();

      await userEvent.type(screen.getByLabelText('New password', { selector: 'input' }), 'short');
      await userEvent.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'other');
      await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
      expect(screen.getByText(/Use at least 12 characters\./)).toBeTruthy();
      expect(screen.getByText(/Include at least one digit\./)).toBeTruthy();
      expect(screen.getByText('The passwords do not match.')).toBeTruthy();
      expect(calls).toEqual([]);

      await userEvent.clear(screen.getByLabelText('New password', { selector: 'input' }));
      await userEvent.clear(screen.getByLabelText('Confirm new password', { selector: 'input' }));
      await userEvent.type(screen.getByLabelText('New password', { selector: 'input' }), 'a-new-passw0rd-here');
      await userEvent.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'a-new-passw0rd-here');
      await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));

      expect(await screen.findByRole('heading', { name: 'Distributor sign-in' })).toBeTruthy();
      expect(screen.getByText('Your password has been reset. Sign in with the new password.')).toBeTruthy();
      expect(calls[0]?.body).toEqual({ token: 'link-token-0123456789abcdef', password: 'a-new-passw0rd-here' });
    },
  );

  it("shows the server's message for a used or expired link", async () => {
    fakeApi({
      'POST /api/auth/distributor/password/reset': errorResponse(
        400,
        'validation_failed',
        'This reset link is not valid any more.',
      ),
    });
    renderApp('#/distributor/passsword/reset/link-token-0123456789abcdef');
    await userEvent.type(await screen.findByLabelText('New password', { selector: 'input' }), 'a-new-passw0rd-here');
    await userEvent.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'a-new-passw0rd-here');
    await userEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(screen.getByText(/This reset link is not valid any more\./)).toBeTruthy());
  });
});
