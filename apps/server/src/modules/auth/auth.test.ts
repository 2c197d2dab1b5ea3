import { MAKE_TOKEN_SESSIONS_PER_KEY, PERMISSIONS, ROLE_PRIVILEGES } from '@pos/domain';
import { generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createDistributorAccount, createStaffUser, ensureAccessData } from '../../db/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { hashToken } from '../../lib/tokens';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

describe('staff sign-in with the local OpenID Connect provider', () => {
  let t: TestApp;
  let issuer: NonNullable<TestApp['app']['ctx']['identity']['local']>;

  beforeAll(async () => {
    t = await createTestApp();
    issuer = t.app.ctx.identity.local!;
    await ensureAccessData(t.database.db);
    await createStaffUser(t.database.db, { email: 'ada.admin@example.com', name: 'Ada Admin', role: 'Admin' });
    await createStaffUser(t.database.db, {
      email: 'ops@example.org',
      role: 'Operations',
      additionalPrivileges: ['receipts'],
    });
    await createStaffUser(t.database.db, { email: 'gone@example.com', role: 'Marketing', active: false });
    await createStaffUser(t.database.db, { email: 'outsider@elsewhere.test', role: 'Admin' });
  });
  afterAll(() => t.close());

  async function signIn(email: string) {
    const idtoken = await issuer.signIdToken({ email });
    const res = await t.request({ method: 'POST', url: '/api/auth/authenticate', payload: { idtoken } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().info as { token: string; role: string; additional_privileges: string[] };
  }

  async function authenticate(idtoken: string) {
    return t.request({ method: 'POST', url: '/api/auth/authenticate', payload: { idtoken } });
  }

  it('signs an active staff user in and answers the session fields of spec §3', async () => {
    const tok = await t.request({
      method: 'POST',
      url: '/api/dev/idtoken',
      payload: { email: 'Ada.Admin@example.com' },
    });
    expect(tok.statusCode).toBe(200);
    const res = await authenticate(tok.json().info.idtoken);
    expect(res.statusCode).toBe(200);
    const info = res.json().info;
    expect(info).toMatchObject({
      portal_name: 'POS Back Office',
      name: 'Ada Admin',
      email: 'ada.admin@example.com',
      role: 'Admin',
      additional_privileges: [],
      agent_id: null,
      account_manager_username: null,
    });
    expect(info.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the SHA-256 of the token is stored.
    const rows = await t.database.query<{ token_hash: string; privileges: string[] }>(
      `select token_hash, privileges from sessions`,
    );
    expect(rows.map((r) => r.token_hash)).toContain(hashToken(info.token));
    expect(JSON.stringify(rows)).not.toContain(info.token);
    const audit = await t.database.query<{ actor_type: string; action: string }>(
      `select actor_type, action from audit_log where action = 'sign_in' and actor_email = 'ada.admin@example.com'`,
    );
    expect(audit).toEqual([{ actor_type: 'staff', action: 'sign_in' }]);
  });

  it('captures role privileges ∪ additional privileges at sign-in', async () => {
    const { token, additional_privileges } = await signIn('ops@example.org');
    expect(additional_privileges).toEqual(['receipts']);
    const res = await t.request({ method: 'GET', url: `/api/auth/validate/${token}` });
    expect(res.json().info.privileges).toEqual([...ROLE_PRIVILEGES.Operations, 'receipts'].sort());
    expect(res.json().info).toMatchObject({
      maketoken: false,
      kind: 'staff',
      role: 'Operations',
      email: 'ops@example.org',
    });
  });

  describe('refuses ID tokens that must not sign anyone in (4xx envelope, never a 500, audited)', () => {
    const now = () => Math.floor(t.clock.now().getTime() / 1000);
    const claims = () => ({
      iss: issuer.issuer,
      aud: issuer.audience,
      sub: 'ada',
      email: 'ada.admin@example.com',
      email_verified: true,
      iat: now(),
      exp: now() + 3600,
    });
    const kid = () => (issuer.jwks().keys[0] as { kid: string }).kid;

    const cases: Array<[string, string, () => Promise<string>]> = [
      [
        'a forged signature (another key, same kid)',
        'bad_signature',
        async () => {
          const { privateKey } = await generateKeyPair('ES256');
          return new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid: kid() }).sign(privateKey);
        },
      ],
      [
        'a key the provider does not publish',
        'unknown_key',
        async () => {
          const { privateKey } = await generateKeyPair('ES256');
          return new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid: 'someone-else' }).sign(privateKey);
        },
      ],
      [
        'an expired token',
        'expired',
        () =>
          issuer.signIdToken(
            { email: 'ada.admin@example.com' },
            { now: new Date(t.clock.now().getTime() - 2 * 3600_000) },
          ),
      ],
      [
        'a token not valid yet',
        'not_yet_valid',
        () =>
          issuer.signIdToken({ email: 'ada.admin@example.com' }, { now: new Date(t.clock.now().getTime() + 600_000) }),
      ],
      [
        'the wrong audience',
        'wrong_audience',
        () => issuer.signIdToken({ email: 'ada.admin@example.com' }, { audience: 'another-app' }),
      ],
      [
        'the wrong issuer',
        'wrong_issuer',
        () => issuer.signIdToken({ email: 'ada.admin@example.com' }, { issuer: 'https://evil.example.net' }),
      ],
      ['alg: none', 'algorithm_not_allowed', async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`],
      [
        'HS256 (signed with a shared secret)',
        'algorithm_not_allowed',
        () =>
          new SignJWT(claims())
            .setProtectedHeader({ alg: 'HS256', kid: kid() })
            .sign(new TextEncoder().encode('x'.repeat(32))),
      ],
      [
        'an unverified e-mail',
        'email_unverified',
        () => issuer.signIdToken({ email: 'ada.admin@example.com', email_verified: false }),
      ],
      [
        'an e-mail outside the allowed domains',
        'domain_not_allowed',
        () => issuer.signIdToken({ email: 'outsider@elsewhere.test' }),
      ],
      ['an inactive staff user', 'user_inactive', () => issuer.signIdToken({ email: 'gone@example.com' })],
      ['an e-mail with no staff user', 'no_staff_user', () => issuer.signIdToken({ email: 'nobody@example.com' })],
      ['garbage', 'malformed', async () => 'not.a.jwt-at-all-but-long-enough'],
    ];

    it.each(cases)('refuses %s', async (_name, reason, make) => {
      const before = await t.database.query<{ n: number }>(
        `select count(*)::int as n from audit_log where action = 'sign_in_failed'`,
      );
      const res = await authenticate(await make());
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: { code: 'unauthenticated', message: expect.stringMatching(/^Authentication failed/), reason },
      });
      const after = await t.database.query<{ n: number; reason: string }>(
        `select count(*)::int as n, max(after->>'reason') filter (where id = (select max(id) from audit_log)) as reason from audit_log where action = 'sign_in_failed'`,
      );
      expect(after[0]!.n).toBe(before[0]!.n + 1);
      expect(after[0]!.reason).toBe(reason);
    });

    it('answers a body without an ID token with 400 validation_failed', async () => {
      const res = await t.request({ method: 'POST', url: '/api/auth/authenticate', payload: {} });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    });
  });

  describe('sessions', () => {
    it('logout really ends the session: the released token gets 403 everywhere', async () => {
      const { token } = await signIn('ada.admin@example.com');
      expect((await t.request({ method: 'GET', url: `/api/auth/validate/${token}` })).statusCode).toBe(200);
      const out = await t.request({ method: 'GET', url: `/api/auth/logout/${token}` });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ info: { released: true } });
      for (const url of [
        `/api/auth/validate/${token}`,
        `/api/auth/logout/${token}`,
        `/api/auth/permission/${token}?privileges=receipts`,
      ]) {
        const res = await t.request({ method: 'GET', url });
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('session_invalid');
      }
    });

    it('expires after the idle time, and activity (bumped at most once a minute) keeps it alive', async () => {
      const { token } = await signIn('ada.admin@example.com');
      const validate = () => t.request({ method: 'GET', url: `/api/auth/validate/${token}` });
      const seen = async () =>
        (
          await t.database.query<{ last_seen_at: Date }>(`select last_seen_at from sessions where token_hash = $1`, [
            hashToken(token),
          ])
        )[0]!.last_seen_at;
      const first = await seen();
      t.clock.advance(30_000);
      await validate();
      expect((await seen()).getTime()).toBe(first.getTime()); // not within the minute
      t.clock.advance(100 * 60_000);
      expect((await validate()).statusCode).toBe(200); // 100.5 min idle < 120
      expect((await seen()).getTime()).toBe(t.clock.now().getTime());
      t.clock.advance(119 * 60_000);
      expect((await validate()).statusCode).toBe(200);
      t.clock.advance(121 * 60_000);
      const res = await validate();
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('session_invalid');
    });

    it('ends at the absolute limit however active the user is', async () => {
      const { token } = await signIn('ada.admin@example.com');
      for (let h = 0; h < 11; h++) {
        t.clock.advance(60 * 60_000);
        expect((await t.request({ method: 'GET', url: `/api/auth/validate/${token}` })).statusCode).toBe(200);
      }
      const res = await t.request({ method: 'GET', url: `/api/auth/validate/${token}` });
      expect(new Date(res.json().info.expires_at).getTime()).toBeLessThanOrEqual(t.clock.now().getTime() + 60 * 60_000);
      t.clock.advance(60 * 60_000);
      expect((await t.request({ method: 'GET', url: `/api/auth/validate/${token}` })).statusCode).toBe(403);
    });

    it('answers 403 for an unknown or malformed token', async () => {
      for (const token of ['x', 'A'.repeat(43)]) {
        const res = await t.request({ method: 'GET', url: `/api/auth/validate/${token}` });
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: { code: 'session_invalid', message: expect.any(String) } });
      }
    });

    it('ends the session of a user who is deactivated', async () => {
      const user = await createStaffUser(t.database.db, { email: 'leaver@example.com', role: 'IS' });
      const { token } = await signIn('leaver@example.com');
      await t.database.query(`update staff_users set active = false where id = $1`, [user.id]);
      expect((await t.request({ method: 'GET', url: `/api/auth/validate/${token}` })).statusCode).toBe(403);
    });
  });

  it('answers the permission map for the named privileges', async () => {
    const { token } = await signIn('ops@example.org');
    const res = await t.request({
      method: 'GET',
      url: `/api/auth/permission/${token}?privileges=search_orders_view,receipts,promotions_edit,no_such_thing`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      info: { permissions: { search_orders_view: true, receipts: true, promotions_edit: false, no_such_thing: false } },
    });
    const admin = await signIn('ada.admin@example.com');
    const all = await t.request({
      method: 'GET',
      url: `/api/auth/permission/${admin.token}?privileges=${PERMISSIONS.join(',')}`,
    });
    expect(Object.values(all.json().info.permissions).every(Boolean)).toBe(true);
    const missing = await t.request({ method: 'GET', url: `/api/auth/permission/${token}` });
    expect(missing.statusCode).toBe(400);
  });

  describe('make-token sessions (integration keys)', () => {
    it('an Admin makes a key; gettoken opens a session flagged maketoken: true', async () => {
      const agent = await createAgent(t.database.db, { type: 'Distributor', name: 'Dana Distributor' });
      const admin = await signIn('ada.admin@example.com');
      const created = await t.request({
        method: 'POST',
        url: `/api/auth/integrationkeys/${admin.token}`,
        payload: { name: 'CRM', agent_id: agent.id },
      });
      expect(created.statusCode).toBe(201);
      const { key, id } = created.json().info;
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const stored = await t.database.query<{ key_hash: string }>(
        `select key_hash from integration_keys where id = $1`,
        [id],
      );
      expect(stored[0]!.key_hash).toBe(hashToken(key));

      const made = await t.request({ method: 'GET', url: `/api/auth/${key}/gettoken` });
      expect(made.statusCode).toBe(200);
      expect(made.json().info).toMatchObject({ maketoken: true, agent_id: agent.id, role: 'Distributor' });
      const v = await t.request({ method: 'GET', url: `/api/auth/validate/${made.json().info.token}` });
      expect(v.json().info).toMatchObject({
        maketoken: true,
        kind: 'maketoken',
        name: 'Dana Distributor',
        agent_id: agent.id,
        privileges: ['create_distributor_orders'],
      });

      const revoked = await t.request({ method: 'DELETE', url: `/api/auth/integrationkeys/${id}/${admin.token}` });
      expect(revoked.statusCode).toBe(200);
      // The key's live session ends with it.
      const after = await t.request({ method: 'GET', url: `/api/auth/validate/${made.json().info.token}` });
      expect(after.statusCode).toBe(403);
      const again = await t.request({ method: 'GET', url: `/api/auth/${key}/gettoken` });
      expect(again.statusCode).toBe(401);
      expect(again.json().error.reason).toBe('unknown_key');
    });

    it('one key holds at most MAKE_TOKEN_SESSIONS_PER_KEY live sessions: the next gettoken releases the oldest', async () => {
      const agent = await createAgent(t.database.db, { type: 'Distributor', name: 'Capped Agent' });
      const admin = await signIn('ada.admin@example.com');
      const mint = async (key: string) => {
        const res = await t.request({ method: 'GET', url: `/api/auth/${key}/gettoken` });
        expect(res.statusCode, res.body).toBe(200);
        return res.json().info.token as string;
      };
      const makeKey = async (name: string) => {
        const res = await t.request({
          method: 'POST',
          url: `/api/auth/integrationkeys/${admin.token}`,
          payload: { name, agent_id: agent.id },
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().info.key as string;
      };
      const valid = async (token: string) =>
        (await t.request({ method: 'GET', url: `/api/auth/validate/${token}` })).statusCode;
      const key = await makeKey('Capped CRM');
      const other = await mint(await makeKey('Other CRM'));
      const tokens: string[] = [];
      for (let i = 0; i < MAKE_TOKEN_SESSIONS_PER_KEY; i++) {
        tokens.push(await mint(key));
        t.clock.advance(1000);
      }
      for (const token of tokens) expect(await valid(token)).toBe(200);

      // One more: the oldest is released, the other 19 and the new one live; another key's session is untouched.
      const newest = await mint(key);
      expect(await valid(tokens[0]!)).toBe(403);
      for (const token of [...tokens.slice(1), newest, other]) expect(await valid(token)).toBe(200);
      const live = await t.database.query<{ n: number }>(
        `select count(*)::int as n from sessions s join integration_keys k on k.id = s.integration_key_id
          where k.name = 'Capped CRM' and s.released_at is null and s.expires_at > $1`,
        [t.clock.now()],
      );
      expect(live[0]!.n).toBe(MAKE_TOKEN_SESSIONS_PER_KEY);
      const [audit] = await t.database.query<{ after: { released_session_ids?: number[] } }>(
        `select after from audit_log where action = 'sign_in' and after->>'kind' = 'maketoken' order by id desc limit 1`,
      );
      expect(audit!.after.released_session_ids).toHaveLength(1);

      // And again: always the oldest still live goes.
      await mint(key);
      expect(await valid(tokens[1]!)).toBe(403);
      expect(await valid(tokens[2]!)).toBe(200);
    });

    it('only an Admin makes keys', async () => {
      const ops = await signIn('ops@example.org');
      const res = await t.request({
        method: 'POST',
        url: `/api/auth/integrationkeys/${ops.token}`,
        payload: { name: 'x', agent_id: 1 },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    });

    it('refuses an unknown key with 401', async () => {
      const res = await t.request({ method: 'GET', url: `/api/auth/${'k'.repeat(43)}/gettoken` });
      expect(res.statusCode).toBe(401);
    });
  });

  describe('getIdOrUpdateLoginRolePrivilegeEmail', () => {
    it('looks a user up; an Admin changes role and additional privileges, audited with before and after', async () => {
      const user = await createStaffUser(t.database.db, { email: 'mover@example.com', role: 'IS' });
      const moverSession = await signIn('mover@example.com');
      const own = await t.request({
        method: 'PUT',
        url: `/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/${moverSession.token}`,
        payload: { email: 'MOVER@example.com' },
      });
      expect(own.statusCode).toBe(200);
      expect(own.json().info).toMatchObject({ id: user.id, role: 'IS', additional_privileges: [] });
      const other = await t.request({
        method: 'PUT',
        url: `/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/${moverSession.token}`,
        payload: { email: 'ops@example.org' },
      });
      expect(other.statusCode).toBe(403);
      const selfPromote = await t.request({
        method: 'PUT',
        url: `/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/${moverSession.token}`,
        payload: { email: 'mover@example.com', role_id: 1, login_role_privilege_id: [1] },
      });
      expect(selfPromote.statusCode).toBe(403);

      const access = await ensureAccessData(t.database.db);
      const admin = await signIn('ada.admin@example.com');
      const res = await t.request({
        method: 'PUT',
        url: `/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/${admin.token}`,
        payload: {
          email: 'mover@example.com',
          role_id: access.roles.get('Marketing'),
          login_role_privilege_id: [access.privileges.get('receipts')],
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().info).toMatchObject({ role: 'Marketing', additional_privileges: ['receipts'] });
      expect(res.json().info.privileges).toEqual([...ROLE_PRIVILEGES.Marketing, 'receipts'].sort());
      const audit = await t.database.query<{ before: unknown; after: unknown; actor_email: string }>(
        `select before, after, actor_email from audit_log where action = 'update_role_privileges' and entity_id = $1`,
        [String(user.id)],
      );
      expect(audit).toEqual([
        {
          actor_email: 'ada.admin@example.com',
          before: { role_id: access.roles.get('IS'), role: 'IS', additional_privileges: [] },
          after: { role_id: access.roles.get('Marketing'), role: 'Marketing', additional_privileges: ['receipts'] },
        },
      ]);
      // The user's sessions end so the next sign-in captures the new privileges.
      expect((await t.request({ method: 'GET', url: `/api/auth/validate/${moverSession.token}` })).statusCode).toBe(
        403,
      );

      const bad = await t.request({
        method: 'PUT',
        url: `/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/${admin.token}`,
        payload: { email: 'mover@example.com', role_id: 99999 },
      });
      expect(bad.statusCode).toBe(400);
      const unknown = await t.request({
        method: 'PUT',
        url: `/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/${admin.token}`,
        payload: { email: 'who@example.com' },
      });
      expect(unknown.statusCode).toBe(404);
    });
  });

  it('checkemail compares the agent e-mail lower-cased', async () => {
    const agent = await createAgent(t.database.db, { email: 'Mixed.Case@Example.com' });
    const { token } = await signIn('ada.admin@example.com');
    const hit = await t.request({
      method: 'POST',
      url: `/api/customers/agents/checkemail/${token}`,
      payload: { email: 'MIXED.case@example.COM' },
    });
    expect(hit.json()).toEqual({ info: { exists: true, agent_id: agent.id } });
    const miss = await t.request({
      method: 'POST',
      url: `/api/customers/agents/checkemail/${token}`,
      payload: { email: 'none@example.com' },
    });
    expect(miss.json()).toEqual({ info: { exists: false, agent_id: null } });
  });

  it('checkemail answers agent editors only (Admin, RAM, IS); any other session, a distributor too, 403 forbidden', async () => {
    const agent = await createAgent(t.database.db, { email: 'editors.only@example.com' });
    await createStaffUser(t.database.db, { email: 'ram.editor@example.org', role: 'RAM' });
    await createStaffUser(t.database.db, { email: 'is.editor@example.org', role: 'IS' });
    await createStaffUser(t.database.db, { email: 'ar.reader@example.org', role: 'AR Team' });
    await createDistributorAccount(t.database.db, { email: 'dist.check@example.com', password: 'Dist-check-2026!' });
    const distributor = await t.request({
      method: 'POST',
      url: '/api/auth/distributor/login',
      payload: { email: 'dist.check@example.com', password: 'Dist-check-2026!' },
    });
    expect(distributor.statusCode, distributor.body).toBe(200);
    const check = (token: string, payload: object = { email: 'editors.only@example.com' }) =>
      t.request({ method: 'POST', url: `/api/customers/agents/checkemail/${token}`, payload });

    for (const email of ['ada.admin@example.com', 'ram.editor@example.org', 'is.editor@example.org']) {
      const res = await check((await signIn(email)).token);
      expect(res.statusCode, `${email}: ${res.body}`).toBe(200);
      expect(res.json()).toEqual({ info: { exists: true, agent_id: agent.id } });
    }
    const refused = [
      (await signIn('ops@example.org')).token,
      (await signIn('ar.reader@example.org')).token,
      distributor.json().info.token as string,
    ];
    for (const token of refused) {
      for (const payload of [{ email: 'editors.only@example.com' }, { email: 'nobody@example.com' }, {}]) {
        const res = await check(token, payload);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().error.code).toBe('forbidden');
        expect(res.body).not.toContain(String(agent.id));
      }
    }
  });

  describe('the local provider', () => {
    it('publishes discovery and keys, and /api/auth/config names it with the demo accounts', async () => {
      const discovery = (await t.request({ method: 'GET', url: '/.well-known/openid-configuration' })).json();
      expect(discovery).toMatchObject({
        issuer: 'http://localhost:3000',
        jwks_uri: 'http://localhost:3000/oidc/jwks.json',
        id_token_signing_alg_values_supported: ['ES256'],
      });
      const jwks = (await t.request({ method: 'GET', url: '/oidc/jwks.json' })).json();
      expect(jwks.keys).toHaveLength(1);
      expect(jwks.keys[0]).not.toHaveProperty('d'); // never the private part
      const config = (await t.request({ method: 'GET', url: '/api/auth/config' })).json().info;
      expect(config).toMatchObject({
        provider: 'local',
        clientId: 'pos-backoffice-local',
        authorizeUrl: '/oidc/authorize',
      });
      expect(config.accounts).toContainEqual({ email: 'ada.admin@example.com', name: 'Ada Admin', role: 'Admin' });
      const offered = config.accounts.map((a: { email: string }) => a.email);
      expect(offered).not.toContain('gone@example.com');
      expect(offered).not.toContain('outsider@elsewhere.test');
    });

    it('the chooser lists active staff as buttons and redirects back with an ID token that signs in', async () => {
      const page = await t.request({
        method: 'GET',
        url: '/oidc/authorize?redirect_uri=%2F%23%2Flogin&nonce=n1&state=s1',
      });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain(
        '<button type="submit" name="login_hint" value="ada.admin@example.com">Sign in as Ada Admin (ada.admin@example.com)</button>',
      );
      expect(page.body).not.toContain('gone@example.com');

      const chosen = await t.request({
        method: 'GET',
        url: '/oidc/authorize?redirect_uri=%2F%23%2Flogin&nonce=n1&state=s1&login_hint=ada.admin%40example.com',
      });
      expect(chosen.statusCode).toBe(303);
      const location = chosen.headers.location as string;
      expect(location).toMatch(/^\/#\/login\?id_token=[^&]+&state=s1$/);
      const idtoken = new URLSearchParams(location.split('?')[1]).get('id_token')!;
      const payload = JSON.parse(Buffer.from(idtoken.split('.')[1]!, 'base64url').toString());
      expect(payload).toMatchObject({ nonce: 'n1', email: 'ada.admin@example.com', name: 'Ada Admin' });
      expect((await authenticate(idtoken)).statusCode).toBe(200);
      // The web app's redirect_uri is `${origin}/`: the ID token then arrives in a request line, never logged.
      t.logs.length = 0;
      await t.request({ method: 'GET', url: `/?id_token=${idtoken}&state=s1` });
      expect(JSON.stringify(t.logs)).not.toContain(idtoken.split('.')[1]);
    });

    it('redirects only to this application', async () => {
      for (const uri of ['https://evil.example.net/#/login', '//evil.example.net/x', 'javascript:alert(1)']) {
        const res = await t.request({
          method: 'GET',
          url: `/oidc/authorize?redirect_uri=${encodeURIComponent(uri)}&login_hint=ada.admin%40example.com`,
        });
        expect(res.statusCode).toBe(400);
        expect(res.headers.location).toBeUndefined();
      }
      const own = await t.request({
        method: 'GET',
        url: `/oidc/authorize?redirect_uri=${encodeURIComponent('http://localhost:3000/#/login')}&login_hint=ada.admin%40example.com`,
      });
      expect(own.statusCode).toBe(303);
    });
  });
});
