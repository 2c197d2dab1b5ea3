import type { StaffAccount, StaffRolesPrivileges } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const LIST = '/api/admin/staff/tok';
const ONE = (id: number) => `/api/admin/staff/${id}/tok`;
const PUT = '/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/tok';

const ROLES: StaffRolesPrivileges = {
  roles: [
    { id: 1, name: 'Admin', privileges: ['invoices', 'receipts', 'promotions_view'], agent_scoped: false },
    { id: 2, name: 'AR Team', privileges: ['invoices', 'receipts'], agent_scoped: false },
    { id: 9, name: 'Marketing', privileges: ['promotions_view'], agent_scoped: false },
  ],
  privileges: [
    { id: 31, name: 'promotions_view', description: 'promotions view' },
    { id: 32, name: 'receipts', description: 'receipts' },
    { id: 33, name: 'invoices', description: 'invoices' },
  ],
};

function account(overrides: Partial<StaffAccount> = {}): StaffAccount {
  return {
    id: 12,
    name: 'Chloe Bennett',
    email: 'marketing@example.com',
    role_id: 9,
    role: 'Marketing',
    additional_privileges: [],
    active: true,
    last_sign_in_at: null,
    agent_scoped: false,
    agent_id: null,
    ...overrides,
  };
}

const ME = account({
  id: 1,
  name: 'Dana Whitfield',
  email: 'support@example.com',
  role_id: 1,
  role: 'Admin',
  last_sign_in_at: '2026-11-22T12:00:00.000Z',
});
const OPS = account({
  id: 14,
  name: 'Victor Osei',
  email: 'ops@example.com',
  role_id: 2,
  role: 'AR Team',
  additional_privileges: ['promotions_view'],
  active: false,
});

const lastList = (calls: FakeRequest[]) =>
  Object.fromEntries(calls.filter((c) => c.path === LIST && c.query.get('format') !== 'csv').at(-1)!.query);

function routes(extra: Record<string, unknown> = {}) {
  return {
    ...signInAs('Admin'),
    [`GET ${LIST}`]: { items: [ME, account(), OPS], total: 3 },
    'GET /api/admin/staff/roles-privileges/tok': ROLES,
    [`GET ${ONE(1)}`]: ME,
    [`GET ${ONE(12)}`]: account(),
    [`GET ${ONE(14)}`]: OPS,
    ...extra,
  };
}

