import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createInvoice,
  createPaymentPlan,
  createStore,
  createTerminal,
  createTransaction,
} from '../../db/factories';
import { auditLog, creditMemos, domainData, localGatewayOperations, terminals, transactions } from '../../db/schema';
import type { PaymentGateway } from '../../integrations/gateway';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { balancesOf, ledgerMismatchesSql, syncInvoice } from '../ledger';
import { and, eq } from 'drizzle-orm';

/*
 * Returns and refunds through HTTP (issue 16 point 5, decision 122). Today is 2026-11-22 (the test clock); the window
 * is 30 days, so a hardware invoice of 2026-10-23 or later may take returns. Each sale: a US store, a hardware plan,
 * an S invoice of N terminals at 1,499.00, paid (by default in full) by a card charge the local gateway knows.
 * Customer Service requests, receives and inspects; AR refunds; Marketing sees nothing.
 */

let t: TestApp;
let tok: Record<'service' | 'ar' | 'ar2' | 'ops' | 'marketing' | 'admin', string>;
let refundCalls = 0;
const UNIT = 1499_00;
const FEE = 250_00;

function countingGateway(g: PaymentGateway): PaymentGateway {
  return new Proxy(g, {
    get(target, prop, receiver) {
      if (prop === 'refund')
        return async (input: Parameters<PaymentGateway['refund']>[0]) => {
          refundCalls++;
          return target.refund(input);
        };
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database, wrapGateway: countingGateway });
  tok = await signInStaff(t, {
    service: 'Customer Service',
    ar: 'AR Team',
    ar2: 'AR Team',
    ops: 'Operations',
    marketing: 'Marketing',
    admin: 'Admin',
  });
});
afterAll(() => t?.close());
beforeEach(() => {
  refundCalls = 0;
});

interface Sale {
  customerId: number;
  storeId: number;
  invoiceId: number;
  terminalIds: number[];
}

/** A hardware sale; `paid` cents by a card charge (`card: false`: money in without a gateway charge). */
async function sale(
  opts: { issuedOn?: string; paid?: number; terminals?: number; card?: boolean; gatewayKnows?: boolean } = {},
): Promise<Sale> {
  const db = t.database.db;
  const customer = await createCustomer(db, { legalName: `Return Test ${Math.random().toString(36).slice(2, 8)} LLC` });
  const store = await createStore(db, { customerId: customer.id });
  const plan = await createPaymentPlan(db, { kind: 'hardware_sale', customerId: customer.id, storeId: store.id });
  const n = opts.terminals ?? 2;
  const inv = await createInvoice(db, {
    customerId: customer.id,
    storeId: store.id,
    planId: plan.id,
    type: 'S',
    issuedOn: opts.issuedOn ?? '2026-11-10',
    dueOn: opts.issuedOn ?? '2026-11-10',
    currency: store.currency,
    lines: [{ billingItemId: 3, description: 'NRS POS Terminal', quantity: n, unitCents: UNIT }],
  });
  const paid = opts.paid ?? inv.totalCents;
  if (paid > 0) {
    const ref = opts.card === false ? null : `ch_return_${inv.id}`;
    await createTransaction(db, {
      invoiceId: inv.id,
      kind: 'charge',
      status: 'S',
      amountCents: paid,
      gatewayReference: ref,
    });
    if (ref && opts.gatewayKnows !== false)
      await db.insert(localGatewayOperations).values({
        idempotencyKey: `test:${ref}`,
        operation: 'charge',
        reference: ref,
        amountCents: paid,
        currency: store.currency,
        status: 'succeeded',
        createdAt: new Date('2026-11-10T12:00:00Z'),
      });
    await syncInvoice(db, inv.id, new Date('2026-11-10T12:00:00Z'));
  }
  const terminalIds: number[] = [];
  for (let i = 0; i < n; i++) terminalIds.push((await createTerminal(db, { storeId: store.id, productId: null })).id);
  return { customerId: customer.id, storeId: store.id, invoiceId: inv.id, terminalIds };
}

