import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createDistributorAccount,
  createOrder,
  createPaymentInstrument,
  createStore,
} from '../../db/factories';
import { auditLog } from '../../db/schema';
import type { AuthorizeInput } from '../../integrations/gateway';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { AUTHORIZATION_ACTION } from './payment-authorizations.service';

/* POST /api/paymentauthorizations/{token} (decision 081) on the local gateway, with its calls counted. */

let t: TestApp;
/** Admin: search_orders_edit. */
let admin: string;
/** Marketing: search_orders_view only. */
let marketing: string;
/** A distributor of agent A (create_distributor_orders, own agent's orders only). */
let distributor: string;
let customerId: number;
let orderId: number;
let cardId: number;
const authorizeCalls: AuthorizeInput[] = [];

const VISA = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2029, cvc: '123' };
const DECLINED_CARD = { ...VISA, number: '4000 0000 0000 0002' };

async function cardToken(card = VISA): Promise<string> {
  const res = await t.request({ method: 'POST', url: '/gateway-local/v1/tokens', payload: card });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().token as string;
}

const authorize = (payload: unknown, opts: { token?: string; key?: string } = {}) =>
  t.request({
    method: 'POST',
    url: `/api/paymentauthorizations/${opts.token ?? admin}`,
    payload: payload as object,
    headers: opts.key ? { 'idempotency-key': opts.key } : {},
  });

const auditsOf = (id: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(
      and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, String(id)), eq(auditLog.action, AUTHORIZATION_ACTION)),
    );

beforeAll(async () => {
  t = await createTestApp({
    wrapGateway: (real) => ({
      ...real,
      authorize: async (input) => {
        authorizeCalls.push(input);
        return real.authorize(input);
      },
    }),
  });
  const db = t.database.db;
  ({ admin, marketing } = await signInStaff(t, { admin: 'Admin', marketing: 'Marketing' }));
  const agentA = (await createAgent(db, { type: 'Distributor' })).id;
  await createDistributorAccount(db, { email: 'dist-auth@example.com', password: 'distributor-demo', agentId: agentA });
  const login = await t.request({
    method: 'POST',
    url: '/api/auth/distributor/login',
    payload: { email: 'dist-auth@example.com', password: 'distributor-demo' },
  });
  if (login.statusCode !== 200) throw new Error(login.body);
  distributor = login.json().info.token as string;
  const store = await createStore(db, { country: 'US' });
  customerId = store.customerId;
  orderId = (await createOrder(db, { customerId })).id;
  cardId = (
    await createPaymentInstrument(db, {
      customerId,
      kind: 'card',
      cardLast4: '1111',
      processorReference: 'pm_saved_1111',
    })
  ).id;
});
afterAll(() => t.close());

