import { BILLING_ITEM_IDS, ORDER_STATUS, type OrderDocument } from '@pos/domain';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBillingItem, setTaxRate } from '../../db/factories';
import { auditLog, authorizationSettlements, invoices, orders, statusReasons, transactions } from '../../db/schema';
import { newMerchantOrder, terminalSerials } from '../../test/orders';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * The order flow's card hold (issue 29 item 1, decision 151), through HTTP as the rep's browser does it: saving the
 * payment step holds the upfront total with tax on the hardware card; the hold follows the total and the card; a
 * decline is shown in words and not asked again until the rep changes the card or asks; bank, cash and installments
 * take none and say how the money comes; the hold made by the flow pays the S invoice at Complete.
 */

let t: TestApp;
let rep: string;
let ops: string;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TX = { address1: '9 Oak Ave', address2: '', city: 'Austin', state: 'TX', zip: '73301', country: 'US' as const };
/** 2 × $899.00 + $35.00 shipping = $1,833.00; 6.25 % tax = $114.56 → $1,947.56 held. */
const TOTAL = 1_833_00 + 114_56;

let taxIds = 0;
function doc(card: Json): OrderDocument {
  const o = newMerchantOrder({
    firstName: 'Lena',
    lastName: 'Ortiz',
    email: 'lena@shop.example',
    federalTaxId: `75-31000${String(++taxIds).padStart(2, '0')}`,
    doingBusinessAs: 'Ortiz Market',
    address: TX,
    terminals: 2,
    processorReference: 'unused',
  });
  o.BillingItemInfo = [
    { billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 2, unitPrice: '899.00' },
    { billingItemId: BILLING_ITEM_IDS.SHIPPING, name: 'Shipping', quantity: 1, unitPrice: '35.00' },
  ];
  o.PaymentInstrumentInfo = o.PaymentInstrumentInfo!.map((m, i) =>
    i === 0 ? { ...m, paymentProcessorReference: null, creditCardNumber: null, issuer: null, ...card } : m,
  );
  return o;
}

async function token(number = '4242 4242 4242 4242'): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/gateway-local/v1/tokens',
    payload: { number, exp_month: 12, exp_year: 2030, cvc: '123' },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().token as string;
}
const card = async (number?: string) => ({ paymentMethodTypeId: 1, processorSetupIntent: await token(number) });