const post = (token: string, url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.request({ method: 'POST', url: url.replace('{tok}', token), payload: payload as object, headers });
const get = (token: string, url: string) => t.request({ method: 'GET', url: url.replace('{tok}', token) });

async function requestReturn(s: Sale, over: Record<string, unknown> = {}) {
  const res = await post(tok.service, '/api/returns/{tok}', {
    store_id: s.storeId,
    terminal_ids: [s.terminalIds[0]],
    reason: 'Merchant closed the second till',
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().info as { id: number; version: number; status: string };
}

async function step(id: number, action: string, version: number, token = tok.service, reason?: string) {
  return post(token, `/api/returns/${id}/status/{tok}`, { action, version, ...(reason ? { reason } : {}) });
}

/** A return of the sale's first terminal, received and inspected: answers its id and version. */
async function inspected(s: Sale, over: Record<string, unknown> = {}) {
  const r = await requestReturn(s, over);
  const received = await step(r.id, 'receive', r.version);
  expect(received.statusCode, received.body).toBe(200);
  const done = await step(r.id, 'inspect', received.json().info.version);
  expect(done.statusCode, done.body).toBe(200);
  return done.json().info as { id: number; version: number; refund_preview_cents: number };
}

async function mismatches(): Promise<number> {
  const res = (await t.database.db.execute(ledgerMismatchesSql(100))) as unknown as { rows: unknown[] };
  return res.rows.length;
}

describe('GET /api/returns/eligible', () => {
  it('lists the hardware sales inside the window with their terminals and prices', async () => {
    const s = await sale();
    const res = await get(tok.service, `/api/returns/eligible/{tok}?storeid=${s.storeId}`);
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info.window_days).toBe(30);
    expect(info.restocking_fee_cents).toBe(FEE);
    expect(info.sales).toHaveLength(1);
    expect(info.sales[0]).toMatchObject({
      invoice_id: s.invoiceId,
      returnable_until: '2026-12-10',
      card_refundable: true,
      paid_cents: 2 * UNIT,
      open_cents: 0,
    });
    expect(info.sales[0].terminals.map((x: { terminal_id: number }) => x.terminal_id)).toEqual(s.terminalIds);
    expect(info.sales[0].terminals[0]).toMatchObject({ unit_cents: UNIT, blocked_reason: null });
  });

  it('leaves out a sale older than the window', async () => {
    const old = await sale({ issuedOn: '2026-10-01' });
    const res = await get(tok.service, `/api/returns/eligible/{tok}?storeid=${old.storeId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().info.sales).toEqual([]);
  });

  it('400 on a bad store id, 403 without a customer privilege', async () => {
    const bad = await get(tok.service, '/api/returns/eligible/{tok}?storeid=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('storeid');
    expect((await get(tok.marketing, '/api/returns/eligible/{tok}')).statusCode).toBe(403);
  });
});

describe('POST /api/returns (request)', () => {
  it('creates a requested return with the restocking fee and the terminal price from the invoice', async () => {
    const s = await sale();
    const res = await post(tok.service, '/api/returns/{tok}', {
      store_id: s.storeId,
      terminal_ids: [s.terminalIds[0]],
      reason: 'Too many tills',
    });
    expect(res.statusCode, res.body).toBe(201);
    const info = res.json().info;
    expect(info).toMatchObject({
      status: 'requested',
      invoice_id: s.invoiceId,
      terminal_count: 1,
      value_cents: UNIT,
      restocking_fee_cents: FEE,
      credit_cents: UNIT - FEE,
      refund_preview_cents: UNIT - FEE,
      needs_second_person: true,
      created_by_email: 'service@example.com',
    });
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'return'), eq(auditLog.entityId, String(info.id))));
    expect(entry).toMatchObject({ action: 'return_requested', customerId: s.customerId });
  });

  it('waives the fee only with a reason', async () => {
    const s = await sale();
    const bad = await post(tok.service, '/api/returns/{tok}', {
      store_id: s.storeId,
      terminal_ids: [s.terminalIds[0]],
      reason: 'Dead on arrival',
      waive_fee: true,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('fee_waived_reason');
    const ok = await requestReturn(s, { waive_fee: true, fee_waived_reason: 'Dead on arrival: our fault' });
    expect(ok).toMatchObject({
      restocking_fee_cents: 0,
      credit_cents: UNIT,
      fee_waived_reason: 'Dead on arrival: our fault',
    });
  });

  it('400 with fields for an empty request', async () => {
    const res = await post(tok.service, '/api/returns/{tok}', { terminal_ids: [], reason: ' ' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().error.fields)).toEqual(
      expect.arrayContaining(['store_id', 'terminal_ids', 'reason']),
    );
  });

  it('403 without a customer privilege, 404 for a missing store or a terminal of another store', async () => {
    const s = await sale();
    const other = await sale();
    const body = { store_id: s.storeId, terminal_ids: [s.terminalIds[0]], reason: 'x' };
    expect((await post(tok.marketing, '/api/returns/{tok}', body)).statusCode).toBe(403);
    expect((await post(tok.service, '/api/returns/{tok}', { ...body, store_id: 99_999_999 })).statusCode).toBe(404);
    const foreign = await post(tok.service, '/api/returns/{tok}', { ...body, terminal_ids: [other.terminalIds[0]] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.fields).toHaveProperty('terminal_ids');
  });

  it('refuses a sale outside the window (409) and a terminal already in an open return (409)', async () => {
    const old = await sale({ issuedOn: '2026-10-22' });
    const late = await post(tok.service, '/api/returns/{tok}', {
      store_id: old.storeId,
      terminal_ids: [old.terminalIds[0]],
      reason: 'Changed mind',
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toContain('The return window of 30 days ended on 2026-11-21');

    const s = await sale();
    await requestReturn(s);
    const twice = await post(tok.service, '/api/returns/{tok}', {
      store_id: s.storeId,
      terminal_ids: [s.terminalIds[0]],
      reason: 'Again',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.message).toMatch(/already in return #\d+/);
  });
});

describe('POST /api/returns/{id}/status', () => {
  it('receiving retires the terminals through the retire call; they leave the returnable list', async () => {
    const s = await sale();
    const r = await requestReturn(s);
    const res = await step(r.id, 'receive', r.version);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toMatchObject({
      status: 'received',
      terminals: [{ terminal_id: s.terminalIds[0], status: 'retired' }],
    });
    const [row] = await t.database.db
      .select({ status: terminals.status, code: domainData.code })
      .from(terminals)
      .innerJoin(domainData, eq(domainData.id, terminals.retireReasonId))
      .where(eq(terminals.id, s.terminalIds[0]!));
    expect(row).toEqual({ status: 'retired', code: 'returned' });
    // The retire call's own audit entry, as the customer page's retire writes it.
    const retired = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'retire'), eq(auditLog.entity, 'terminal')));
    expect(retired.some((e) => (e.after as { terminal_id: number }).terminal_id === s.terminalIds[0])).toBe(true);
    const eligible = await get(tok.service, `/api/returns/eligible/{tok}?storeid=${s.storeId}`);
    expect(eligible.json().info.sales[0].terminals.map((x: { terminal_id: number }) => x.terminal_id)).toEqual([
      s.terminalIds[1],
    ]);
  });

  it('409 on a stale version, 409 on a step out of order, 404 for a missing return', async () => {
    const s = await sale();
    const r = await requestReturn(s);
    const received = await step(r.id, 'receive', r.version);
    expect(received.statusCode).toBe(200);
    const stale = await step(r.id, 'inspect', r.version);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('version_conflict');
    const order = await step(r.id, 'receive', received.json().info.version);
    expect(order.statusCode).toBe(409);
    expect((await step(99_999_999, 'inspect', 1)).statusCode).toBe(404);
  });

  it('403 without customer_details_edit (Operations; AR may only reject), 400 for a reject without a reason', async () => {
    const s = await sale();
    const r = await requestReturn(s);
    expect((await step(r.id, 'receive', r.version, tok.ops)).statusCode).toBe(403);
    expect((await step(r.id, 'receive', r.version, tok.ar)).statusCode).toBe(403);
    const noReason = await step(r.id, 'reject', r.version, tok.ar);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error.fields).toHaveProperty('reason');
    const rejected = await step(r.id, 'reject', r.version, tok.ar, 'Terminal damaged by the merchant');
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().info).toMatchObject({
      status: 'rejected',
      decision_reason: 'Terminal damaged by the merchant',
      refund_preview_cents: 0,
    });
  });
});

describe('POST /api/returns/{id}/refund', () => {
  it('a paid invoice: credit memo C, the rest back to the card once, refund memo R, ledger consistent', async () => {
    const s = await sale();
    const r = await inspected(s);
    expect(r.refund_preview_cents).toBe(UNIT - FEE);
    const res = await post(
      tok.ar,
      `/api/returns/${r.id}/refund/{tok}`,
      { method: 'gateway', version: r.version },
      {
        'idempotency-key': `refund-${r.id}`,
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toMatchObject({ status: 'refunded', refund_cents: UNIT - FEE, refund_method: 'gateway' });
    expect(refundCalls).toBe(1);
    const db = t.database.db;
    const memos = await db.select().from(creditMemos).where(eq(creditMemos.returnId, r.id));
    expect(memos.map((m) => [m.type, m.status, m.amountCents, m.refundMethod]).sort()).toEqual([
      ['C', 'A', UNIT - FEE, null],
      ['R', 'A', UNIT - FEE, 'gateway'],
    ]);
    const [refundTx] = await db
      .select()
      .from(transactions)
      .where(eq(transactions.idempotencyKey, `refund:return${r.id}`));
    expect(refundTx).toMatchObject({ kind: 'refund', status: 'S', invoiceId: null, amountCents: UNIT - FEE });
    expect(memos.find((m) => m.type === 'R')!.transactionId).toBe(refundTx!.id);
    const b = (await balancesOf(db, [s.invoiceId])).get(s.invoiceId)!;
    expect(b).toMatchObject({
      open_cents: 0,
      credited_cents: UNIT - FEE,
      paid_cents: 2 * UNIT - (UNIT - FEE),
      overpaid_cents: 0,
    });
    expect(await mismatches()).toBe(0);
  });

  it('the same Idempotency-Key twice at once and again: one gateway refund, one answer', async () => {
    const s = await sale();
    const r = await inspected(s);
    const send = () =>
      post(
        tok.ar,
        `/api/returns/${r.id}/refund/{tok}`,
        { method: 'gateway', version: r.version },
        {
          'idempotency-key': `dup-${r.id}`,
        },
      );
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.statusCode, b.statusCode].sort()).toEqual(expect.arrayContaining([200]));
    for (const res of [a, b]) expect([200, 409]).toContain(res.statusCode);
    const again = await send();
    expect(again.statusCode).toBe(200);
    expect(again.json().info).toMatchObject({ status: 'refunded', refund_cents: UNIT - FEE });
    expect(refundCalls).toBe(1);
    const refunds = await t.database.db
      .select()
      .from(localGatewayOperations)
      .where(eq(localGatewayOperations.parentReference, `ch_return_${s.invoiceId}`));
    expect(refunds.filter((o) => o.operation === 'refund')).toHaveLength(1);
    const rMemos = await t.database.db
      .select()
      .from(creditMemos)
      .where(and(eq(creditMemos.returnId, r.id), eq(creditMemos.type, 'R')));
    expect(rMemos).toHaveLength(1);
    expect(await mismatches()).toBe(0);
  });

  it('two refund POSTs at once with different keys: one refund at the gateway, one refund memo (the other 409, or the same refunded return)', async () => {
    const s = await sale();
    const r = await inspected(s);
    const send = (key: string) =>
      post(
        tok.ar,
        `/api/returns/${r.id}/refund/{tok}`,
        { method: 'gateway', version: r.version },
        {
          'idempotency-key': key,
        },
      );
    const answers = await Promise.all([send(`a-${r.id}`), send(`b-${r.id}`)]);
    // On PGlite the second waits for the first and finds the return refunded (409); on PostgreSQL both may reach the
    // money path, where the refund's one key makes them one refund — the second answers the same refunded return.
    expect(answers.map((a) => a.statusCode).sort()).toEqual(expect.arrayContaining([200]));
    for (const a of answers) expect([200, 409], a.body).toContain(a.statusCode);
    for (const a of answers.filter((x) => x.statusCode === 200))
      expect(a.json().info).toMatchObject({ status: 'refunded', refund_cents: UNIT - FEE });
    const ops = await t.database.db
      .select()
      .from(localGatewayOperations)
      .where(eq(localGatewayOperations.parentReference, `ch_return_${s.invoiceId}`));
    expect(ops.filter((o) => o.operation === 'refund')).toHaveLength(1);
    const rMemos = await t.database.db
      .select()
      .from(creditMemos)
      .where(and(eq(creditMemos.returnId, r.id), eq(creditMemos.type, 'R')));
    expect(rMemos).toHaveLength(1);
    expect(await mismatches()).toBe(0);
  });

  it('never pays back more than was paid: a partly paid invoice gets the credit, and only the overpayment back', async () => {
    // Two terminals (2,998.00); 2,000.00 paid, 998.00 open. Credit 1,249.00: 998.00 settles the invoice, 251.00 back.
    const s = await sale({ paid: 2000_00 });
    const r = await inspected(s);
    expect(r.refund_preview_cents).toBe(251_00);
    const res = await post(tok.ar, `/api/returns/${r.id}/refund/{tok}`, { method: 'gateway', version: r.version });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info.refund_cents).toBe(251_00);
    expect((await balancesOf(t.database.db, [s.invoiceId])).get(s.invoiceId)).toMatchObject({
      open_cents: 0,
      overpaid_cents: 0,
    });
    expect(await mismatches()).toBe(0);
  });

  it('an unpaid invoice just gets the credit: nothing goes back, no gateway call', async () => {
    const s = await sale({ paid: 0 });
    const r = await inspected(s);
    expect(r.refund_preview_cents).toBe(0);
    const res = await post(tok.ar, `/api/returns/${r.id}/refund/{tok}`, { method: 'gateway', version: r.version });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toMatchObject({ status: 'refunded', refund_cents: 0 });
    expect(refundCalls).toBe(0);
    expect((await balancesOf(t.database.db, [s.invoiceId])).get(s.invoiceId)).toMatchObject({
      open_cents: 2 * UNIT - (UNIT - FEE),
      credited_cents: UNIT - FEE,
    });
    expect(await mismatches()).toBe(0);
  });

  it('by check: refund memo R by check, no gateway; a card refund of an invoice without a card charge is refused', async () => {
    const s = await sale({ card: false });
    const r = await inspected(s);
    const refused = await post(tok.ar, `/api/returns/${r.id}/refund/{tok}`, { method: 'gateway', version: r.version });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.fields).toHaveProperty('method');
    // Nothing was credited by the refused step.
    expect(await t.database.db.select().from(creditMemos).where(eq(creditMemos.returnId, r.id))).toEqual([]);
    const res = await post(tok.ar, `/api/returns/${r.id}/refund/{tok}`, { method: 'check', version: r.version });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toMatchObject({ refund_method: 'check', refund_cents: UNIT - FEE });
    expect(refundCalls).toBe(0);
    const [memo] = await t.database.db
      .select()
      .from(creditMemos)
      .where(and(eq(creditMemos.returnId, r.id), eq(creditMemos.type, 'R')));
    expect(memo).toMatchObject({ refundMethod: 'check', transactionId: null, amountCents: UNIT - FEE });
    expect(await mismatches()).toBe(0);
  });

  it('a card refund the gateway refuses: 409, the credit stays once, and the refund by check pays back', async () => {
    const s = await sale({ gatewayKnows: false });
    const r = await inspected(s);
    const url = `/api/returns/${r.id}/refund/{tok}`;
    const refused = await post(tok.ar, url, { method: 'gateway', version: r.version });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('The gateway refused the refund: No such charge.');
    expect(refundCalls).toBe(1);
    const after = (await get(tok.ar, `/api/returns/${r.id}/{tok}`)).json().info;
    expect(after).toMatchObject({ status: 'inspected', version: r.version, refund_preview_cents: UNIT - FEE });
    expect(await mismatches()).toBe(0);
    const byCheck = await post(tok.ar, url, { method: 'check', version: r.version });
    expect(byCheck.statusCode, byCheck.body).toBe(200);
    expect(byCheck.json().info).toMatchObject({ status: 'refunded', refund_cents: UNIT - FEE, refund_method: 'check' });
    const memos = await t.database.db.select().from(creditMemos).where(eq(creditMemos.returnId, r.id));
    expect(memos.map((m) => m.type).sort()).toEqual(['C', 'R']);
    expect((await balancesOf(t.database.db, [s.invoiceId])).get(s.invoiceId)).toMatchObject({
      open_cents: 0,
      overpaid_cents: 0,
    });
    expect(await mismatches()).toBe(0);
  });

  it('403 without ar_approvals, 403 for the requester above the threshold, 409 stale / not inspected, 404, 400', async () => {
    const s = await sale();
    const r = await inspected(s);
    const url = `/api/returns/${r.id}/refund/{tok}`;
    expect((await post(tok.service, url, { method: 'check', version: r.version })).statusCode).toBe(403);
    const bad = await post(tok.ar, url, { method: 'cash', version: r.version });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('method');
    const stale = await post(tok.ar, url, { method: 'check', version: r.version - 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('version_conflict');
    expect((await post(tok.ar, '/api/returns/99999999/refund/{tok}', { method: 'check', version: 1 })).statusCode).toBe(
      404,
    );

    // An admin requests a 1,249.00 credit: another person must refund it.
    const s2 = await sale();
    const mine = await post(tok.admin, '/api/returns/{tok}', {
      store_id: s2.storeId,
      terminal_ids: [s2.terminalIds[0]],
      reason: 'x',
    });
    const m = mine.json().info as { id: number; version: number };
    const rec = await step(m.id, 'receive', m.version, tok.admin);
    const ins = await step(m.id, 'inspect', rec.json().info.version, tok.admin);
    const own = await post(tok.admin, `/api/returns/${m.id}/refund/{tok}`, {
      method: 'check',
      version: ins.json().info.version,
    });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toContain('someone other than its requester');
    const other = await post(tok.ar2, `/api/returns/${m.id}/refund/{tok}`, {
      method: 'check',
      version: ins.json().info.version,
    });
    expect(other.statusCode, other.body).toBe(200);

    // A requested (not inspected) return is not refunded.
    const s3 = await sale();
    const fresh = await requestReturn(s3);
    const early = await post(tok.ar, `/api/returns/${fresh.id}/refund/{tok}`, {
      method: 'check',
      version: fresh.version,
    });
    expect(early.statusCode).toBe(409);
  });
});

describe('GET /api/returns (list, CSV) and one return', () => {
  it('filters by status and customer, sorts, pages and downloads CSV', async () => {
    const s = await sale();
    const a = await requestReturn(s);
    const b = await inspected(s, { terminal_ids: [s.terminalIds[1]] });
    const list = await get(tok.ar, `/api/returns/{tok}?customer_id=${s.customerId}&sort=-created_at`);
    expect(list.statusCode, list.body).toBe(200);
    expect(
      list
        .json()
        .info.items.map((i: { id: number }) => i.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    const onlyInspected = await get(tok.ar, `/api/returns/{tok}?customer_id=${s.customerId}&status=inspected`);
    expect(onlyInspected.json().info.items.map((i: { id: number }) => i.id)).toEqual([b.id]);
    const page = await get(tok.ar, `/api/returns/{tok}?customer_id=${s.customerId}&limit=1`);
    expect(page.json().info).toMatchObject({ total: 2, total_capped: false });
    expect(page.json().info.items).toHaveLength(1);
    const csv = await get(tok.ar, `/api/returns/{tok}?customer_id=${s.customerId}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^id,created_at,status,customer_id/);
    expect(lines).toHaveLength(3);
    const bad = await get(tok.ar, '/api/returns/{tok}?status=lost');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('status');
    expect((await get(tok.marketing, '/api/returns/{tok}')).statusCode).toBe(403);
  });

  it('one return: 200 with its terminals and invoice, 404 when missing', async () => {
    const s = await sale();
    const r = await requestReturn(s);
    const one = await get(tok.ops, `/api/returns/${r.id}/{tok}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().info).toMatchObject({
      id: r.id,
      invoice: { id: s.invoiceId, total_cents: 2 * UNIT, paid_cents: 2 * UNIT, open_cents: 0, card_refundable: true },
      terminals: [{ terminal_id: s.terminalIds[0], unit_cents: UNIT }],
    });
    expect((await get(tok.ops, '/api/returns/99999999/{tok}')).statusCode).toBe(404);
  });
});
