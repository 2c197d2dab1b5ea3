import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createOrder,
  createPaymentInstrument,
  createStaffUser,
  createStore,
  createTransaction,
} from '../../db/factories';
import { auditLog, idempotencyKeys, transactions } from '../../db/schema';
import type { AuthorizeInput, ChargeInput } from '../../integrations/gateway';
import { failAuditOf } from '../../test/fail-audit';
import { AUTHORIZATION_ACTION } from './payment-authorizations.service';
import { signIn } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { IDEMPOTENCY_KEY_TTL_MS, IDEMPOTENCY_LOCK_MS } from '../../http/idempotency';

/*
 * Idempotency-Key on the money POSTs (decision 104), through HTTP: payment authorizations (the gateway is called
 * outside the transaction) and transaction retries (inside it), on the local gateway with its calls counted.
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */

/** A gateway call the test holds until it opens the gate (to keep a first request in flight). */
function gate() {
  let open!: () => void;
  let entered!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  const reached = new Promise<void>((r) => (entered = r));
  return { open, opened, entered, reached };
}

/** A gateway call, counted, and held at the gate when one is set. */
function countAndHold<I, R>(calls: I[], hold: () => ReturnType<typeof gate> | null, call: (input: I) => Promise<R>) {
  return async (input: I): Promise<R> => {
    calls.push(input);
    const held = hold();
    if (held) {
      held.entered();
      await held.opened;
    }
    return call(input);
  };
}

let t: TestApp;
let admin: string;
let otherAdmin: string;
let customerId: number;
let storeId: number;
let cardId: number;
const authorizeCalls: AuthorizeInput[] = [];
const chargeCalls: ChargeInput[] = [];
let holdAuthorize: ReturnType<typeof gate> | null = null;
let holdCharge: ReturnType<typeof gate> | null = null;

beforeAll(async () => {
  t = await createTestApp({
    wrapGateway: (real) => ({
      ...real,
      authorize: countAndHold(authorizeCalls, () => holdAuthorize, real.authorize.bind(real)),
      charge: countAndHold(chargeCalls, () => holdCharge, real.charge.bind(real)),
    }),
  });
  const db = t.database.db;
  await createStaffUser(db, { email: 'admin@example.com', role: 'Admin' });
  await createStaffUser(db, { email: 'admin2@example.com', role: 'Admin' });
  admin = await signIn(t, 'admin@example.com');
  otherAdmin = await signIn(t, 'admin2@example.com');
  const store = await createStore(db, { country: 'US' });
  customerId = store.customerId;
  storeId = store.id;
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

const authorize = (payload: object, key: string | undefined, token = admin) =>
  t.request({
    method: 'POST',
    url: `/api/paymentauthorizations/${token}`,
    payload,
    headers: key ? { 'idempotency-key': key } : {},
  });

const retry = (txId: number, key: string, payload: object = { action: 'retry', version: 1 }) =>
  t.request({
    method: 'POST',
    url: `/api/customers/${customerId}/${admin}/transactions/${txId}`,
    payload,
    headers: { 'idempotency-key': key },
  });

async function newOrderBody(amountCents = 4_200) {
  // Something to authorize (decision 142: at most the order's upfront total): a $1,499.00 terminal.
  const sale = { billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 1, unitPrice: '1499.00' };
  const order = (await createOrder(t.database.db, { customerId, documentInput: { billingItems: [sale] } })).id;
  return { order_id: order, amount_cents: amountCents, currency: 'USD', payment_instrument_id: cardId };
}

const authorizationsOf = (orderId: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'order'),
        eq(auditLog.entityId, String(orderId)),
        eq(auditLog.action, AUTHORIZATION_ACTION),
      ),
    );

const keyRows = (key: string) => t.database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));

const storeTransactions = async () =>
  (await t.database.db.select({ id: transactions.id }).from(transactions).where(eq(transactions.storeId, storeId)))
    .length;

/** Move the app clock; sessions do not last that long, so both users sign in again (a key belongs to the user). */
async function moveClock(ms: number) {
  t.clock.advance(ms);
  admin = await signIn(t, 'admin@example.com');
  otherAdmin = await signIn(t, 'admin2@example.com');
}