async function save(id: number | 'new', json: OrderDocument, version?: number) {
  const res = await t.request({
    method: 'POST',
    url: `/api/customers/orderinfo/${id}/${rep}`,
    payload: { json, ...(version !== undefined ? { version } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info as { orderInfoId: number; version: number };
}

const stored = async (id: number) => (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;

async function hold(id: number): Promise<Json> {
  const res = await t.request({ method: 'GET', url: `/api/paymentauthorizations/orders/${id}/${rep}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info as Json;
}

const authorizations = async (id: number) =>
  (
    await t.database.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, 'order'),
          eq(auditLog.entityId, String(id)),
          eq(auditLog.action, 'payment_authorization'),
        ),
      )
      .orderBy(asc(auditLog.id))
  ).map((r) => r.after as Json);

const releases = async (id: number) =>
  (
    await t.database.db
      .select()
      .from(authorizationSettlements)
      .where(eq(authorizationSettlements.orderId, id))
      .orderBy(asc(authorizationSettlements.id))
  ).map((s) => [s.authorizationReference, s.action, s.status]);

beforeAll(async () => {
  t = await createTestApp();
  await createBillingItem(t.database.db, { id: BILLING_ITEM_IDS.SHIPPING, name: 'Shipping' });
  await setTaxRate(t.database.db, { country: 'US', state: 'TX', rateBasisPoints: 625 });
  ({ rep, ops } = await signInStaff(t, { rep: 'RAM', ops: 'Operations' }));
});
afterAll(() => t.close());

describe('the payment step holds the upfront total on the card (decision 151)', () => {
  it('saving a card holds the total with tax, once; a changed total holds again and releases the old hold', async () => {
    const created = await save('new', doc(await card()));
    const first = await hold(created.orderInfoId);
    expect(first).toMatchObject({
      state: 'authorized',
      method: 'card',
      amount_cents: TOTAL,
      upfront_cents: TOTAL,
      currency: 'USD',
      card: { brand: 'visa', last4: '4242' },
      decline_reason: null,
      message: 'Authorized $1,947.56 on Visa ending 4242: captured when the order is complete.',
    });

    // Saving again without a change asks nothing of the gateway.
    const row = await stored(created.orderInfoId);
    const again = await save(created.orderInfoId, row.document as OrderDocument, row.version);
    expect(await authorizations(created.orderInfoId)).toHaveLength(1);

    // A third terminal: $2,732.00 + 6.25 % = $2,902.75 held on the same card; the $1,947.56 hold is released.
    const more = structuredClone((await stored(created.orderInfoId)).document as OrderDocument);
    more.BillingItemInfo![0]!.quantity = 3;
    await save(created.orderInfoId, more, again.version);
    const second = await hold(created.orderInfoId);
    expect(second).toMatchObject({ state: 'authorized', amount_cents: 2_902_75, card: { last4: '4242' } });
    expect(second.authorization_id).not.toBe(first.authorization_id);
    expect(await releases(created.orderInfoId)).toEqual([[first.authorization_id, 'release', 'done']]);
  });

  it('a declined card is shown in words and not asked again until the rep asks or changes the card', async () => {
    const created = await save('new', doc(await card('4000 0000 0000 9995')));
    expect(await hold(created.orderInfoId)).toMatchObject({
      state: 'declined',
      card: { brand: 'visa', last4: '9995' },
      decline_reason: 'Insufficient funds',
      message: 'Visa ending 9995 was declined: Insufficient funds. Enter another card, or try this one again.',
    });
    const row = await stored(created.orderInfoId);
    const again = await save(created.orderInfoId, row.document as OrderDocument, row.version);
    expect(await authorizations(created.orderInfoId)).toHaveLength(1);

    // "Try again": one more ask per Idempotency-Key (a repeat of the key answers the same, asks nothing).
    const retry = () =>
      t.request({
        method: 'POST',
        url: `/api/paymentauthorizations/orders/${created.orderInfoId}/${rep}`,
        headers: { 'idempotency-key': 'hold-retry-1' },
      });
    const tried = await retry();
    expect(tried.statusCode, tried.body).toBe(200);
    expect(tried.json().info).toMatchObject({ state: 'declined', decline_reason: 'Insufficient funds' });
    expect((await retry()).json().info.state).toBe('declined');
    expect(await authorizations(created.orderInfoId)).toHaveLength(2);

    // Another card: held.
    const other = structuredClone((await stored(created.orderInfoId)).document as OrderDocument);
    const visa = await card();
    other.PaymentInstrumentInfo = other.PaymentInstrumentInfo!.map((m, i) => (i === 0 ? { ...m, ...visa } : m));
    await save(created.orderInfoId, other, (await stored(created.orderInfoId)).version);
    expect(await hold(created.orderInfoId)).toMatchObject({
      state: 'authorized',
      amount_cents: TOTAL,
      card: { last4: '4242' },
    });
    void again;
  });

  it('bank, cash and installments take no hold and say how the money comes; switching to the bank releases the hold', async () => {
    const created = await save('new', doc(await card()));
    const held = await hold(created.orderInfoId);
    expect(held.state).toBe('authorized');

    const bank = structuredClone((await stored(created.orderInfoId)).document as OrderDocument);
    bank.PaymentInstrumentInfo = bank.PaymentInstrumentInfo!.map((m, i) =>
      i === 0
        ? {
            ...m,
            paymentMethodTypeId: 2,
            paymentProcessorReference: null,
            creditCardNumber: null,
            achBankName: 'Chase',
            achRoutingNumber: '011000015',
            achAccountNumber: '000123456789',
            achAccountType: 'checking',
          }
        : m,
    );
    const saved = await save(created.orderInfoId, bank, (await stored(created.orderInfoId)).version);
    expect(await hold(created.orderInfoId)).toMatchObject({
      state: 'not_needed',
      method: 'bank',
      upfront_cents: TOTAL,
      message: 'No card hold: the bank account is debited $1,947.56 when the order is complete.',
    });
    expect(await releases(created.orderInfoId)).toEqual([[held.authorization_id, 'release', 'done']]);

    const cash = structuredClone((await stored(created.orderInfoId)).document as OrderDocument);
    cash.PaymentInstrumentInfo = cash.PaymentInstrumentInfo!.map((m, i) =>
      i === 0 ? { ...m, paymentMethodTypeId: 3 } : m,
    );
    const cashSaved = await save(created.orderInfoId, cash, saved.version);
    expect((await hold(created.orderInfoId)).message).toBe(
      'No card hold: the merchant pays $1,947.56 by cash or check; AR records the receipt when the order is complete.',
    );

    const installments = structuredClone((await stored(created.orderInfoId)).document as OrderDocument);
    const newCard = await card();
    installments.PaymentInstrumentInfo = installments.PaymentInstrumentInfo!.map((m, i) =>
      i === 0 ? { ...m, ...newCard } : m,
    );
    installments.PaymentPlanInfo = installments.PaymentPlanInfo!.map((p, i) =>
      i === 0 ? { ...p, paymentPlanId: 2, term: 12, interval: 1 } : p,
    );
    await save(created.orderInfoId, installments, cashSaved.version);
    expect(await hold(created.orderInfoId)).toMatchObject({
      state: 'not_needed',
      installments: true,
      upfront_cents: 0,
      message: 'Installments: nothing is paid upfront; the billing run invoices each installment.',
    });
    expect(await authorizations(created.orderInfoId)).toHaveLength(1);
  });

  it('the hold placed by the flow pays the S invoice at Complete', async () => {
    const created = await save('new', doc(await card()));
    const held = await hold(created.orderInfoId);
    await t.database.db
      .update(orders)
      .set({ status: ORDER_STATUS.INSTALLATION })
      .where(eq(orders.id, created.orderInfoId));
    const row = await stored(created.orderInfoId);
    const res = await t.request({
      method: 'PUT',
      url: `/api/customers/ordernotes/${ops}`,
      payload: {
        order_id: row.id,
        status: ORDER_STATUS.COMPLETE,
        version: row.version,
        note: 'Installed.',
        terminal_serials: terminalSerials(2),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [sale] = await t.database.db
      .select()
      .from(invoices)
      .where(and(eq(invoices.orderId, row.id), eq(invoices.type, 'S')));
    expect(sale).toMatchObject({ status: 'P', totalCents: TOTAL, paidCents: TOTAL });
    const charges = await t.database.db.select().from(transactions).where(eq(transactions.invoiceId, sale!.id));
    expect(charges.map((c) => [c.kind, c.status, c.amountCents, c.idempotencyKey])).toEqual([
      ['charge', 'S', TOTAL, `capture:${held.authorization_id}`],
    ]);
    expect(await hold(row.id)).toMatchObject({
      state: 'closed',
      settlement: { action: 'capture', status: 'done', amount_cents: TOTAL, invoice_number: sale!.invoiceNumber },
      message: `Captured $1,947.56 on Visa ending 4242 for invoice ${sale!.invoiceNumber}.`,
    });
  });

  it('an order canceled after the merchant signed releases the hold made by the flow, and says so; nothing is billed', async () => {
    const created = await save('new', doc(await card()));
    const held = await hold(created.orderInfoId);
    expect(held.state).toBe('authorized');
    // Signed and approved: the installation is booked.
    await t.database.db
      .update(orders)
      .set({ status: ORDER_STATUS.INSTALLATION })
      .where(eq(orders.id, created.orderInfoId));
    const [reason] = await t.database.db
      .insert(statusReasons)
      .values({ status: ORDER_STATUS.POS_CANCELED, reason: 'Merchant withdrew (hold test)' })
      .returning();
    const row = await stored(created.orderInfoId);
    const res = await t.request({
      method: 'PUT',
      url: `/api/customers/ordernotes/${ops}`,
      payload: {
        order_id: row.id,
        status: ORDER_STATUS.POS_CANCELED,
        version: row.version,
        status_reason_id: reason!.id,
        note: 'The merchant withdrew after signing.',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await releases(row.id)).toEqual([[held.authorization_id, 'release', 'done']]);
    expect(await hold(row.id)).toMatchObject({
      state: 'closed',
      settlement: { action: 'release', status: 'done', amount_cents: TOTAL },
      message: 'Released: the hold of $1,947.56 on Visa ending 4242 was voided; nothing was charged.',
    });
    expect(await t.database.db.select().from(invoices).where(eq(invoices.orderId, row.id))).toHaveLength(0);
  });
});
