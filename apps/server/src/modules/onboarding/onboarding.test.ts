import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { OrderDocument } from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingItem, createCustomer, createOrder, createStore, setTaxRate } from '../../db/factories';
import {
  auditLog,
  customerBillingItems,
  customerPaymentPlans,
  customers,
  orders,
  paymentInstruments,
  stores,
  taxCertificates,
  terminals,
} from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { newMerchantOrder, terminalSerials } from '../../test/orders';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Onboarding (issue 7, decision 083): the move to Complete makes the merchant's records once; the Admin re-run answers
 * the same records and writes nothing.
 */

let t: TestApp;
let ops: string;
let admin: string;
let sales: string;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const US = { address1: '9 Oak Ave', address2: '', city: 'Austin', state: 'TX', zip: '73301', country: 'US' as const };
const CA = { address1: '1 Main St', address2: '', city: 'Regina', state: 'SK', zip: 'S4P 3Y2', country: 'CA' as const };

function doc(taxId: string, addr: typeof US | typeof CA = US, over: Partial<OrderDocument> = {}): OrderDocument {
  const o = newMerchantOrder({
    firstName: 'Iris',
    lastName: 'Stone',
    email: 'iris@shop.example',
    federalTaxId: taxId,
    doingBusinessAs: 'Stone Grocery',
    address: addr,
    terminals: 2,
    processorReference: 'pm_local_abc123',
  });
  o.BillingItemInfo = [{ billingItemId: 20, name: 'Shipping', quantity: 1, unitPrice: '35.00' }];
  return { ...o, ...over };
}

async function complete(orderId: number, token = ops): Promise<{ status: number; body: Json }> {
  const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
  const res = await t.request({
    method: 'PUT',
    url: `/api/customers/ordernotes/${token}`,
    payload: {
      order_id: orderId,
      status: '150',
      version: row!.version,
      note: 'Installed.',
      ...(row!.status === '140'
        ? { terminal_serials: terminalSerials((row!.document as OrderDocument).noOfTerminals ?? 0) }
        : {}),
    },
  });
  return { status: res.statusCode, body: res.json() as Json };
}

const counts = async (customerId: number) => ({
  stores: (await t.database.db.select().from(stores).where(eq(stores.customerId, customerId))).length,
  terminals: (await t.database.db.select().from(terminals).where(eq(terminals.customerId, customerId))).length,
  plans: (
    await t.database.db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.customerId, customerId))
  ).length,
  items: (
    await t.database.db.select().from(customerBillingItems).where(eq(customerBillingItems.customerId, customerId))
  ).length,
  instruments: (
    await t.database.db.select().from(paymentInstruments).where(eq(paymentInstruments.customerId, customerId))
  ).length,
});

beforeAll(async () => {
  t = await createTestApp({ config: { dataDir: mkdtempSync(path.join(os.tmpdir(), 'pos-onboarding-')) } });
  const db = t.database.db;
  await createBillingItem(db, { id: 20, name: 'Shipping' });
  ({ ops, admin, sales } = await signInStaff(t, { ops: 'Operations', admin: 'Admin', sales: 'RAM' }));
});
afterAll(() => t.close());

