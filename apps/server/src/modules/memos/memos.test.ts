import { randomUUID } from 'node:crypto';
import { BILLING_ITEM_IDS, ORDER_STATUS } from '@pos/domain';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createInvoice,
  createOrder,
  createPaymentInstrument,
  createReceipt,
  createReceiptAllocation,
  createStore,
} from '../../db/factories';
import {
  auditLog,
  creditMemos,
  invoiceDunning,
  invoices,
  orderStatusHistory,
  orders,
  statusReasons,
  transactions,
  writeOffs,
} from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { invoiceBalances, ledgerMismatchesSql, overdueWhere, syncInvoice } from '../ledger';
import { chargeInvoice, sweepPayments } from '../payments';

/*
 * Memos, write-offs and the approvals queue through HTTP (issue 16 points 1, 2, 4; decisions 120, 121): each call's
 * success, 400 with fields, 403 without the privilege, 404, 409 on a stale version; a request over $1,000 is never
 * approved by its requester; approving moves the ledger (and the ledger check stays at 0 mismatches); a written-off
 * invoice is left alone by the payments sweep (auto-pay, retries) and is not overdue. Today is 2026-11-22.
 */

let t: TestApp;
let tok: Record<'ar' | 'ar2' | 'service' | 'marketing', string>;
const SYSTEM = { actorType: 'system' as const, actorId: 'test' };

beforeAll(async () => {
  t = await createTestApp();
  tok = await signInStaff(t, {
    ar: 'AR Team',
    ar2: 'AR Team',
    service: 'Customer Service',
    marketing: 'Marketing',
  });
});
afterAll(() => t.close());

/** A JSON answer (its shape is what the assertions check). */
type Loose = ReturnType<typeof JSON.parse>;
type Json = { info?: Loose; error?: Loose };
async function call(method: 'GET' | 'POST', url: string, token: string, payload?: unknown, key?: string) {
  const res = await t.request({
    method,
    url: url.replace('{token}', token),
    ...(payload !== undefined ? { payload: payload as object } : {}),
    headers: key ? { 'idempotency-key': key } : {},
  });
  return { status: res.statusCode, body: res.json() as Json };
}

/** A customer, a store and an invoice of `cents` due `dueOn` (default today), optionally a default card. */
async function scenario(cents: number, opts: { card?: boolean; dueOn?: string } = {}) {
  const db = t.database.db;
  const customer = await createCustomer(db, { country: 'US' });
  const store = await createStore(db, { customerId: customer.id, country: 'US' });
  const card = opts.card
    ? await createPaymentInstrument(db, {
        customerId: customer.id,
        storeId: store.id,
        kind: 'card',
        cardLast4: '4242',
        processorReference: `pm_local_test${customer.id}_4242`,
      })
    : null;
  const invoice = await createInvoice(db, {
    customerId: customer.id,
    storeId: store.id,
    currency: 'USD',
    issuedOn: opts.dueOn ?? '2026-11-22',
    dueOn: opts.dueOn ?? '2026-11-22',
    lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: cents }],
  });
  return { customer, store, card, invoice };
}

async function openOf(invoiceId: number) {
  const [b] = await t.database.db.select().from(invoiceBalances).where(eq(invoiceBalances.invoiceId, invoiceId));
  return b!;
}
async function mismatches(): Promise<number> {
  const res = (await t.database.db.execute(ledgerMismatchesSql(10))) as unknown as { rows: { total: string }[] };
  return Number(res.rows[0]?.total ?? 0);
}
const memo = (over: Record<string, unknown>) => ({
  type: 'C',
  reason: 'Service outage in November',
  note: 'Store was down four days',
  ...over,
});
const decide = (kind: 'memos' | 'writeoffs', id: number, token: string, body: Record<string, unknown>, key?: string) =>
  call('POST', `/api/${kind}/${id}/decision/{token}`, token, { reason: 'Checked the outage log', ...body }, key);

