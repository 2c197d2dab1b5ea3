import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createDistributorAccount, createStaffUser, ensureAccessData } from '../../db/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

const PASSWORD = 'distributor-demo';

describe('distributor login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await ensureAccessData(t.database.db);
  });
  afterAll(() => t.close());

  const login = (email: string, password: string, remoteAddress = '10.0.0.1') =>
    t.request({ method: 'POST', url: '/api/auth/distributor/login', payload: { email, password }, remoteAddress });

  it('signs a distributor in with the fields of spec §3, and the session works', async () => {
    const agent = await createAgent(t.database.db, { type: 'Distributor' });
    await createDistributorAccount(t.database.db, {
      email: 'dist.one@example.com',
      name: 'Dist One',
      agentId: agent.id,
      password: PASSWORD,
      accountManagerUsername: 'amy',
    });
    const res = await login('DIST.ONE@example.com', PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json().info).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      name: 'Dist One',
      email: 'dist.one@example.com',
      agent_id: agent.id,
      account_manager_username: 'amy',
      role: 'Distributor',
      additional_privileges: [],
    });
    const v = await t.request({ method: 'GET', url: `/api/auth/validate/${res.json().info.token}` });
    expect(v.json().info).toMatchObject({
      kind: 'distributor',
      maketoken: false,
      privileges: ['create_distributor_orders'],
    });
  });

  it('refuses a wrong password and an unknown e-mail alike (401, audited)', async () => {
    await createDistributorAccount(t.database.db, { email: 'dist.two@example.com', password: PASSWORD });
    const wrong = await login('dist.two@example.com', 'not-the-password1');
    const unknown = await login('nobody@example.com', PASSWORD);
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        error: {
          code: 'unauthenticated',
          message: 'Authentication failed: the e-mail address or password is wrong.',
          reason: 'bad_credentials',
        },
      });
    }
    const audit = await t.database.query<{ actor_type: string; reason: string }>(
      `select actor_type, after->>'reason' as reason from audit_log where action = 'sign_in_failed' order by id`,
    );
    expect(audit).toEqual([
      { actor_type: 'distributor', reason: 'bad_password' },
      { actor_type: 'anonymous', reason: 'unknown_account' },
    ]);
  });

  it('locks the account for 15 minutes after 5 failures in a row, even for the right password', async () => {
    await createDistributorAccount(t.database.db, { email: 'dist.lock@example.com', password: PASSWORD });
    for (let i = 1; i <= 4; i++)
      expect((await login('dist.lock@example.com', `wrong-password-${i}`)).json().error.reason).toBe('bad_credentials');
    const fifth = await login('dist.lock@example.com', 'wrong-password-5');
    expect(fifth.statusCode).toBe(401);
    expect(fifth.json().error).toMatchObject({
      reason: 'locked',
      locked_until: new Date(t.clock.now().getTime() + 15 * 60_000).toISOString(),
    });
    const right = await login('dist.lock@example.com', PASSWORD);
    expect(right.statusCode).toBe(401);
    expect(right.json().error.reason).toBe('locked');
    t.clock.advance(15 * 60_000 + 1);
    const later = await login('dist.lock@example.com', PASSWORD);
    expect(later.statusCode).toBe(200);
    const [row] = await t.database.query<{ failed_attempts: number; locked_until: Date | null }>(
      `select failed_attempts, locked_until from distributor_accounts where email = 'dist.lock@example.com'`,
    );
    expect(row).toEqual({ failed_attempts: 0, locked_until: null });
  });

  it('refuses an inactive account only after the right password', async () => {
    await createDistributorAccount(t.database.db, { email: 'dist.off@example.com', password: PASSWORD, active: false });
    expect((await login('dist.off@example.com', 'wrong-password-1')).json().error.reason).toBe('bad_credentials');
    expect((await login('dist.off@example.com', PASSWORD)).json().error.reason).toBe('account_inactive');
  });

  describe('password reset', () => {
    async function lastMail(to: string) {
      const rows = await t.database.query<{
        subject: string;
        text: string;
        links: string[];
        status: string;
        template: string;
      }>(`select subject, text, links, status, template from mail_log where "to" = $1 order by id desc limit 1`, [to]);
      return rows[0];
    }
    const forgot = (email: string) =>
      t.request({ method: 'POST', url: '/api/auth/distributor/password/forgot', payload: { email } });
    const reset = (token: string, password: string) =>
      t.request({ method: 'POST', url: '/api/auth/distributor/password/reset', payload: { token, password } });

    it('e-mails a single-use link, sets the new password and ends every session of the distributor', async () => {
      await createDistributorAccount(t.database.db, { email: 'dist.reset@example.com', password: PASSWORD });
      const session = (await login('dist.reset@example.com', PASSWORD)).json().info.token as string;

      const res = await forgot('Dist.Reset@example.com');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ info: { sent: true } });
      const mail = await lastMail('dist.reset@example.com');
      expect(mail).toMatchObject({ status: 'stored', template: 'distributor_password_reset' });
      const link = mail!.links[0]!;
      expect(link).toMatch(/^http:\/\/localhost:3000\/#\/distributor\/passsword\/reset\/[A-Za-z0-9_-]{43}$/);
      expect(mail!.text).toContain(link);
      const token = link.split('/').pop()!;
      // Only the hash of the link token is stored.
      expect(JSON.stringify(await t.database.query(`select * from link_tokens`))).not.toContain(token);

      const weak = await reset(token, 'short1');
      expect(weak.statusCode).toBe(400);
      expect(weak.json().error.fields.password).toMatch(/at least 12/);
      const containsEmail = await reset(token, 'dist.reset-2026-x');
      expect(containsEmail.statusCode).toBe(400);
      expect(containsEmail.json().error.fields.password).toMatch(/e-mail/);

      const ok = await reset(token, 'New-passphrase-2026');
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ info: { reset: true } });
      expect((await t.request({ method: 'GET', url: `/api/auth/validate/${session}` })).statusCode).toBe(403);
      expect((await login('dist.reset@example.com', PASSWORD)).statusCode).toBe(401);
      expect((await login('dist.reset@example.com', 'New-passphrase-2026')).statusCode).toBe(200);

      const again = await reset(token, 'Another-passphrase-2026');
      expect(again.statusCode).toBe(400);
      expect(again.json().error.fields.token).toMatch(/not valid any more/);
      const audit = await t.database.query(
        `select action from audit_log where entity = 'distributor_account' order by id`,
      );
      expect(audit.map((a) => a.action)).toEqual(['password_reset_requested', 'password_reset']);
    });

    it('a link expires after an hour, and a newer link replaces an older one', async () => {
      await createDistributorAccount(t.database.db, { email: 'dist.slow@example.com', password: PASSWORD });
      await forgot('dist.slow@example.com');
      const first = (await lastMail('dist.slow@example.com'))!.links[0]!.split('/').pop()!;
      await forgot('dist.slow@example.com');
      const second = (await lastMail('dist.slow@example.com'))!.links[0]!.split('/').pop()!;
      expect((await reset(first, 'New-passphrase-2026')).statusCode).toBe(400);
      t.clock.advance(60 * 60_000 + 1);
      expect((await reset(second, 'New-passphrase-2026')).statusCode).toBe(400);
    });

    it('answers the same for an unknown e-mail and sends nothing', async () => {
      const res = await forgot('ghost@example.com');
      expect(res.json()).toEqual({ info: { sent: true } });
      expect(await lastMail('ghost@example.com')).toBeUndefined();
    });
  });
});

