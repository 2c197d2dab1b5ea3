import { ROLE_PRIVILEGES, type Permission, type Role } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffUser, ensureAccessData, type AccessData } from '../../db/factories';
import { staffUsers } from '../../db/schema';
import { signIn } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Staff accounts (issue 31 item 2, decision 157) through HTTP:
 *   GET  /api/admin/staff/{token}, GET /api/admin/staff/roles-privileges/{token},
 *   POST /api/admin/staff/{id}/deactivate/{token}, POST /api/admin/staff/{id}/reactivate/{token},
 * and what a role or privilege change through spec §7's PUT getIdOrUpdateLoginRolePrivilegeEmail does to the person's
 * next permission check.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let access: AccessData;
let admin: string;
let adminId: number;
let ar: string;
const ids: Record<string, number> = {};

/** Staff of this file: e-mail → [name, role, extra privileges, active]. */
const STAFF: Array<[string, string, Role, Permission[], boolean]> = [
  ['ada.admin@example.com', 'Ada Admin', 'Admin', [], true],
  ['priya.ar@example.com', 'Priya Raman', 'AR Team', [], true],
  ['chloe.marketing@example.com', 'Chloe Bennett', 'Marketing', [], true],
  ['victor.ops@example.org', 'Victor Osei', 'Operations', ['receipts', 'invoices'], true],
  ['gone.marketing@example.com', 'Zed Gone', 'Marketing', [], false],
  ['outsider@elsewhere.test', 'Olga Outside', 'Customer Care', [], true],
  ['percent_sign@example.com', 'Pat 100% Sure', 'IS', [], true],
];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  access = await ensureAccessData(db);
  for (const [email, name, role, additionalPrivileges, active] of STAFF)
    ids[email] = (await createStaffUser(db, { email, name, role, additionalPrivileges, active })).id;
  adminId = ids['ada.admin@example.com']!;
  admin = await signIn(t, 'ada.admin@example.com');
  ar = await signIn(t, 'priya.ar@example.com');
  // A sign-in time for Victor only, a day after Priya's and Ada's (the test clock is fixed).
  await db
    .update(staffUsers)
    .set({ lastSignInAt: new Date('2026-11-23T09:00:00Z') })
    .where(eq(staffUsers.id, ids['victor.ops@example.org']!));
}, 60_000);
afterAll(() => t.close());

const list = (query = '', token = admin) => t.request({ method: 'GET', url: `/api/admin/staff/${token}${query}` });
const names = (res: { json: () => Json }) => (res.json().info.items as Json[]).map((i) => i.name as string);
const post = (id: number, action: 'deactivate' | 'reactivate', token = admin) =>
  t.request({ method: 'POST', url: `/api/admin/staff/${id}/${action}/${token}` });
const validate = (token: string) => t.request({ method: 'GET', url: `/api/auth/validate/${token}` });
const permission = (token: string, privileges: string) =>
  t.request({ method: 'GET', url: `/api/auth/permission/${token}?privileges=${privileges}` });

async function authenticate(email: string) {
  const idtoken = await t.app.ctx.identity.local!.signIdToken({ email });
  return t.request({ method: 'POST', url: '/api/auth/authenticate', payload: { idtoken } });
}

