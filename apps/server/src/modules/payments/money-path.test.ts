import { randomUUID } from 'node:crypto';
import { BILLING_ITEM_IDS } from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createInvoice,
  createPaymentInstrument,
  createStore,
  createTransaction,
} from '../../db/factories';
import { creditMemos, invoiceDunning, moneyMovements, transactions } from '../../db/schema';
import { GatewayOutcomeUnknown, type LocalGateway, type PaymentGateway } from '../../integrations/gateway';
import { AppError } from '../../http/errors';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { invoiceBalances, ledgerMismatchesSql } from '../ledger';
import { actOnTransactions } from './actions.service';
import { chargeInvoice } from './charge.service';
import { sweepPayments } from './sweep.service';

/*
 * The money path through HTTP (issue 28 step 3, decision 144): a refund and a void are recorded P and committed
 * BEFORE the gateway is called; an answer that is lost — the gateway did it and the answer never came back, or the
 * gateway was never reached — leaves the P, and the payments sweep settles it exactly once (the memo approved, the
 * charge voided, never a second refund). And "retry a failed charge" is one rule, whoever asks.
 */

type Mode = 'normal' | 'lost-after' | 'down-before';
let mode: Mode = 'normal';
/** For each refund / void the gateway was asked for: the status of its P row at that moment (null: none recorded). */
const seenAtCall: { op: string; key: string; recorded: string | null }[] = [];

let t: TestApp;
let tok: Record<'ar' | 'ar2' | 'admin', string>;
const SYSTEM = { actorType: 'system' as const, actorId: 'test' };

async function movementStatus(key: string): Promise<string | null> {
  const [m] = await t.database.db.select().from(moneyMovements).where(eq(moneyMovements.idempotencyKey, key));
  return m?.status ?? null;
}

/** The local gateway, made to lose its answers (after doing the work) or to be down (before), as a crash would. */
function flaky(gateway: PaymentGateway): PaymentGateway {
  const wrap =
    <I extends { idempotencyKey: string }, R>(op: string, fn: (input: I) => Promise<R>) =>
    async (input: I): Promise<R> => {
      seenAtCall.push({ op, key: input.idempotencyKey, recorded: await movementStatus(input.idempotencyKey) });
      if (mode === 'down-before') throw new AppError('unavailable', 'The payment gateway is unavailable (test).');
      const answer = await fn(input);
      if (mode === 'lost-after') throw new GatewayOutcomeUnknown('The payment gateway did not answer in time (test).');
      return answer;
    };
  return Object.assign(Object.create(gateway) as PaymentGateway, {
    refund: wrap('refund', gateway.refund.bind(gateway)),
    voidCharge: wrap('void', gateway.voidCharge.bind(gateway)),
  });
}

beforeAll(async () => {
  t = await createTestApp({
    wrapGateway: flaky,
    config: { payments: { retryDays: [3, 7, 14], reconcileAfterSeconds: 0 } },
  });
  tok = await signInStaff(t, { ar: 'AR Team', ar2: 'AR Team', admin: 'Admin' });
});
afterAll(() => t.close());
beforeEach(() => {
  mode = 'normal';
  seenAtCall.length = 0;
});

const local = () => t.app.ctx.gateway as unknown as LocalGateway;

async function call(method: 'GET' | 'POST', url: string, token: string, payload?: unknown) {
  const res = await t.request({
    method,
    url: url.replace('{token}', token),
    ...(payload !== undefined ? { payload: payload as object } : {}),
    headers: { 'idempotency-key': randomUUID() },
  });
  return { status: res.statusCode, body: res.json() as { info?: Record<string, never>; error?: { message: string } } };
}

async function mismatches(): Promise<number> {
  const res = (await t.database.db.execute(ledgerMismatchesSql(10))) as unknown as { rows: { total: string }[] };
  return Number(res.rows[0]?.total ?? 0);
}

/** A US customer with a card, an invoice of `cents` paid by a settled card charge. */
async function paidByCard(cents: number) {
  const db = t.database.db;
  const customer = await createCustomer(db, { country: 'US' });
  const store = await createStore(db, { customerId: customer.id, country: 'US' });
  await createPaymentInstrument(db, {
    customerId: customer.id,
    storeId: store.id,
    kind: 'card',
    cardLast4: '4242',
    processorReference: `pm_local_money${customer.id}_4242`,
  });
  const invoice = await createInvoice(db, {
    customerId: customer.id,
    storeId: store.id,
    currency: 'USD',
    issuedOn: '2026-11-22',
    dueOn: '2026-11-22',
    lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: cents }],
  });
  const charged = await chargeInvoice(t.app.ctx, {
    invoiceId: invoice.id,
    attempt: 'autopay',
    source: 'autopay',
    actor: SYSTEM,
    requestId: randomUUID(),
  });
  expect(charged).toMatchObject({ kind: 'charged', status: 'S' });
  return { customer, store, invoice };
}