describe('rate limits on sign-in', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { signInRateLimitPerMinute: 3 } });
    await createStaffUser(t.database.db, { email: 'rl@example.com' });
  });
  afterAll(() => t.close());

  it('answers 429 with the error envelope after the limit, per client address and route', async () => {
    const attempt = (url: string, payload: object, remoteAddress: string) =>
      t.request({ method: 'POST', url, payload, remoteAddress });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(
        (await attempt('/api/auth/distributor/login', { email: 'x@example.com', password: 'y' }, '10.1.1.1'))
          .statusCode,
      );
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const limited = await attempt('/api/auth/distributor/login', { email: 'x@example.com', password: 'y' }, '10.1.1.1');
    expect(limited.json()).toEqual({
      error: { code: 'rate_limited', message: expect.stringMatching(/^Too many attempts/) },
    });
    expect(limited.headers['retry-after']).toBeDefined();
    // Another address is not affected.
    expect(
      (await attempt('/api/auth/distributor/login', { email: 'x@example.com', password: 'y' }, '10.1.1.2')).statusCode,
    ).toBe(401);

    const signIn: number[] = [];
    for (let i = 0; i < 4; i++)
      signIn.push((await attempt('/api/auth/authenticate', { idtoken: 'x'.repeat(30) }, '10.1.1.3')).statusCode);
    expect(signIn).toEqual([401, 401, 401, 429]);
  });
});
