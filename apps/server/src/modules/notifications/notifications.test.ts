import { JOB_QUEUE } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createBillingItem,
  createCustomerBillingItem,
  createDomainData,
  createInvoice,
  createPaymentInstrument,
  createOrder,
  createPaymentPlan,
  createStatusReason,
  createStore,
  createStoreEmail,
  createTerminal,
  createTransaction,
  ensureAccessData,
} from '../../db/factories';
import {
  agentOrders,
  customerPaymentPlans,
  linkTokens,
  orders,
  orderStatusHistory,
  stores,
  terminals,
} from '../../db/schema';
import { startWorkers } from '../../jobs/registry';
import { waitForJob } from '../../test/jobs';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { hashToken } from '../../lib/tokens';

const UNKNOWN_TOKEN = 'Q'.repeat(43);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const US_ADDRESS = { address1: '12 Congress Ave', city: 'Austin', state: 'TX', zip: '73301', country: 'US' };

/** Every queue call: its path for a token, and a body that fails its contract (with a field the 400 names). */
const CALLS: Array<{ name: string; url: (token: string) => string; badBody: unknown; badField: string }> = [
  {
    name: 'transactions',
    url: (k) => `/api/customers/transactions/sns/${k}`,
    badBody: { customer_id: 1, transaction_ids: [], action: 'reprocess' },
    badField: 'transaction_ids',
  },
  {
    name: 'retirecustomerterminals',
    url: (k) => `/api/customers/retirecustomerterminals/sns/${k}`,
    badBody: { elmer_ids: ['1'] },
    badField: 'reason_id',
  },
  {
    name: 'customerpaymentplans',
    url: (k) => `/api/customers/customerpaymentplans/sns/${k}`,
    badBody: { plans: [{ customerplanid: 1, licenseExpiresOn: '31/12/2027' }] },
    badField: 'plans.0.licenseExpiresOn',
  },
  {
    name: 'customerpaymentplans/recurring',
    url: (k) => `/api/customers/customerpaymentplans/recurring/sns/${k}`,
    badBody: { plans: [{ customerplanid: 1, recurringAmount: { cents: 10.5, currency: 'USD' } }] },
    badField: 'plans.0.recurringAmount.cents',
  },
  {
    name: 'invoices/collect/due',
    url: (k) => `/api/customers/invoices/collect/due/sns/${k}`,
    badBody: { customer_id: 'abc' },
    badField: 'customer_id',
  },
  {
    name: 'paymentcollection',
    url: (k) => `/api/customers/paymentcollection/sns/${k}`,
    badBody: { customer_id: 1, invoice_ids: [1], amount: { cents: 0, currency: 'USD' } },
    badField: 'amount.cents',
  },
  {
    name: 'storeinfo',
    url: (k) => `/api/storeinfo/sns/${k}`,
    badBody: { storeid: 1, version: 1, changes: {} },
    badField: 'changes',
  },
  {
    name: 'notifications/updatepayment',
    url: (k) => `/api/customers/notifications/updatepayment/${k}`,
    badBody: { elmer_id: '' },
    badField: 'elmer_id',
  },
  {
    name: 'paymentinstruments/add',
    url: (k) => `/api/customers/paymentinstruments/add/${k}`,
    badBody: { customer_id: 1, kind: 'card', creditCardNumber: '4111111111111111' },
    badField: 'creditCardNumber',
  },
  {
    name: 'pos/feature/modify/email',
    url: (k) => `/api/pos/feature/modify/email/${k}`,
    badBody: { storeid: 1, features: [{ billingitemid: 1, action: 'toggle' }] },
    badField: 'features.0.action',
  },
  {
    name: 'stores/…/pushlicense',
    url: (k) => `/api/customers/stores/${k}/1/pushlicense`,
    badBody: { force: true },
    badField: 'body',
  },
  {
    name: 'orderinfo/status',
    url: (k) => `/api/orderinfo/status/sns/${k}`,
    badBody: { orderInfoId: 1, status: '99', action: 'submit' },
    badField: 'status',
  },
  {
    name: 'orderinfo/agentswitch',
    url: (k) => `/api/orderinfo/agentswitch/sns/${k}`,
    badBody: { orderInfoIds: [1, 1], agent_id: 1 },
    badField: 'orderInfoIds',
  },
  {
    name: 'zoho/accessoriesorder',
    url: (k) => `/api/zoho/accessoriesorder/${k}`,
    badBody: { storeid: 1, features: [] },
    badField: 'features',
  },
  {
    name: 'zoho/storemidvalidate',
    url: (k) => `/api/zoho/storemidvalidate/${k}`,
    badBody: { mid: '800000001234' },
    badField: 'MID',
  },
];