describe('GET /api/admin/staff/{token}', () => {
  it('lists every staff account by name with role, extra privileges, active and last sign-in; the exact total', async () => {
    const res = await list();
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info.total).toBe(STAFF.length);
    expect(names(res)).toEqual([
      'Ada Admin',
      'Chloe Bennett',
      'Olga Outside',
      'Pat 100% Sure',
      'Priya Raman',
      'Victor Osei',
      'Zed Gone',
    ]);
    const victor = (info.items as Json[]).find((i) => i.email === 'victor.ops@example.org');
    expect(victor).toEqual({
      id: ids['victor.ops@example.org'],
      name: 'Victor Osei',
      email: 'victor.ops@example.org',
      role_id: access.roles.get('Operations'),
      role: 'Operations',
      additional_privileges: ['invoices', 'receipts'],
      active: true,
      last_sign_in_at: '2026-11-23T09:00:00.000Z',
      agent_scoped: false,
      agent_id: null,
    });
    const ada = (info.items as Json[]).find((i) => i.email === 'ada.admin@example.com')!;
    expect(ada.last_sign_in_at).toBe(t.app.ctx.clock.now().toISOString());
    expect((info.items as Json[]).find((i) => i.name === 'Zed Gone')!.active).toBe(false);
  });

  it('pages with limit and offset; the total stays the whole set', async () => {
    const first = await list('?limit=3&offset=0');
    const second = await list('?limit=3&offset=3');
    const last = await list('?limit=3&offset=6');
    expect(names(first)).toEqual(['Ada Admin', 'Chloe Bennett', 'Olga Outside']);
    expect(names(second)).toEqual(['Pat 100% Sure', 'Priya Raman', 'Victor Osei']);
    expect(names(last)).toEqual(['Zed Gone']);
    for (const r of [first, second, last]) expect(r.json().info.total).toBe(STAFF.length);
  });

  it('searches any part of the name or the e-mail, case-insensitive; % and _ are plain characters', async () => {
    expect(names(await list('?q=RAMAN'))).toEqual(['Priya Raman']);
    expect(names(await list('?q=marketing'))).toEqual(['Chloe Bennett', 'Zed Gone']);
    expect(names(await list('?q=example.org'))).toEqual(['Victor Osei']);
    expect(names(await list('?q=%25'))).toEqual(['Pat 100% Sure']);
    expect(names(await list('?q=a_a'))).toEqual([]);
    expect(names(await list('?q=t_sign'))).toEqual(['Pat 100% Sure']);
    expect((await list('?q=nobody-at-all')).json().info).toEqual({ items: [], total: 0 });
  });

  it('filters by role and by active; the filters combine with the search', async () => {
    expect(names(await list(`?role_id=${access.roles.get('Marketing')}`))).toEqual(['Chloe Bennett', 'Zed Gone']);
    expect(names(await list(`?role_id=${access.roles.get('Marketing')}&active=true`))).toEqual(['Chloe Bennett']);
    expect(names(await list('?active=false'))).toEqual(['Zed Gone']);
    expect(names(await list('?active=true&q=zed'))).toEqual([]);
    expect((await list('?active=false')).json().info.total).toBe(1);
  });

  it('sorts by name, e-mail or last sign-in either way (never signed in: oldest first, most recent last)', async () => {
    expect(names(await list('?sort=-name')).at(0)).toBe('Zed Gone');
    expect((await list('?sort=email')).json().info.items.map((i: Json) => i.email)).toEqual([
      'ada.admin@example.com',
      'chloe.marketing@example.com',
      'gone.marketing@example.com',
      'outsider@elsewhere.test',
      'percent_sign@example.com',
      'priya.ar@example.com',
      'victor.ops@example.org',
    ]);
    const recent = names(await list('?sort=-last_sign_in_at'));
    expect(recent.slice(0, 3)).toEqual(['Victor Osei', 'Priya Raman', 'Ada Admin']);
    const oldest = names(await list('?sort=last_sign_in_at'));
    expect(oldest.slice(-3)).toEqual(['Ada Admin', 'Priya Raman', 'Victor Osei']);
    expect(oldest.slice(0, 4).sort()).toEqual(['Chloe Bennett', 'Olga Outside', 'Pat 100% Sure', 'Zed Gone']);
  });

  it('refuses a bad query with 400 naming the field', async () => {
    for (const [query, field] of [
      ['?sort=role', 'sort'],
      ['?role_id=abc', 'role_id'],
      ['?role_id=0', 'role_id'],
      ['?active=maybe', 'active'],
      [`?q=${'x'.repeat(101)}`, 'q'],
      ['?limit=0', 'limit'],
      ['?format=pdf', 'format'],
    ] as const) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(Object.keys(res.json().error.fields ?? {}), query).toContain(field);
    }
  });

  it('exports every matching account as CSV (no paging), in the list order', async () => {
    const res = await list(`?format=csv&role_id=${access.roles.get('Operations')}&limit=1&offset=5`);
    expect(res.statusCode).toBe(200);
    expect(
      res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(2);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/filename="staff-\d{4}-\d{2}-\d{2}\.csv"/);
    const all = await list('?format=csv');
    const lines = all.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id,name,email,role,additional_privileges,active,last_sign_in_at');
    expect(lines).toHaveLength(1 + STAFF.length);
    expect(lines).toContain(
      `${ids['victor.ops@example.org']},Victor Osei,victor.ops@example.org,Operations,invoices receipts,yes,2026-11-23T09:00:00.000Z`,
    );
    expect(lines.at(-1)).toMatch(/,Zed Gone,gone\.marketing@example\.com,Marketing,,no,$/);
  });

  it('is for Admins only: any other staff role, even with extra privileges, is refused 403', async () => {
    await createStaffUser(t.database.db, {
      email: 'almost.admin@example.com',
      role: 'AR Team',
      additionalPrivileges: ['customer_details_edit', 'promotions_edit', 'breath_of_life'],
    });
    const almost = await signIn(t, 'almost.admin@example.com');
    for (const token of [ar, almost]) {
      expect((await list('', token)).statusCode).toBe(403);
      expect((await list('?format=csv', token)).statusCode).toBe(403);
      const roles = await t.request({ method: 'GET', url: `/api/admin/staff/roles-privileges/${token}` });
      expect(roles.statusCode).toBe(403);
      expect(roles.json().error.code).toBe('forbidden');
      expect((await post(ids['chloe.marketing@example.com']!, 'deactivate', token)).statusCode).toBe(403);
      expect((await post(ids['gone.marketing@example.com']!, 'reactivate', token)).statusCode).toBe(403);
    }
    expect((await list('', 'Q'.repeat(43))).statusCode).toBe(403);
    // Refused before anything was done.
    expect((await list('?q=chloe')).json().info.items[0].active).toBe(true);
    expect((await list('?q=zed')).json().info.items[0].active).toBe(false);
  });
});

