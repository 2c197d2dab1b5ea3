import { randomUUID } from 'node:crypto';
import { BILLING_ITEM_IDS } from '@pos/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createInvoice,
  createPaymentInstrument,
  createPaymentPlan,
  createStore,
  createTransaction,
} from '../../db/factories';
import { auditLog, invoiceDunning, invoices, linkTokens, paymentInstruments, transactions } from '../../db/schema';
import type { LocalGateway } from '../../integrations/gateway';
import { issueLinkToken, PAYMENT_UPDATE_LINK_TTL_MS } from '../../lib/link-tokens';
import { startWorkers } from '../../jobs/registry';
import { waitForJob } from '../../test/jobs';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { chargeInvoice } from '../payments';

/*
 * The merchant's payment pages through HTTP (issue 15 points 6–7, decisions 118, 155): the page shows what is owed;
 * replacing the method on file charges nothing; paying — with the method on file or a new card — pays the open
 * invoices, once, however often the request is repeated; the link is used up once money moved or nothing is owed;
 * expired, replaced and unknown links are told apart; guessing is rate limited.
 */

let t: TestApp;
const gateway = () => t.app.ctx.gateway as LocalGateway;
const SYSTEM = { actorType: 'system' as const, actorId: 'test' };

/** While `probing`, each gateway call of the pages, and whether the database answered meanwhile (no transaction held). */
let probing = false;
const gatewayCalls: Array<{ call: string; databaseFree: boolean }> = [];
async function noteGatewayCall(call: string) {
  if (!probing) return;
  // A transaction held around the call would keep the database (PGlite: every other statement; PostgreSQL: the
  // link's or the instrument's row lock) from answering this probe within 3 s.
  const probe = t.database.db.transaction(async (tx) => {
    await tx.execute(sql`select id from link_tokens for update nowait`);
    await tx.execute(sql`select id from payment_instruments for update nowait`);
  });
  const databaseFree = await Promise.race([
    probe.then(
      () => true,
      () => false,
    ),
    new Promise<boolean>((r) => setTimeout(() => r(false), 3000)),
  ]);
  gatewayCalls.push({ call, databaseFree });
}

beforeAll(async () => {
  t = await createTestApp({
    wrapGateway: (real) => ({
      ...real,
      redeemCardToken: async (token) => {
        await noteGatewayCall('redeemCardToken');
        return real.redeemCardToken(token);
      },
      updateCustomer: async (input) => {
        await noteGatewayCall('updateCustomer');
        return real.updateCustomer(input);
      },
      charge: async (input) => {
        await noteGatewayCall('charge');
        return real.charge(input);
      },
    }),
  });
});
afterAll(() => t.close());

/** A US store whose default card (…0002, hard decline) failed on a $100 invoice due `dueOn`. */
async function failedStore(opts: { dueOn?: string } = {}) {
  const db = t.database.db;
  const customer = await createCustomer(db, { country: 'US' });
  const store = await createStore(db, { customerId: customer.id, country: 'US', doingBusinessAs: 'Corner Deli' });
  const card = await createPaymentInstrument(db, {
    customerId: customer.id,
    storeId: store.id,
    kind: 'card',
    cardLast4: '0002',
    processorReference: `pm_local_test${customer.id}_0002`,
    isDefault: true,
  });
  const today = t.clock.now().toISOString().slice(0, 10);
  const invoice = await createInvoice(db, {
    customerId: customer.id,
    storeId: store.id,
    currency: 'USD',
    issuedOn: opts.dueOn ?? today,
    dueOn: opts.dueOn ?? today,
    lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 100_00 }],
  });
  const first = await chargeInvoice(t.app.ctx, {
    invoiceId: invoice.id,
    attempt: 'autopay',
    source: 'autopay',
    actor: SYSTEM,
    requestId: randomUUID(),
  });
  expect(first).toMatchObject({ status: 'F' });
  return { customer, store, card, invoice };
}

async function linkFor(storeId: number, purpose: 'payment_update' | 'payment_instrument' = 'payment_update') {
  return t.database.db.transaction((tx) =>
    issueLinkToken(tx, {
      purpose,
      subjectType: 'store',
      subjectId: storeId,
      now: t.clock.now(),
      ttlMs: PAYMENT_UPDATE_LINK_TTL_MS,
    }),
  );
}