describe('memos: ask, approve, reject', () => {
  it('asks for a credit memo (201, pending, audited) — the balance does not move until approved', async () => {
    const s = await scenario(2000_00);
    const res = await call(
      'POST',
      '/api/memos/{token}',
      tok.service,
      memo({ customer_id: s.customer.id, invoice_id: s.invoice.id, amount_cents: 1500_00 }),
    );
    expect(res.status).toBe(201);
    expect(res.body.info).toMatchObject({
      status: 'P',
      type: 'C',
      amount_cents: 1500_00,
      invoice_number: s.invoice.invoiceNumber,
      created_by_email: 'service@example.com',
      needs_second_approver: true,
      approved_by_email: null,
    });
    expect((await openOf(s.invoice.id)).openCents).toBe(2000_00);
    const [entry] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'credit_memo'), eq(auditLog.entityId, String(res.body.info.id))));
    expect(entry).toMatchObject({ action: 'create', customerId: s.customer.id });
  });

  it('400 names the fields; 403 without invoices/ar_approvals; 404 for an invoice of another customer', async () => {
    const s = await scenario(100_00);
    const bad = await call('POST', '/api/memos/{token}', tok.ar, {
      customer_id: s.customer.id,
      invoice_id: s.invoice.id,
      type: 'R',
      amount_cents: 0,
      reason: 'x',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(expect.arrayContaining(['reason', 'note']));
    const bad2 = await call(
      'POST',
      '/api/memos/{token}',
      tok.ar,
      memo({ customer_id: s.customer.id, type: 'R', amount_cents: 0 }),
    );
    expect(bad2.status).toBe(400);
    expect(Object.keys(bad2.body.error.fields)).toEqual(expect.arrayContaining(['amount_cents', 'refund_method']));
    const forbidden = await call(
      'POST',
      '/api/memos/{token}',
      tok.marketing,
      memo({ customer_id: s.customer.id, amount_cents: 10_00 }),
    );
    expect(forbidden.status).toBe(403);
    const other = await scenario(100_00);
    const missing = await call(
      'POST',
      '/api/memos/{token}',
      tok.ar,
      memo({ customer_id: s.customer.id, invoice_id: other.invoice.id, amount_cents: 10_00 }),
    );
    expect(missing.status).toBe(404);
    // A refund of more than was paid is refused with the field named.
    const tooMuch = await call(
      'POST',
      '/api/memos/{token}',
      tok.ar,
      memo({
        customer_id: s.customer.id,
        invoice_id: s.invoice.id,
        type: 'R',
        refund_method: 'check',
        amount_cents: 10_00,
      }),
    );
    // Issue 28: a limit is a 409 that says what is left (the field named too).
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.message).toContain('Nothing is left to refund');
    expect(tooMuch.body.error.fields.amount_cents).toContain('$0.00');
  });

  it('over $1,000: the requester may not approve it (403); a second AR user may — with the version they saw (409 stale)', async () => {
    const s = await scenario(2000_00);
    const created = await call(
      'POST',
      '/api/memos/{token}',
      tok.ar,
      memo({ customer_id: s.customer.id, invoice_id: s.invoice.id, amount_cents: 1500_00 }),
    );
    const m = created.body.info;
    const self = await decide('memos', m.id, tok.ar, { decision: 'approve', version: m.version });
    // 409, not 403: a 403 ends the web session (spec §8); the refusal is about this request, not the user's rights.
    expect(self.status).toBe(409);
    expect(self.body.error.message).toContain('second person');
    const noPriv = await decide('memos', m.id, tok.service, { decision: 'approve', version: m.version });
    expect(noPriv.status).toBe(403);
    const stale = await decide('memos', m.id, tok.ar2, { decision: 'approve', version: m.version + 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('version_conflict');
    const missing = await decide('memos', 1_999_999_999, tok.ar2, { decision: 'approve', version: 1 });
    expect(missing.status).toBe(404);
    const bad = await decide('memos', m.id, tok.ar2, { decision: 'maybe', version: m.version, reason: '' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(expect.arrayContaining(['decision', 'reason']));

    const key = randomUUID();
    const ok = await decide('memos', m.id, tok.ar2, { decision: 'approve', version: m.version }, key);
    expect(ok.status).toBe(200);
    expect(ok.body.info.memo).toMatchObject({
      status: 'A',
      approved_by_email: 'ar2@example.com',
      created_by_email: 'ar@example.com',
      decision_reason: 'Checked the outage log',
    });
    expect(ok.body.info.memo.decided_at).toBe('2026-11-22T12:00:00.000Z');
    expect(ok.body.info.invoice_balance_cents).toBe(500_00);
    const bal = await openOf(s.invoice.id);
    expect(bal).toMatchObject({ openCents: 500_00, creditedCents: 1500_00, status: 'N' });
    expect(await mismatches()).toBe(0);
    // The same key again answers the same; a new decision of a decided memo is a 409.
    const again = await decide('memos', m.id, tok.ar2, { decision: 'approve', version: m.version }, key);
    expect(again).toEqual(ok);
    const twice = await decide('memos', m.id, tok.ar2, { decision: 'approve', version: m.version + 1 });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toContain('already approved by ar2@example.com');
    const entries = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.entity, 'credit_memo'), eq(auditLog.entityId, String(m.id)), eq(auditLog.action, 'approve')),
      );
    expect(entries).toHaveLength(1);
    expect(entries[0]!.after).toMatchObject({ requested_by: 'ar@example.com', decided_by: 'ar2@example.com' });
  });

  it('at or below $1,000 the requester may approve their own; an adjustment raises the balance; a rejection moves nothing', async () => {
    const s = await scenario(1200_00);
    const credit = (
      await call(
        'POST',
        '/api/memos/{token}',
        tok.ar,
        memo({ customer_id: s.customer.id, invoice_id: s.invoice.id, amount_cents: 1000_00 }),
      )
    ).body.info;
    expect(credit.needs_second_approver).toBe(false);
    const own = await decide('memos', credit.id, tok.ar, { decision: 'approve', version: credit.version });
    expect(own.status).toBe(200);
    expect(await openOf(s.invoice.id)).toMatchObject({ openCents: 200_00, creditedCents: 1000_00, status: 'N' });
    const [inv] = await t.database.db.select().from(invoices).where(eq(invoices.id, s.invoice.id));
    expect(inv!.status).toBe('N');

    const s2 = await scenario(100_00);
    const adj = (
      await call(
        'POST',
        '/api/memos/{token}',
        tok.ar,
        memo({ customer_id: s2.customer.id, invoice_id: s2.invoice.id, type: 'A', amount_cents: -25_00 }),
      )
    ).body.info;
    expect(
      (await decide('memos', adj.id, tok.ar2, { decision: 'approve', version: adj.version })).body.info
        .invoice_balance_cents,
    ).toBe(125_00);
    const rej = (
      await call(
        'POST',
        '/api/memos/{token}',
        tok.ar,
        memo({ customer_id: s2.customer.id, invoice_id: s2.invoice.id, amount_cents: 50_00 }),
      )
    ).body.info;
    const rejected = await decide('memos', rej.id, tok.ar2, {
      decision: 'reject',
      version: rej.version,
      reason: 'Outage not confirmed',
    });
    expect(rejected.body.info.memo).toMatchObject({
      status: 'R',
      approved_by_email: 'ar2@example.com',
      decision_reason: 'Outage not confirmed',
    });
    expect((await openOf(s2.invoice.id)).openCents).toBe(125_00);
    expect(await mismatches()).toBe(0);
  });

  it('a refund by the gateway refunds the charge once, records the refund (no invoice: the memo counts), raises the balance', async () => {
    const s = await scenario(200_00, { card: true });
    expect(
      await chargeInvoice(t.app.ctx, {
        invoiceId: s.invoice.id,
        attempt: 'autopay',
        source: 'autopay',
        actor: SYSTEM,
        requestId: randomUUID(),
      }),
    ).toMatchObject({ status: 'S' });
    const r = (
      await call(
        'POST',
        '/api/memos/{token}',
        tok.ar,
        memo({
          customer_id: s.customer.id,
          invoice_id: s.invoice.id,
          type: 'R',
          refund_method: 'gateway',
          amount_cents: 80_00,
        }),
      )
    ).body.info;
    const ok = await decide('memos', r.id, tok.ar2, { decision: 'approve', version: r.version }, randomUUID());
    expect(ok.status).toBe(200);
    expect(ok.body.info.memo.transaction_id).toEqual(expect.any(Number));
    const [refund] = await t.database.db
      .select()
      .from(transactions)
      .where(eq(transactions.id, ok.body.info.memo.transaction_id));
    expect(refund).toMatchObject({
      kind: 'refund',
      status: 'S',
      amountCents: 80_00,
      invoiceId: null,
      customerId: s.customer.id,
      idempotencyKey: `refund:memo${r.id}`,
    });
    expect(await openOf(s.invoice.id)).toMatchObject({ openCents: 80_00, paidCents: 120_00 });
    expect(await mismatches()).toBe(0);
    // More than is left to refund is refused at the request.
    const tooMuch = await call(
      'POST',
      '/api/memos/{token}',
      tok.ar,
      memo({
        customer_id: s.customer.id,
        invoice_id: s.invoice.id,
        type: 'R',
        refund_method: 'gateway',
        amount_cents: 150_00,
      }),
    );
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.fields.amount_cents).toContain('$120.00');
  });

  it('a refund by gateway of an invoice paid another way stays pending with a 409 saying to refund by check', async () => {
    const s = await scenario(100_00);
    // Money in without a gateway charge (a paid transaction with no gateway reference).
    await t.database.db.insert(transactions).values({
      customerId: s.customer.id,
      storeId: s.store.id,
      invoiceId: s.invoice.id,
      kind: 'charge',
      status: 'S',
      amountCents: 100_00,
      currency: 'USD',
    });
    await t.database.db.update(invoices).set({ paidCents: 100_00, status: 'P' }).where(eq(invoices.id, s.invoice.id));
    const r = (
      await call(
        'POST',
        '/api/memos/{token}',
        tok.ar,
        memo({
          customer_id: s.customer.id,
          invoice_id: s.invoice.id,
          type: 'R',
          refund_method: 'gateway',
          amount_cents: 40_00,
        }),
      )
    ).body.info;
    const refused = await decide('memos', r.id, tok.ar2, { decision: 'approve', version: r.version });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('refund by check');
    const [still] = await t.database.db.select().from(creditMemos).where(eq(creditMemos.id, r.id));
    expect(still!.status).toBe('P');
    const check = (
      await call(
        'POST',
        '/api/memos/{token}',
        tok.ar,
        memo({
          customer_id: s.customer.id,
          invoice_id: s.invoice.id,
          type: 'R',
          refund_method: 'check',
          amount_cents: 40_00,
        }),
      )
    ).body.info;
    const paid = await decide('memos', check.id, tok.ar2, { decision: 'approve', version: check.version });
    expect(paid.body.info).toMatchObject({ memo: { status: 'A', transaction_id: null }, invoice_balance_cents: 40_00 });
    expect(await mismatches()).toBe(0);
  });

  it('lists memos by customer and status (403 without the privilege)', async () => {
    const s = await scenario(100_00);
    await call('POST', '/api/memos/{token}', tok.ar, memo({ customer_id: s.customer.id, amount_cents: 5_00 }));
    const list = await call('GET', `/api/memos/{token}?customer_id=${s.customer.id}&status=P`, tok.service);
    expect(list.status).toBe(200);
    expect(list.body.info).toMatchObject({
      total: 1,
      items: [{ invoice_id: null, amount_cents: 5_00, customer_id: s.customer.id }],
    });
    expect((await call('GET', '/api/memos/{token}', tok.marketing)).status).toBe(403);
  });
});

