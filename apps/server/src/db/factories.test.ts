import { verify } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import {
  ORDER_DEFAULTS,
  PAYMENT_PLAN_KIND,
  ROLE_PRIVILEGES,
  ROLES,
  ROLE_START_STATUS,
  isStateOf,
  validateZip,
  type MerchantCountryCode,
} from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/db-template';
import type { Database } from './client';
import {
  Rng,
  createAgent,
  createCatalogue,
  createCreditMemo,
  createCustomer,
  createCustomerBillingItem,
  createCustomerBundle,
  createCustomerNote,
  createDistributorAccount,
  createDomainData,
  createInvoice,
  createOrder,
  createOrderNote,
  createPaymentInstrument,
  createPaymentPlan,
  createPromotion,
  createReceipt,
  createReferral,
  createSalesPerson,
  createStaffUser,
  createStatusReason,
  createStore,
  createStoreEmail,
  createTerminal,
  createTransaction,
  ensureAccessData,
  randomAddress,
  staffPrivilegesOf,
} from './factories';
import { countRows } from './seed';
import { invoiceLines } from './schema';

describe('access factories', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('ensureAccessData is idempotent and mirrors the domain tables', async () => {
    const first = await ensureAccessData(database.db);
    const second = await ensureAccessData(database.db);
    expect([...second.roles.entries()]).toEqual([...first.roles.entries()]);
    expect(first.roles.size).toBe(ROLES.length);
    const rows = await database.query<{ name: string; start_status: string }>(`select name, start_status from roles`);
    for (const r of rows) expect(r.start_status).toBe(ROLE_START_STATUS[r.name as keyof typeof ROLE_START_STATUS]);
    const [{ n }] = (await database.query<{ n: number }>(`select count(*)::int as n from role_privileges`)) as [
      { n: number },
    ];
    expect(n).toBe(ROLES.reduce((sum, r) => sum + ROLE_PRIVILEGES[r].length, 0));
  });

  it('createStaffUser gives the role privileges plus additional ones', async () => {
    const user = await createStaffUser(database.db, {
      email: 'ops.person@example.com',
      role: 'Operations',
      additionalPrivileges: ['receipts'],
    });
    expect(user.name).toBe('Ops Person');
    expect(await staffPrivilegesOf(database.db, user.id)).toEqual([...ROLE_PRIVILEGES.Operations, 'receipts'].sort());
    const inactive = await createStaffUser(database.db, { role: 'Marketing', active: false });
    expect(inactive.active).toBe(false);
  });

  it('createDistributorAccount stores an argon2id hash tied to a Distributor agent', async () => {
    const account = await createDistributorAccount(database.db, { email: 'd1@example.com', password: 'secret-pass-1' });
    expect(account.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verify(account.passwordHash, 'secret-pass-1')).toBe(true);
    const agent = await createAgent(database.db, { type: 'RDC' });
    expect(agent.salesChannel).toBe('IS');
    const other = await createDistributorAccount(database.db, { agentId: agent.id });
    expect(other.agentId).toBe(agent.id);
  });
});

describe('addresses', () => {
  it.each(['US', 'CA'] as const)('random %s addresses pass the domain zip and state rules', (country) => {
    const rng = new Rng(7);
    for (let i = 0; i < 500; i++) {
      const a = randomAddress(rng, country);
      expect(validateZip(country, a.zip), a.zip).toEqual({ ok: true, normalized: a.zip });
      expect(isStateOf(country, a.state), a.state).toBe(true);
    }
  });
});