describe('GET /api/admin/staff/{id}/{token}', () => {
  it('answers one account as the list shows it; an unknown id is 404', async () => {
    const res = await t.request({ method: 'GET', url: `/api/admin/staff/${ids['victor.ops@example.org']}/${admin}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toEqual((await list('?q=victor')).json().info.items[0]);
    const missing = await t.request({ method: 'GET', url: `/api/admin/staff/987654/${admin}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: 'not_found', message: 'Staff account 987654 was not found.' });
    const other = await t.request({ method: 'GET', url: `/api/admin/staff/${ids['victor.ops@example.org']}/${ar}` });
    expect(other.statusCode).toBe(403);
  });
});

describe('GET /api/admin/staff/roles-privileges/{token}', () => {
  it("answers every role with what it grants (the domain's table) and every privilege with its id", async () => {
    const res = await t.request({ method: 'GET', url: `/api/admin/staff/roles-privileges/${admin}` });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info.roles[0]).toMatchObject({ id: access.roles.get('Admin'), name: 'Admin', agent_scoped: false });
    const marketing = (info.roles as Json[]).find((r) => r.name === 'Marketing')!;
    expect([...marketing.privileges].sort()).toEqual([...ROLE_PRIVILEGES.Marketing].sort());
    expect(marketing.privileges).not.toContain('invoices');
    expect((info.roles as Json[]).find((r) => r.name === 'RDC')!.agent_scoped).toBe(true);
    expect(info.privileges).toContainEqual({
      id: access.privileges.get('invoices'),
      name: 'invoices',
      description: 'invoices',
    });
    expect(info.privileges).toHaveLength(access.privileges.size);
  });
});

