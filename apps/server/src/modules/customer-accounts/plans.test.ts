import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomerBillingItem, createPaymentPlan, createStore, createTerminal } from '../../db/factories';
import { customerPaymentPlans, stores } from '../../db/schema';
import { accountsFixture, auditOf, failAuditOf, UNKNOWN_TOKEN, type AccountsFixture } from './test-support';

describe('payment plans: list, detail, add, license expiry, edit', () => {
  let f: AccountsFixture;
  let customerId: number;
  let storeId: number;
  let caStoreId: number;
  let caCustomerId: number;
  let monthlyId: number;
  let hardwareId: number;
  let memoId: number;
  let otherPlanId: number;

  const url = (suffix = '', token = f.editor, id = customerId) =>
    `/api/customers/${id}/${token}/customerpaymentplans${suffix}`;
  const planRow = async (id: number) =>
    (await f.t.database.db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.id, id)))[0]!;
  const storeRow = async (id: number) => (await f.t.database.db.select().from(stores).where(eq(stores.id, id)))[0]!;
  const plansOf = async (id: number) =>
    f.t.database.db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.customerId, id));

  beforeAll(async () => {
    f = await accountsFixture();
    const db = f.t.database.db;
    const store = await createStore(db, { licenseExpiresOn: '2026-12-01' });
    storeId = store.id;
    customerId = store.customerId;
    monthlyId = (
      await createPaymentPlan(db, { storeId, kind: 'monthly', startsOn: '2025-01-15', licenseExpiresOn: '2026-12-01' })
    ).id;
    hardwareId = (await createPaymentPlan(db, { storeId, kind: 'hardware_sale', startsOn: '2025-01-15' })).id;
    memoId = (await createPaymentPlan(db, { customerId, kind: 'credit_memo', startsOn: '2025-02-01' })).id;
    await createCustomerBillingItem(db, { storeId, planId: monthlyId });
    await createTerminal(db, { storeId, planId: monthlyId });
    await createTerminal(db, { storeId, planId: monthlyId, status: 'retired' });
    const ca = await createStore(db, { country: 'CA' });
    caStoreId = ca.id;
    caCustomerId = ca.customerId;
    otherPlanId = (await createPaymentPlan(db, { storeId: caStoreId })).id;
  });
  afterAll(() => f.t.close());

  describe('GET', () => {
    it('lists the plans (filtered by store and status), newest start first, for a view-only user too', async () => {
      const res = await f.t.request({ method: 'GET', url: url('', f.viewer) });
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info;
      expect(info.total).toBe(3);
      expect(info.items.map((p: { id: number }) => p.id)).toEqual([memoId, monthlyId, hardwareId]);
      expect(info.items[1]).toMatchObject({
        id: monthlyId,
        customer_id: customerId,
        store_id: storeId,
        kind: 'monthly',
        kind_label: 'Monthly plan',
        payment_plan_type_id: 4,
        term: 1,
        interval: 1,
        recurring_amount_cents: 7900,
        currency: 'USD',
        license_expires_on: '2026-12-01',
        status: 'active',
        version: 1,
      });
      const byStore = (await f.t.request({ method: 'GET', url: url(`?storeid=${storeId}&sort=kind`) })).json().info;
      expect(byStore.items.map((p: { kind: string }) => p.kind)).toEqual(['hardware_sale', 'monthly']);
      expect((await f.t.request({ method: 'GET', url: url('?status=canceled') })).json().info).toEqual({
        items: [],
        total: 0,
      });
    });

    it('shows one plan with its billing items and terminal counts', async () => {
      const res = await f.t.request({ method: 'GET', url: url(`/${monthlyId}`, f.viewer) });
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info;
      expect(info).toMatchObject({ id: monthlyId, terminals_count: 2, active_terminals_count: 1 });
      expect(info.billing_items).toHaveLength(1);
      expect(info.billing_items[0]).toMatchObject({
        billing_item_id: 8,
        name: 'Monthly service fee',
        plan_id: monthlyId,
        amount_cents: 7900,
      });
    });

    it('400 for a bad query, 404 for an unknown customer, a foreign plan or store, 403 without a session', async () => {
      expect((await f.t.request({ method: 'GET', url: url('?status=paused') })).json().error.fields.status).toMatch(
        /Status is one of/,
      );
      expect((await f.t.request({ method: 'GET', url: url('', f.editor, 999_999) })).statusCode).toBe(404);
      expect((await f.t.request({ method: 'GET', url: url(`/${otherPlanId}`) })).statusCode).toBe(404);
      expect(
        (await f.t.request({ method: 'GET', url: url(`?storeid=${caStoreId}`) })).json().error.fields.storeid,
      ).toMatch(/not a store of customer/);
      expect((await f.t.request({ method: 'GET', url: url('', UNKNOWN_TOKEN) })).json().error.code).toBe(
        'session_invalid',
      );
      expect((await f.t.request({ method: 'GET', url: url('', f.outsider) })).json().error.code).toBe('forbidden');
    });
  });

  describe('POST …/customerpaymentplans (add)', () => {
    const add = (payload: unknown, opts: { token?: string; key?: string; id?: number } = {}) =>
      f.t.request({
        method: 'POST',
        url: url('', opts.token ?? f.editor, opts.id ?? customerId),
        payload: payload as object,
        headers: opts.key ? { 'idempotency-key': opts.key } : {},
      });

    it("adds a yearly plan for a store in its currency with the §9 type id; the license expiry becomes the store's", async () => {
      const res = await add(
        {
          kind: 'yearly',
          store_id: caStoreId,
          recurring_amount_cents: 99_900,
          starts_on: '2026-11-01',
          license_expires_on: '2027-11-01',
        },
        { id: caCustomerId },
      );
      // The CA store already has an active monthly plan.
      expect(res.statusCode).toBe(409);
      expect(res.json().error.message).toMatch(/already has an active monthly plan/);

      const fresh = await createStore(f.t.database.db, { customerId: caCustomerId });
      const ok = await add(
        {
          kind: 'yearly',
          store_id: fresh.id,
          recurring_amount_cents: 99_900,
          starts_on: '2026-11-01',
          license_expires_on: '2027-11-01',
        },
        { id: caCustomerId },
      );
      expect(ok.statusCode, ok.body).toBe(201);
      const plan = ok.json().info;
      expect(plan).toMatchObject({
        kind: 'yearly',
        payment_plan_type_id: 5,
        term: 12,
        interval: 12,
        currency: 'CAD',
        plan_name: 'Yearly plan',
        recurring_amount_cents: 99_900,
        license_expires_on: '2027-11-01',
        next_billing_on: '2026-11-01',
        version: 1,
      });
      expect((await storeRow(fresh.id)).licenseExpiresOn).toBe('2027-11-01');
      const [created] = await auditOf(f.t, 'customer_payment_plan', plan.id);
      expect(created).toMatchObject({
        action: 'create',
        customerId: caCustomerId,
        after: { customer_id: caCustomerId, plan_id: plan.id, kind: 'yearly' },
      });
      expect((await auditOf(f.t, 'store', fresh.id))[0]).toMatchObject({
        action: 'update_license_expiry',
        after: { customer_id: caCustomerId, license_expires_on: '2027-11-01' },
      });
    });

    it('adds a customer-level due amount plan with zeros', async () => {
      const res = await add({ kind: 'due_amount', starts_on: '2026-11-22' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().info).toMatchObject({
        kind: 'due_amount',
        payment_plan_type_id: 40,
        store_id: null,
        term: 0,
        interval: 0,
        initial_amount_cents: 0,
        recurring_amount_cents: 0,
        next_billing_on: null,
      });
    });

    it('400 with field messages: no store, non-zero memo amounts, a license on a hardware plan, fractional cents', async () => {
      const before = (await plansOf(customerId)).length;
      const noStore = await add({ kind: 'monthly', starts_on: '2026-11-22' });
      expect(noStore.statusCode).toBe(400);
      expect(noStore.json().error.fields.store_id).toBe('Choose the store this plan is for.');
      const memo = await add({ kind: 'credit_memo', recurring_amount_cents: 100, starts_on: '2026-11-22' });
      expect(memo.json().error.fields.recurring_amount_cents).toBe(
        'A credit memo plan has zero recurring amount cents.',
      );
      const license = await add({
        kind: 'hardware_sale',
        store_id: storeId,
        starts_on: '2026-11-22',
        license_expires_on: '2027-01-01',
      });
      expect(license.json().error.fields.license_expires_on).toBe('Only monthly and yearly plans carry a license.');
      const cents = await add({
        kind: 'hardware_sale',
        store_id: storeId,
        initial_amount_cents: 10.5,
        starts_on: '2026-11-22',
      });
      expect(cents.json().error.fields.initial_amount_cents).toBe('Amounts are whole cents.');
      const date = await add({ kind: 'hardware_sale', store_id: storeId, starts_on: '22/11/2026' });
      expect(date.json().error.fields.starts_on).toBe('Enter a date as YYYY-MM-DD.');
      expect((await plansOf(customerId)).length).toBe(before);
    });

    it('the same Idempotency-Key answers the same plan once; with another body → 409', async () => {
      const body = {
        kind: 'hardware_sale',
        store_id: storeId,
        initial_amount_cents: 50_000,
        recurring_amount_cents: 4_500,
        term: 12,
        interval: 1,
        starts_on: '2026-11-22',
      };
      const before = (await plansOf(customerId)).length;
      const first = await add(body, { key: 'plan-key-1' });
      expect(first.statusCode, first.body).toBe(201);
      const second = await add({ ...body }, { key: 'plan-key-1' });
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual(first.json());
      expect((await plansOf(customerId)).length).toBe(before + 1);
      const changed = await add({ ...body, initial_amount_cents: 60_000 }, { key: 'plan-key-1' });
      expect(changed.statusCode).toBe(422);
      expect(changed.json().error.code).toBe('idempotency_key_reused');
      expect((await plansOf(customerId)).length).toBe(before + 1);
      expect(first.json().info).toMatchObject({
        kind: 'hardware_sale',
        payment_plan_type_id: 1,
        term: 12,
        interval: 1,
        next_billing_on: '2026-11-22',
      });
    });

    it('403 for a view-only user, 404 for a foreign store, nothing written', async () => {
      const before = (await plansOf(customerId)).length;
      expect(
        (await add({ kind: 'hardware_sale', store_id: storeId, starts_on: '2026-11-22' }, { token: f.viewer }))
          .statusCode,
      ).toBe(403);
      const foreign = await add({ kind: 'hardware_sale', store_id: caStoreId, starts_on: '2026-11-22' });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().error.fields.store_id).toMatch(/not a store of customer/);
      expect((await plansOf(customerId)).length).toBe(before);
    });
  });

  describe('POST …/customerpaymentplans/{planId} (license expiry)', () => {
    const update = (planId: number, payload: unknown, token = f.editor) =>
      f.t.request({ method: 'POST', url: url(`/${planId}`, token), payload: payload as object });

    it("moves the plan's and the store's license expiry together, audited", async () => {
      const store = await storeRow(storeId);
      const res = await update(monthlyId, { license_expires_on: '2027-06-30', version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({ id: monthlyId, license_expires_on: '2027-06-30', version: 2 });
      const after = await storeRow(storeId);
      expect(after.licenseExpiresOn).toBe('2027-06-30');
      expect(after.version).toBe(store.version + 1);
      const [entry] = await auditOf(f.t, 'customer_payment_plan', monthlyId);
      expect(entry).toMatchObject({
        action: 'update_license_expiry',
        customerId,
        before: { customer_id: customerId, license_expires_on: '2026-12-01' },
        after: { customer_id: customerId, license_expires_on: '2027-06-30' },
      });
    });

    it('409 for a stale version (with the current plan) and for a hardware plan; 400 before the start', async () => {
      const stale = await update(monthlyId, { license_expires_on: '2027-07-31', version: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error).toMatchObject({
        code: 'version_conflict',
        current: { id: monthlyId, version: 2, license_expires_on: '2027-06-30' },
      });
      const hw = await update(hardwareId, { license_expires_on: '2027-07-31', version: 1 });
      expect(hw.statusCode).toBe(409);
      expect(hw.json().error.message).toMatch(/only monthly and yearly plans carry a license/);
      const early = await update(monthlyId, { license_expires_on: '2024-01-01', version: 2 });
      expect(early.statusCode).toBe(400);
      expect(early.json().error.fields.license_expires_on).toMatch(/cannot expire before the plan starts/);
      expect(
        (await update(monthlyId, { license_expires_on: 'soon', version: 2 })).json().error.fields.license_expires_on,
      ).toBe('Enter a date as YYYY-MM-DD.');
      expect((await planRow(monthlyId)).licenseExpiresOn).toBe('2027-06-30');
    });

    it('403 view-only, 404 foreign plan; nothing half-written when the store audit fails', async () => {
      expect((await update(monthlyId, { license_expires_on: '2027-08-31', version: 2 }, f.viewer)).statusCode).toBe(
        403,
      );
      expect((await update(otherPlanId, { license_expires_on: '2027-08-31', version: 1 })).statusCode).toBe(404);
      const undo = await failAuditOf(f.t, 'update_license_expiry');
      try {
        expect((await update(monthlyId, { license_expires_on: '2027-08-31', version: 2 })).statusCode).toBe(500);
      } finally {
        await undo();
      }
      expect((await planRow(monthlyId)).licenseExpiresOn).toBe('2027-06-30');
      expect((await storeRow(storeId)).licenseExpiresOn).toBe('2027-06-30');
    });
  });

  describe('PUT …/customerpaymentplans/{planId} (edit)', () => {
    const edit = (planId: number, payload: unknown, token = f.editor) =>
      f.t.request({ method: 'PUT', url: url(`/${planId}`, token), payload: payload as object });

    it('changes the PaymentPlanInfo fields; the audit holds only what changed', async () => {
      const plan = await planRow(hardwareId);
      const res = await edit(hardwareId, {
        plan_name: 'Hardware (12 installments)',
        initial_amount_cents: 30_000,
        recurring_amount_cents: plan.recurringAmountCents,
        term: 12,
        interval: 1,
        version: plan.version,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({
        plan_name: 'Hardware (12 installments)',
        initial_amount_cents: 30_000,
        term: 12,
        interval: 1,
        version: plan.version + 1,
      });
      const [entry] = (await auditOf(f.t, 'customer_payment_plan', hardwareId)).filter((e) => e.action === 'update');
      expect(entry!.before).toEqual({
        customer_id: customerId,
        plan_id: hardwareId,
        store_id: storeId,
        currency: 'USD',
        plan_name: plan.planName,
        initial_amount_cents: plan.initialAmountCents,
        term: 0,
        interval: 0,
      });
      expect(entry!.after).toMatchObject({
        plan_name: 'Hardware (12 installments)',
        initial_amount_cents: 30_000,
        term: 12,
        interval: 1,
      });
      expect(entry!.after).not.toHaveProperty('recurring_amount_cents');
    });

    it('400: nothing to change, negative amounts, or amounts on a credit memo plan', async () => {
      const memo = await planRow(memoId);
      expect((await edit(hardwareId, { version: 2 })).json().error.fields.body).toMatch(/Say what changes/);
      expect(
        (await edit(hardwareId, { recurring_amount_cents: -1, version: 2 })).json().error.fields.recurring_amount_cents,
      ).toBe('The amount cannot be negative.');
      const zero = await edit(memoId, { recurring_amount_cents: 500, version: memo.version });
      expect(zero.statusCode).toBe(400);
      expect(zero.json().error.fields.recurring_amount_cents).toBe(
        'A credit memo plan has zero recurring amount cents.',
      );
      expect((await edit(memoId, { plan_name: 'Credit memo (Q4)', version: memo.version })).statusCode).toBe(200);
    });

    it('409 stale with the current plan; 403 view-only; 404 foreign', async () => {
      const stale = await edit(hardwareId, { term: 24, version: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.current).toMatchObject({ id: hardwareId, term: 12, version: 2 });
      expect((await edit(hardwareId, { term: 24, version: 2 }, f.viewer)).statusCode).toBe(403);
      expect((await edit(otherPlanId, { term: 24, version: 1 })).statusCode).toBe(404);
      expect((await planRow(hardwareId)).term).toBe(12);
    });
  });
});