describe('Idempotency-Key (decision 104)', () => {
  it('replay: the same key and body answer the same status and body; the gateway is called once', async () => {
    const body = await newOrderBody();
    const calls = authorizeCalls.length;
    const first = await authorize(body, 'replay-1');
    expect(first.statusCode, first.body).toBe(200);
    const again = await authorize({ ...body }, 'replay-1');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(authorizeCalls.length).toBe(calls + 1);
    expect(await authorizationsOf(body.order_id)).toHaveLength(1);
    const [row] = await keyRows('replay-1');
    expect(row).toMatchObject({
      scope: expect.stringMatching(/^staff:\d+ POST \/paymentauthorizations$/),
      responseStatus: 200,
      responseBody: first.json(),
      lockedUntil: null,
    });
    expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(IDEMPOTENCY_KEY_TTL_MS);
  });

  it('a refusal (4xx) is an answer too: the same key replays it even after the record changed', async () => {
    const pending = await createTransaction(t.database.db, { customerId, storeId, status: 'P', amountCents: 1_000 });
    const refused = await retry(pending.id, 'refused-1');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('conflict');
    await t.database.db
      .update(transactions)
      .set({ status: 'F', failureReason: 'Insufficient funds' })
      .where(eq(transactions.id, pending.id));
    const charges = chargeCalls.length;
    const again = await retry(pending.id, 'refused-1');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual(refused.json());
    expect(chargeCalls.length).toBe(charges);
    // A new key is a new request: it runs.
    const fresh = await retry(pending.id, 'refused-2');
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(chargeCalls.length).toBe(charges + 1);
  });

  it('in flight: the same key while the first request runs → 409 idempotency_key_in_flight', async () => {
    const body = await newOrderBody();
    const calls = authorizeCalls.length;
    const held = gate();
    holdAuthorize = held;
    const first = authorize(body, 'flight-1');
    await held.reached;
    holdAuthorize = null;
    try {
      const second = await authorize(body, 'flight-1');
      expect(second.statusCode).toBe(409);
      expect(second.json().error.code).toBe('idempotency_key_in_flight');
      // Another body with the key is a misuse whatever the first one's state.
      const reused = await authorize({ ...body, amount_cents: 4_300 }, 'flight-1');
      expect(reused.statusCode).toBe(422);
      const [row] = await keyRows('flight-1');
      expect(row).toMatchObject({ responseStatus: null, responseBody: null });
      expect(row!.lockedUntil).not.toBeNull();
    } finally {
      held.open();
    }
    const done = await first;
    expect(done.statusCode, done.body).toBe(200);
    const after = await authorize(body, 'flight-1');
    expect(after.json()).toEqual(done.json());
    expect(authorizeCalls.length).toBe(calls + 1);
    expect(await authorizationsOf(body.order_id)).toHaveLength(1);
  });

  it('reused: the same key with another body or other path ids → 422 idempotency_key_reused, nothing runs', async () => {
    const body = await newOrderBody();
    expect((await authorize(body, 'reuse-1')).statusCode).toBe(200);
    const calls = authorizeCalls.length;
    const other = await authorize({ ...body, amount_cents: 999 }, 'reuse-1');
    expect(other.statusCode).toBe(422);
    expect(other.json().error).toEqual({
      code: 'idempotency_key_reused',
      message: 'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
    });
    expect(authorizeCalls.length).toBe(calls);

    const a = await createTransaction(t.database.db, { customerId, storeId, status: 'F', amountCents: 1_100 });
    const b = await createTransaction(t.database.db, { customerId, storeId, status: 'F', amountCents: 1_200 });
    expect((await retry(a.id, 'reuse-2')).statusCode).toBe(200);
    const charges = chargeCalls.length;
    const otherPath = await retry(b.id, 'reuse-2');
    expect(otherPath.statusCode).toBe(422);
    expect(otherPath.json().error.code).toBe('idempotency_key_reused');
    expect(chargeCalls.length).toBe(charges);
  });

  it('expiry: a key is kept 24 h; after that the same key runs anew', async () => {
    const body = await newOrderBody();
    const calls = authorizeCalls.length;
    const first = await authorize(body, 'expiry-1');
    expect(first.statusCode).toBe(200);
    await moveClock(IDEMPOTENCY_KEY_TTL_MS - 60_000);
    expect((await authorize(body, 'expiry-1')).json()).toEqual(first.json());
    expect(authorizeCalls.length).toBe(calls + 1);
    await moveClock(2 * 60_000);
    const anew = await authorize({ ...body, amount_cents: 4_400 }, 'expiry-1');
    expect(anew.statusCode, anew.body).toBe(200);
    expect(anew.json().info.amount_cents).toBe(4_400);
    expect(anew.json().info.authorization_id).not.toBe(first.json().info.authorization_id);
    expect(authorizeCalls.length).toBe(calls + 2);
    expect(await authorizationsOf(body.order_id)).toHaveLength(2);
  });

  it('two concurrent requests with one key: exactly one effect (gateway outside and inside the transaction)', async () => {
    const body = await newOrderBody();
    const calls = authorizeCalls.length;
    const first = gate();
    holdAuthorize = first;
    const both = [authorize(body, 'race-1'), authorize(body, 'race-1')];
    await first.reached;
    holdAuthorize = null;
    first.open();
    expectOneEffect(await Promise.all(both));
    expect(authorizeCalls.length).toBe(calls + 1);
    expect(await authorizationsOf(body.order_id)).toHaveLength(1);

    const failed = await createTransaction(t.database.db, { customerId, storeId, status: 'F', amountCents: 2_300 });
    const before = await storeTransactions();
    const charges = chargeCalls.length;
    const held = gate();
    holdCharge = held;
    const racing = [retry(failed.id, 'race-2'), retry(failed.id, 'race-2')];
    await held.reached;
    holdCharge = null;
    held.open();
    expectOneEffect(await Promise.all(racing));
    expect(chargeCalls.length).toBe(charges + 1);
    expect(await storeTransactions()).toBe(before + 1);
  });

  it("another user's key is another key: no answer of someone else's request", async () => {
    const body = await newOrderBody();
    const mine = await authorize(body, 'shared-key');
    const calls = authorizeCalls.length;
    const theirs = await authorize(body, 'shared-key', otherAdmin);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().info.authorization_id).not.toBe(mine.json().info.authorization_id);
    expect(authorizeCalls.length).toBe(calls + 1);
    const theirsOther = await authorize({ ...body, amount_cents: 4_500 }, 'shared-key-2', otherAdmin);
    expect(theirsOther.statusCode).toBe(200);
    // Their use of a key does not make it "reused" for me.
    expect((await authorize({ ...body, amount_cents: 4_600 }, 'shared-key-2')).statusCode).toBe(200);
    expect(await keyRows('shared-key')).toHaveLength(2);
  });

  it('nothing half-written: a 400 (schema or the service) leaves no key behind; the corrected request runs', async () => {
    const body = await newOrderBody();
    const invalid = await authorize({ ...body, amount_cents: -5 }, 'fix-1');
    expect(invalid.statusCode).toBe(400);
    expect(await keyRows('fix-1')).toHaveLength(0);
    const wrongCurrency = await authorize({ ...body, currency: 'CAD' }, 'fix-1');
    expect(wrongCurrency.statusCode).toBe(400);
    expect(wrongCurrency.json().error.fields).toHaveProperty('currency');
    expect(await keyRows('fix-1')).toHaveLength(0);
    const corrected = await authorize(body, 'fix-1');
    expect(corrected.statusCode, corrected.body).toBe(200);
  });

  it('a 5xx unlocks the key: a retry of the same request runs, and the gateway gives the same authorization back', async () => {
    const body = await newOrderBody();
    const undo = await failAuditOf(t, AUTHORIZATION_ACTION);
    let failed;
    try {
      failed = await authorize(body, 'crash-1');
    } finally {
      await undo();
    }
    expect(failed.statusCode).toBe(500);
    const [unlocked] = await keyRows('crash-1');
    expect(unlocked).toMatchObject({ responseStatus: null });
    expect(unlocked!.lockedUntil!.getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    // Only the same request may take the key over.
    expect((await authorize({ ...body, amount_cents: 4_201 }, 'crash-1')).statusCode).toBe(422);
    const retried = await authorize(body, 'crash-1');
    expect(retried.statusCode, retried.body).toBe(200);
    const [firstCall, secondCall] = authorizeCalls.slice(-2);
    expect(secondCall!.idempotencyKey).toBe(firstCall!.idempotencyKey);
    expect(await authorizationsOf(body.order_id)).toHaveLength(1);
  });

  it('a crashed request (lock ran out, no answer): the same request takes the key over, another one is refused', async () => {
    const body = await newOrderBody();
    const held = gate();
    holdAuthorize = held;
    const first = authorize(body, 'stale-1');
    await held.reached;
    holdAuthorize = null;
    // The process "dies" here: its lock runs out with no answer stored.
    t.clock.advance(IDEMPOTENCY_LOCK_MS + 1_000);
    try {
      expect((await authorize({ ...body, amount_cents: 1_234 }, 'stale-1')).statusCode).toBe(422);
      const takenOver = await authorize(body, 'stale-1');
      expect(takenOver.statusCode, takenOver.body).toBe(200);
    } finally {
      held.open();
    }
    // The first request finds its claim taken over: it stores nothing and answers 500; one authorization recorded.
    expect((await first).statusCode).toBe(500);
    expect(await authorizationsOf(body.order_id)).toHaveLength(1);
    const [row] = await keyRows('stale-1');
    expect(row).toMatchObject({ responseStatus: 200, lockedUntil: null });
  });
});

/** Both answered: one ran (200), the other replayed it (200, same body) or found it in flight (409). */
function expectOneEffect(answers: Array<{ statusCode: number; body: string; json(): unknown }>) {
  const statuses = answers.map((a) => a.statusCode).sort();
  expect([
    [200, 200],
    [200, 409],
  ]).toContainEqual(statuses);
  const ok = answers.filter((a) => a.statusCode === 200);
  for (const a of ok) expect(a.json()).toEqual(ok[0]!.json());
  for (const a of answers.filter((x) => x.statusCode === 409)) {
    expect((a.json() as { error: { code: string } }).error.code).toBe('idempotency_key_in_flight');
  }
}