/** A refund memo by the gateway asked for by one AR user (approved by another). */
async function refundMemo(s: Awaited<ReturnType<typeof paidByCard>>, cents: number) {
  const res = await call('POST', '/api/memos/{token}', tok.ar, {
    customer_id: s.customer.id,
    invoice_id: s.invoice.id,
    type: 'R',
    refund_method: 'gateway',
    amount_cents: cents,
    reason: 'Billed after cancellation',
    note: 'Customer canceled on the 1st',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.info as unknown as { id: number; version: number };
}

const approve = (memo: { id: number; version: number }) =>
  call('POST', `/api/memos/${memo.id}/decision/{token}`, tok.ar2, {
    decision: 'approve',
    version: memo.version,
    reason: 'Checked the cancellation',
  });

async function refundRows(key: string) {
  return t.database.db.select().from(transactions).where(eq(transactions.idempotencyKey, key));
}

describe('refunds on the money path', () => {
  it('is recorded P before the gateway is called; a lost answer (refund made) is settled once by the sweep, the memo approved', async () => {
    const s = await paidByCard(150_00);
    const memo = await refundMemo(s, 60_00);
    const key = `refund:memo${memo.id}`;

    mode = 'lost-after';
    const res = await approve(memo);
    expect(res.status).toBe(503);
    expect(res.body.error!.message).toContain('recorded as pending');
    // The P was committed before the gateway was asked.
    expect(seenAtCall).toEqual([{ op: 'refund', key, recorded: 'P' }]);
    expect(await refundRows(key)).toMatchObject([{ kind: 'refund', status: 'P', amountCents: 60_00 }]);
    const [waiting] = await t.database.db.select().from(creditMemos).where(eq(creditMemos.id, memo.id));
    expect(waiting).toMatchObject({ status: 'P', transactionId: null });
    // The gateway did refund (once).
    expect(await local().store.byKey(key)).toMatchObject({ operation: 'refund', status: 'succeeded' });

    // The reconciler asks again with the same key: the gateway answers the refund it made; recorded once.
    mode = 'normal';
    const first = await sweepPayments(t.app.ctx);
    expect(first.movements_reconciled).toBe(1);
    const [settled] = await refundRows(key);
    expect(settled).toMatchObject({ status: 'S', gatewayReference: expect.stringMatching(/^re_local_/) });
    const [approved] = await t.database.db.select().from(creditMemos).where(eq(creditMemos.id, memo.id));
    expect(approved).toMatchObject({ status: 'A', transactionId: settled!.id });
    const [balance] = await t.database.db
      .select()
      .from(invoiceBalances)
      .where(eq(invoiceBalances.invoiceId, s.invoice.id));
    expect(balance).toMatchObject({ paidCents: 90_00, openCents: 60_00 });
    expect(await movementStatus(key)).toBe('S');

    // Exactly once: another sweep and the approval again change nothing and refund nothing.
    expect((await sweepPayments(t.app.ctx)).movements_reconciled).toBe(0);
    const again = await approve(memo);
    expect(again.status).toBe(409);
    expect(await refundRows(key)).toHaveLength(1);
    expect(await local().store.childTotal((await chargeRef(s.invoice.id))!, 'refund')).toBe(60_00);
    expect(await mismatches()).toBe(0);
  });

  it('a refund whose gateway was never reached (down before the call) stays P and is sent by the sweep, once', async () => {
    const s = await paidByCard(80_00);
    const memo = await refundMemo(s, 80_00);
    const key = `refund:memo${memo.id}`;
    mode = 'down-before';
    expect((await approve(memo)).status).toBe(503);
    expect(seenAtCall).toEqual([{ op: 'refund', key, recorded: 'P' }]);
    expect(await local().store.byKey(key)).toBeFalsy();
    // Meanwhile the P counts against the limit: nothing more is refundable on the invoice.
    const second = await call('POST', '/api/memos/{token}', tok.ar, {
      customer_id: s.customer.id,
      invoice_id: s.invoice.id,
      type: 'R',
      refund_method: 'check',
      amount_cents: 1_00,
      reason: 'Another refund',
      note: 'Should be refused',
    });
    expect(second.status).toBe(409);

    mode = 'normal';
    expect((await sweepPayments(t.app.ctx)).movements_reconciled).toBe(1);
    expect(await refundRows(key)).toMatchObject([{ status: 'S' }]);
    expect((await t.database.db.select().from(creditMemos).where(eq(creditMemos.id, memo.id)))[0]).toMatchObject({
      status: 'A',
    });
    expect((await sweepPayments(t.app.ctx)).movements_reconciled).toBe(0);
    expect(await local().store.childTotal((await chargeRef(s.invoice.id))!, 'refund')).toBe(80_00);
    expect(await mismatches()).toBe(0);
  });
});

async function chargeRef(invoiceId: number): Promise<string | null> {
  const [c] = await t.database.db
    .select()
    .from(transactions)
    .where(and(eq(transactions.invoiceId, invoiceId), eq(transactions.kind, 'charge'), eq(transactions.status, 'S')));
  return c?.gatewayReference ?? null;
}

describe('voids on the money path', () => {
  it('a void whose answer is lost leaves the charge P (never read as a failure); the sweep voids it once', async () => {
    const db = t.database.db;
    const customer = await createCustomer(db, { country: 'US' });
    const store = await createStore(db, { customerId: customer.id, country: 'US' });
    const invoice = await createInvoice(db, {
      customerId: customer.id,
      storeId: store.id,
      currency: 'USD',
      lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 45_00 }],
    });
    const pending = await createTransaction(db, {
      invoiceId: invoice.id,
      status: 'P',
      idempotencyKey: `charge:inv${invoice.id}:test`,
    });
    const key = `void:${pending.id}:v${pending.version}`;

    mode = 'lost-after';
    const res = await call('POST', `/api/customers/${customer.id}/{token}/transactions/${pending.id}`, tok.admin, {
      action: 'void',
      version: pending.version,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(503);
    expect(seenAtCall).toEqual([{ op: 'void', key, recorded: 'P' }]);
    expect((await db.select().from(transactions).where(eq(transactions.id, pending.id)))[0]).toMatchObject({
      status: 'P',
    });

    mode = 'normal';
    const swept = await sweepPayments(t.app.ctx);
    expect(swept.movements_reconciled).toBe(1);
    const [voided] = await db.select().from(transactions).where(eq(transactions.id, pending.id));
    expect(voided).toMatchObject({ status: 'V' });
    // Not a declined charge: no dunning, no failure.
    expect(await db.select().from(invoiceDunning).where(eq(invoiceDunning.invoiceId, invoice.id))).toHaveLength(0);
    expect((await sweepPayments(t.app.ctx)).movements_reconciled).toBe(0);
    expect(await movementStatus(key)).toBe('S');
  });
});

describe('retry a failed charge: one rule, whoever asks', () => {
  it('the customer page and the bulk job name the retry by the transaction and its version, and refuse alike', async () => {
    const db = t.database.db;
    const customer = await createCustomer(db, { country: 'US' });
    const store = await createStore(db, { customerId: customer.id, country: 'US' });
    await createPaymentInstrument(db, {
      customerId: customer.id,
      storeId: store.id,
      kind: 'card',
      cardLast4: '4242',
      processorReference: `pm_local_retry${customer.id}_4242`,
    });
    const invoice = await createInvoice(db, {
      customerId: customer.id,
      storeId: store.id,
      currency: 'USD',
      lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 30_00 }],
    });
    const failed = await createTransaction(db, { invoiceId: invoice.id, status: 'F' });

    const res = await call('POST', `/api/customers/${customer.id}/{token}/transactions/${failed.id}`, tok.admin, {
      action: 'retry',
      version: failed.version,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const retried = await db
      .select()
      .from(transactions)
      .where(eq(transactions.idempotencyKey, `charge:inv${invoice.id}:retry-tx${failed.id}-v${failed.version}`));
    expect(retried).toMatchObject([{ status: 'S', kind: 'charge' }]);

    // The bulk job on the same failure: refused by the same rule (it is reprocessed now), no second charge.
    const [job] = await actOnTransactions(
      t.app.ctx,
      { customer_id: customer.id, transaction_ids: [failed.id], action: 'reprocess' },
      SYSTEM,
      randomUUID(),
      'job-1',
    );
    expect(job).toMatchObject({ ok: false, result: expect.stringContaining('Only a failed (F) transaction') });
    expect(
      await db
        .select()
        .from(transactions)
        .where(and(eq(transactions.invoiceId, invoice.id), eq(transactions.kind, 'charge'))),
    ).toHaveLength(2);

    // A failure on a reversed invoice: both refuse with the same words.
    const other = await createInvoice(db, {
      customerId: customer.id,
      storeId: store.id,
      currency: 'USD',
      lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 20_00 }],
    });
    const failedAgain = await createTransaction(db, { invoiceId: other.id, status: 'F' });
    const rev = await call(
      'POST',
      `/api/customers/${customer.id}/{token}/customerinvoices/${other.id}/reverse`,
      tok.admin,
      {
        reason: 'Billed twice',
        version: other.version,
      },
    );
    expect(rev.status, JSON.stringify(rev.body)).toBe(200);
    const page = await call('POST', `/api/customers/${customer.id}/{token}/transactions/${failedAgain.id}`, tok.admin, {
      action: 'retry',
      version: failedAgain.version,
    });
    expect(page.status).toBe(409);
    const [bulk] = await actOnTransactions(
      t.app.ctx,
      { customer_id: customer.id, transaction_ids: [failedAgain.id], action: 'reprocess' },
      SYSTEM,
      randomUUID(),
      'job-2',
    );
    expect(bulk).toMatchObject({ ok: false, result: page.body.error!.message });
    expect(page.body.error!.message).toContain('was reversed; its failed charge is not retried');
  });
});
