import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

async function until<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('admin: Mailbox and job monitor', () => {
  let t: TestApp;
  let admin: string;
  let viewer: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ admin, viewer } = await signInStaff(t, { admin: 'Admin', viewer: 'Customer Support' }));
    await t.app.ctx.mail.send({
      to: 'merchant@shop.example.com',
      subject: 'Update your payment method',
      html: '<p>Use <a href="http://localhost/#/customer/payment/abc">this link</a></p>',
      text: 'Use http://localhost/#/customer/payment/abc',
      template: 'payment_update_link',
      links: ['http://localhost/#/customer/payment/abc'],
    });
    await t.app.ctx.queue.start();
  });
  afterAll(() => t.close());

  it('lists stored messages newest first and shows one with its HTML and links', async () => {
    const list = await t.request({ method: 'GET', url: `/api/admin/mail/${admin}?to=merchant` });
    expect(list.statusCode).toBe(200);
    const { items, total } = list.json().info;
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({
      to: 'merchant@shop.example.com',
      template: 'payment_update_link',
      status: 'stored',
      links: ['http://localhost/#/customer/payment/abc'],
    });
    const one = await t.request({ method: 'GET', url: `/api/admin/mail/${items[0].id}/${admin}` });
    expect(one.json().info.html).toContain('this link');
    expect((await t.request({ method: 'GET', url: `/api/admin/mail/999999/${admin}` })).statusCode).toBe(404);
  });

  it('is for admins only: another role gets 403 forbidden, a bad token 403 session_invalid', async () => {
    const other = await t.request({ method: 'GET', url: `/api/admin/mail/${viewer}` });
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe('forbidden');
    const bad = await t.request({ method: 'GET', url: '/api/admin/jobs/not-a-real-session-token-0000000000' });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().error.code).toBe('session_invalid');
  });

  it('shows a failed job with its error, retries it, and cancels a waiting one', async () => {
    const q = t.app.ctx.queue;
    await q.define({ name: 'admin-test-fail', retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 });
    let fail = true;
    await q.work(
      'admin-test-fail',
      async () => {
        if (fail) throw new Error('processor said no');
        return { ok: true };
      },
      { pollingIntervalSeconds: 0.5 },
    );
    const id = (await q.send('admin-test-fail', { store: 5 }))!;
    await until(async () => (await q.getJob('admin-test-fail', id))?.state === 'failed');

    const list = await t.request({ method: 'GET', url: `/api/admin/jobs/${admin}?queue=admin-test-fail&state=failed` });
    expect(list.statusCode).toBe(200);
    const info = list.json().info;
    expect(info.items).toHaveLength(1);
    expect(info.items[0]).toMatchObject({
      id,
      queue: 'admin-test-fail',
      state: 'failed',
      dead_lettered: true,
      data: { store: 5 },
    });
    expect(JSON.stringify(info.items[0].output)).toContain('processor said no');
    expect(info.queues.find((x: { queue: string }) => x.queue === 'admin-test-fail').counts.failed).toBe(1);

    fail = false;
    const retried = await t.request({ method: 'POST', url: `/api/admin/jobs/admin-test-fail/${id}/retry/${admin}` });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().info.state).toBe('retry');
    await until(async () => (await q.getJob('admin-test-fail', id))?.state === 'completed');

    const again = await t.request({ method: 'POST', url: `/api/admin/jobs/admin-test-fail/${id}/retry/${admin}` });
    expect(again.statusCode).toBe(409);

    await q.define({ name: 'admin-test-idle', retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 });
    const waiting = (await q.send('admin-test-idle', {}, { startAfter: 3600 }))!;
    const cancelled = await t.request({
      method: 'POST',
      url: `/api/admin/jobs/admin-test-idle/${waiting}/cancel/${admin}`,
    });
    expect(cancelled.json().info.state).toBe('cancelled');
    const forbidden = await t.request({
      method: 'POST',
      url: `/api/admin/jobs/admin-test-idle/${waiting}/cancel/${viewer}`,
    });
    expect(forbidden.statusCode).toBe(403);
  }, 40_000);

  it('runs a scheduled job now: the payment sweep is queued and shows in the monitor; other queues are refused', async () => {
    const run = await t.request({ method: 'POST', url: `/api/admin/jobs/payments-sweep/run/${admin}` });
    expect(run.statusCode, run.body).toBe(200);
    const info = run.json().info;
    expect(info).toMatchObject({
      queue: 'payments-sweep',
      message:
        'Payment sweep (pending charges, holds, retries, auto-pay) is queued; it shows in the list below when it has run.',
    });
    const job = await t.request({ method: 'GET', url: `/api/jobs/${info.job_id}/${admin}` });
    expect(job.statusCode, job.body).toBe(200);
    expect(job.json().info.queue).toBe('payments-sweep');
    // Not a scheduled job that may be run now (the billing run has its own screen): 400 naming the queue.
    const billing = await t.request({ method: 'POST', url: `/api/admin/jobs/billing-run/run/${admin}` });
    expect(billing.statusCode).toBe(400);
    expect(Object.keys(billing.json().error.fields)).toEqual(['queue']);
    expect((await t.request({ method: 'POST', url: `/api/admin/jobs/payments-sweep/run/${viewer}` })).statusCode).toBe(
      403,
    );
  });
});