describe('queue and notification calls (spec §7): validate, record, enqueue, 202 — and the workers do the work', () => {
  let t: TestApp;
  let admin: string;
  let ops: string;
  let marketing: string;
  let service: string;

  beforeAll(async () => {
    t = await createTestApp();
    await ensureAccessData(t.database.db);
    ({ admin, ops, marketing, service } = await signInStaff(t, {
      admin: { role: 'Admin', email: 'ada.admin@example.com' },
      ops: 'Operations',
      marketing: 'Marketing',
      service: 'Customer Service',
    }));
    // Really run the queue: this process's workers, woken by each call.
    await startWorkers(t.app.ctx.queue, t.app.ctx, { pollingIntervalSeconds: 0.5 });
  }, 90_000);
  afterAll(() => t.close());

  const post = (url: string, payload?: unknown) =>
    t.request({
      method: 'POST',
      url,
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  /** POST, expect 202 {info:{jobId}}, wait for the worker, expect it completed; return the job. */
  async function run(url: string, payload?: unknown) {
    const res = await post(url, payload);
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json().info as { jobId: string };
    expect(jobId).toMatch(UUID);
    const job = await waitForJob(t, admin, jobId);
    expect(job.state, JSON.stringify(job)).toBe('completed');
    return job;
  }

  /** The job's audit rows in order (the enqueue entry, the worker's entries, the done mark): action and customer_id. */
  async function jobAuditCustomers(jobId: string) {
    return t.database.query<{ action: string; customer_id: number | null }>(
      `select action, customer_id from audit_log where entity_id = $1 or request_id::text = $1 order by id`,
      [jobId],
    );
  }

  async function enqueueAudit(jobId: string) {
    return t.database.query<{
      actor_type: string;
      actor_email: string;
      action: string;
      entity: string;
      after: unknown;
    }>(
      `select actor_type, actor_email, action, entity, after from audit_log where entity_id = $1 and action = 'enqueue'`,
      [jobId],
    );
  }

  it('every queue call is in the OpenAPI document with its 202 answer', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, { post?: { responses: Record<string, unknown> } }>;
    };
    for (const call of CALLS) {
      const path = call.url('{token}').replace('/1/pushlicense', '/{storeId}/pushlicense');
      expect(doc.paths[path]?.post?.responses, path).toHaveProperty('202');
    }
    expect(doc.paths['/api/jobs/{jobId}/{token}']).toBeDefined();
  });

  describe.each(CALLS)('$name', ({ url, badBody, badField }) => {
    it('answers 403 session_invalid for an unknown token', async () => {
      const res = await post(url(UNKNOWN_TOKEN), badBody);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('session_invalid');
    });

    it('answers 400 with the field for a body that breaks the contract, and enqueues nothing', async () => {
      const before = await t.database.query<{ n: number }>(
        `select count(*)::int as n from audit_log where action = 'enqueue'`,
      );
      const res = await post(url(admin), badBody);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(Object.keys(res.json().error.fields)).toContain(badField);
      const after = await t.database.query<{ n: number }>(
        `select count(*)::int as n from audit_log where action = 'enqueue'`,
      );
      expect(after[0]!.n).toBe(before[0]!.n);
    });

    it('answers 403 forbidden to a role without the privilege (Marketing)', async () => {
      const res = await post(url(marketing), badBody);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    });
  });

  it.each([
    ['retire terminals', '/api/customers/retirecustomerterminals/sns'],
    ['payment plan changes', '/api/customers/customerpaymentplans/sns'],
    ['recurring amounts', '/api/customers/customerpaymentplans/recurring/sns'],
    ['store info', '/api/storeinfo/sns'],
    ['payment-update link', '/api/customers/notifications/updatepayment'],
    ['collection', '/api/customers/invoices/collect/due/sns'],
  ])('a view-only user (Operations: customer_details_view) cannot ask for %s (403)', async (_what, path) => {
    const res = await post(`${path}/${ops}`, {});
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('forbidden');
    expect(res.json().error.message).toMatch(/needs one of these privileges/);
  });

  it('retirecustomerterminals: retires each terminal with the reason; an already-retired one is left alone; audited', async () => {
    const store = await createStore(t.database.db);
    const active = await createTerminal(t.database.db, { storeId: store.id });
    const old = await createTerminal(t.database.db, { storeId: store.id, status: 'retired' });
    const reason = await createDomainData(t.database.db, {
      type: 'retire_reason',
      code: 'merchant_closed',
      label: 'Merchant closed',
    });
    const body = { elmer_ids: [active.elmerId, old.elmerId], reason_id: reason.id, note: 'Closed for good' };

    const job = await run(`/api/customers/retirecustomerterminals/sns/${admin}`, body);
    expect(job.queue).toBe(JOB_QUEUE.retireTerminals);
    expect(job.output).toEqual({ retired: [active.elmerId], alreadyRetired: [old.elmerId], reason: 'merchant_closed' });

    const [a] = await t.database.db.select().from(terminals).where(eq(terminals.id, active.id));
    expect(a).toMatchObject({ status: 'retired', retireReasonId: reason.id, version: active.version + 1 });
    expect(a!.retiredAt?.toISOString()).toBe(t.clock.now().toISOString());
    const [o] = await t.database.db.select().from(terminals).where(eq(terminals.id, old.id));
    expect(o).toMatchObject({ status: 'retired', retireReasonId: old.retireReasonId, version: old.version });

    expect(await enqueueAudit(job.id)).toEqual([
      {
        actor_type: 'staff',
        actor_email: 'ada.admin@example.com',
        action: 'enqueue',
        entity: 'retire-terminals',
        after: body,
      },
    ]);
    const retire = await t.database.query<{
      actor_type: string;
      entity_id: string;
      after: { retire_reason: string; requested_by: string };
    }>(
      `select actor_type, entity_id, after from audit_log where action = 'retire' and entity = 'terminal' and request_id = $1`,
      [job.id],
    );
    expect(retire).toHaveLength(1);
    expect(retire[0]).toMatchObject({
      actor_type: 'system',
      entity_id: active.elmerId,
      after: { retire_reason: 'merchant_closed', requested_by: 'ada.admin@example.com' },
    });
    // Every entry of the job is on the customer's Activity.
    expect(await jobAuditCustomers(job.id)).toEqual([
      { action: 'enqueue', customer_id: store.customerId },
      { action: 'retire', customer_id: store.customerId },
      { action: 'job_completed', customer_id: store.customerId },
    ]);
  });

  it('retirecustomerterminals: 404 for an unknown terminal or reason, 400 for terminals of two customers', async () => {
    const reason = await createDomainData(t.database.db, { type: 'retire_reason', code: 'upgrade', label: 'Upgrade' });
    const terminal = await createTerminal(t.database.db);
    const other = await createTerminal(t.database.db);
    const unknown = await post(`/api/customers/retirecustomerterminals/sns/${admin}`, {
      elmer_ids: [terminal.elmerId, 'NOPE-1'],
      reason_id: reason.id,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({ code: 'not_found', fields: { elmer_ids: 'Not found: NOPE-1.' } });
    const noReason = await post(`/api/customers/retirecustomerterminals/sns/${admin}`, {
      elmer_ids: [terminal.elmerId],
      reason_id: 999_999,
    });
    expect(noReason.statusCode).toBe(404);
    const mixed = await post(`/api/customers/retirecustomerterminals/sns/${admin}`, {
      elmer_ids: [terminal.elmerId, other.elmerId],
      reason_id: reason.id,
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().error.fields.elmer_ids).toMatch(/one customer/);
  });

  it('customerpaymentplans: applies license expiry (carried to the store), next billing date and status', async () => {
    const store = await createStore(t.database.db);
    const plan = await createPaymentPlan(t.database.db, { storeId: store.id, kind: 'monthly' });
    const hardware = await createPaymentPlan(t.database.db, { storeId: store.id, kind: 'hardware_sale' });
    const job = await run(`/api/customers/customerpaymentplans/sns/${admin}`, {
      plans: [
        { customerplanid: plan.id, licenseExpiresOn: '2027-12-31', nextBillingOn: '2026-12-01' },
        { customerplanid: hardware.id, status: 'completed' },
      ],
    });
    expect(job.output).toEqual({
      applied: [
        { customerplanid: plan.id, version: 2 },
        { customerplanid: hardware.id, version: 2 },
      ],
    });
    const [p] = await t.database.db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.id, plan.id));
    expect(p).toMatchObject({ licenseExpiresOn: '2027-12-31', nextBillingOn: '2026-12-01', status: 'active' });
    const [h] = await t.database.db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.id, hardware.id));
    expect(h!.status).toBe('completed');
    const [s] = await t.database.db.select().from(stores).where(eq(stores.id, store.id));
    expect(s!.licenseExpiresOn).toBe('2027-12-31');

    const missing = await post(`/api/customers/customerpaymentplans/sns/${admin}`, {
      plans: [{ customerplanid: 999_999, status: 'canceled' }],
    });
    expect(missing.statusCode).toBe(404);
  });

  it('customerpaymentplans/recurring: changes the recurring amount; another currency is refused (400)', async () => {
    const plan = await createPaymentPlan(t.database.db, { kind: 'monthly' });
    const job = await run(`/api/customers/customerpaymentplans/recurring/sns/${admin}`, {
      plans: [{ customerplanid: plan.id, recurringAmount: { cents: 89_00, currency: plan.currency } }],
    });
    expect(job.output).toEqual({
      applied: [{ customerplanid: plan.id, recurringAmountCents: 89_00, currency: plan.currency }],
    });
    const [p] = await t.database.db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.id, plan.id));
    expect(p!.recurringAmountCents).toBe(89_00);

    const other = plan.currency === 'USD' ? 'CAD' : 'USD';
    const res = await post(`/api/customers/customerpaymentplans/recurring/sns/${admin}`, {
      plans: [{ customerplanid: plan.id, recurringAmount: { cents: 1, currency: other } }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty(['plans.0.recurringAmount.currency']);
  });

  it('storeinfo: updates the store against its version (a stale version is 409 at once)', async () => {
    const store = await createStore(t.database.db, { country: 'US' });
    const job = await run(`/api/storeinfo/sns/${admin}`, {
      storeid: store.id,
      version: store.version,
      changes: { doingBusinessAs: 'Corner Deli', StoreAddress: { ...US_ADDRESS, zip: '73301' }, mobilePhone: null },
    });
    expect(job.output).toEqual({
      storeId: store.id,
      version: store.version + 1,
      changed: ['doingBusinessAs', 'mobilePhone', 'storeAddress', 'state'],
    });
    const [s] = await t.database.db.select().from(stores).where(eq(stores.id, store.id));
    expect(s).toMatchObject({
      doingBusinessAs: 'Corner Deli',
      state: 'TX',
      mobilePhone: null,
      version: store.version + 1,
    });
    expect(s!.storeAddress).toEqual(US_ADDRESS);

    const stale = await post(`/api/storeinfo/sns/${admin}`, {
      storeid: store.id,
      version: store.version,
      changes: { storeName: 'Again' },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toMatchObject({ code: 'version_conflict', current_version: store.version + 1 });
    const moved = await post(`/api/storeinfo/sns/${admin}`, {
      storeid: store.id,
      version: store.version + 1,
      changes: { StoreAddress: { address1: '1 Main St', city: 'Ottawa', state: 'ON', zip: 'K1A 0B1', country: 'CA' } },
    });
    expect(moved.statusCode).toBe(400);
    const unknown = await post(`/api/storeinfo/sns/${admin}`, {
      storeid: 999_999,
      version: 1,
      changes: { storeName: 'X' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("notifications/updatepayment: e-mails the store's billing contact a 7-day payment-update link (only its hash stored)", async () => {
    const store = await createStore(t.database.db);
    await createStoreEmail(t.database.db, { storeId: store.id, kind: 'general', email: 'front@store.example' });
    await createStoreEmail(t.database.db, { storeId: store.id, kind: 'billing', email: 'billing@store.example' });
    const terminal = await createTerminal(t.database.db, { storeId: store.id });
    const job = await run(`/api/customers/notifications/updatepayment/${admin}`, { elmer_id: terminal.elmerId });

    const [mail] = await t.database.query<{
      to: string;
      template: string;
      subject: string;
      html: string;
      text: string;
      links: string[];
      status: string;
      related_id: string;
    }>(
      `select "to", template, subject, html, text, links, status, related_id from mail_log where template = 'payment_update_link' and related_id = $1`,
      [String(store.id)],
    );
    expect(mail).toMatchObject({ to: 'billing@store.example', status: 'stored' });
    expect(mail!.subject).toContain(store.doingBusinessAs);
    expect(mail!.links).toHaveLength(1);
    const link = mail!.links[0]!;
    const prefix = `${t.app.ctx.config.publicUrl}/#/customer/payment/`;
    expect(link.startsWith(prefix)).toBe(true);
    const token = link.slice(prefix.length);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail!.text).toContain(link);

    const [row] = await t.database.db
      .select()
      .from(linkTokens)
      .where(eq(linkTokens.tokenHash, hashToken(token)));
    expect(row).toMatchObject({
      purpose: 'payment_update',
      subjectType: 'store',
      subjectId: String(store.id),
      usedAt: null,
      revokedAt: null,
    });
    expect(row!.expiresAt.getTime() - t.clock.now().getTime()).toBe(7 * 24 * 3600_000);
    // The job's output (visible to staff) never carries the token.
    expect(JSON.stringify(job.output)).not.toContain(token);
    expect(job.output).toMatchObject({ storeId: store.id, to: 'billing@store.example' });
    expect(await jobAuditCustomers(job.id)).toEqual([
      { action: 'enqueue', customer_id: store.customerId },
      { action: 'payment_update_link_sent', customer_id: store.customerId },
      { action: 'job_completed', customer_id: store.customerId },
    ]);

    // A second link replaces the first.
    await run(`/api/customers/notifications/updatepayment/${admin}`, { elmer_id: terminal.elmerId });
    const [first] = await t.database.db.select().from(linkTokens).where(eq(linkTokens.id, row!.id));
    expect(first!.revokedAt).not.toBeNull();

    const unknown = await post(`/api/customers/notifications/updatepayment/${admin}`, { elmer_id: 'NO-SUCH-TERMINAL' });
    expect(unknown.statusCode).toBe(404);
  });

  it('pos/feature/modify/email: e-mails the feature-change confirmation (customer_features_limited is enough)', async () => {
    const store = await createStore(t.database.db);
    await createStoreEmail(t.database.db, { storeId: store.id, kind: 'owner', email: 'owner@store.example' });
    const ewic = await createBillingItem(t.database.db, { name: 'eWIC <beta>', feature: 'Y' });
    const tabs = await createBillingItem(t.database.db, { name: 'Customer Tabs', feature: 'Y' });
    const fee = await createBillingItem(t.database.db, { name: 'Some fee', feature: 'N' });
    const res = await post(`/api/pos/feature/modify/email/${service}`, {
      storeid: store.id,
      features: [
        { billingitemid: ewic.id, action: 'add' },
        { billingitemid: tabs.id, action: 'remove' },
      ],
      effectiveOn: '2026-12-01',
      reference: 'CRM-1',
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(t, admin, res.json().info.jobId);
    expect(job.state).toBe('completed');
    const [mail] = await t.database.query<{ to: string; template: string; html: string; text: string }>(
      `select "to", template, html, text from mail_log where template = 'feature_change_confirmation' and related_id = $1`,
      [String(store.id)],
    );
    expect(mail!.to).toBe('owner@store.example');
    expect(mail!.text).toContain('Added: eWIC <beta>');
    expect(mail!.text).toContain('Removed: Customer Tabs');
    expect(mail!.html).toContain('Added: eWIC &lt;beta&gt;');
    expect(mail!.html).not.toContain('<beta>');

    const notFeature = await post(`/api/pos/feature/modify/email/${admin}`, {
      storeid: store.id,
      features: [{ billingitemid: fee.id, action: 'add' }],
    });
    expect(notFeature.statusCode).toBe(400);
  });

  it("stores/{storeId}/pushlicense: publishes the store's license state to each live terminal (audited per terminal)", async () => {
    const store = await createStore(t.database.db);
    await t.database.db.update(stores).set({ licenseExpiresOn: '2026-11-01' }).where(eq(stores.id, store.id));
    const a = await createTerminal(t.database.db, { storeId: store.id });
    const b = await createTerminal(t.database.db, { storeId: store.id });
    await createTerminal(t.database.db, { storeId: store.id, status: 'retired' });
    const feature = await createBillingItem(t.database.db, { name: 'Unlimited EBT', feature: 'Y' });
    await createCustomerBillingItem(t.database.db, { storeId: store.id, billingItemId: feature.id });

    // Ops (customer_features_edit) may push; no body at all.
    const res = await t.request({ method: 'POST', url: `/api/customers/stores/${ops}/${store.id}/pushlicense` });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(t, admin, res.json().info.jobId);
    const license = {
      storeId: store.id,
      status: 'grace',
      expiresOn: '2026-11-01',
      graceUntil: '2026-12-08',
      features: ['Unlimited EBT'],
    };
    expect(job.output).toEqual({ storeId: store.id, terminals: [a.elmerId, b.elmerId].sort(), license });
    const pushes = await t.database.query<{ entity_id: string; after: Record<string, unknown> }>(
      `select entity_id, after from audit_log where action = 'license_push' and request_id = $1 order by entity_id`,
      [job.id],
    );
    expect(pushes.map((p) => p.entity_id)).toEqual([a.elmerId, b.elmerId].sort());
    expect(pushes[0]!.after).toMatchObject(license);
    expect(await jobAuditCustomers(job.id)).toEqual([
      { action: 'enqueue', customer_id: store.customerId },
      { action: 'license_push', customer_id: store.customerId },
      { action: 'license_push', customer_id: store.customerId },
      { action: 'job_completed', customer_id: store.customerId },
    ]);

    const withEmptyJson = await post(`/api/customers/stores/${admin}/${store.id}/pushlicense`, {});
    expect(withEmptyJson.statusCode).toBe(202);
    const unknown = await post(`/api/customers/stores/${admin}/999999/pushlicense`, {});
    expect(unknown.statusCode).toBe(404);
    const badId = await post(`/api/customers/stores/${admin}/abc/pushlicense`, {});
    expect(badId.statusCode).toBe(400);
  });

  it('orderinfo/status: changes the status by the transition table and records the history', async () => {
    const order = await createOrder(t.database.db, { status: '11' });
    const reason = await createStatusReason(t.database.db, { status: '121', reason: 'Documents complete' });
    const job = await run(`/api/orderinfo/status/sns/${admin}`, {
      orderInfoId: order.id,
      status: '121',
      action: 'submit',
      statusReasonId: reason.id,
      note: 'All papers in',
    });
    expect(job.output).toEqual({ orderInfoId: order.id, from: '11', to: '121', action: 'submit', changed: true });
    const [o] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(o).toMatchObject({ status: '121', version: order.version + 1 });
    const history = await t.database.db
      .select()
      .from(orderStatusHistory)
      .where(eq(orderStatusHistory.orderId, order.id));
    expect(history).toEqual([
      expect.objectContaining({
        fromStatus: '11',
        toStatus: '121',
        statusReasonId: reason.id,
        note: 'All papers in',
        changedByEmail: 'ada.admin@example.com',
      }),
    ]);

    const again = await run(`/api/orderinfo/status/sns/${admin}`, {
      orderInfoId: order.id,
      status: '121',
      action: 'submit',
    });
    expect(again.output).toMatchObject({ changed: false });
    const wrongReason = await post(`/api/orderinfo/status/sns/${admin}`, {
      orderInfoId: order.id,
      status: '150',
      action: 'complete',
      statusReasonId: reason.id,
    });
    expect(wrongReason.statusCode).toBe(400);
    const unknown = await post(`/api/orderinfo/status/sns/${admin}`, {
      orderInfoId: 999_999,
      status: '150',
      action: 'complete',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('orderinfo/agentswitch: sets orders.agent_id and replaces the agent_orders row', async () => {
    const from = await createAgent(t.database.db);
    const to = await createAgent(t.database.db);
    const order = await createOrder(t.database.db, { agentId: from.id });
    await t.database.db
      .insert(agentOrders)
      .values({ agentId: from.id, orderId: order.id, assignedByEmail: 'x@example.com' });
    const job = await run(`/api/orderinfo/agentswitch/sns/${admin}`, { orderInfoIds: [order.id], agent_id: to.id });
    expect(job.output).toEqual({ agentId: to.id, orders: [order.id] });
    const [o] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(o!.agentId).toBe(to.id);
    const rows = await t.database.db.select().from(agentOrders).where(eq(agentOrders.orderId, order.id));
    expect(rows).toEqual([expect.objectContaining({ agentId: to.id, assignedByEmail: 'ada.admin@example.com' })]);

    const inactive = await createAgent(t.database.db, { active: false });
    expect(
      (await post(`/api/orderinfo/agentswitch/sns/${admin}`, { orderInfoIds: [order.id], agent_id: inactive.id }))
        .statusCode,
    ).toBe(400);
    expect(
      (await post(`/api/orderinfo/agentswitch/sns/${admin}`, { orderInfoIds: [order.id], agent_id: 999_999 }))
        .statusCode,
    ).toBe(404);
  });

  it('orderinfo/agentswitch with an Idempotency-Key: the same key answers the same job, once', async () => {
    const to = await createAgent(t.database.db);
    const a = await createOrder(t.database.db);
    const b = await createOrder(t.database.db);
    const send = () =>
      t.request({
        method: 'POST',
        url: `/api/orderinfo/agentswitch/sns/${admin}`,
        headers: { 'idempotency-key': 'bulk-move-1' },
        payload: { orderInfoIds: [a.id, b.id], agent_id: to.id },
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(202);
    const again = await send();
    expect(again.statusCode, again.body).toBe(202);
    const { jobId } = first.json().info as { jobId: string };
    expect(again.json().info).toEqual({ jobId });
    const job = await waitForJob(t, admin, jobId);
    expect(job.output).toEqual({ agentId: to.id, orders: [a.id, b.id].sort((x, y) => x - y) });
  });

  it('zoho/accessoriesorder: asks the CRM for the feature change; the reference is the output', async () => {
    const store = await createStore(t.database.db);
    const job = await run(`/api/zoho/accessoriesorder/${service}`, {
      storeid: store.id,
      features: ['eWIC', 'No Ads'],
      notes: 'Start Monday',
    });
    expect(job.output).toMatchObject({
      storeId: store.id,
      reference: expect.stringMatching(/^CRM-\d{8}-[0-9A-F]{8}$/),
    });
    const reference = (job.output as { reference: string }).reference;
    // The local CRM adapter recorded the request.
    const crm = await t.database.query<{ after: { features: string[]; requestedBy: string } }>(
      `select after from audit_log where entity = 'crm_request' and entity_id = $1`,
      [reference],
    );
    expect(crm[0]!.after).toMatchObject({ features: ['eWIC', 'No Ads'], requestedBy: 'service@example.com' });
    const [crmRow] = await t.database.query<{ customer_id: number | null }>(
      `select customer_id from audit_log where entity = 'crm_request' and entity_id = $1`,
      [reference],
    );
    expect(crmRow!.customer_id).toBe(store.customerId);
    expect(await jobAuditCustomers(job.id)).toEqual([
      { action: 'enqueue', customer_id: store.customerId },
      { action: 'crm_feature_change_requested', customer_id: store.customerId },
      { action: 'job_completed', customer_id: store.customerId },
    ]);
  });

  it('zoho/storemidvalidate: the job output holds the CRM answer', async () => {
    const taken = await createStore(t.database.db);
    await t.database.db.update(stores).set({ mid: '800000009999' }).where(eq(stores.id, taken.id));
    const free = await run(`/api/zoho/storemidvalidate/${admin}`, { MID: '8000 0000 1234' });
    expect(free.output).toEqual({ MID: '8000 0000 1234', valid: true });
    const dup = await run(`/api/zoho/storemidvalidate/${admin}`, { MID: '800000009999' });
    expect(dup.output).toMatchObject({
      MID: '800000009999',
      valid: false,
      reason: expect.stringContaining(`store ${taken.id}`),
    });
    const own = await run(`/api/zoho/storemidvalidate/${admin}`, { MID: '800000009999', storeid: taken.id });
    expect(own.output).toMatchObject({ valid: true });
    // The validation of a store's MID is on its customer's Activity; one without a store is no one's.
    expect(await jobAuditCustomers(own.id)).toEqual([
      { action: 'enqueue', customer_id: taken.customerId },
      { action: 'job_completed', customer_id: taken.customerId },
    ]);
    expect(await jobAuditCustomers(free.id)).toEqual([
      { action: 'enqueue', customer_id: null },
      { action: 'job_completed', customer_id: null },
    ]);
    const bad = await run(`/api/zoho/storemidvalidate/${admin}`, { MID: '12' });
    expect(bad.output).toMatchObject({ valid: false, reason: expect.stringMatching(/digits/) });
  });

  describe('billing calls: contract and queue now, the effect with the billing issue', () => {
    it('transactions/sns reprocesses a failed charge through the gateway; the output says what happened to each', async () => {
      const tx = await createTransaction(t.database.db, { status: 'F' });
      await createPaymentInstrument(t.database.db, { customerId: tx.customerId, storeId: tx.storeId });
      const body = { customer_id: tx.customerId, transaction_ids: [tx.id], action: 'reprocess' };
      const job = await run(`/api/customers/transactions/sns/${admin}`, body);
      expect(job.output).toMatchObject({
        action: 'reprocess',
        results: [
          { transaction_id: tx.id, ok: true, result: 'Charged again: paid', new_transaction_id: expect.any(Number) },
        ],
      });
      const [old] = await t.database.query<{ status: string }>(`select status from transactions where id = $1`, [
        tx.id,
      ]);
      expect(old!.status).toBe('R');
      expect(await t.database.query(`select 1 from audit_log where action = 'deferred'`)).toEqual([]);
      const again = await run(`/api/customers/transactions/sns/${admin}`, body);
      expect(again.output).toMatchObject({ results: [{ transaction_id: tx.id, ok: false }] });
      const wrongCustomer = await post(`/api/customers/transactions/sns/${admin}`, { ...body, customer_id: 999_999 });
      expect(wrongCustomer.statusCode).toBe(404);
    });

    it('invoices/collect/due/sns and paymentcollection/sns (collect_payment or failed_payments_edit)', async () => {
      const invoice = await createInvoice(t.database.db);
      expect(
        (await run(`/api/customers/invoices/collect/due/sns/${admin}`, { customer_id: invoice.customerId })).output,
      ).toEqual({ invoices: expect.any(Array) });
      expect(
        (
          await run(`/api/customers/paymentcollection/sns/${service}`, {
            customer_id: invoice.customerId,
            invoice_ids: [invoice.id],
          })
        ).output,
      ).toMatchObject({ invoices: [{ invoice_id: invoice.id }] });
      const other = await createInvoice(t.database.db);
      const res = await post(`/api/customers/paymentcollection/sns/${admin}`, {
        customer_id: invoice.customerId,
        invoice_ids: [other.id],
      });
      expect(res.statusCode).toBe(404);
    });

    it('paymentinstruments/add takes a gateway reference, never a card number', async () => {
      const store = await createStore(t.database.db);
      const job = await run(`/api/customers/paymentinstruments/add/${admin}`, {
        customer_id: store.customerId,
        storeid: store.id,
        kind: 'card',
        paymentProcessorReference: 'pm_123_4242',
      });
      expect(job.output).toMatchObject({ added: true, payment_instrument_id: expect.any(Number) });
      const res = await post(`/api/customers/paymentinstruments/add/${admin}`, {
        customer_id: store.customerId,
        kind: 'card',
        creditCardNumber: '4111111111111111',
        paymentProcessorReference: 'pm_1',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.creditCardNumber).toMatch(/never reach this server/);
      expect(JSON.stringify(await t.database.query(`select after from audit_log`))).not.toContain('4111111111111111');
    });
  });
});
