import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../db/factories';
import { createTestApp, type TestApp } from '../../test/test-app';
import { signInStaff } from '../../test/sign-in';

/*
 * Issue 31 item 8: a staff member adds a card (POST …/paymentinstruments) — the card token is redeemed and the
 * gateway's customer updated (spec §7 POST /customers/{id}) outside any database transaction, and only for a
 * customer whose country creates a processor customer (the country table: the US, not Canada).
 */

let t: TestApp;
let editor: string;
let probing = false;
const calls: Array<{ call: string; databaseFree: boolean; input?: unknown }> = [];

/** Whether the database answers a locking probe while the gateway is being called (no transaction held). */
async function note(call: string, input?: unknown) {
  if (!probing) return;
  const probe = t.database.db.transaction(async (tx) => {
    await tx.execute(sql`select id from payment_instruments for update nowait`);
    await tx.execute(sql`select key from idempotency_keys for update nowait`);
  });
  const databaseFree = await Promise.race([
    probe.then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((r) => setTimeout(() => r(false), 3000)),
  ]);
  calls.push({ call, databaseFree, ...(input === undefined ? {} : { input }) });
}

beforeAll(async () => {
  t = await createTestApp({
    wrapGateway: (real) => ({
      ...real,
      redeemCardToken: async (token) => {
        await note('redeemCardToken');
        return real.redeemCardToken(token);
      },
      updateCustomer: async (input) => {
        await note('updateCustomer', input);
        return real.updateCustomer(input);
      },
    }),
  });
  ({ editor } = await signInStaff(t, { editor: 'Customer Support' }));
});
afterAll(() => t.close());

const VISA = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2029, cvc: '123', name: 'Pat Merchant' };

async function addCard(customerId: number, key: string) {
  const { token } = (await t.request({ method: 'POST', url: '/gateway-local/v1/tokens', payload: VISA })).json();
  probing = true;
  try {
    return await t.request({
      method: 'POST',
      url: `/api/customers/${customerId}/${editor}/paymentinstruments`,
      payload: { kind: 'card', card_token: token, name_on_account: 'Pat Merchant' },
      headers: { 'idempotency-key': key },
    });
  } finally {
    probing = false;
  }
}

describe('adding a card: the gateway outside the transaction, the processor customer by country', () => {
  it('a US customer: the token is redeemed, then the gateway customer learns its default card — no lock held', async () => {
    const store = await createStore(t.database.db, { country: 'US' });
    calls.length = 0;
    const res = await addCard(store.customerId, 'us-card-1');
    expect(res.statusCode, res.body).toBe(201);
    expect(calls.map(({ call, databaseFree }) => ({ call, databaseFree }))).toEqual([
      { call: 'redeemCardToken', databaseFree: true },
      { call: 'updateCustomer', databaseFree: true },
    ]);
    expect(calls[1]!.input).toMatchObject({
      customerId: store.customerId,
      defaultPaymentReference: expect.stringMatching(/^pm_local_.+_4242$/),
    });
  });

  it('a Canadian customer has no processor customer: the token is redeemed, nothing else is told', async () => {
    const store = await createStore(t.database.db, { country: 'CA' });
    calls.length = 0;
    const res = await addCard(store.customerId, 'ca-card-1');
    expect(res.statusCode, res.body).toBe(201);
    expect(calls.map((c) => c.call)).toEqual(['redeemCardToken']);
  });

  it("another customer's id is 404 before the gateway is asked anything", async () => {
    calls.length = 0;
    const res = await addCard(2_000_000_000, 'nobody-1');
    expect(res.statusCode, res.body).toBe(404);
    expect(calls).toEqual([]);
  });
});