describe('write-offs', () => {
  it('400, 403, 404, 409; approval writes off the open balance, stops dunning, is not overdue and not charged again', async () => {
    const db = t.database.db;
    const bad = await call('POST', '/api/writeoffs/{token}', tok.ar, {
      invoice_id: 1,
      type: 150,
      reason: 'Closed',
      note: '',
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(expect.arrayContaining(['type', 'note']));
    expect(
      (
        await call('POST', '/api/writeoffs/{token}', tok.marketing, {
          invoice_id: 1,
          type: 142,
          reason: 'Closed',
          note: 'n',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call('POST', '/api/writeoffs/{token}', tok.ar, {
          invoice_id: 1_999_999_999,
          type: 142,
          reason: 'Closed',
          note: 'n',
        })
      ).status,
    ).toBe(404);

    // Invoice A: due today, a card on file, never charged — auto-pay's candidate. Invoice B: failed, retrying today.
    t.clock.set('2026-11-22T12:00:00Z');
    const a = await scenario(1200_00, { card: true });
    const b = await scenario(80_00, { card: true, dueOn: '2026-11-10' });
    await db.insert(invoiceDunning).values({
      invoiceId: b.invoice.id,
      customerId: b.customer.id,
      storeId: b.store.id,
      state: 'retrying',
      firstFailedOn: '2026-11-12',
      failedAttempts: 1,
      lastDeclineKind: 'soft',
      nextRetryOn: '2026-11-22',
    });
    const today = '2026-11-22';
    const overdue = async (id: number) =>
      (
        await db
          .select({ id: invoices.id })
          .from(invoices)
          .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
          .where(and(eq(invoices.id, id), overdueWhere(today)))
      ).length;
    expect(await overdue(b.invoice.id)).toBe(1);

    const wa = (
      await call('POST', '/api/writeoffs/{token}', tok.ar, {
        invoice_id: a.invoice.id,
        type: 164,
        reason: 'Merchant closed',
        note: 'Owner unreachable',
      })
    ).body.info;
    expect(wa).toMatchObject({
      status: 'P',
      amount_cents: 1200_00,
      type_label: 'Write_Off Unrecoverable',
      needs_second_approver: true,
    });
    const wb = (
      await call('POST', '/api/writeoffs/{token}', tok.ar, {
        invoice_id: b.invoice.id,
        type: 142,
        reason: 'Small balance',
        note: 'Not worth chasing',
      })
    ).body.info;
    expect(
      (
        await call('POST', '/api/writeoffs/{token}', tok.ar, {
          invoice_id: b.invoice.id,
          type: 142,
          reason: 'Again',
          note: 'n',
        })
      ).status,
    ).toBe(409);

    // Pending write-offs change nothing: the sweep still picks both up (the control of the assertion below).
    const before = await sweepPayments(t.app.ctx, randomUUID());
    expect(before.autopay_enqueued).toBeGreaterThanOrEqual(1);
    expect(before.retries_enqueued).toBeGreaterThanOrEqual(1);

    const selfW = await decide('writeoffs', wa.id, tok.ar, { decision: 'approve', version: wa.version });
    expect(selfW.status).toBe(409);
    expect(selfW.body.error.message).toContain('second person');
    expect((await decide('writeoffs', wa.id, tok.ar2, { decision: 'approve', version: wa.version + 1 })).status).toBe(
      409,
    );
    expect((await decide('writeoffs', 1_999_999_999, tok.ar2, { decision: 'approve', version: 1 })).status).toBe(404);
    const okA = await decide('writeoffs', wa.id, tok.ar2, { decision: 'approve', version: wa.version }, randomUUID());
    expect(okA.status).toBe(200);
    expect(okA.body.info).toMatchObject({
      write_off: { status: 'A', approved_by_email: 'ar2@example.com' },
      invoice_balance_cents: 0,
    });
    // Below the threshold the requester may approve their own.
    const okB = await decide('writeoffs', wb.id, tok.ar, { decision: 'approve', version: wb.version });
    expect(okB.status).toBe(200);
    expect(await openOf(b.invoice.id)).toMatchObject({ openCents: 0, writtenOffCents: 80_00, status: 'P' });
    const [dun] = await db.select().from(invoiceDunning).where(eq(invoiceDunning.invoiceId, b.invoice.id));
    expect(dun).toMatchObject({ state: 'stopped', nextRetryOn: null });
    expect(await overdue(b.invoice.id)).toBe(0);
    expect(await mismatches()).toBe(0);

    // Neither is swept again, and a charge that was already queued is skipped.
    await db.execute(sql`delete from pgboss.job where name = 'invoice-charge'`).catch(() => undefined);
    const after = await sweepPayments(t.app.ctx, randomUUID());
    expect(after.autopay_enqueued).toBe(0);
    expect(after.retries_enqueued).toBe(0);
    for (const id of [a.invoice.id, b.invoice.id]) {
      const outcome = await chargeInvoice(t.app.ctx, {
        invoiceId: id,
        attempt: 'autopay',
        source: 'autopay',
        actor: SYSTEM,
        requestId: randomUUID(),
      });
      expect(outcome).toMatchObject({ kind: 'skipped' });
    }
    expect(await db.select().from(transactions).where(eq(transactions.invoiceId, a.invoice.id))).toEqual([]);
    // Even if a refund reopened part of it later, a written-off invoice is not charged.
    await db.insert(creditMemos).values({
      customerId: a.customer.id,
      invoiceId: a.invoice.id,
      type: 'A',
      status: 'A',
      amountCents: -10_00,
      currency: 'USD',
      reason: 'test',
      createdByEmail: 'ar@example.com',
      decidedAt: new Date(),
    });
    await syncInvoice(db, a.invoice.id, new Date());
    expect((await openOf(a.invoice.id)).openCents).toBe(10_00);
    expect(
      await chargeInvoice(t.app.ctx, {
        invoiceId: a.invoice.id,
        attempt: 'retry-x',
        source: 'staff',
        actor: SYSTEM,
        requestId: randomUUID(),
      }),
    ).toMatchObject({ kind: 'skipped' });
  });

  it('approval refuses a write-off whose invoice balance moved since it was asked (409)', async () => {
    const s = await scenario(300_00);
    const w = (
      await call('POST', '/api/writeoffs/{token}', tok.ar, {
        invoice_id: s.invoice.id,
        type: 142,
        reason: 'Dispute',
        note: 'n',
      })
    ).body.info;
    // The merchant pays $100 meanwhile (a credit could not be asked for: the write-off waiting takes what is open).
    const receipt = await createReceipt(t.database.db, { customerId: s.customer.id, amountCents: 100_00 });
    await createReceiptAllocation(t.database.db, { receiptId: receipt.id, invoiceId: s.invoice.id });
    await syncInvoice(t.database.db, s.invoice.id, new Date());
    const res = await decide('writeoffs', w.id, tok.ar2, { decision: 'approve', version: w.version });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('$300.00 then, $200.00 now');
    const [row] = await t.database.db.select().from(writeOffs).where(eq(writeOffs.id, w.id));
    expect(row!.status).toBe('P');
  });
});

describe('the lists and the remaining refusals', () => {
  it('lists write-offs by invoice; 400 for a bad filter; 403 without the privilege; deciding needs ar_approvals', async () => {
    const s = await scenario(40_00);
    const w = (
      await call('POST', '/api/writeoffs/{token}', tok.service, {
        invoice_id: s.invoice.id,
        type: 164,
        reason: 'Merchant gone',
        note: 'Store closed in October',
      })
    ).body.info;
    const list = await call('GET', `/api/writeoffs/{token}?invoice_id=${s.invoice.id}`, tok.ar);
    expect(list.status).toBe(200);
    expect(list.body.info).toMatchObject({
      total: 1,
      items: [{ id: w.id, status: 'P', amount_cents: 40_00, created_by_email: 'service@example.com' }],
    });
    expect((await call('GET', '/api/writeoffs/{token}?status=X', tok.ar)).status).toBe(400);
    expect((await call('GET', '/api/memos/{token}?type=Z', tok.ar)).body.error.fields.type).toBeDefined();
    expect((await call('GET', '/api/writeoffs/{token}', tok.marketing)).status).toBe(403);
    // Customer Service may ask but not decide.
    expect((await decide('writeoffs', w.id, tok.service, { decision: 'approve', version: w.version })).status).toBe(
      403,
    );
    const bad = await decide('writeoffs', w.id, tok.ar, { decision: 'approve', version: 0, reason: 'no' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields)).toEqual(expect.arrayContaining(['version', 'reason']));
    const rejected = await decide('writeoffs', w.id, tok.ar, {
      decision: 'reject',
      version: w.version,
      reason: 'Still trading',
    });
    expect(rejected.body.info).toMatchObject({
      write_off: { status: 'R', approved_by_email: 'ar@example.com' },
      invoice_balance_cents: 40_00,
    });
    expect((await openOf(s.invoice.id)).writtenOffCents).toBe(0);
  });
});

describe('the approvals queue', () => {
  it('lists pending memos, write-offs and AR orders; filters; decides in bulk with per-item outcomes', async () => {
    const db = t.database.db;
    // Clear earlier tests' pending items so the queue is this test's own.
    await db.update(creditMemos).set({ status: 'R', decidedAt: new Date() }).where(eq(creditMemos.status, 'P'));
    await db.update(writeOffs).set({ status: 'R', decidedAt: new Date() }).where(eq(writeOffs.status, 'P'));
    const s = await scenario(5000_00);
    const big = (
      await call(
        'POST',
        '/api/memos/{token}',
        tok.ar,
        memo({ customer_id: s.customer.id, invoice_id: s.invoice.id, amount_cents: 1500_00 }),
      )
    ).body.info;
    const small = (
      await call(
        'POST',
        '/api/memos/{token}',
        tok.ar2,
        memo({ customer_id: s.customer.id, invoice_id: s.invoice.id, amount_cents: 20_00 }),
      )
    ).body.info;
    const w = (
      await call('POST', '/api/writeoffs/{token}', tok.ar2, {
        invoice_id: (await scenario(70_00)).invoice.id,
        type: 142,
        reason: 'Small',
        note: 'n',
      })
    ).body.info;
    const order = await createOrder(db, {
      status: ORDER_STATUS.PENDING_AR_APPROVAL,
      customerId: s.customer.id,
      totalSaleCents: 899_00,
    });
    await db.insert(orderStatusHistory).values({
      orderId: order.id,
      fromStatus: '11',
      toStatus: '121',
      changedByEmail: 'ramsupport@example.com',
      note: 'Signed',
      changedAt: new Date('2026-11-01T10:00:00Z'),
    });

    const all = await call('GET', '/api/approvals/{token}', tok.ar);
    expect(all.status).toBe(200);
    const mine = all.body.info.items.filter((i: Loose) => [big.id, small.id, w.id, order.id].includes(i.id));
    expect(mine.map((i: Loose) => i.kind).sort()).toEqual(['memo', 'memo', 'order', 'write_off']);
    const bigItem = mine.find((i: Loose) => i.kind === 'memo' && i.id === big.id);
    expect(bigItem).toMatchObject({
      title: 'Credit memo',
      requested_by: 'ar@example.com',
      needs_second_approver: true,
      can_decide: false,
      invoice_number: s.invoice.invoiceNumber,
    });
    const orderItem = mine.find((i: Loose) => i.kind === 'order');
    expect(orderItem).toMatchObject({ requested_by: 'ramsupport@example.com', amount_cents: 899_00, age_days: 21 });
    // Oldest first: the order (Nov 1) comes before today's requests.
    expect(all.body.info.items[0]).toMatchObject({ kind: 'order', id: order.id });

    expect(
      (await call('GET', '/api/approvals/{token}?kind=write_off', tok.ar)).body.info.items.map((i: Loose) => i.id),
    ).toEqual([w.id]);
    expect(
      (await call('GET', '/api/approvals/{token}?amount_min=100000', tok.ar)).body.info.items.map((i: Loose) => i.id),
    ).toEqual([big.id]);
    expect(
      (await call('GET', '/api/approvals/{token}?older_than_days=7', tok.ar)).body.info.items.map((i: Loose) => i.kind),
    ).toEqual(['order']);
    const byRequester = (await call('GET', '/api/approvals/{token}?requester=ar2@', tok.ar)).body.info;
    expect(byRequester.items.map((i: Loose) => i.id).sort()).toEqual([small.id, w.id].sort());
    expect((await call('GET', '/api/approvals/{token}?limit=1', tok.ar)).body.info.total).toBe(4);
    const bad = await call('GET', '/api/approvals/{token}?amount_min=5&amount_max=1', tok.ar);
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields.amount_max).toBeDefined();
    expect((await call('GET', '/api/approvals/{token}', tok.service)).status).toBe(403);
    expect(
      (
        await call('POST', '/api/approvals/decisions/{token}', tok.service, {
          items: [{ kind: 'memo', id: big.id, version: 1 }],
          decision: 'approve',
          reason: 'ok fine',
        })
      ).status,
    ).toBe(403);
    expect(
      (await call('POST', '/api/approvals/decisions/{token}', tok.ar, { items: [], decision: 'approve', reason: 'x' }))
        .status,
    ).toBe(400);

    const key = randomUUID();
    const res = await call(
      'POST',
      '/api/approvals/decisions/{token}',
      tok.ar,
      {
        items: [
          { kind: 'memo', id: big.id, version: big.version },
          { kind: 'memo', id: small.id, version: small.version + 5 },
          { kind: 'write_off', id: w.id, version: w.version },
          { kind: 'order', id: order.id, version: order.version },
          { kind: 'memo', id: 1_999_999_999, version: 1 },
        ],
        decision: 'approve',
        reason: 'Reviewed with the merchant',
      },
      key,
    );
    expect(res.status).toBe(200);
    expect(res.body.info.results.map((r: Loose) => [r.kind, r.ok, r.status])).toEqual([
      ['memo', false, 409],
      ['memo', false, 409],
      ['write_off', true, 200],
      ['order', true, 200],
      ['memo', false, 404],
    ]);
    expect(res.body.info.results[0].message).toContain('second person');
    const [o] = await db.select().from(orders).where(eq(orders.id, order.id));
    expect(o!.status).toBe(ORDER_STATUS.AR_SUBMITTED);
    // The repeat with the key answers the same and decides nothing again.
    expect(
      await call(
        'POST',
        '/api/approvals/decisions/{token}',
        tok.ar,
        {
          items: [
            { kind: 'memo', id: big.id, version: big.version },
            { kind: 'memo', id: small.id, version: small.version + 5 },
            { kind: 'write_off', id: w.id, version: w.version },
            { kind: 'order', id: order.id, version: order.version },
            { kind: 'memo', id: 1_999_999_999, version: 1 },
          ],
          decision: 'approve',
          reason: 'Reviewed with the merchant',
        },
        key,
      ),
    ).toEqual(res);

    // The second AR user approves the big one; rejecting an order needs a status reason.
    const order2 = await createOrder(db, { status: ORDER_STATUS.PENDING_AR_APPROVAL });
    const [reason] = await db
      .insert(statusReasons)
      .values({ status: '3', reason: 'Credit check failed (test)' })
      .returning();
    const noReason = await call('POST', '/api/approvals/decisions/{token}', tok.ar2, {
      items: [{ kind: 'order', id: order2.id, version: order2.version }],
      decision: 'reject',
      reason: 'Bad credit',
    });
    expect(noReason.body.info.results[0]).toMatchObject({ ok: false, status: 400 });
    const second = await call('POST', '/api/approvals/decisions/{token}', tok.ar2, {
      items: [
        { kind: 'memo', id: big.id, version: big.version },
        { kind: 'order', id: order2.id, version: order2.version },
      ],
      decision: 'approve',
      reason: 'Second look: fine',
    });
    expect(second.body.info.results.map((r: Loose) => r.ok)).toEqual([true, true]);
    const rejectOrder = await createOrder(db, { status: ORDER_STATUS.PENDING_AR_APPROVAL });
    const rejected = await call('POST', '/api/approvals/decisions/{token}', tok.ar2, {
      items: [{ kind: 'order', id: rejectOrder.id, version: rejectOrder.version }],
      decision: 'reject',
      reason: 'Bad credit',
      status_reason_id: reason!.id,
    });
    expect(rejected.body.info.results[0]).toMatchObject({ ok: true });
    const [ro] = await db.select().from(orders).where(eq(orders.id, rejectOrder.id));
    expect(ro!.status).toBe(ORDER_STATUS.REJECTED);
    expect((await openOf(s.invoice.id)).openCents).toBe(3500_00);
    expect(await mismatches()).toBe(0);
    const left = (await call('GET', '/api/approvals/{token}', tok.ar)).body.info.items.map((i: Loose) => i.id);
    expect(left).toEqual([small.id]);
  });
});