describe('deactivate and reactivate', () => {
  it("deactivating ends the account's sessions and refuses its sign-in; reactivating lets it sign in afresh", async () => {
    const email = 'chloe.marketing@example.com';
    const id = ids[email]!;
    const session = await signIn(t, email);
    expect((await validate(session)).statusCode).toBe(200);

    const off = await post(id, 'deactivate');
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().info).toMatchObject({ id, email, active: false, role: 'Marketing' });
    const stopped = await validate(session);
    expect(stopped.statusCode).toBe(403);
    expect(stopped.json().error.code).toBe('session_invalid');
    const refused = await authenticate(email);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error.code).toBe('unauthenticated');
    expect(refused.json().error.message).toBe('Authentication failed: this staff account is not active.');
    // Its sessions are released, not only hidden by the active flag.
    const open = await t.database.query<{ n: number }>(
      `select count(*)::int as n from sessions where staff_user_id = $1 and released_at is null`,
      [id],
    );
    expect(open[0]!.n).toBe(0);
    // Again: answered as it is, nothing written.
    expect((await post(id, 'deactivate')).json().info.active).toBe(false);

    const on = await post(id, 'reactivate');
    expect(on.statusCode).toBe(200);
    expect(on.json().info.active).toBe(true);
    // The old token stays dead; a new sign-in works.
    expect((await validate(session)).statusCode).toBe(403);
    const again = await authenticate(email);
    expect(again.statusCode, again.body).toBe(200);
    expect((await validate(again.json().info.token)).statusCode).toBe(200);

    const audit = await t.database.query<{ action: string; before: Json; after: Json; actor_email: string }>(
      `select action, before, after, actor_email from audit_log
        where entity = 'staff_user' and entity_id = $1 order by id`,
      [String(id)],
    );
    expect(audit).toEqual([
      {
        action: 'deactivate',
        actor_email: 'ada.admin@example.com',
        before: { active: true, email },
        after: { active: false, email, sessions_ended: 1 },
      },
      {
        action: 'reactivate',
        actor_email: 'ada.admin@example.com',
        before: { active: false, email },
        after: { active: true, email, sessions_ended: 0 },
      },
    ]);
  });

  it('an Admin cannot deactivate their own account (409, nothing changed, still signed in)', async () => {
    const res = await post(adminId, 'deactivate');
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'conflict',
      message: 'You cannot deactivate your own account. Another Admin can.',
    });
    expect((await validate(admin)).statusCode).toBe(200);
  });

  it('an unknown id is 404 in the error envelope; a malformed one 400', async () => {
    for (const action of ['deactivate', 'reactivate'] as const) {
      const res = await post(987_654, action);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({ code: 'not_found', message: 'Staff account 987654 was not found.' });
      const bad = await t.request({ method: 'POST', url: `/api/admin/staff/abc/${action}/${admin}` });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.code).toBe('validation_failed');
    }
  });

  it('a staff account outside the configured e-mail domains is listed but cannot sign in', async () => {
    expect(t.app.ctx.config.allowedEmailDomains).not.toContain('elsewhere.test');
    expect(names(await list('?q=outsider'))).toEqual(['Olga Outside']);
    const res = await authenticate('outsider@elsewhere.test');
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe(
      'Authentication failed: addresses of this e-mail domain cannot sign in here.',
    );
  });
});

describe('role and privileges through PUT getIdOrUpdateLoginRolePrivilegeEmail', () => {
  const put = (payload: Json) =>
    t.request({ method: 'PUT', url: `/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/${admin}`, payload });

  it('a granted privilege, a new role and a revoke hold at the next permission check after the next sign-in', async () => {
    const email = 'priya.ar@example.com';
    const before = await signIn(t, email);
    expect((await permission(before, 'invoices,promotions_edit')).json().info.permissions).toEqual({
      invoices: true,
      promotions_edit: false,
    });

    // Grant an extra privilege: the session open at the time ends.
    const granted = await put({ email, login_role_privilege_id: [access.privileges.get('promotions_edit')] });
    expect(granted.statusCode, granted.body).toBe(200);
    expect((await permission(before, 'promotions_edit')).statusCode).toBe(403);
    const next = await signIn(t, email);
    expect((await permission(next, 'promotions_edit')).json().info.permissions).toEqual({ promotions_edit: true });
    const row = (await list('?q=priya')).json().info.items[0];
    expect(row).toMatchObject({ role: 'AR Team', additional_privileges: ['promotions_edit'] });

    // A new role: Marketing has no invoices; the extra privilege stays.
    const moved = await put({ email, role_id: access.roles.get('Marketing') });
    expect(moved.statusCode).toBe(200);
    expect((await validate(next)).statusCode).toBe(403);
    const asMarketing = await signIn(t, email);
    expect((await validate(asMarketing)).json().info.role).toBe('Marketing');
    expect((await permission(asMarketing, 'invoices,promotions_edit')).json().info.permissions).toEqual({
      invoices: false,
      promotions_edit: true,
    });

    // Revoke every extra privilege and give the role back.
    const revoked = await put({ email, role_id: access.roles.get('AR Team'), login_role_privilege_id: [] });
    expect(revoked.statusCode).toBe(200);
    const restored = await signIn(t, email);
    expect((await permission(restored, 'invoices,promotions_edit')).json().info.permissions).toEqual({
      invoices: true,
      promotions_edit: false,
    });
    expect((await list('?q=priya')).json().info.items[0]).toMatchObject({
      role: 'AR Team',
      additional_privileges: [],
    });
    ar = restored;
  });
});