describe('staff (#/admin/staff)', () => {
  // Toasts outlive a test (the store is the module's): each test starts with none.
  afterEach(() => {
    notifications.clean();
    notifications.cleanQueue();
  });

  it('lists the accounts with role, extra privileges, status and last sign-in', async () => {
    const { calls } = fakeApi(routes());
    renderApp('#/admin/staff');
    expect(await screen.findByRole('heading', { name: 'Staff', level: 1 })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Staff — 3 accounts' });
    const chloe = within(table).getByRole('link', { name: 'Open Chloe Bennett' }).closest('tr')!;
    expect(within(chloe).getByText('marketing@example.com')).toBeTruthy();
    expect(within(chloe).getByText('Marketing')).toBeTruthy();
    expect(within(chloe).getByText('None')).toBeTruthy();
    expect(within(chloe).getByText('Active')).toBeTruthy();
    expect(within(chloe).getByText('Never')).toBeTruthy();
    const victor = within(table).getByRole('link', { name: 'Open Victor Osei' }).closest('tr')!;
    expect(within(victor).getByText('Promotions view')).toBeTruthy();
    expect(within(victor).getByText('Deactivated')).toBeTruthy();
    expect(lastList(calls)).toEqual({ limit: '25', offset: '0' });
  });

  it('sends the filters and the sort to the server, and keeps them in the address', async () => {
    const { calls } = fakeApi(routes());
    const user = userEvent.setup();
    renderApp('#/admin/staff');
    await screen.findByRole('table', { name: /Staff — / });
    await user.type(screen.getByRole('textbox', { name: /Name or e-mail/ }), 'chloe');
    await screen.findByRole('option', { name: 'Marketing' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Role' }), 'Marketing');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Deactivated');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(lastList(calls)).toEqual({ q: 'chloe', role_id: '9', active: 'false', limit: '25', offset: '0' }),
    );
    expect(window.location.hash).toContain('role=9');
    await user.click(screen.getByRole('button', { name: /^Last sign-in/ }));
    await waitFor(() => expect(lastList(calls).sort).toBe('-last_sign_in_at'));
    await user.click(screen.getByRole('button', { name: /^E-mail/ }));
    await waitFor(() => expect(lastList(calls).sort).toBe('email'));
  });

  it('grants an extra privilege through the PUT; the toast says it applies at the next sign-in', async () => {
    const { calls } = fakeApi(
      routes({
        [`PUT ${PUT}`]: {
          id: 12,
          email: 'marketing@example.com',
          name: 'Chloe Bennett',
          role_id: 9,
          role: 'Marketing',
          privileges: ['invoices', 'promotions_view'],
          additional_privileges: ['invoices'],
        },
      }),
    );
    const user = userEvent.setup();
    renderApp('#/admin/staff');
    await user.click(await screen.findByRole('link', { name: 'Open Chloe Bennett' }));
    expect(window.location.hash).toContain('id=12');
    const panel = await screen.findByRole('region', { name: 'Chloe Bennett' });
    // The role's own privilege is ticked and cannot be changed here.
    const viaRole = await within(panel).findByRole('checkbox', { name: /Promotions view/ });
    expect((viaRole as HTMLInputElement).checked).toBe(true);
    expect((viaRole as HTMLInputElement).disabled).toBe(true);
    const save = within(panel).getByRole('button', { name: 'Save privileges' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(panel).getByRole('checkbox', { name: 'Invoices' }));
    await user.click(save);
    expect(
      await screen.findByText(/Chloe Bennett's extra privileges: Invoices\. Their open sessions were ended/),
    ).toBeTruthy();
    expect(screen.getByText(/applies from their next sign-in/)).toBeTruthy();
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toEqual({ email: 'marketing@example.com', login_role_privilege_id: [33] });
    // The list and the account are read again.
    await waitFor(() => expect(calls.filter((c) => c.path === ONE(12)).length).toBeGreaterThan(1));
  });

  it('revokes an extra privilege and changes the role, each through the PUT', async () => {
    const { calls } = fakeApi(
      routes({
        [`PUT ${PUT}`]: (r: FakeRequest) => {
          const body = r.body as { role_id?: number };
          return {
            id: 14,
            email: 'ops@example.com',
            name: 'Victor Osei',
            role_id: body.role_id ?? 2,
            role: body.role_id === 9 ? 'Marketing' : 'AR Team',
            privileges: [],
            additional_privileges: [],
          };
        },
      }),
    );
    const user = userEvent.setup();
    renderApp('#/admin/staff?id=14');
    const panel = await screen.findByRole('region', { name: 'Victor Osei' });
    await user.click(await within(panel).findByRole('checkbox', { name: 'Promotions view' }));
    await user.click(within(panel).getByRole('button', { name: 'Save privileges' }));
    await screen.findByText(/Victor Osei's extra privileges: none\./);
    expect(calls.filter((c) => c.method === 'PUT').at(-1)!.body).toEqual({
      email: 'ops@example.com',
      login_role_privilege_id: [],
    });

    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Role' }), 'Marketing');
    expect(within(panel).getByText('Marketing grants: Promotions view.')).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Save role' }));
    expect(await screen.findByText(/Victor Osei is now Marketing\. Their open sessions were ended/)).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)!.body).toEqual({ email: 'ops@example.com', role_id: 9 });
  });

  it('deactivates after a question, and reactivates a deactivated account', async () => {
    const { calls } = fakeApi(
      routes({
        'POST /api/admin/staff/12/deactivate/tok': account({ active: false }),
        'POST /api/admin/staff/14/reactivate/tok': { ...OPS, active: true },
      }),
    );
    const user = userEvent.setup();
    renderApp('#/admin/staff?id=12');
    const panel = await screen.findByRole('region', { name: 'Chloe Bennett' });
    await user.click(within(panel).getByRole('button', { name: 'Deactivate…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Chloe Bennett?' });
    expect(within(dialog).getByText(/every session they have open ends now/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user.click(within(panel).getByRole('button', { name: 'Deactivate…' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Deactivate Chloe Bennett?' })).getByRole('button', {
        name: 'Deactivate account',
      }),
    );
    expect(
      await screen.findByText('Chloe Bennett can no longer sign in; their open sessions were ended.'),
    ).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/api/admin/staff/12/deactivate/tok']);

    await user.click(screen.getByRole('link', { name: 'Open Victor Osei' }));
    const other = await screen.findByRole('region', { name: 'Victor Osei' });
    await user.click(within(other).getByRole('button', { name: 'Reactivate…' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Reactivate Victor Osei?' })).getByRole('button', {
        name: 'Reactivate account',
      }),
    );
    expect(await screen.findByText('Victor Osei can sign in again.')).toBeTruthy();
  });

  it("an Admin's own account: no Deactivate, the role not changeable here", async () => {
    fakeApi(routes());
    renderApp('#/admin/staff?id=1');
    const panel = await screen.findByRole('region', { name: 'Dana Whitfield' });
    expect(await within(panel).findByText('You cannot deactivate your own account. Another Admin can.')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Deactivate…' })).toBeNull();
    expect((within(panel).getByRole('combobox', { name: 'Role' }) as HTMLSelectElement).disabled).toBe(true);
    expect(within(panel).getByText('Another Admin changes your own role.')).toBeTruthy();
  });

  it('an unknown account in the address says so beside the list', async () => {
    fakeApi(routes({ [`GET ${ONE(77)}`]: errorResponse(404, 'not_found', 'Staff account 77 was not found.') }));
    renderApp('#/admin/staff?id=77');
    expect(await screen.findByText('Staff account 77 was not found. Open the account from the list.')).toBeTruthy();
  });

  it('exports the filtered accounts as CSV (every row, no paging)', async () => {
    const { calls } = fakeApi(
      routes({
        [`GET ${LIST}`]: (r: FakeRequest) =>
          r.query.get('format') === 'csv'
            ? new Response('\uFEFFid,name\r\n12,Chloe Bennett\r\n', {
                headers: { 'content-type': 'text/csv; charset=utf-8' },
              })
            : { items: [account()], total: 1 },
      }),
    );
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:download');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderApp('#/admin/staff?active=true');
    await screen.findByRole('table', { name: 'Staff — 1 account' });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const csv = calls.find((c) => c.query.get('format') === 'csv')!;
    expect(Object.fromEntries(csv.query)).toEqual({ active: 'true', format: 'csv' });
  });

  it('is not offered to other roles', async () => {
    const { calls } = fakeApi(signInAs('AR Team'));
    renderApp('#/admin/staff');
    expect(await screen.findByRole('heading', { name: 'Access denied', level: 1 })).toBeTruthy();
    expect(calls.some((c) => c.path.startsWith('/api/admin/staff'))).toBe(false);
  });
});
