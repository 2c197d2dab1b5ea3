import { randomUUID } from 'node:crypto';
import { BILLING_ITEM_IDS, blankOrder, JOB_QUEUE } from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createCustomer,
  createInvoice,
  createOrder,
  createPaymentInstrument,
  createPaymentPlan,
  createStore,
  ensureBillingItems,
} from './db/factories';
import {
  agents,
  auditLog,
  billingItems,
  creditMemos,
  customers,
  invoiceBalances,
  invoices,
  orders,
  promotions,
  receiptAllocations,
  receipts,
  stores,
  transactions,
  writeOffs,
} from './db/schema';
import type { LocalGateway } from './integrations/gateway';
import { issueLinkToken, PAYMENT_UPDATE_LINK_TTL_MS } from './lib/link-tokens';
import { ledgerMismatchesSql } from './modules/ledger';
import { AUTHORIZATION_ACTION } from './modules/payment-authorizations';
import { chargeInvoice } from './modules/payments';
import { createTestDatabase } from './test/db-template';
import { signInStaff } from './test/sign-in';
import { createTestApp, type TestApp } from './test/test-app';

/*
 * Issue 19 part 3, concurrency (decision 134), through HTTP. Runs on PGlite and, with TEST_DATABASE_URL, on
 * PostgreSQL (there the requests really run at once on separate connections and meet the row locks).
 *
 * Money POSTs, table-driven (MONEY_POSTS; a new money POST is one entry):
 *  (a) the same request with the same Idempotency-Key sent N times at once → exactly one effect; every answer is
 *      the same success or 409 idempotency_key_in_flight; a later repeat answers the stored success;
 *  (b) (where only one can succeed) the request with N different keys at once → exactly one effect, one success,
 *      the others refused with a 4xx, never more than the balance taken;
 *  after each, the ledger consistency check finds nothing.
 * Record edits with a version (VERSIONED_EDITS): N edits at once with the same version → one 200, the rest 409
 * version_conflict, and the stored record is the winner's (no lost update).
 *
 * Not repeated here (their own files cover the same-key and different-key races): returns refund
 * (modules/returns/returns.test.ts), the payment authorization's gateway-held in-flight case
 * (modules/payment-authorizations/idempotency.test.ts).
 */

const N = 4;

let t: TestApp;
let tok: Record<'admin' | 'ar' | 'ar2' | 'marketing', string>;
const gateway = () => t.app.ctx.gateway as LocalGateway;
const today = () => t.clock.now().toISOString().slice(0, 10);

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  tok = await signInStaff(t, { admin: 'Admin', ar: 'AR Team', ar2: 'AR Team', marketing: 'Marketing' });
  await ensureBillingItems(database.db, [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, BILLING_ITEM_IDS.OTHER_CHARGES, 66]);
}, 60_000);
afterAll(() => t.close());

const send = (method: 'POST' | 'PUT', url: string, payload: unknown, key?: string) =>
  t.request({
    method,
    url,
    payload: payload as Record<string, unknown>,
    headers: key ? { 'idempotency-key': key } : {},
  });

async function ledgerMismatches(): Promise<unknown[]> {
  return ((await t.database.db.execute(ledgerMismatchesSql(20))) as unknown as { rows: unknown[] }).rows;
}

async function balanceOf(invoiceId: number) {
  const [b] = await t.database.db.select().from(invoiceBalances).where(eq(invoiceBalances.invoiceId, invoiceId));
  return b!;
}

const count = async (rows: Promise<unknown[]>) => (await rows).length;

/** A US customer and store with one open invoice of `cents`. */
async function openInvoice(cents: number) {
  const db = t.database.db;
  const customer = await createCustomer(db, { country: 'US' });
  const store = await createStore(db, { customerId: customer.id, country: 'US' });
  const invoice = await createInvoice(db, {
    customerId: customer.id,
    storeId: store.id,
    currency: 'USD',
    lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: cents }],
  });
  return { customer, store, invoice };
}