describe('onboarding on Complete', () => {
  it('makes the customer, store, terminals with new elmer ids, plans, billing items and the card — once', async () => {
    const order = await createOrder(t.database.db, { status: '140', document: doc('74-1000001') });
    const res = await complete(order.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [after] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(after!.onboardedAt).not.toBeNull();
    const [customer] = await t.database.db.select().from(customers).where(eq(customers.id, after!.customerId!));
    expect(customer).toMatchObject({
      legalName: 'Iris Stone',
      federalTaxId: '74-1000001',
      country: 'US',
      currency: 'USD',
    });
    const made = await t.database.db.select().from(terminals).where(eq(terminals.orderId, order.id));
    expect(made).toHaveLength(2);
    expect(new Set(made.map((x) => x.elmerId)).size).toBe(2);
    expect(made.every((x) => x.status === 'active' && x.storeId === after!.storeId && x.installedAt)).toBe(true);
    const plans = await t.database.db
      .select()
      .from(customerPaymentPlans)
      .where(eq(customerPaymentPlans.orderId, order.id));
    expect(plans.map((p) => [p.kind, p.recurringAmountCents]).sort()).toEqual([
      ['hardware_sale', 0],
      ['monthly', 7900],
    ]);
    const before = await counts(customer!.id);
    expect(before).toEqual({ stores: 1, terminals: 2, plans: 2, items: 1, instruments: 1 });

    // The customer page shows them.
    const page = await t.request({ method: 'GET', url: `/api/customers/${customer!.id}/${admin}` });
    expect(page.statusCode).toBe(200);
    expect(JSON.stringify(page.json())).toContain('Stone Grocery');

    // Again (the Admin re-run): nothing new, the same answer.
    const rerun = await t.request({ method: 'POST', url: `/api/customers/orderinfo/${order.id}/onboard/${admin}` });
    expect(rerun.statusCode, rerun.body).toBe(200);
    expect(rerun.json().info).toMatchObject({
      order_id: order.id,
      customer_id: customer!.id,
      store_id: after!.storeId,
      created: false,
      elmer_ids: made.map((x) => x.elmerId),
    });
    expect(await counts(customer!.id)).toEqual(before);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.action, 'order.onboard'));
    expect(audit.filter((a) => a.entityId === String(order.id))).toHaveLength(1);
  });

  it('an existing customer (same federal tax id) gets a new store, not a second customer; Canada → CAD', async () => {
    const existing = await createCustomer(t.database.db, {
      federalTaxId: '74-1000002',
      country: 'CA',
      currency: 'CAD',
    });
    const order = await createOrder(t.database.db, { status: '140', document: doc('74-1000002', CA) });
    expect((await complete(order.id)).status).toBe(200);
    const [after] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect(after!.customerId).toBe(existing.id);
    const [store] = await t.database.db.select().from(stores).where(eq(stores.id, after!.storeId!));
    expect(store).toMatchObject({ customerId: existing.id, country: 'CA', currency: 'CAD', state: 'SK' });
    const plans = await t.database.db
      .select()
      .from(customerPaymentPlans)
      .where(eq(customerPaymentPlans.orderId, order.id));
    expect(plans.every((p) => p.currency === 'CAD')).toBe(true);
  });

  it('a non-POS order makes no terminals and no hardware plan', async () => {
    const order = await createOrder(t.database.db, {
      status: '140',
      orderType: 'N',
      document: doc('74-1000003', US, { orderType: 'N' }),
    });
    expect((await complete(order.id)).status).toBe(200);
    expect(await t.database.db.select().from(terminals).where(eq(terminals.orderId, order.id))).toHaveLength(0);
    const plans = await t.database.db
      .select()
      .from(customerPaymentPlans)
      .where(eq(customerPaymentPlans.orderId, order.id));
    expect(plans.map((p) => p.kind)).toEqual(['monthly']);
  });

  it('a failure while onboarding rolls the move to Complete back', async () => {
    const broken = doc('74-1000004');
    broken.StoreInfo = { ...broken.StoreInfo, StoreAddress: null };
    broken.HomeAddress = null;
    const order = await createOrder(t.database.db, { status: '140', document: broken });
    const res = await complete(order.id);
    expect([res.status, res.body.error.code]).toEqual([400, 'validation_failed']);
    const [after] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
    expect([after!.status, after!.onboardedAt]).toEqual(['140', null]);
  });

  it('the re-run endpoint: Admin only (403), unknown order 404, an order not Complete 409, bad id 400', async () => {
    const order = await createOrder(t.database.db, { status: '140', document: doc('74-1000005') });
    expect(
      (await t.request({ method: 'POST', url: `/api/customers/orderinfo/${order.id}/onboard/${sales}` })).statusCode,
    ).toBe(403);
    expect(
      (await t.request({ method: 'POST', url: `/api/customers/orderinfo/99999999/onboard/${admin}` })).statusCode,
    ).toBe(404);
    const notDone = await t.request({ method: 'POST', url: `/api/customers/orderinfo/${order.id}/onboard/${admin}` });
    expect([notDone.statusCode, notDone.json().error.code]).toEqual([409, 'conflict']);
    expect((await t.request({ method: 'POST', url: `/api/customers/orderinfo/abc/onboard/${admin}` })).statusCode).toBe(
      400,
    );
  });

  it('a card entered in the order flow arrives as a gateway token and is redeemed at save (reference, brand, last 4 kept)', async () => {
    const card = await t.request({
      method: 'POST',
      url: '/gateway-local/v1/tokens',
      payload: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123', name: 'Iris' },
    });
    const token = (card.json() as Json).token as string;
    const d = doc('74-1000006');
    d.PaymentInstrumentInfo = d.PaymentInstrumentInfo!.map((m) => ({
      ...m,
      creditCardNumber: null,
      paymentProcessorReference: null,
      processorSetupIntent: token,
    }));
    const saved = await t.request({
      method: 'POST',
      url: `/api/customers/orderinfo/new/${sales}`,
      payload: { json: d },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(orders)
      .where(eq(orders.id, (saved.json() as Json).info.orderInfoId as number));
    const methods = (row!.document as OrderDocument).PaymentInstrumentInfo!;
    expect(methods[0]).toMatchObject({
      processorSetupIntent: null,
      creditCardNumber: '4242',
      issuer: 'visa',
      expirationDate: '12/2030',
      paymentMethodSet: true,
    });
    expect(methods[0]!.paymentProcessorReference).toEqual(expect.any(String));
    const bad = await t.request({
      method: 'POST',
      url: `/api/customers/orderinfo/new/${sales}`,
      payload: {
        json: { ...d, PaymentInstrumentInfo: [{ ...methods[0], processorSetupIntent: 'tok_local_forged123' }] },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys((bad.json() as Json).error.fields)).toEqual(['PaymentInstrumentInfo.0.processorSetupIntent']);
  });
});

describe('the hardware sale’s tax (issue 17, decision 127)', () => {
  it('an upfront sale carries the tax in force today; none for an Arizona store with a valid certificate', async () => {
    const db = t.database.db;
    const AZ = {
      address1: '1 Cactus Rd',
      address2: '',
      city: 'Phoenix',
      state: 'AZ',
      zip: '85004',
      country: 'US' as const,
    };
    await setTaxRate(db, { country: 'US', state: 'AZ', rateBasisPoints: 560 });
    const store = await createStore(db, { country: 'US', state: 'AZ' });
    const hardwarePlanOf = async (customerId: number, orderId: number) =>
      (
        await db
          .select()
          .from(customerPaymentPlans)
          .where(and(eq(customerPaymentPlans.customerId, customerId), eq(customerPaymentPlans.orderId, orderId)))
      ).find((p) => p.kind === 'hardware_sale')!;
    const sale = async (taxId: string) => {
      const d = doc(taxId, AZ);
      d.StoreInfo = { ...d.StoreInfo, customerStoreId: store.id };
      const order = await createOrder(db, { status: '140', document: d, storeId: store.id });
      const res = await complete(order.id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return hardwarePlanOf(store.customerId, order.id);
    };
    // $35.00 of one-time charges at 5.6 %: $1.96 of tax.
    expect((await sale('86-0000001')).initialAmountCents).toBe(36_96);
    await db.insert(taxCertificates).values({
      customerId: store.customerId,
      storeId: store.id,
      state: 'AZ',
      certificateNumber: 'TPT-77',
      expiresOn: '2027-06-30',
    });
    expect((await sale('86-0000001')).initialAmountCents).toBe(35_00);
  });
});
