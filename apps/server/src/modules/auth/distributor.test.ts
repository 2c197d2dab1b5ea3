import { JOB_QUEUE, SIGN_IN_THROTTLE } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createDistributorAccount, createStaffUser, ensureAccessData } from '../../db/factories';
import { startWorkers } from '../../jobs/registry';
import { SignInThrottle } from '../../lib/sign-in-throttle';
import { createTestDatabase } from '../../test/db-template';
import { waitForJob } from '../../test/jobs';
import { signInStaff } from '../../test/sign-in';
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

  /** Try until the throttle lets the caller in (moving the clock past each Retry-After); the answer that got in. */
  async function attemptPastThrottle(email: string, password: string, remoteAddress: string) {
    for (;;) {
      const res = await login(email, password, remoteAddress);
      if (res.statusCode !== 429) return res;
      t.clock.advance(Number(res.headers['retry-after']) * 1000);
    }
  }

  it('throttles with growing delays after 5 failures from one address: 429 with Retry-After, the same for a known and an unknown e-mail', async () => {
    await createDistributorAccount(t.database.db, { email: 'dist.lock@example.com', password: PASSWORD });
    const sides = {
      known: { email: 'dist.lock@example.com', from: '10.0.1.1' },
      unknown: { email: 'nobody.lock@example.com', from: '10.0.1.2' },
    };
    const answers: Record<string, Array<{ status: number; body: unknown; retryAfter: unknown }>> = {};
    const clockAt = t.clock.now();
    for (const [side, { email, from }] of Object.entries(sides)) {
      t.clock.set(clockAt);
      const seen: Array<{ status: number; body: unknown; retryAfter: unknown }> = [];
      const record = async (password: string) => {
        const res = await login(email, password, from);
        seen.push({ status: res.statusCode, body: res.json(), retryAfter: res.headers['retry-after'] });
        return res;
      };
      for (let i = 1; i <= 5; i++) expect((await record(`wrong-password-${i}`)).statusCode).toBe(401);
      // Blocked for 30 s — even the right password is not checked.
      expect((await record(PASSWORD)).statusCode).toBe(429);
      t.clock.advance(30_000);
      expect((await record('wrong-password-6')).statusCode).toBe(401);
      // The next delay doubles: 60 s, then 120 s.
      expect((await record(PASSWORD)).statusCode).toBe(429);
      t.clock.advance(60_000);
      expect((await record('wrong-password-7')).statusCode).toBe(401);
      expect((await record(PASSWORD)).statusCode).toBe(429);
      answers[side] = seen;
    }
    // Status, code, message and Retry-After: the same sequence whether or not an account has the e-mail.
    expect(answers.known).toEqual(answers.unknown);
    expect(answers.known!.map((a) => a.status)).toEqual([401, 401, 401, 401, 401, 429, 401, 429, 401, 429]);
    expect(answers.known![0]!.body).toEqual({
      error: {
        code: 'unauthenticated',
        message: 'Authentication failed: the e-mail address or password is wrong.',
        reason: 'bad_credentials',
      },
    });
    expect(answers.known!.filter((a) => a.status === 429)).toEqual(
      [30, 60, 120].map((seconds) => ({
        status: 429,
        body: {
          error: {
            code: 'rate_limited',
            message: `Too many failed sign-in attempts. Wait ${seconds} seconds and try again, or reset your password.`,
          },
        },
        retryAfter: String(seconds),
      })),
    );
    // Once the delay is over, the right password works and clears the count.
    t.clock.advance(120_000);
    expect((await login('dist.lock@example.com', PASSWORD, '10.0.1.1')).statusCode).toBe(200);
    expect((await login('dist.lock@example.com', 'wrong-password-8', '10.0.1.1')).statusCode).toBe(401);
    const audit = await t.database.query<{ reason: string; n: number }>(
      `select after->>'reason' as reason, count(*)::int as n from audit_log
        where action = 'sign_in_failed' and actor_email in ('dist.lock@example.com', 'nobody.lock@example.com')
        group by 1 order by 1`,
    );
    expect(audit).toEqual([
      { reason: 'bad_password', n: 8 },
      { reason: 'throttled', n: 6 },
      { reason: 'unknown_account', n: 7 },
    ]);
  });

  it('a stranger failing against an account does not lock its owner out: the owner signs in from another address', async () => {
    await createDistributorAccount(t.database.db, { email: 'dist.owner@example.com', password: PASSWORD });
    const stranger = '10.0.2.1';
    // The stranger keeps going, waiting out every delay: 15 failures.
    for (let i = 1; i <= 15; i++)
      expect((await attemptPastThrottle('dist.owner@example.com', `guess-${i}`, stranger)).statusCode).toBe(401);
    const blocked = await login('dist.owner@example.com', PASSWORD, stranger);
    expect(blocked.statusCode).toBe(429);
    // The owner, from their own address, at the same moment: signed in.
    const owner = await login('dist.owner@example.com', PASSWORD, '10.0.2.2');
    expect(owner.statusCode, owner.body).toBe(200);
    // The stranger's address is throttled for every account once it failed SIGN_IN_THROTTLE.clientFailures times.
    for (let i = 16; i <= SIGN_IN_THROTTLE.clientFailures; i++)
      expect((await attemptPastThrottle(`someone-${i}@example.com`, 'guess', stranger)).statusCode).toBe(401);
    expect((await login('another.one@example.com', 'guess', stranger)).statusCode).toBe(429);
    expect((await login('dist.owner@example.com', PASSWORD, '10.0.2.3')).statusCode).toBe(200);
  });

  it('the account alone is throttled only at a high count of failures (from many addresses)', async () => {
    await createDistributorAccount(t.database.db, { email: 'dist.many@example.com', password: PASSWORD });
    const before = t.app.ctx.signInThrottle;
    // The same rule with a small account count, so the test needs a few addresses rather than a hundred.
    t.app.ctx.signInThrottle = new SignInThrottle({ ...SIGN_IN_THROTTLE, accountFailures: 6 });
    try {
      for (let i = 1; i <= 5; i++)
        expect((await login('dist.many@example.com', 'guess', `10.0.3.${i}`)).statusCode).toBe(401);
      expect((await login('dist.many@example.com', PASSWORD, '10.0.3.100')).statusCode).toBe(200);
      expect((await login('dist.many@example.com', 'guess', '10.0.3.6')).statusCode).toBe(401);
      // Six failures from six addresses: now every address waits (30 s), the owner's too.
      const owner = await login('dist.many@example.com', PASSWORD, '10.0.3.100');
      expect(owner.statusCode).toBe(429);
      expect(owner.headers['retry-after']).toBe('30');
      t.clock.advance(30_000);
      expect((await login('dist.many@example.com', PASSWORD, '10.0.3.100')).statusCode).toBe(200);
    } finally {
      t.app.ctx.signInThrottle = before;
    }
  });

  it('refuses an inactive account only after the right password', async () => {
    await createDistributorAccount(t.database.db, { email: 'dist.off@example.com', password: PASSWORD, active: false });
    expect((await login('dist.off@example.com', 'wrong-password-1')).json().error.reason).toBe('bad_credentials');
    expect((await login('dist.off@example.com', PASSWORD)).json().error.reason).toBe('account_inactive');
  });

  describe('password reset', () => {
    let admin: string;
    beforeAll(async () => {
      ({ admin } = await signInStaff(t, { admin: 'Admin' }));
      await startWorkers(t.app.ctx.queue, t.app.ctx, {
        queues: [JOB_QUEUE.distributorPasswordReset],
        pollingIntervalSeconds: 0.5,
      });
    });

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
    /** "Forgot password", then the job it enqueued run to its end (the e-mail is sent by the worker). */
    const forgot = async (email: string) => {
      const res = await t.request({ method: 'POST', url: '/api/auth/distributor/password/forgot', payload: { email } });
      const [enqueued] = await t.database.query<{ entity_id: string }>(
        `select entity_id from audit_log where action = 'enqueue' and entity = $1 order by id desc limit 1`,
        [JOB_QUEUE.distributorPasswordReset],
      );
      const job = await waitForJob(t, admin, enqueued!.entity_id);
      expect(job.state, JSON.stringify(job)).toBe('completed');
      return res;
    };
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

    it('a reset clears the throttle of the account', async () => {
      await createDistributorAccount(t.database.db, { email: 'dist.forgot@example.com', password: PASSWORD });
      for (let i = 1; i <= 5; i++)
        expect((await login('dist.forgot@example.com', `wrong-${i}`, '10.0.4.1')).statusCode).toBe(401);
      expect((await login('dist.forgot@example.com', PASSWORD, '10.0.4.1')).statusCode).toBe(429);
      await forgot('dist.forgot@example.com');
      const token = (await lastMail('dist.forgot@example.com'))!.links[0]!.split('/').pop()!;
      expect((await reset(token, 'Forgot-passphrase-2026')).statusCode).toBe(200);
      expect((await login('dist.forgot@example.com', 'Forgot-passphrase-2026', '10.0.4.1')).statusCode).toBe(200);
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

describe('the same work and the same answer for a known and an unknown e-mail (distributor login, forgot password)', () => {
  let t: TestApp;
  const statements: string[] = [];
  let capturing = false;

  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: (sql) => void (capturing && statements.push(sql)) });
    t = await createTestApp({ database });
    await createDistributorAccount(t.database.db, { email: 'dist.same@example.com', password: PASSWORD });
  });
  afterAll(async () => {
    await t.close();
    await t.database.close();
  });

  /** The answer to one call and every SQL statement it ran. */
  async function traced(url: string, payload: object, remoteAddress: string) {
    statements.length = 0;
    capturing = true;
    const res = await t.request({ method: 'POST', url, payload, remoteAddress });
    capturing = false;
    return { status: res.statusCode, body: res.json() as unknown, statements: [...statements] };
  }

  it("forgot password: the request only enqueues — the same statements, the same answer; the e-mail is the worker's", async () => {
    const url = '/api/auth/distributor/password/forgot';
    // The first call of the process defines the queue: not part of the comparison.
    await traced(url, { email: 'warm.up@example.com' }, '10.0.9.1');
    const known = await traced(url, { email: 'Dist.Same@example.com' }, '10.0.9.2');
    const unknown = await traced(url, { email: 'nobody.same@example.com' }, '10.0.9.3');
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect(unknown.status).toBe(known.status);
    expect(known.statements.length).toBeGreaterThan(0);
    expect(unknown.statements).toEqual(known.statements);
    // Nothing about the account was read or written on the request path: no lookup, no link, no mail yet.
    for (const sql of known.statements) expect(sql).not.toMatch(/distributor_accounts|link_tokens|mail_log/);
    expect(await t.database.query(`select id from mail_log`)).toEqual([]);
    const jobs = await t.database.query<{ email: string }>(
      `select data->'input'->>'email' as email from pgboss.job where name = $1 order by created_on`,
      [JOB_QUEUE.distributorPasswordReset],
    );
    expect(jobs.map((j) => j.email)).toEqual([
      'warm.up@example.com',
      'dist.same@example.com',
      'nobody.same@example.com',
    ]);
  });

  it('login: a wrong password and an unknown e-mail run the same statements and get the same answer', async () => {
    const url = '/api/auth/distributor/login';
    await traced(url, { email: 'warm.up@example.com', password: 'not-it-000' }, '10.0.9.4');
    const wrong = await traced(url, { email: 'dist.same@example.com', password: 'not-the-password-1' }, '10.0.9.5');
    const unknown = await traced(url, { email: 'nobody.same@example.com', password: 'not-the-password-1' }, '10.0.9.6');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.statements).toEqual(wrong.statements);
  });
});