describe.each(['US', 'CA'] as const)('merchant, billing and order factories (%s)', (country: MerchantCountryCode) => {
  let database: Database;
  const currency = country === 'CA' ? 'CAD' : 'USD';
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('createCustomer and createStore give valid rows of the country', async () => {
    const customer = await createCustomer(database.db, { country });
    expect(customer.currency).toBe(currency);
    expect(customer.id).toBeGreaterThanOrEqual(100_001);
    expect(validateZip(country, customer.homeAddress!.zip).ok).toBe(true);
    const store = await createStore(database.db, { customerId: customer.id });
    expect(store.country).toBe(country);
    expect(store.currency).toBe(currency);
    expect(store.brAcct).toBe(customer.brAcct);
    expect(isStateOf(country, store.state)).toBe(true);
    expect(store.state).toBe(store.storeAddress.state);
    // Without a customer, one is created in the store's country.
    const lone = await createStore(database.db, { country });
    expect(lone.country).toBe(country);
    expect(lone.customerId).not.toBe(customer.id);
    await createStoreEmail(database.db, { storeId: store.id });
    await createCustomerNote(database.db, { customerId: customer.id, storeId: store.id });
    await createSalesPerson(database.db, { salesChannel: 'MSS' });
  });

  it('createTerminal, a retired one with a reason, and a domain-data entry', async () => {
    const terminal = await createTerminal(database.db);
    expect(terminal.status).toBe('active');
    const retired = await createTerminal(database.db, { storeId: terminal.storeId, status: 'retired' });
    expect(retired.customerId).toBe(terminal.customerId);
    expect(retired.retiredAt).not.toBeNull();
    expect(retired.retireReasonId).not.toBeNull();
    expect(retired.elmerId).not.toBe(terminal.elmerId);
    const again = await createDomainData(database.db, { type: 'retire_reason', code: 'store_closed' });
    expect(again.id).toBe(retired.retireReasonId);
  });

  it('createPaymentPlan, billing items, bundles and instruments', async () => {
    const store = await createStore(database.db, { country });
    const monthly = await createPaymentPlan(database.db, { storeId: store.id });
    expect(monthly).toMatchObject({ kind: 'monthly', paymentPlanTypeId: 4, term: 1, interval: 1, currency });
    const yearly = await createPaymentPlan(database.db, { storeId: store.id, kind: 'yearly' });
    expect(yearly).toMatchObject({ paymentPlanTypeId: 5, term: 12 });
    const hardware = await createPaymentPlan(database.db, { storeId: store.id, kind: 'hardware_sale' });
    expect(hardware.paymentPlanTypeId).toBe(1);
    const memoPlan = await createPaymentPlan(database.db, { storeId: store.id, kind: 'credit_memo' });
    expect(memoPlan).toMatchObject({
      paymentPlanTypeId: 30,
      term: 0,
      interval: 0,
      initialAmountCents: 0,
      recurringAmountCents: 0,
    });
    const item = await createCustomerBillingItem(database.db, { storeId: store.id, planId: monthly.id });
    expect(item.customerId).toBe(store.customerId);
    const bundle = await createCustomerBundle(database.db, { storeId: store.id, bundleId: 9 });
    expect(bundle.bundleId).toBe(9);
    const card = await createPaymentInstrument(database.db, { customerId: store.customerId });
    expect(card.cardLast4).toMatch(/^\d{4}$/);
    const bank = await createPaymentInstrument(database.db, {
      customerId: store.customerId,
      kind: 'bank',
      isDefault: false,
    });
    expect(bank.accountLast4).toMatch(/^\d{4}$/);
  });

  it('createInvoice (+lines), createTransaction, createCreditMemo, createReceipt', async () => {
    const store = await createStore(database.db, { country });
    const invoice = await createInvoice(database.db, {
      storeId: store.id,
      taxCents: 10_00,
      lines: [
        { billingItemId: 8, unitCents: 79_00 },
        { billingItemId: 213, quantity: 2, unitCents: 29_00 },
        { billingItemId: 7, unitCents: -5_00, description: 'Discount' },
      ],
    });
    expect(invoice.currency).toBe(currency);
    expect(invoice.totalCents).toBe(79_00 + 58_00 - 5_00 + 10_00);
    expect(invoice.lines).toHaveLength(3);
    const stored = await database.db.select().from(invoiceLines).where(eq(invoiceLines.invoiceId, invoice.id));
    expect(stored.map((l) => l.amountCents).sort((a, b) => a - b)).toEqual([-5_00, 58_00, 79_00]);
    const tx = await createTransaction(database.db, { invoiceId: invoice.id, status: 'F' });
    expect(tx).toMatchObject({
      customerId: store.customerId,
      amountCents: invoice.totalCents,
      failureReason: 'Insufficient funds',
      currency,
    });
    const memo = await createCreditMemo(database.db, { invoiceId: invoice.id, storeId: store.id });
    expect(memo).toMatchObject({ status: 'P', decidedAt: null, currency });
    const approved = await createCreditMemo(database.db, { storeId: store.id, status: 'A' });
    expect(approved.decidedAt).not.toBeNull();
    const receipt = await createReceipt(database.db, { customerId: store.customerId });
    expect(receipt.unappliedCents).toBe(receipt.amountCents);
  });

  it('createOrder builds the §3 document from ORDER_DEFAULTS and the store; notes and reasons', async () => {
    const store = await createStore(database.db, { country });
    const order = await createOrder(database.db, { storeId: store.id, status: '121', flow: 'RAM' });
    const doc = order.document as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(order).toMatchObject({
      customerId: store.customerId,
      storeId: store.id,
      status: '121',
      flow: 'RAM',
      country,
      currency,
    });
    expect(doc.orderInfoId).toBe(order.id);
    expect(doc.unifiedOrderId).toBe(order.unifiedOrderId);
    expect(doc.mobileConsent).toBe(ORDER_DEFAULTS.mobileConsent);
    expect(doc.orderType).toBe(ORDER_DEFAULTS.orderType);
    expect(doc.noOfTerminals).toBe(ORDER_DEFAULTS.noOfTerminals);
    expect(doc.flow).toBe('RAM');
    expect(doc.CustomerInfo).toMatchObject({
      customerCategory: ORDER_DEFAULTS.customerCategory,
      customerClass: ORDER_DEFAULTS.customerClass,
      brAcct: store.brAcct,
    });
    expect(doc.StoreInfo).toMatchObject({
      customerStoreId: store.id,
      doingBusinessAs: store.doingBusinessAs,
      inventoryDatabaseExists: ORDER_DEFAULTS.inventoryDatabaseExists,
      acceptsCreditCards: ORDER_DEFAULTS.acceptsCreditCards,
      dbaAddressSameAsLegal: ORDER_DEFAULTS.dbaAddressSameAsLegal,
      dbaSameAsLegal: ORDER_DEFAULTS.dbaSameAsLegal,
      StoreAddress: store.storeAddress,
    });
    expect(doc.PaymentPlanInfo.map((p: { type: string }) => p.type)).toEqual([
      PAYMENT_PLAN_KIND.HARDWARE,
      PAYMENT_PLAN_KIND.MONTHLY,
    ]);
    expect(doc.PaymentInstrumentInfo[0]).toHaveProperty('noofPOS', 1);
    const draft = await createOrder(database.db);
    expect(draft).toMatchObject({ status: '1', customerId: null, storeId: null });
    const reason = await createStatusReason(database.db, { status: '3', reason: 'Failed credit check' });
    const note = await createOrderNote(database.db, {
      orderId: order.id,
      noteType: 'status_reason',
      statusReasonId: reason.id,
      body: 'Failed credit check',
    });
    expect(note.orderId).toBe(order.id);
    await createOrderNote(database.db);
  });

  it('createCatalogue is idempotent; promotions by amount and by percent; referrals', async () => {
    await createCatalogue(database.db);
    const before = await countRows(database.db);
    await createCatalogue(database.db);
    expect(await countRows(database.db)).toEqual(before);
    const amount = await createPromotion(database.db, { currency });
    expect(amount).toMatchObject({ method: 'A', amountCents: 50_00, percent: null });
    const percent = await createPromotion(database.db, {
      method: 'P',
      percent: '12.5',
      customerType: 'U',
      expiresOn: '2020-01-31',
      currency,
    });
    expect(percent).toMatchObject({ method: 'P', amountCents: null, customerType: 'U' });
    expect(Number(percent.percent)).toBe(12.5);
    await expect(createPromotion(database.db, { method: 'P', percent: '120' })).rejects.toThrow();
    const referral = await createReferral(database.db, { currency });
    expect(referral.currency).toBe(currency);
  });
});