const cardToken = (last4 = '4242') =>
  gateway().tokenize({
    number: last4 === '4242' ? '4242424242424242' : `400000000000${last4}`,
    exp_month: 12,
    exp_year: 2030,
  }).token;

const view = (tok: string, path = '', remoteAddress?: string) =>
  t.request({ method: 'GET', url: `/api/public/payment/${path}${tok}`, ...(remoteAddress ? { remoteAddress } : {}) });
const pay = (tok: string, payload: unknown, key: string | null = 'k-1', path = '') =>
  t.request({
    method: 'POST',
    url: `/api/public/payment/${path}${tok}`,
    payload: payload as object,
    headers: key === null ? {} : { 'idempotency-key': key },
  });

describe('GET /api/public/payment/{tok}', () => {
  it('shows the store name, its open invoices and total, the masked card, the tokenize URL — nothing else', async () => {
    const s = await failedStore();
    const link = await linkFor(s.store.id);
    const res = await view(link.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toEqual({
      purpose: 'payment_update',
      store_name: 'Corner Deli',
      currency: 'USD',
      invoices: [
        {
          invoice_number: s.invoice.invoiceNumber,
          issued_on: s.invoice.issuedOn,
          due_on: s.invoice.dueOn,
          open_cents: 100_00,
        },
      ],
      total_owed_cents: 100_00,
      current_method: expect.stringContaining('0002'),
      current_method_kind: 'card',
      tokenize_url: '/gateway-local/v1/tokens',
      expires_at: link.expiresAt.toISOString(),
    });
    expect(JSON.stringify(t.logs)).not.toContain(link.token);
  });

  it('404 for a link never issued; 410 with how to get a new one for an expired or replaced link', async () => {
    const unknown = await view('x'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    const s = await failedStore();
    const old = await linkFor(s.store.id);
    await linkFor(s.store.id); // replaces it
    const replaced = await view(old.token);
    expect(replaced.statusCode).toBe(410);
    expect(replaced.json().error.message).toMatch(/expired or was replaced.*Ask our billing team for a new link/);
    const live = await linkFor(s.store.id);
    await t.database.db
      .update(linkTokens)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(linkTokens.id, live.id));
    expect((await view(live.token)).statusCode).toBe(410);
  });
});

describe('POST /api/public/payment/{tok}', () => {
  it('400 with fields for a bad body and without an Idempotency-Key', async () => {
    const s = await failedStore();
    const link = await linkFor(s.store.id);
    const bad = await pay(link.token, { kind: 'bank', name_on_account: '', routing_number: '1', account_number: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields)).toEqual(
      expect.arrayContaining(['name_on_account', 'account_number', 'account_type', 'bank_name']),
    );
    const noKey = await pay(link.token, { kind: 'card', card_token: cardToken(), name_on_account: 'Pat' }, null);
    expect(noKey.statusCode).toBe(400);
    // Nothing was used up.
    expect((await view(link.token)).statusCode).toBe(200);
  });

  it('adds the card as the default, pays the failed invoice, uses the link; a replay charges once; a second use is 410', async () => {
    const s = await failedStore();
    const link = await linkFor(s.store.id);
    const token = cardToken();
    const body = { kind: 'card', card_token: token, name_on_account: 'Pat Merchant' };
    const res = await pay(link.token, body, 'pay-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toEqual({
      method: expect.stringContaining('4242'),
      currency: 'USD',
      invoices: [{ invoice_number: s.invoice.invoiceNumber, amount_cents: 100_00, outcome: 'paid', message: 'Paid.' }],
      paid_cents: 100_00,
      retries_queued: 0,
      link_used: true,
    });
    const [inv] = await t.database.db.select().from(invoices).where(eq(invoices.id, s.invoice.id));
    expect(inv).toMatchObject({ status: 'P', paidCents: 100_00 });
    const pis = await t.database.db
      .select()
      .from(paymentInstruments)
      .where(eq(paymentInstruments.customerId, s.customer.id))
      .orderBy(asc(paymentInstruments.id));
    expect(pis.map((p) => [p.cardLast4, p.isDefault, p.storeId])).toEqual([
      ['0002', false, s.store.id],
      ['4242', true, s.store.id],
    ]);
    const [used] = await t.database.db.select().from(linkTokens).where(eq(linkTokens.id, link.id));
    expect(used!.usedAt).not.toBeNull();
    const [d] = await t.database.db.select().from(invoiceDunning).where(eq(invoiceDunning.invoiceId, s.invoice.id));
    expect(d!.state).toBe('recovered');

    // The same request again (the browser retried): the same answer, no second charge.
    const again = await pay(link.token, body, 'pay-1');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(res.json());
    expect(await gateway().store.countCharges(pis[1]!.processorReference!)).toBe(1);
    const txs = await t.database.db.select().from(transactions).where(eq(transactions.invoiceId, s.invoice.id));
    expect(txs.map((x) => x.status).sort()).toEqual(['F', 'S']);

    // Another submit with the used link.
    const second = await pay(link.token, { ...body, card_token: cardToken() }, 'pay-2');
    expect(second.statusCode).toBe(410);
    expect(second.json().error.message).toMatch(/^This link was already used/);
    expect((await view(link.token)).json().error.message).toMatch(/already used/);
  });

  it('a declined new card: the invoice stays open, the answer says why, and the link stays usable for another card', async () => {
    const s = await failedStore();
    const link = await linkFor(s.store.id);
    const res = await pay(link.token, { kind: 'card', card_token: cardToken('9995'), name_on_account: 'Pat' }, 'd-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info.invoices[0]).toMatchObject({ outcome: 'failed' });
    expect(res.json().info).toMatchObject({ paid_cents: 0, link_used: false });
    expect((await view(link.token)).statusCode).toBe(200);
    // Another card through the same link: a new charge (not the declined one's answer), paid; now the link is used.
    const retry = await pay(link.token, { kind: 'card', card_token: cardToken(), name_on_account: 'Pat' }, 'd-2');
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().info).toMatchObject({ paid_cents: 100_00, link_used: true });
    expect((await view(link.token)).statusCode).toBe(410);
  });

  it('a charge already pending: the answer says so and the link stays usable; once paid through it, the link is used', async () => {
    const s = await failedStore();
    const pending = await createTransaction(t.database.db, {
      invoiceId: s.invoice.id,
      status: 'P',
      paymentInstrumentId: s.card.id,
    });
    const link = await linkFor(s.store.id);
    const first = await pay(link.token, { kind: 'card', card_token: cardToken(), name_on_account: 'Pat' }, 'p-1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().info).toMatchObject({
      invoices: [
        {
          invoice_number: s.invoice.invoiceNumber,
          outcome: 'skipped',
          message: 'A payment of this invoice is already in progress.',
        },
      ],
      paid_cents: 0,
      link_used: false,
    });
    const [afterSkip] = await t.database.db.select().from(linkTokens).where(eq(linkTokens.id, link.id));
    expect(afterSkip!.usedAt).toBeNull();
    const page = await view(link.token);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().info.total_owed_cents).toBe(100_00);

    // The pending charge fails; the merchant comes back through the same link and pays: now it is used up.
    await t.database.db
      .update(transactions)
      .set({ status: 'F', failureReason: 'Insufficient funds' })
      .where(eq(transactions.id, pending.id));
    const second = await pay(link.token, { kind: 'card', card_token: cardToken(), name_on_account: 'Pat' }, 'p-2');
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().info).toMatchObject({
      invoices: [{ outcome: 'paid' }],
      paid_cents: 100_00,
      link_used: true,
    });
    const [used] = await t.database.db.select().from(linkTokens).where(eq(linkTokens.id, link.id));
    expect(used!.usedAt).not.toBeNull();
    expect((await view(link.token)).statusCode).toBe(410);
    const third = await pay(link.token, { kind: 'card', card_token: cardToken(), name_on_account: 'Pat' }, 'p-3');
    expect(third.statusCode).toBe(410);
    expect(third.json().error.message).toMatch(/^This link was already used/);
  });
});

