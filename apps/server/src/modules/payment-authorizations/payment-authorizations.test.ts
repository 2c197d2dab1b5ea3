import { ORDER_STATUS } from '@pos/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createDistributorAccount,
  createOrder,
  createPaymentInstrument,
  createStore,
  setTaxRate,
  type OrderDocumentInput,
} from '../../db/factories';
import { auditLog, authorizationSettlements, orders } from '../../db/schema';
import type { AuthorizeInput, VoidInput } from '../../integrations/gateway';
import { systemCtx } from '../../context';
import { queueHoldSettlements } from '../payments';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { AUTHORIZATION_ACTION, liveHoldsOf } from './payment-authorizations.service';

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
/** While set, authorize calls wait until `of` of them have arrived. */
let barrier: { of: number; reached: number; open: () => void; opened: Promise<void> } | null = null;
/** Each void the gateway was asked for, and whether the database answered meanwhile (no transaction held). */
const voidCalls: { input: VoidInput; databaseFree: boolean }[] = [];

/** A $1,499.00 POS terminal paid upfront: the order has something to authorize (decision 142). */
const TERMINAL_SALE = { billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 1, unitPrice: '1499.00' };

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
        if (barrier) {
          // Hold each call until `barrier.of` requests have reached the gateway (a race where none saw the others).
          barrier.reached++;
          if (barrier.reached === barrier.of) barrier.open();
          await barrier.opened;
        }
        return real.authorize(input);
      },
      voidCharge: async (input) => {
        // A transaction held around this call would keep the database (PGlite: every other statement; PostgreSQL:
        // the order's row lock) from answering this one within 3 s.
        const probe = t.database.db.transaction(async (tx) => {
          await tx.execute(sql`select id from orders for update nowait`);
        });
        const databaseFree = await Promise.race([
          probe.then(
            () => true,
            () => false,
          ),
          new Promise<boolean>((r) => setTimeout(() => r(false), 3000)),
        ]);
        voidCalls.push({ input, databaseFree });
        return real.voidCharge(input);
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
  orderId = (await createOrder(db, { customerId, documentInput: { billingItems: [TERMINAL_SALE] } })).id;
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
      released_authorization_ids: [],
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
    const order = (await createOrder(t.database.db, { customerId, documentInput: { billingItems: [TERMINAL_SALE] } }))
      .id;
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

describe('authorizations bounded by the order (issue 27 item 3, decision 142)', () => {
  /** The store of these orders is in Wyoming, taxed at 8 % here: $1,499.00 + $119.92 = $1,618.92 upfront. */
  const WY = { address1: '1 Main St', address2: '', city: 'Cheyenne', state: 'WY', zip: '82001', country: 'US' };
  const UPFRONT = 1_618_92;

  async function boundedOrder(input: Partial<OrderDocumentInput> = {}) {
    return createOrder(t.database.db, {
      customerId,
      documentInput: { billingItems: [TERMINAL_SALE], storeInfo: { StoreAddress: WY }, ...input },
    });
  }

  const onOrder = async (order: number) => ({
    order_id: order,
    currency: 'USD',
    card_token: await cardToken(),
  });

  beforeAll(async () => {
    await setTaxRate(t.database.db, { country: 'US', state: 'WY', rateBasisPoints: 800 });
  });

  it("an authorization above the order's upfront total (tax included) is refused: 99,999,999 cents on a $1,499 order → 400 amount_cents with the ceiling", async () => {
    const order = (await boundedOrder()).id;
    const before = authorizeCalls.length;
    for (const amount of [99_999_999, UPFRONT + 1]) {
      const res = await authorize({ ...(await onOrder(order)), amount_cents: amount }, { key: `ceiling-${amount}` });
      expect([res.statusCode, res.json().error.code], res.body).toEqual([400, 'validation_failed']);
      expect(Object.keys(res.json().error.fields)).toEqual(['amount_cents']);
      expect(res.json().error.message).toContain('at most $1,618.92 (161892 cents)');
      expect(res.json().error.message).toContain('upfront total with tax ($1,618.92)');
    }
    expect(authorizeCalls.length).toBe(before);
    expect(await auditsOf(order)).toHaveLength(0);
    // Exactly the upfront total with its tax is fine.
    const exact = await authorize({ ...(await onOrder(order)), amount_cents: UPFRONT });
    expect(exact.statusCode, exact.body).toBe(200);
    expect(exact.json().info).toMatchObject({ status: 'authorized', amount_cents: UPFRONT });
  });

  it('an order paid in installments has nothing upfront: any amount is refused (400, ceiling $0.00)', async () => {
    const order = (
      await boundedOrder({
        hardwarePlan: { paymentPlanId: 2, initialPaymentCents: 0, recurringCents: 0, term: 12, interval: 1 },
      })
    ).id;
    const res = await authorize({ ...(await onOrder(order)), amount_cents: 100 });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.fields.amount_cents).toContain('at most $0.00');
  });

  it("only the order's own customer's cards: another customer's instrument is 404 payment_instrument_id, worded like a missing one", async () => {
    const order = (await boundedOrder()).id;
    const before = authorizeCalls.length;
    const otherCard = (await createPaymentInstrument(t.database.db, { kind: 'card' })).id;
    const foreign = await authorize({
      order_id: order,
      amount_cents: 100,
      currency: 'USD',
      payment_instrument_id: otherCard,
    });
    const missing = await authorize({
      order_id: order,
      amount_cents: 100,
      currency: 'USD',
      payment_instrument_id: 2_000_000_000,
    });
    expect([foreign.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(JSON.parse(foreign.body.replaceAll(String(otherCard), '2000000000'))).toEqual(missing.json());
    expect(Object.keys(foreign.json().error.fields)).toEqual(['payment_instrument_id']);
    expect(authorizeCalls.length).toBe(before);
  });

  it('one live hold per order: re-authorizing voids the live hold at the gateway, outside any transaction, then places the new one', async () => {
    const order = (await boundedOrder()).id;
    const first = await authorize({ ...(await onOrder(order)), amount_cents: 1_499_00 });
    expect(first.statusCode, first.body).toBe(200);
    const old = first.json().info.authorization_id as string;
    expect((await liveHoldsOf(t.database.db, order)).map((h) => h.authorization_id)).toEqual([old]);

    // The total changed: the rep authorizes again.
    const voidsBefore = voidCalls.length;
    const body = { ...(await onOrder(order)), amount_cents: UPFRONT };
    const second = await authorize(body, { key: 'reauthorize-1' });
    expect(second.statusCode, second.body).toBe(200);
    const renewed = second.json().info;
    expect(renewed).toMatchObject({ status: 'authorized', released_authorization_ids: [old] });
    expect(voidCalls.slice(voidsBefore)).toEqual([
      { input: { reference: old, idempotencyKey: `release:${old}` }, databaseFree: true },
    ]);
    expect((await liveHoldsOf(t.database.db, order)).map((h) => h.authorization_id)).toEqual([
      renewed.authorization_id,
    ]);
    const settlements = await t.database.db
      .select()
      .from(authorizationSettlements)
      .where(eq(authorizationSettlements.orderId, order));
    expect(settlements.map((x) => [x.authorizationReference, x.action, x.status])).toEqual([[old, 'release', 'done']]);
    const released = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(order)), eq(auditLog.action, 'authorization_released')));
    expect(released.map((a) => a.after)).toEqual([
      expect.objectContaining({ authorization_id: old, reason: 're-authorized' }),
    ]);

    // The same request again (same key): the recorded answer, nothing voided or placed again.
    const calls = [authorizeCalls.length, voidCalls.length];
    const replay = await authorize(body, { key: 'reauthorize-1' });
    expect(replay.json()).toEqual(second.json());
    expect([authorizeCalls.length, voidCalls.length]).toEqual(calls);

    // On Complete only the live hold is captured; the replaced one is never captured.
    await t.database.db.transaction((tx) =>
      queueHoldSettlements(systemCtx(t.app.ctx, { actorType: 'system', actorEmail: 'system' }, 'test'), tx, {
        order: { id: order, customerId },
        to: ORDER_STATUS.COMPLETE,
        now: t.clock.now(),
      }),
    );
    const queued = await t.database.db
      .select()
      .from(authorizationSettlements)
      .where(eq(authorizationSettlements.orderId, order));
    expect(queued.map((x) => [x.authorizationReference, x.action, x.status]).sort()).toEqual(
      [
        [old, 'release', 'done'],
        [renewed.authorization_id, 'capture', 'pending'],
      ].sort(),
    );
  });

  it('concurrent authorizations of one order (different keys) leave one live hold: the others voided or queued for release', async () => {
    const order = (await boundedOrder()).id;
    const bodies = await Promise.all(
      [1, 2, 3].map(async (i) => ({ ...(await onOrder(order)), amount_cents: i * 100_00 })),
    );
    // Three requests that each saw no live hold reach the gateway together.
    let open!: () => void;
    barrier = { of: 3, reached: 0, open: () => open(), opened: new Promise<void>((r) => (open = r)) };
    try {
      const answers = await Promise.all(bodies.map((b, i) => authorize(b, { key: `race-live-${order}-${i}` })));
      expect(answers.map((a) => [a.statusCode, a.json().info.released_authorization_ids])).toEqual([
        [200, []],
        [200, []],
        [200, []],
      ]);
    } finally {
      barrier = null;
    }
    const live = await liveHoldsOf(t.database.db, order);
    expect(live).toHaveLength(1);
    // The two placed before it are queued for the payments sweep to void (outside any transaction).
    const queued = await t.database.db
      .select()
      .from(authorizationSettlements)
      .where(eq(authorizationSettlements.orderId, order));
    expect(queued.map((x) => [x.action, x.status])).toEqual([
      ['release', 'pending'],
      ['release', 'pending'],
    ]);
    expect(queued.map((x) => x.authorizationReference)).not.toContain(live[0]!.authorization_id);
  });

  it('a declined re-authorization leaves the order without a live hold (the old one was voided first)', async () => {
    const order = (await boundedOrder()).id;
    const first = await authorize({ ...(await onOrder(order)), amount_cents: 1_000_00 });
    const old = first.json().info.authorization_id as string;
    const declined = await authorize({ ...(await onOrder(order)), amount_cents: 1_000_51 });
    expect(declined.json().info).toMatchObject({ status: 'declined', released_authorization_ids: [old] });
    expect(await liveHoldsOf(t.database.db, order)).toEqual([]);
  });

  it('a Complete, Rejected or canceled order takes no new authorization (409)', async () => {
    for (const status of [ORDER_STATUS.COMPLETE, ORDER_STATUS.REJECTED, ORDER_STATUS.POS_CANCELED]) {
      const order = (await boundedOrder()).id;
      await t.database.db.update(orders).set({ status }).where(eq(orders.id, order));
      const res = await authorize({ ...(await onOrder(order)), amount_cents: 100 });
      expect([res.statusCode, res.json().error.code], status).toEqual([409, 'conflict']);
    }
  });
});