describe('POST /api/paymentauthorizations/{token}', () => {
  it('authorizes an amount on a card token and records it on the order, filed under its customer', async () => {
    const res = await authorize({
      order_id: orderId,
      amount_cents: 12_345,
      currency: 'USD',
      card_token: await cardToken(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info).toEqual({
      authorization_id: expect.stringMatching(/^auth_local_/),
      order_id: orderId,
      status: 'authorized',
      amount_cents: 12_345,
      currency: 'USD',
      decline_reason: null,
      payment_instrument_id: null,
      card: { brand: 'visa', last4: '4242' },
      authorized_at: expect.any(String),
    });
    const entry = (await auditsOf(orderId)).find(
      (a) => (a.after as { authorization_id: string }).authorization_id === info.authorization_id,
    );
    expect(entry).toMatchObject({
      customerId,
      actorEmail: 'admin@example.com',
      after: { customer_id: customerId, status: 'authorized', amount_cents: 12_345 },
    });
    expect(JSON.stringify(entry)).not.toContain('tok_local_');
  });

  it("authorizes on a saved card of the order's customer", async () => {
    const res = await authorize({
      order_id: orderId,
      amount_cents: 500,
      currency: 'USD',
      payment_instrument_id: cardId,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toMatchObject({
      status: 'authorized',
      payment_instrument_id: cardId,
      card: { brand: 'visa', last4: '1111' },
    });
    expect(authorizeCalls.at(-1)).toMatchObject({ paymentReference: 'pm_saved_1111', amountCents: 500, customerId });
  });

  it('answers a decline as status declined with the reason (51 cents; a card ending 0002), and records it', async () => {
    const cents = await authorize({
      order_id: orderId,
      amount_cents: 1051,
      currency: 'USD',
      card_token: await cardToken(),
    });
    expect(cents.statusCode, cents.body).toBe(200);
    expect(cents.json().info).toMatchObject({
      status: 'declined',
      decline_reason: 'Insufficient funds',
      amount_cents: 1051,
    });
    const card = await authorize({
      order_id: orderId,
      amount_cents: 1000,
      currency: 'USD',
      card_token: await cardToken(DECLINED_CARD),
    });
    expect(card.json().info).toMatchObject({
      status: 'declined',
      decline_reason: 'Card declined',
      card: { last4: '0002' },
    });
    const statuses = (await auditsOf(orderId)).map((a) => (a.after as { status: string }).status);
    expect(statuses.filter((s) => s === 'declined')).toHaveLength(2);
  });

  it('400 with fields: missing values, neither or both payment sources, a bad token, another currency, a bank account', async () => {
    const empty = await authorize({});
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json().error.fields)).toEqual(
      expect.arrayContaining(['order_id', 'amount_cents', 'currency']),
    );
    const neither = await authorize({ order_id: orderId, amount_cents: 100, currency: 'USD' });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().error.fields).toEqual({
      card_token: 'Give either card_token or payment_instrument_id (exactly one).',
    });
    const both = await authorize({
      order_id: orderId,
      amount_cents: 100,
      currency: 'USD',
      card_token: await cardToken(),
      payment_instrument_id: cardId,
    });
    expect(both.statusCode).toBe(400);
    const negative = await authorize({
      order_id: orderId,
      amount_cents: -5,
      currency: 'USD',
      payment_instrument_id: cardId,
    });
    expect(negative.json().error.fields).toEqual({ amount_cents: 'The amount must be at least 1 cent.' });
    const badToken = await authorize({
      order_id: orderId,
      amount_cents: 100,
      currency: 'USD',
      card_token: 'tok_local_x.y',
    });
    expect(badToken.statusCode).toBe(400);
    expect(badToken.json().error.fields).toHaveProperty('card_token');
    const cad = await authorize({
      order_id: orderId,
      amount_cents: 100,
      currency: 'CAD',
      payment_instrument_id: cardId,
    });
    expect(cad.statusCode).toBe(400);
    expect(cad.json().error.fields).toEqual({ currency: 'This order is in USD; authorize in USD.' });
    const bank = (await createPaymentInstrument(t.database.db, { customerId, kind: 'bank' })).id;
    const onBank = await authorize({
      order_id: orderId,
      amount_cents: 100,
      currency: 'USD',
      payment_instrument_id: bank,
    });
    expect(onBank.statusCode).toBe(400);
    expect(onBank.json().error.fields).toHaveProperty('payment_instrument_id');
  });

  it('403 without an order-writing privilege, 404 for a distributor on another agent’s order (decision 102); nothing is authorized', async () => {
    const before = authorizeCalls.length;
    const viewer = await authorize(
      { order_id: orderId, amount_cents: 100, currency: 'USD', payment_instrument_id: cardId },
      { token: marketing },
    );
    expect(viewer.statusCode).toBe(403);
    const foreign = await authorize(
      { order_id: orderId, amount_cents: 100, currency: 'USD', payment_instrument_id: cardId },
      { token: distributor },
    );
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json().error).toEqual({
      code: 'not_found',
      message: `Order ${orderId} was not found.`,
      fields: { order_id: `Order ${orderId} was not found.` },
    });
    expect(authorizeCalls.length).toBe(before);
  });

  it("404 for an unknown order and for another customer's payment method", async () => {
    const missing = await authorize({
      order_id: 2_000_000_000,
      amount_cents: 100,
      currency: 'USD',
      payment_instrument_id: cardId,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.fields).toHaveProperty('order_id');
    const otherCard = (await createPaymentInstrument(t.database.db, { kind: 'card' })).id;
    const foreign = await authorize({
      order_id: orderId,
      amount_cents: 100,
      currency: 'USD',
      payment_instrument_id: otherCard,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.fields).toHaveProperty('payment_instrument_id');
  });

  it('the same Idempotency-Key answers the same authorization without a second gateway call; another body with it → 422', async () => {
    const order = (await createOrder(t.database.db, { customerId })).id;
    const body = { order_id: order, amount_cents: 4200, currency: 'USD', payment_instrument_id: cardId };
    const before = authorizeCalls.length;
    const first = await authorize(body, { key: 'auth-key-1' });
    const again = await authorize(body, { key: 'auth-key-1' });
    expect(first.statusCode, first.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(authorizeCalls.length).toBe(before + 1);
    expect(await auditsOf(order)).toHaveLength(1);
    const other = await authorize({ ...body, amount_cents: 4300 }, { key: 'auth-key-1' });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('idempotency_key_reused');
    const fresh = await authorize(body, { key: 'auth-key-2' });
    expect(fresh.json().info.authorization_id).not.toBe(first.json().info.authorization_id);
    expect(authorizeCalls.length).toBe(before + 2);
  });
});