const replace = (tok: string, payload: unknown, key: string | null = 'r-1') =>
  t.request({
    method: 'POST',
    url: `/api/public/payment/${tok}/method`,
    payload: payload as object,
    headers: key === null ? {} : { 'idempotency-key': key },
  });

describe('replacing the method on file and paying are two choices (decision 155)', () => {
  it('replacing the card charges nothing and leaves the balance; paying with the card on file then charges it once per Idempotency-Key', async () => {
    const s = await failedStore();
    const link = await linkFor(s.store.id);
    const body = { kind: 'card', card_token: cardToken(), name_on_account: 'Pat Merchant' };
    probing = true;
    gatewayCalls.length = 0;
    let replaced;
    try {
      replaced = await replace(link.token, body, 'replace-1');
    } finally {
      probing = false;
    }
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().info).toEqual({
      method: expect.stringContaining('4242'),
      currency: 'USD',
      total_owed_cents: 100_00,
      link_used: false,
    });
    // The gateway redeemed the token and heard of the new default — outside any transaction — and charged nothing.
    expect(gatewayCalls).toEqual([
      { call: 'redeemCardToken', databaseFree: true },
      { call: 'updateCustomer', databaseFree: true },
    ]);
    const pis = await t.database.db
      .select()
      .from(paymentInstruments)
      .where(eq(paymentInstruments.customerId, s.customer.id))
      .orderBy(asc(paymentInstruments.id));
    expect(pis.map((p) => [p.cardLast4, p.isDefault, p.storeId])).toEqual([
      ['0002', false, s.store.id],
      ['4242', true, s.store.id],
    ]);
    const newCard = pis[1]!.processorReference!;
    expect(await gateway().store.countCharges(newCard)).toBe(0);
    const txsAfterReplace = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.invoiceId, s.invoice.id));
    expect(txsAfterReplace.map((x) => x.status)).toEqual(['F']);
    const [open] = await t.database.db.select().from(invoices).where(eq(invoices.id, s.invoice.id));
    expect(open).toMatchObject({ paidCents: 0 });
    const page = await view(link.token);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().info).toMatchObject({
      total_owed_cents: 100_00,
      current_method: expect.stringContaining('4242'),
    });
    const audits = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(s.store.id)), eq(auditLog.action, 'merchant_method_replaced')));
    expect(audits.map((a) => a.after)).toEqual([
      expect.objectContaining({
        link_token_id: link.id,
        payment_instrument_id: pis[1]!.id,
        charged_cents: 0,
        total_owed_cents: 100_00,
        link_used: false,
      }),
    ]);
    expect(audits[0]!.actorType).toBe('merchant');

    // The same request again (the browser retried): the same answer, no second card.
    const again = await replace(link.token, body, 'replace-1');
    expect(again.json()).toEqual(replaced.json());
    expect(
      await t.database.db.select().from(paymentInstruments).where(eq(paymentInstruments.customerId, s.customer.id)),
    ).toHaveLength(2);

    // Paying is its own action: with the card on file (the new one), once per Idempotency-Key.
    probing = true;
    gatewayCalls.length = 0;
    let paid;
    try {
      paid = await pay(link.token, { kind: 'on_file' }, 'pay-on-file-1');
    } finally {
      probing = false;
    }
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().info).toEqual({
      method: expect.stringContaining('4242'),
      currency: 'USD',
      invoices: [{ invoice_number: s.invoice.invoiceNumber, amount_cents: 100_00, outcome: 'paid', message: 'Paid.' }],
      paid_cents: 100_00,
      retries_queued: 0,
      link_used: true,
    });
    expect(gatewayCalls).toEqual([{ call: 'charge', databaseFree: true }]);
    expect(await gateway().store.countCharges(newCard)).toBe(1);
    const replay = await pay(link.token, { kind: 'on_file' }, 'pay-on-file-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(paid.json());
    expect(await gateway().store.countCharges(newCard)).toBe(1);
    const [settled] = await t.database.db.select().from(invoices).where(eq(invoices.id, s.invoice.id));
    expect(settled).toMatchObject({ status: 'P', paidCents: 100_00 });
    expect((await view(link.token)).statusCode).toBe(410);
    expect((await replace(link.token, { ...body, card_token: cardToken() }, 'replace-2')).statusCode).toBe(410);
  });

  it('with nothing owed, replacing the card uses the link up (its job is done)', async () => {
    const customer = await createCustomer(t.database.db, { country: 'US' });
    const store = await createStore(t.database.db, { customerId: customer.id, country: 'US' });
    const link = await linkFor(store.id);
    const page = await view(link.token);
    expect(page.json().info).toMatchObject({
      invoices: [],
      total_owed_cents: 0,
      current_method: null,
      current_method_kind: null,
    });
    const res = await replace(link.token, { kind: 'card', card_token: cardToken(), name_on_account: 'Pat' }, 'n-1');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toMatchObject({ total_owed_cents: 0, link_used: true });
    expect((await view(link.token)).statusCode).toBe(410);
  });

  it('a failed card on file is tried again only when asked; a new card paid for but not kept on file stays off the default', async () => {
    const s = await failedStore();
    const link = await linkFor(s.store.id);
    // The card on file (…0002) declines: nothing taken, the link stays open.
    const declined = await pay(link.token, { kind: 'on_file' }, 'f-1');
    expect(declined.statusCode, declined.body).toBe(200);
    expect(declined.json().info).toMatchObject({ invoices: [{ outcome: 'failed' }], paid_cents: 0, link_used: false });
    const tries = await t.database.db.select().from(transactions).where(eq(transactions.invoiceId, s.invoice.id));
    expect(tries.map((x) => x.status)).not.toContain('S');
    expect(tries).toHaveLength(2);
    // A one-off new card: paid, and the card on file is left as it was.
    const res = await pay(
      link.token,
      { kind: 'card', card_token: cardToken(), name_on_account: 'Pat', make_default: false },
      'f-2',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toMatchObject({ paid_cents: 100_00, link_used: true });
    const pis = await t.database.db
      .select()
      .from(paymentInstruments)
      .where(eq(paymentInstruments.customerId, s.customer.id))
      .orderBy(asc(paymentInstruments.id));
    expect(pis.map((p) => [p.cardLast4, p.isDefault])).toEqual([
      ['0002', true],
      ['4242', false],
    ]);
  });

  it('the card on file when there is none: 409, the link untouched; a bad body 400; a dead link 410 before the gateway', async () => {
    const customer = await createCustomer(t.database.db, { country: 'US' });
    const store = await createStore(t.database.db, { customerId: customer.id, country: 'US' });
    await createInvoice(t.database.db, {
      customerId: customer.id,
      storeId: store.id,
      currency: 'USD',
      lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 50_00 }],
    });
    const link = await linkFor(store.id);
    const none = await pay(link.token, { kind: 'on_file' }, 'none-1');
    expect(none.statusCode, none.body).toBe(409);
    expect(none.json().error.message).toMatch(/No payment method is on file/);
    expect((await view(link.token)).statusCode).toBe(200);
    const bad = await replace(link.token, { kind: 'on_file' }, 'bad-1');
    expect(bad.statusCode).toBe(400);
    const noKey = await replace(link.token, { kind: 'card', card_token: cardToken(), name_on_account: 'Pat' }, null);
    expect(noKey.statusCode).toBe(400);

    await linkFor(store.id); // replaces the link
    probing = true;
    gatewayCalls.length = 0;
    try {
      const dead = await replace(link.token, { kind: 'card', card_token: cardToken(), name_on_account: 'Pat' }, 'd-1');
      expect(dead.statusCode).toBe(410);
      expect(dead.json().error.message).toMatch(/expired or was replaced/);
    } finally {
      probing = false;
    }
    expect(gatewayCalls).toEqual([]);
    expect(
      (await replace('z'.repeat(43), { kind: 'card', card_token: 'tok_x_123456', name_on_account: 'P' })).statusCode,
    ).toBe(404);
  });
});