/** An open invoice whose charge on the default card (…0002, hard decline) failed: one F transaction. */
async function failedCharge() {
  const s = await openInvoice(100_00);
  const card = await createPaymentInstrument(t.database.db, {
    customerId: s.customer.id,
    storeId: s.store.id,
    kind: 'card',
    cardLast4: '0002',
    processorReference: `pm_local_test${s.customer.id}_0002`,
    isDefault: true,
  });
  const first = await chargeInvoice(t.app.ctx, {
    invoiceId: s.invoice.id,
    attempt: 'autopay',
    source: 'autopay',
    actor: { actorType: 'system', actorId: 'test' },
    requestId: randomUUID(),
  });
  expect(first).toMatchObject({ status: 'F' });
  const [failed] = await t.database.db.select().from(transactions).where(eq(transactions.invoiceId, s.invoice.id));
  return { ...s, card, failed: failed! };
}

const successfulCharges = (invoiceId: number) =>
  count(
    t.database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.invoiceId, invoiceId), eq(transactions.status, 'S'))),
  );

async function receiptOf(customerId: number, storeId: number, cents: number): Promise<{ id: number; version: number }> {
  const res = await send(
    'POST',
    `/api/receipts/${tok.ar}`,
    {
      customer_id: customerId,
      store_id: storeId,
      method: 'wire',
      reference: `WIRE-${randomUUID().slice(0, 8)}`,
      amount_cents: cents,
      currency: 'USD',
      received_on: today(),
    },
    randomUUID(),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().info.receipt;
}

const cardToken = () => gateway().tokenize({ number: '4242424242424242', exp_month: 12, exp_year: 2030 }).token;

interface Target {
  /** The i-th request of a race, with its key. */
  send(key: string, i: number): Promise<LightMyRequestResponse>;
  /** The status of a success. */
  ok: number;
  /** How many times the request took effect (rows made, money moved). */
  effects(): Promise<number>;
  /** The invoice whose balance must never go below zero (nothing taken beyond it). */
  invoiceId?: number;
}

interface MoneyPost {
  name: string;
  /** A fresh target for the same-key race. */
  sameKey(): Promise<Target>;
  /** A fresh target for the different-keys race, where only one request can succeed; absent where each may. */
  differentKeys?(): Promise<Target>;
}

const MONEY_POSTS: MoneyPost[] = [
  {
    name: 'POST /receipts (record a receipt)',
    async sameKey() {
      const s = await openInvoice(50_00);
      const reference = `WIRE-${randomUUID().slice(0, 8)}`;
      const body = {
        customer_id: s.customer.id,
        store_id: s.store.id,
        method: 'wire',
        reference,
        amount_cents: 50_00,
        currency: 'USD',
        received_on: today(),
      };
      return {
        ok: 201,
        send: (key) => send('POST', `/api/receipts/${tok.ar}`, body, key),
        effects: () => count(t.database.db.select().from(receipts).where(eq(receipts.reference, reference))),
      };
    },
  },
  {
    name: 'POST /receipts/:id/applications (apply a receipt)',
    async sameKey() {
      const s = await openInvoice(80_00);
      const r = await receiptOf(s.customer.id, s.store.id, 100_00);
      const body = { version: r.version, applications: [{ invoice_id: s.invoice.id, amount_cents: 80_00 }] };
      return {
        ok: 200,
        invoiceId: s.invoice.id,
        send: (key) => send('POST', `/api/receipts/${r.id}/applications/${tok.ar}`, body, key),
        effects: () =>
          count(t.database.db.select().from(receiptAllocations).where(eq(receiptAllocations.receiptId, r.id))),
      };
    },
    // N receipts, each applying the whole invoice at once: the balance lets one through.
    async differentKeys() {
      const s = await openInvoice(80_00);
      const rs: { id: number; version: number }[] = [];
      for (let i = 0; i < N; i++) rs.push(await receiptOf(s.customer.id, s.store.id, 80_00));
      return {
        ok: 200,
        invoiceId: s.invoice.id,
        send: (key, i) =>
          send(
            'POST',
            `/api/receipts/${rs[i]!.id}/applications/${tok.ar}`,
            { version: rs[i]!.version, applications: [{ invoice_id: s.invoice.id, amount_cents: 80_00 }] },
            key,
          ),
        effects: () =>
          count(t.database.db.select().from(receiptAllocations).where(eq(receiptAllocations.invoiceId, s.invoice.id))),
      };
    },
  },
  {
    name: 'POST /memos (request a credit memo)',
    async sameKey() {
      const s = await openInvoice(60_00);
      const body = {
        customer_id: s.customer.id,
        invoice_id: s.invoice.id,
        type: 'C',
        amount_cents: 10_00,
        reason: 'Concurrency test',
        note: 'Sent at once',
      };
      return {
        ok: 201,
        send: (key) => send('POST', `/api/memos/${tok.ar}`, body, key),
        effects: () => count(t.database.db.select().from(creditMemos).where(eq(creditMemos.invoiceId, s.invoice.id))),
      };
    },
  },
  {
    name: 'POST /memos/:id/decision (approve a credit memo)',
    sameKey: () => memoDecision(),
    differentKeys: () => memoDecision(),
  },
  {
    name: 'POST /writeoffs (request a write-off)',
    sameKey: () => writeOffRequest(),
    // One write-off per invoice waits for approval at a time: one of N requests is made.
    differentKeys: () => writeOffRequest(),
  },
  {
    name: 'POST /writeoffs/:id/decision (approve a write-off)',
    sameKey: () => writeOffDecision(),
    differentKeys: () => writeOffDecision(),
  },
  {
    name: 'POST /customers/:id/transactions/:txId (retry a failed charge)',
    sameKey: () => chargeRetry(),
    differentKeys: () => chargeRetry(),
  },
  {
    name: 'POST /public/payment/:token (the merchant pays on the payment page)',
    async sameKey() {
      const s = await failedCharge();
      const link = await paymentLink(s.store.id);
      const body = { kind: 'card', card_token: cardToken(), name_on_account: 'Pat Merchant' };
      return {
        ok: 200,
        invoiceId: s.invoice.id,
        send: (key) => send('POST', `/api/public/payment/${link}`, body, key),
        effects: () => successfulCharges(s.invoice.id),
      };
    },
    async differentKeys() {
      const s = await failedCharge();
      const link = await paymentLink(s.store.id);
      const bodies = Array.from({ length: N }, () => ({
        kind: 'card',
        card_token: cardToken(),
        name_on_account: 'Pat Merchant',
      }));
      return {
        ok: 200,
        invoiceId: s.invoice.id,
        send: (key, i) => send('POST', `/api/public/payment/${link}`, bodies[i], key),
        effects: () => successfulCharges(s.invoice.id),
      };
    },
  },
  {
    name: 'POST /breathoflife/:storeId/reactivate (win back a lapsed store: the US reactivation fee)',
    sameKey: () => reactivation(),
    // The case's version: one reactivation of the N; one fee invoice.
    differentKeys: () => reactivation(),
  },
  {
    name: 'POST /customers/paymentcollection/sns (collect a past-due invoice with a chosen card: a job)',
    async sameKey() {
      const s = await failedCharge();
      const good = await createPaymentInstrument(t.database.db, {
        customerId: s.customer.id,
        storeId: s.store.id,
        kind: 'card',
        cardLast4: '4242',
        processorReference: `pm_local_test${s.customer.id}_4242`,
      });
      const body = { customer_id: s.customer.id, invoice_ids: [s.invoice.id], payment_instrument_id: good.id };
      return {
        ok: 202,
        send: (key) => send('POST', `/api/customers/paymentcollection/sns/${tok.admin}`, body, key),
        // The effect is the job: one collection job for the customer.
        effects: async () =>
          (
            await t.database.query<{ n: number }>(
              `select count(*)::int as n from pgboss.job where name = $1
                 and jsonb_path_exists(data, '$.** ? (@.customer_id == $c)', jsonb_build_object('c', $2::int))`,
              [JOB_QUEUE.paymentCollection, s.customer.id],
            )
          )[0]!.n,
      };
    },
  },
  {
    name: 'POST /paymentauthorizations (authorize a card for an order)',
    async sameKey() {
      const s = await openInvoice(10_00);
      const card = await createPaymentInstrument(t.database.db, {
        customerId: s.customer.id,
        kind: 'card',
        cardLast4: '1111',
        processorReference: `pm_saved_${s.customer.id}_1111`,
      });
      // Something to authorize (decision 142: at most the order's upfront total): a $1,499.00 terminal.
      const sale = { billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 1, unitPrice: '1499.00' };
      const order = (
        await createOrder(t.database.db, { customerId: s.customer.id, documentInput: { billingItems: [sale] } })
      ).id;
      const body = { order_id: order, amount_cents: 42_00, currency: 'USD', payment_instrument_id: card.id };
      return {
        ok: 200,
        send: (key) => send('POST', `/api/paymentauthorizations/${tok.admin}`, body, key),
        effects: () =>
          count(
            t.database.db
              .select()
              .from(auditLog)
              .where(
                and(
                  eq(auditLog.entity, 'order'),
                  eq(auditLog.entityId, String(order)),
                  eq(auditLog.action, AUTHORIZATION_ACTION),
                ),
              ),
          ),
      };
    },
  },
];

async function paymentLink(storeId: number): Promise<string> {
  const link = await t.database.db.transaction((tx) =>
    issueLinkToken(tx, {
      purpose: 'payment_update',
      subjectType: 'store',
      subjectId: storeId,
      now: t.clock.now(),
      ttlMs: PAYMENT_UPDATE_LINK_TTL_MS,
    }),
  );
  return link.token;
}

async function chargeRetry(): Promise<Target> {
  const s = await failedCharge();
  return {
    ok: 200,
    invoiceId: s.invoice.id,
    send: (key) =>
      send(
        'POST',
        `/api/customers/${s.customer.id}/${tok.admin}/transactions/${s.failed.id}`,
        { action: 'retry', version: s.failed.version },
        key,
      ),
    // Each retry that runs is a new charge of the invoice (here declined again: the card is …0002).
    effects: async () =>
      (await count(t.database.db.select().from(transactions).where(eq(transactions.invoiceId, s.invoice.id)))) - 1,
  };
}

/** A US store whose license lapsed (past the grace): reactivating it bills the reactivation fee (an S invoice). */
async function reactivation(): Promise<Target> {
  const db = t.database.db;
  const store = await createStore(db, {
    country: 'US',
    licenseExpiresOn: '2026-09-05',
    licenseLapsedOn: '2026-10-15',
  });
  await createPaymentPlan(db, { storeId: store.id, customerId: store.customerId, licenseExpiresOn: '2026-09-05' });
  return {
    ok: 200,
    send: (key) => send('POST', `/api/breathoflife/${store.id}/reactivate/${tok.admin}`, { version: 0 }, key),
    effects: () =>
      count(
        db
          .select()
          .from(invoices)
          .where(and(eq(invoices.storeId, store.id), eq(invoices.type, 'S'))),
      ),
  };
}

async function writeOffRequest(): Promise<Target> {
  const s = await openInvoice(45_00);
  const body = { invoice_id: s.invoice.id, type: 142, reason: 'Concurrency test', note: 'Sent at once' };
  return {
    ok: 201,
    invoiceId: s.invoice.id,
    send: (key) => send('POST', `/api/writeoffs/${tok.ar}`, body, key),
    effects: () => count(t.database.db.select().from(writeOffs).where(eq(writeOffs.invoiceId, s.invoice.id))),
  };
}

async function memoDecision(): Promise<Target> {
  const s = await openInvoice(60_00);
  const created = await send(
    'POST',
    `/api/memos/${tok.ar}`,
    {
      customer_id: s.customer.id,
      invoice_id: s.invoice.id,
      type: 'C',
      amount_cents: 25_00,
      reason: 'Concurrency test',
      note: 'Decided at once',
    },
    randomUUID(),
  );
  expect(created.statusCode, created.body).toBe(201);
  const memo = created.json().info;
  return {
    ok: 200,
    invoiceId: s.invoice.id,
    send: (key) =>
      send(
        'POST',
        `/api/memos/${memo.id}/decision/${tok.ar2}`,
        { decision: 'approve', reason: 'Checked', version: memo.version },
        key,
      ),
    // The credit counts once on the invoice however many approvals raced.
    effects: async () => Number((await balanceOf(s.invoice.id)).creditedCents) / 25_00,
  };
}

async function writeOffDecision(): Promise<Target> {
  const s = await openInvoice(45_00);
  const created = await send(
    'POST',
    `/api/writeoffs/${tok.ar}`,
    { invoice_id: s.invoice.id, type: 142, reason: 'Concurrency test', note: 'Decided at once' },
    randomUUID(),
  );
  expect(created.statusCode, created.body).toBe(201);
  const w = created.json().info;
  return {
    ok: 200,
    invoiceId: s.invoice.id,
    send: (key) =>
      send(
        'POST',
        `/api/writeoffs/${w.id}/decision/${tok.ar2}`,
        { decision: 'approve', reason: 'Checked', version: w.version },
        key,
      ),
    effects: async () => Number((await balanceOf(s.invoice.id)).writtenOffCents) / 45_00,
  };
}

async function nothingTakenBeyond(target: Target) {
  expect(await ledgerMismatches(), 'the ledger check').toEqual([]);
  if (target.invoiceId !== undefined) {
    const b = await balanceOf(target.invoiceId);
    expect(Number(b.openCents), 'open balance').toBeGreaterThanOrEqual(0);
    expect(Number(b.overpaidCents), 'nothing taken beyond the balance').toBe(0);
  }
}

describe.each(MONEY_POSTS)('$name', (post) => {
  it(`the same Idempotency-Key ${N} times at once → one effect; each answer the same success or 409 in flight`, async () => {
    const target = await post.sameKey();
    const key = `same-${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => target.send(key, i)));
    const successes = answers.filter((a) => a.statusCode === target.ok);
    for (const a of answers) {
      if (a.statusCode === target.ok) continue;
      expect([a.statusCode, a.json().error.code], a.body).toEqual([409, 'idempotency_key_in_flight']);
    }
    expect(successes.length, answers.map((a) => `${a.statusCode} ${a.body}`).join('\n')).toBeGreaterThanOrEqual(1);
    for (const a of successes) expect(a.json()).toEqual(successes[0]!.json());
    // A repeat once the race is over answers the stored success; nothing runs again.
    const again = await target.send(key, 0);
    expect(again.statusCode, again.body).toBe(target.ok);
    expect(again.json()).toEqual(successes[0]!.json());
    expect(await target.effects()).toBe(1);
    await nothingTakenBeyond(target);
  });

  it.skipIf(!post.differentKeys)(
    `${N} different keys at once where only one can succeed → one effect, the rest refused (4xx)`,
    async () => {
      const target = await post.differentKeys!();
      const answers = await Promise.all(Array.from({ length: N }, (_, i) => target.send(`diff-${randomUUID()}`, i)));
      const report = answers.map((a) => `${a.statusCode} ${a.body}`).join('\n');
      expect(
        answers.filter((a) => a.statusCode === target.ok),
        report,
      ).toHaveLength(1);
      for (const a of answers) {
        if (a.statusCode === target.ok) continue;
        expect(a.statusCode, report).toBeGreaterThanOrEqual(400);
        expect(a.statusCode, report).toBeLessThan(500);
      }
      expect(await target.effects()).toBe(1);
      await nothingTakenBeyond(target);
    },
  );
});

interface VersionedEdit {
  name: string;
  /** A fresh record; `edit(i)` is the i-th editor's change with the version read; `stored()` reads it back. */
  setup(): Promise<{
    edit(i: number): Promise<LightMyRequestResponse>;
    /** What the winner's answer must agree with in the stored record. */
    stored(): Promise<Record<string, unknown>>;
    /** The i-th editor's change as the stored record shows it. */
    expected(i: number): Record<string, unknown>;
  }>;
}

const VERSIONED_EDITS: VersionedEdit[] = [
  {
    name: 'PUT /customerinfo/:id (customer info)',
    async setup() {
      const c = await createCustomer(t.database.db, { country: 'US' });
      return {
        edit: (i) =>
          send('PUT', `/api/customerinfo/${c.id}/${tok.admin}`, { version: c.version, legal_name: `Editor ${i} LLC` }),
        stored: async () => {
          const [row] = await t.database.db.select().from(customers).where(eq(customers.id, c.id));
          return { legalName: row!.legalName, version: row!.version };
        },
        expected: (i) => ({ legalName: `Editor ${i} LLC`, version: c.version + 1 }),
      };
    },
  },
  {
    name: 'PUT /storeinfo/:id (store info)',
    async setup() {
      const s = await createStore(t.database.db, { country: 'US' });
      return {
        edit: (i) =>
          send('PUT', `/api/storeinfo/${s.id}/${tok.admin}`, {
            version: s.version,
            store_name: `Store of editor ${i}`,
          }),
        stored: async () => {
          const [row] = await t.database.db.select().from(stores).where(eq(stores.id, s.id));
          return { storeName: row!.storeName, version: row!.version };
        },
        expected: (i) => ({ storeName: `Store of editor ${i}`, version: s.version + 1 }),
      };
    },
  },
  {
    name: 'PUT /agents/:id (agent edit)',
    async setup() {
      const a = await createAgent(t.database.db, { type: 'RDC', salesChannel: 'RAM' });
      const body = (i: number) => ({
        name: `Agent of editor ${i}`,
        email: `agent-${a.id}@example.com`,
        phone: '555-0100',
        contact_name: 'Carla Crest',
        type: 'RDC',
        sales_channel: 'RAM',
        parent_agent_id: null,
        commission_percent: 10 + i,
        version: a.version,
      });
      return {
        edit: (i) => send('PUT', `/api/agents/${a.id}/${tok.admin}`, body(i)),
        stored: async () => {
          const [row] = await t.database.db.select().from(agents).where(eq(agents.id, a.id));
          return { name: row!.name, version: row!.version };
        },
        expected: (i) => ({ name: `Agent of editor ${i}`, version: a.version + 1 }),
      };
    },
  },
  {
    name: 'PUT /promotions/:id (promotion edit)',
    async setup() {
      const promo = {
        code: `RACE${randomUUID().slice(0, 6).toUpperCase()}`,
        name: 'Race: 10 % off',
        type: 'H',
        method: 'P',
        percent: 10,
        customer_type: 'A',
        currency: 'USD',
        billing_item_ids: [66],
        starts_on: '2026-11-01',
        expires_on: '2026-12-31',
        usage_limit: 5,
      };
      const made = await send('POST', `/api/promotions/${tok.marketing}`, promo);
      expect(made.statusCode, made.body).toBe(201);
      const { promo_id: id, version } = made.json().info as { promo_id: number; version: number };
      return {
        edit: (i) => send('PUT', `/api/promotions/${id}/${tok.marketing}`, { ...promo, name: `Editor ${i}`, version }),
        stored: async () => {
          const [row] = await t.database.db.select().from(promotions).where(eq(promotions.id, id));
          return { name: row!.name, version: row!.version };
        },
        expected: (i) => ({ name: `Editor ${i}`, version: version + 1 }),
      };
    },
  },
  {
    name: 'PUT /admin/catalogue/billingitems/:id (catalogue edit)',
    async setup() {
      const body = { category_id: null, feature: 'N', charge_at_level: 'S', recurring: false, prices: {} };
      const made = await send('POST', `/api/admin/catalogue/billingitems/${tok.admin}`, {
        ...body,
        name: `Race item ${randomUUID().slice(0, 6)}`,
      });
      expect(made.statusCode, made.body).toBe(200);
      const { billing_item_id: id, version } = made.json().info as { billing_item_id: number; version: number };
      return {
        edit: (i) =>
          send('PUT', `/api/admin/catalogue/billingitems/${id}/${tok.admin}`, {
            ...body,
            name: `Item of editor ${i}`,
            active: true,
            version,
          }),
        stored: async () => {
          const [row] = await t.database.db.select().from(billingItems).where(eq(billingItems.id, id));
          return { name: row!.name, version: row!.version };
        },
        expected: (i) => ({ name: `Item of editor ${i}`, version: version + 1 }),
      };
    },
  },
  {
    name: 'POST /customers/orderinfo/:id (order save)',
    async setup() {
      const created = await send('POST', `/api/customers/orderinfo/new/${tok.admin}`, { json: blankOrder() });
      expect(created.statusCode, created.body).toBe(200);
      const { orderInfoId: id, version } = created.json().info as { orderInfoId: number; version: number };
      return {
        edit: (i) =>
          send('POST', `/api/customers/orderinfo/${id}/${tok.admin}`, {
            json: { ...blankOrder(), salesRep: `Editor ${i}` },
            version,
          }),
        stored: async () => {
          const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
          return { salesRep: row!.document.salesRep, version: row!.version };
        },
        expected: (i) => ({ salesRep: `Editor ${i}`, version: version + 1 }),
      };
    },
  },
];

describe.each(VERSIONED_EDITS)('$name', (edit) => {
  it(`${N} edits at once with the same version → one 200, the rest 409; the stored record is the winner's`, async () => {
    const record = await edit.setup();
    const answers = await Promise.all(Array.from({ length: N }, (_, i) => record.edit(i)));
    const report = answers.map((a) => `${a.statusCode} ${a.body}`).join('\n');
    const winners = answers.flatMap((a, i) => (a.statusCode === 200 ? [i] : []));
    expect(winners, report).toHaveLength(1);
    for (const a of answers) {
      if (a.statusCode === 200) continue;
      expect([a.statusCode, a.json().error.code], report).toEqual([409, 'version_conflict']);
    }
    expect(await record.stored()).toEqual(record.expected(winners[0]!));
  });
});