describe('the payment-method link', () => {
  it('adds the card and queues an immediate retry of the failed invoice', async () => {
    const s = await failedStore();
    const link = await linkFor(s.store.id, 'payment_instrument');
    expect((await view(link.token)).statusCode).toBe(404); // not a payment_update link
    const page = await view(link.token, 'instrument/');
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().info.purpose).toBe('payment_instrument');
    const res = await pay(
      link.token,
      { kind: 'card', card_token: cardToken(), name_on_account: 'Pat' },
      'i-1',
      'instrument/',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toMatchObject({ invoices: [], retries_queued: 1 });
    expect((await view(link.token, 'instrument/')).statusCode).toBe(410);
  });
});

describe('rate limit', () => {
  it('answers 429 after the limit per address', async () => {
    const limited = await createTestApp({ config: { signInRateLimitPerMinute: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (
            await limited.request({
              method: 'GET',
              url: `/api/public/payment/${'y'.repeat(43)}`,
              remoteAddress: '10.9.9.9',
            })
          ).statusCode,
        );
      expect(statuses).toEqual([404, 404, 404, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('collection jobs', () => {
  let ar: string;
  beforeAll(async () => {
    ({ ar } = await signInStaff(t, { ar: 'AR Team' }));
    await startWorkers(t.app.ctx.queue, t.app.ctx, { pollingIntervalSeconds: 0.5 });
  });

  async function pastDue() {
    const s = await failedStore({ dueOn: '2026-11-01' });
    const good = await createPaymentInstrument(t.database.db, {
      customerId: s.customer.id,
      storeId: s.store.id,
      kind: 'card',
      cardLast4: '4242',
      processorReference: `pm_local_test${s.customer.id}_4242`,
    });
    return { ...s, good };
  }

  it("GET …/paymentcollection/{planId}: the plan's customer, store, past-due invoices and methods; others 403", async () => {
    const s = await pastDue();
    const plan = await createPaymentPlan(t.database.db, { customerId: s.customer.id, storeId: s.store.id });
    const res = await t.request({ method: 'GET', url: `/api/customers/paymentcollection/${plan.id}/${ar}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toMatchObject({
      payment_plan_id: plan.id,
      customer_id: s.customer.id,
      store_id: s.store.id,
      store_name: 'Corner Deli',
      currency: 'USD',
      past_due: [{ invoice_id: s.invoice.id, open_cents: 100_00, due_on: '2026-11-01' }],
    });
    expect(
      res
        .json()
        .info.instruments.map((i: { id: number }) => i.id)
        .sort(),
    ).toEqual([s.card.id, s.good.id].sort());
    // A new card for the collection: stored for the plan's store, not the default.
    const card = await t.request({
      method: 'POST',
      url: `/api/customers/paymentcollection/${plan.id}/card/${ar}`,
      payload: { kind: 'card', card_token: cardToken(), name_on_account: 'Pat' },
      headers: { 'idempotency-key': `card-${plan.id}` },
    });
    expect(card.statusCode, card.body).toBe(201);
    const [added] = await t.database.db
      .select()
      .from(paymentInstruments)
      .where(eq(paymentInstruments.id, card.json().info.id));
    expect(added).toMatchObject({ storeId: s.store.id, isDefault: false, cardLast4: '4242' });
    const { support } = await signInStaff(t, { support: 'Customer Support' });
    expect(
      (await t.request({ method: 'GET', url: `/api/customers/paymentcollection/${plan.id}/${support}` })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'GET', url: `/api/customers/paymentcollection/999999/${ar}` })).statusCode).toBe(
      404,
    );
  });

  it('paymentcollection/sns charges the chosen invoice with the chosen card (Idempotency-Key: one job)', async () => {
    const s = await pastDue();
    const body = { customer_id: s.customer.id, invoice_ids: [s.invoice.id], payment_instrument_id: s.good.id };
    const post = () =>
      t.request({
        method: 'POST',
        url: `/api/customers/paymentcollection/sns/${ar}`,
        payload: body,
        headers: { 'idempotency-key': `collect-${s.invoice.id}` },
      });
    const res = await post();
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json().info;
    expect((await post()).json().info.jobId).toBe(jobId);
    const job = await waitForJob(t, ar, jobId);
    expect(job.state, JSON.stringify(job)).toBe('completed');
    expect(job.output).toEqual({
      invoices: [
        {
          invoice_id: s.invoice.id,
          invoice_number: s.invoice.invoiceNumber,
          outcome: 'paid',
          transaction_id: expect.any(Number),
          reason: null,
        },
      ],
    });
    const [inv] = await t.database.db.select().from(invoices).where(eq(invoices.id, s.invoice.id));
    expect(inv).toMatchObject({ status: 'P', paidCents: 100_00 });
    expect(await gateway().store.countCharges(s.good.processorReference!)).toBe(1);
  });

  it('invoices/collect/due/sns charges every past-due open invoice of the store (the default method)', async () => {
    const s = await pastDue();
    await t.database.db
      .update(paymentInstruments)
      .set({ isDefault: false })
      .where(eq(paymentInstruments.id, s.card.id));
    await t.database.db.update(paymentInstruments).set({ isDefault: true }).where(eq(paymentInstruments.id, s.good.id));
    const res = await t.request({
      method: 'POST',
      url: `/api/customers/invoices/collect/due/sns/${ar}`,
      payload: { customer_id: s.customer.id, storeid: s.store.id },
    });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForJob(t, ar, res.json().info.jobId);
    expect(job.output).toMatchObject({ invoices: [{ invoice_id: s.invoice.id, outcome: 'paid' }] });
  });
});
