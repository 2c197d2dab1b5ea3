import { randomUUID } from 'node:crypto';
import { BILLING_ITEM_IDS, invoiceBalance, type InvoiceBalance, type LedgerEntry } from '@pos/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createInvoice,
  createPaymentInstrument,
  createPaymentPlan,
  createTerminal,
  createStore,
  createTransaction,
  ensureBillingItems,
} from '../../db/factories';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { actOnTransactions, chargeInvoice } from '../payments';
import { syncInvoice } from './ledger.service';

/*
 * The money engine against a model (issue 28, item 6): fast-check commands draw sequences of money operations by AR
 * staff — bill, charge (settled or declined), retry a failed charge, refund by card and by check, refund a whole
 * charge from the transactions list, credit, debit and credit adjustments, write-off, receipt record / apply /
 * un-apply, reverse, chargeback, a hardware sale and the return of its terminals with the restocking fee — some of them two at once on the same invoice. After every step: the ledger check
 * finds nothing (stored figures equal their derivation, no limit broken, every journal entry balanced, the journal's
 * receivables and credit on account equal the ledger's), every invoice's balance read through the API equals the
 * model's, the gateway's own books hold exactly the charges and refunds ours do, and no refund ever exceeds what came
 * in. Seeded (MODEL_SEED); fast-check prints the seed and
 * the shrunk sequence of a failure.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let tok: Record<'ar' | 'ar2' | 'admin' | 'support' | 'service', string>;
let seq = 0;
const SYSTEM = { actorType: 'system' as const, actorId: 'money-model' };

interface Inv {
  id: number;
  total: number;
  reversed: boolean;
  /** Settled charges (id, amount) — what a card refund or chargeback may go back against. */
  charges: { id: number; cents: number }[];
  failed: { id: number; version: number }[];
  /** Refunds asked for and not yet paid out (they count against what is left to refund). */
  pendingBack: number;
  /** A hardware sale (S) whose terminals may be returned; only the Sale, Charge and Return commands touch it. */
  sale?: { terminals: number[]; returned: number };
}
interface Real {
  customer: number;
  store: number;
}
interface Model {
  invoices: Inv[];
  receipts: { id: number; amount: number; version: number }[];
  allocations: { id: number; receipt: number; invoice: number; cents: number }[];
  /** What has moved on each invoice, as the ledger entries it is. */
  entries: { invoice: number; entry: LedgerEntry }[];
  /** What AR user `ar` asked for (credits, refunds, adjustments by size, write-offs) not rejected: the four-eyes sum. */
  requested: number;
}

const key = () => `model-${randomUUID()}`;

function balanceOf(m: Model, inv: Inv): InvoiceBalance {
  const entries: LedgerEntry[] = [
    ...m.allocations
      .filter((a) => a.invoice === inv.id)
      .map((a): LedgerEntry => ({ kind: 'money_in', amount_cents: a.cents })),
    ...m.entries.filter((e) => e.invoice === inv.id).map((e) => e.entry),
    ...(inv.reversed ? [{ kind: 'reversal' } as const] : []),
  ];
  return invoiceBalance(inv.total, entries);
}
const unapplied = (m: Model, receiptId: number) =>
  m.receipts.find((r) => r.id === receiptId)!.amount -
  m.allocations.filter((a) => a.receipt === receiptId).reduce((s, a) => s + a.cents, 0);
/** Money in on the invoice less money already gone back (refunds, chargebacks): what may still be refunded. */
function refundable(m: Model, inv: Inv): number {
  const applied = m.allocations.filter((a) => a.invoice === inv.id).reduce((s, a) => s + a.cents, 0);
  const moved = m.entries
    .filter((e) => e.invoice === inv.id)
    .reduce(
      (s, { entry: e }) => s + (e.kind === 'money_in' ? e.amount_cents : e.kind === 'money_out' ? -e.amount_cents : 0),
      0,
    );
  return Math.max(0, applied + moved - inv.pendingBack);
}

async function post(url: string, token: string, payload: unknown) {
  const res = await t.request({
    method: 'POST',
    url: url.replace('{token}', token),
    payload: payload as object,
    headers: { 'idempotency-key': key() },
  });
  return { status: res.statusCode, body: res.json() as Json, raw: res.body };
}

const memoBody = (r: Real, inv: Inv, type: 'C' | 'R' | 'A', cents: number, method?: 'gateway' | 'check') => ({
  customer_id: r.customer,
  invoice_id: inv.id,
  type,
  amount_cents: cents,
  reason: 'Model test',
  note: 'Drawn by fast-check',
  ...(type === 'R' ? { refund_method: method ?? 'check' } : {}),
});
const decideMemo = (id: number, version: number, token = tok.ar2) =>
  post(`/api/memos/${id}/decision/{token}`, token, { decision: 'approve', version, reason: 'Checked' });

/** Every step ends here: what the API and the ledger check say equals the model. */
async function verify(m: Model, r: Real, step: string) {
  const check = await t.request({ method: 'GET', url: `/api/billing/ledger-check/${tok.admin}` });
  expect(check.statusCode, check.body).toBe(200);
  const c = check.json().info as Json;
  // Only this run's customer: a failing run leaves its books behind while fast-check shrinks.
  const ids = new Set(m.invoices.map((i) => i.id));
  const ours = (rows: Json[]) =>
    rows.filter(
      (x) => ids.has(x.invoice_id) || x.customer_id === r.customer || m.receipts.some((rc) => rc.id === x.receipt_id),
    );
  expect(ours(c.mismatches), `${step}: ledger mismatches`).toEqual([]);
  expect(ours(c.limit_breaches), `${step}: limits broken`).toEqual([]);
  // The journal: every entry balances and its receivables and credit on account equal the ledger's.
  expect(ours(c.journal_mismatches), `${step}: journal against the ledger`).toEqual([]);
  expect(ours(c.unbalanced_entries), `${step}: unbalanced journal entries`).toEqual([]);
  // The gateway's books equal ours: what it charged and refunded for this customer's references.
  const books = await t.database.query<{ side: string; kind: string; cents: string }>(
    `select 'ours' as side, kind, sum(amount_cents)::text as cents from transactions
      where customer_id = $1 and kind in ('charge', 'refund') and status = 'S' and gateway_reference is not null
      group by kind
     union all
     select 'gateway', b.kind, sum(b.amount_cents)::text from local_gateway_books b
      where b.kind in ('charge', 'refund')
        and b.gateway_transaction_id in (select gateway_reference from transactions where customer_id = $1)
      group by b.kind`,
    [r.customer],
  );
  const side = (name: string) =>
    Object.fromEntries(books.filter((b) => b.side === name).map((b) => [b.kind, Number(b.cents)]));
  expect(side('gateway'), `${step}: the gateway's books against ours`).toEqual(side('ours'));
  for (const inv of m.invoices) {
    const want = balanceOf(m, inv);
    const res = await t.request({ method: 'GET', url: `/api/invoices/${inv.id}/${tok.ar}` });
    expect(res.statusCode, res.body).toBe(200);
    const got = res.json().info as Json;
    const ledger = (got.ledger ?? got) as Json;
    expect(
      { open: ledger.open_cents ?? got.balance_cents, status: got.status ?? got.invoice?.status },
      `${step}: invoice ${inv.id} (total ${inv.total})`,
    ).toEqual({ open: want.open_cents, status: want.status });
  }
  for (const rc of m.receipts) {
    const res = await t.request({ method: 'GET', url: `/api/receipts/${rc.id}/${tok.ar}` });
    expect(res.json().info.receipt.unapplied_cents, `${step}: receipt ${rc.id}`).toBe(unapplied(m, rc.id));
  }
  // Never more back than came in, per customer: refunds and chargebacks ≤ charges settled + receipts.
  const [row] = await t.database.query<{ back: string; came: string }>(
    `select coalesce((select sum(amount_cents) from transactions where customer_id = $1
                       and kind in ('refund','chargeback') and status in ('S','B','P')), 0)::text as back,
            coalesce((select sum(amount_cents) from transactions where customer_id = $1
                       and kind = 'charge' and status = 'S'), 0)::text as came`,
    [r.customer],
  );
  expect(Number(row!.back), `${step}: money back ≤ money in at the gateway`).toBeLessThanOrEqual(Number(row!.came));
}

type Cmd = fc.AsyncCommand<Model, Real>;
const pick = <T>(xs: readonly T[], i: number) => xs[i % xs.length]!;
const live = (m: Model) => m.invoices.filter((i) => !i.reversed && !i.sale);
const UNIT = 400_00;
const RESTOCKING_FEE = 250_00;

class Bill implements Cmd {
  constructor(readonly cents: number) {}
  check = (m: Readonly<Model>) => m.invoices.length < 4;
  async run(m: Model, r: Real) {
    const inv = await createInvoice(t.database.db, {
      customerId: r.customer,
      storeId: r.store,
      currency: 'USD',
      lines: [
        {
          billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE,
          description: 'Monthly service fee',
          unitCents: this.cents,
        },
      ],
    });
    m.invoices.push({ id: inv.id, total: this.cents, reversed: false, charges: [], failed: [], pendingBack: 0 });
  }
  toString = () => `bill ${this.cents}`;
}

/** Charge the invoice's open balance with the default card: settled, or declined when the amount ends in 51 cents. */
class Charge implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => live(m).length > 0;
  async run(m: Model, r: Real) {
    const inv = pick(live(m), this.i);
    const open = balanceOf(m, inv).open_cents;
    const out = await chargeInvoice(t.app.ctx, {
      invoiceId: inv.id,
      attempt: `model-${randomUUID()}`,
      source: 'staff',
      actor: SYSTEM,
      requestId: randomUUID(),
    });
    if (open <= 0) {
      expect(out.kind, 'nothing open: nothing charged').toBe('skipped');
      return;
    }
    expect(out).toMatchObject({ kind: 'charged' });
    if (out.kind !== 'charged') return;
    if (open % 100 === 51) {
      expect(out.status).toBe('F');
      const [tx] = await t.database.query<{ version: number }>(`select version from transactions where id = $1`, [
        out.transactionId,
      ]);
      inv.failed.push({ id: out.transactionId, version: tx!.version });
      return;
    }
    expect(out.status).toBe('S');
    inv.charges.push({ id: out.transactionId, cents: open });
    m.entries.push({ invoice: inv.id, entry: { kind: 'money_in', amount_cents: open } });
    void r;
  }
  toString = () => `charge #${this.i}`;
}

/** Retry a failed charge from the transactions list (the staff action). */
class Retry implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => live(m).some((i) => i.failed.length > 0);
  async run(m: Model, r: Real) {
    const inv = pick(
      live(m).filter((i) => i.failed.length > 0),
      this.i,
    );
    const failed = inv.failed.shift()!;
    const open = balanceOf(m, inv).open_cents;
    const [out] = await actOnTransactions(
      t.app.ctx,
      { customer_id: r.customer, transaction_ids: [failed.id], action: 'reprocess' },
      SYSTEM,
      randomUUID(),
      randomUUID(),
    );
    if (open <= 0) {
      expect(out!.ok, `nothing open: ${out!.result}`).toBe(false);
      return;
    }
    if (open % 100 === 51) {
      expect(out!.ok, out!.result).toBe(false);
      return;
    }
    expect(out, out!.result).toMatchObject({ ok: true });
    inv.charges.push({ id: out!.new_transaction_id!, cents: open });
    m.entries.push({ invoice: inv.id, entry: { kind: 'money_in', amount_cents: open } });
  }
  toString = () => `retry #${this.i}`;
}

/** A refund memo (card or check) for a share of what is refundable — or one cent more, which is refused. */
class Refund implements Cmd {
  constructor(
    readonly i: number,
    readonly method: 'gateway' | 'check',
    readonly share: number,
    readonly over: boolean,
  ) {}
  check = (m: Readonly<Model>) => live(m).length > 0;
  async run(m: Model, r: Real) {
    const inv = pick(live(m), this.i);
    const room = refundable(m, inv);
    const cents = this.over ? room + 1 : Math.max(1, Math.floor(room * this.share));
    const created = await post(`/api/memos/{token}`, tok.ar, memoBody(r, inv, 'R', cents, this.method));
    if (this.over || room === 0) {
      expect(created.status, `refund ${cents} of ${room}: ${created.raw}`).toBe(409);
      return;
    }
    if (this.method === 'gateway' && inv.charges.length === 0) {
      // Received by receipt only: there is no charge to refund through the gateway.
      expect(created.status, created.raw).toBeGreaterThanOrEqual(400);
      expect(created.status).toBeLessThan(500);
      return;
    }
    expect(created.status, created.raw).toBe(201);
    m.requested += cents;
    const memo = created.body.info;
    const decided = await decideMemo(memo.id, memo.version);
    if (decided.status !== 200 && this.method === 'gateway') {
      // A card refund bigger than one charge can be refused by the gateway side: nothing moved, the memo waits.
      expect(decided.status, decided.raw).toBe(409);
      inv.pendingBack += cents;
      return;
    }
    expect(decided.status, decided.raw).toBe(200);
    m.entries.push({ invoice: inv.id, entry: { kind: 'money_out', amount_cents: cents } });
  }
  toString = () => `refund ${this.method} #${this.i} ${this.over ? 'over' : this.share.toFixed(2)}`;
}

/** Refund a whole settled charge from the transactions list. */
class RefundCharge implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => live(m).some((i) => i.charges.length > 0);
  async run(m: Model, r: Real) {
    const inv = pick(
      live(m).filter((i) => i.charges.length > 0),
      this.i,
    );
    const charge = inv.charges[0]!;
    const room = refundable(m, inv);
    const [out] = await actOnTransactions(
      t.app.ctx,
      { customer_id: r.customer, transaction_ids: [charge.id], action: 'refund' },
      SYSTEM,
      randomUUID(),
      randomUUID(),
    );
    if (charge.cents > room) {
      expect(out!.ok, `refund of a whole charge (${charge.cents}) with ${room} left: ${out!.result}`).toBe(false);
      return;
    }
    expect(out, out!.result).toMatchObject({ ok: true });
    inv.charges.shift();
    m.entries.push({ invoice: inv.id, entry: { kind: 'money_out', amount_cents: charge.cents } });
  }
  toString = () => `refund charge #${this.i}`;
}

/** A credit (C) or an adjustment (A, either way) for a share of what is open — or more, which is refused. */
class Credit implements Cmd {
  constructor(
    readonly i: number,
    readonly type: 'C' | 'A',
    readonly share: number,
    readonly debit: boolean,
    readonly over: boolean,
  ) {}
  check = (m: Readonly<Model>) => live(m).length > 0;
  async run(m: Model, r: Real) {
    const inv = pick(live(m), this.i);
    const open = balanceOf(m, inv).open_cents;
    const debit = this.type === 'A' && this.debit;
    const size = debit
      ? Math.max(1, Math.floor(100_00 * this.share))
      : this.over
        ? open + 1
        : Math.floor(open * this.share);
    if (size <= 0) return;
    const cents = debit ? -size : size;
    const created = await post(`/api/memos/{token}`, tok.ar, memoBody(r, inv, this.type, cents));
    if (!debit && cents > open) {
      expect(created.status, `credit ${cents} of ${open} open: ${created.raw}`).toBe(409);
      return;
    }
    expect(created.status, created.raw).toBe(201);
    m.requested += Math.abs(cents);
    const memo = created.body.info;
    const decided = await decideMemo(memo.id, memo.version);
    expect(decided.status, decided.raw).toBe(200);
    m.entries.push({ invoice: inv.id, entry: { kind: 'credit', amount_cents: cents } });
  }
  toString = () => `${this.type} #${this.i} ${this.debit ? 'debit' : this.over ? 'over' : this.share.toFixed(2)}`;
}

class WriteOff implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => live(m).length > 0;
  async run(m: Model) {
    const inv = pick(live(m), this.i);
    const open = balanceOf(m, inv).open_cents;
    const created = await post(`/api/writeoffs/{token}`, tok.ar, {
      invoice_id: inv.id,
      type: 142,
      reason: 'Model test',
      note: 'Drawn by fast-check',
    });
    if (open <= 0) {
      expect(created.status, created.raw).toBeGreaterThanOrEqual(400);
      expect(created.status).toBeLessThan(500);
      return;
    }
    expect(created.status, created.raw).toBe(201);
    const w = created.body.info;
    expect(w.amount_cents).toBe(open);
    m.requested += open;
    const decided = await post(`/api/writeoffs/${w.id}/decision/{token}`, tok.ar2, {
      decision: 'approve',
      version: w.version,
      reason: 'Checked',
    });
    expect(decided.status, decided.raw).toBe(200);
    m.entries.push({ invoice: inv.id, entry: { kind: 'write_off', amount_cents: open } });
  }
  toString = () => `write off #${this.i}`;
}

class Receipt implements Cmd {
  constructor(readonly cents: number) {}
  check = (m: Readonly<Model>) => m.receipts.length < 4;
  async run(m: Model, r: Real) {
    const res = await post(`/api/receipts/{token}`, tok.ar, {
      customer_id: r.customer,
      store_id: r.store,
      method: 'wire',
      reference: `WIRE-${m.receipts.length + 1}`,
      amount_cents: this.cents,
      currency: 'USD',
      received_on: '2026-11-20',
    });
    expect(res.status, res.raw).toBe(201);
    m.receipts.push({ id: res.body.info.receipt.id, amount: this.cents, version: res.body.info.receipt.version });
  }
  toString = () => `receipt ${this.cents}`;
}

class Apply implements Cmd {
  constructor(
    readonly rc: number,
    readonly i: number,
    readonly share: number,
  ) {}
  check = (m: Readonly<Model>) => m.receipts.length > 0 && live(m).length > 0;
  async run(m: Model) {
    const rc = pick(m.receipts, this.rc);
    const inv = pick(live(m), this.i);
    const room = Math.min(unapplied(m, rc.id), balanceOf(m, inv).open_cents);
    if (room <= 0) return;
    const cents = Math.max(1, Math.floor(room * this.share));
    const res = await post(`/api/receipts/${rc.id}/applications/{token}`, tok.ar, {
      version: rc.version,
      applications: [{ invoice_id: inv.id, amount_cents: cents }],
    });
    expect(res.status, res.raw).toBe(200);
    rc.version = res.body.info.receipt.version;
    const made = (res.body.info.allocations as { id: number }[]).filter(
      (a) => !m.allocations.some((x) => x.id === a.id),
    );
    m.allocations.push({ id: made[0]!.id, receipt: rc.id, invoice: inv.id, cents });
  }
  toString = () => `apply r${this.rc} #${this.i} ${this.share.toFixed(2)}`;
}

class Unapply implements Cmd {
  constructor(readonly a: number) {}
  check = (m: Readonly<Model>) => m.allocations.length > 0;
  async run(m: Model) {
    const idx = this.a % m.allocations.length;
    const a = m.allocations[idx]!;
    const rc = m.receipts.find((x) => x.id === a.receipt)!;
    const inv = m.invoices.find((i) => i.id === a.invoice)!;
    // Un-applying money that was already refunded or credited past would leave the invoice owing more than its total.
    const res = await t.request({
      method: 'DELETE',
      url: `/api/receipts/${rc.id}/applications/${a.id}/${tok.ar}?version=${rc.version}`,
      headers: { 'idempotency-key': key() },
    });
    const after = { ...m, allocations: m.allocations.filter((_, i) => i !== idx) };
    const b = balanceOf(after, inv);
    if (b.paid_cents < 0 || inv.reversed) {
      expect(res.statusCode, `un-apply below what went back: ${res.body}`).toBe(409);
      return;
    }
    expect(res.statusCode, res.body).toBe(200);
    rc.version = res.json().info.receipt.version;
    m.allocations.splice(idx, 1);
  }
  toString = () => `unapply ${this.a}`;
}

/** A dispute the gateway reports: the whole of a settled charge comes back (B). */
class Chargeback implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => live(m).some((i) => i.charges.length > 0);
  async run(m: Model, r: Real) {
    const inv = pick(
      live(m).filter((i) => i.charges.length > 0),
      this.i,
    );
    const room = refundable(m, inv);
    const charge = inv.charges[0]!;
    if (charge.cents > room) return; // already partly refunded: the processor disputes what is left only.
    await createTransaction(t.database.db, {
      invoiceId: inv.id,
      kind: 'chargeback',
      status: 'B',
      amountCents: charge.cents,
    });
    await syncInvoice(t.database.db, inv.id, t.clock.now());
    inv.charges.shift();
    m.entries.push({ invoice: inv.id, entry: { kind: 'money_out', amount_cents: charge.cents } });
    void r;
  }
  toString = () => `chargeback #${this.i}`;
}

class Reverse implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => live(m).length > 0;
  async run(m: Model, r: Real) {
    const inv = pick(live(m), this.i);
    const [row] = await t.database.query<{ version: number }>(`select version from invoices where id = $1`, [inv.id]);
    const res = await post(`/api/customers/${r.customer}/{token}/customerinvoices/${inv.id}/reverse`, tok.support, {
      reason: 'Billed in error',
      version: row!.version,
    });
    expect(res.status, res.raw).toBe(200);
    inv.reversed = true;
    const memo = res.body.info.credit_memo as Json | null;
    const paid = balanceOf(m, { ...inv, reversed: false }).paid_cents;
    if (paid > 0) {
      expect(memo, 'money paid on a reversed invoice is owed back: a refund memo waits').not.toBeNull();
      expect(memo!.amount_cents).toBe(paid);
    }
  }
  toString = () => `reverse #${this.i}`;
}

/** A hardware sale of two terminals on the store, charged at once to the card (the gateway knows the charge). */
class Sale implements Cmd {
  check = (m: Readonly<Model>) => !m.invoices.some((i) => i.sale);
  async run(m: Model, r: Real) {
    const db = t.database.db;
    const plan = await createPaymentPlan(db, { kind: 'hardware_sale', customerId: r.customer, storeId: r.store });
    const day = t.clock.now().toISOString().slice(0, 10);
    const inv = await createInvoice(db, {
      customerId: r.customer,
      storeId: r.store,
      planId: plan.id,
      type: 'S',
      issuedOn: day,
      dueOn: day,
      currency: 'USD',
      lines: [{ billingItemId: 3, description: 'NRS POS Terminal', quantity: 2, unitCents: UNIT }],
    });
    const terminals = [];
    for (let i = 0; i < 2; i++) terminals.push((await createTerminal(db, { storeId: r.store, productId: null })).id);
    const model: Inv = { id: inv.id, total: 2 * UNIT, reversed: false, charges: [], failed: [], pendingBack: 0 };
    model.sale = { terminals, returned: 0 };
    m.invoices.push(model);
    const out = await chargeInvoice(t.app.ctx, {
      invoiceId: inv.id,
      attempt: `model-sale-${inv.id}`,
      source: 'staff',
      actor: SYSTEM,
      requestId: randomUUID(),
    });
    expect(out).toMatchObject({ kind: 'charged', status: 'S' });
    if (out.kind === 'charged') model.charges.push({ id: out.transactionId, cents: 2 * UNIT });
    m.entries.push({ invoice: inv.id, entry: { kind: 'money_in', amount_cents: 2 * UNIT } });
  }
  toString = () => 'sale of 2 terminals';
}

/**
 * A terminal of the sale comes back: Customer Service requests, receives and inspects it; AR refunds the terminal's
 * price less the restocking fee to the card — a credit on the sale and the money back.
 */
class Return implements Cmd {
  check = (m: Readonly<Model>) => m.invoices.some((i) => i.sale && i.sale.returned < i.sale.terminals.length);
  async run(m: Model, r: Real) {
    const inv = m.invoices.find((i) => i.sale && i.sale.returned < i.sale.terminals.length)!;
    const terminal = inv.sale!.terminals[inv.sale!.returned]!;
    const asked = await post('/api/returns/{token}', tok.service, {
      store_id: r.store,
      terminal_ids: [terminal],
      reason: 'Merchant closed a till',
    });
    expect(asked.status, asked.raw).toBe(201);
    let version = asked.body.info.version as number;
    for (const action of ['receive', 'inspect']) {
      const res = await post(`/api/returns/${asked.body.info.id}/status/{token}`, tok.service, { action, version });
      expect(res.status, res.raw).toBe(200);
      version = res.body.info.version;
    }
    const refund = await post(`/api/returns/${asked.body.info.id}/refund/{token}`, tok.ar2, {
      method: 'gateway',
      version,
    });
    expect(refund.status, refund.raw).toBe(200);
    expect(refund.body.info).toMatchObject({ status: 'refunded', refund_cents: UNIT - RESTOCKING_FEE });
    inv.sale!.returned += 1;
    m.entries.push({ invoice: inv.id, entry: { kind: 'credit', amount_cents: UNIT - RESTOCKING_FEE } });
    m.entries.push({ invoice: inv.id, entry: { kind: 'money_out', amount_cents: UNIT - RESTOCKING_FEE } });
  }
  toString = () => 'return a terminal';
}

/** Two requests at once on the same invoice, each for most of what is there: at most one can be approved. */
class Race implements Cmd {
  constructor(
    readonly i: number,
    readonly type: 'C' | 'R',
  ) {}
  check = (m: Readonly<Model>) => live(m).length > 0;
  async run(m: Model, r: Real) {
    const inv = pick(live(m), this.i);
    const room = this.type === 'C' ? balanceOf(m, inv).open_cents : refundable(m, inv);
    const cents = Math.floor(room * 0.6);
    if (cents <= 0) return;
    const created = await Promise.all(
      [1, 2].map(() => post(`/api/memos/{token}`, tok.ar, memoBody(r, inv, this.type, cents))),
    );
    const ok = created.filter((c) => c.status === 201);
    for (const c of created) expect([201, 409], c.raw).toContain(c.status);
    expect(ok.length, 'two requests for 60% each: one is refused when made').toBe(1);
    m.requested += cents;
    const decided = await Promise.all(ok.map((c) => decideMemo(c.body.info.id, c.body.info.version)));
    for (const d of decided) expect(d.status, d.raw).toBe(200);
    m.entries.push({
      invoice: inv.id,
      entry: this.type === 'C' ? { kind: 'credit', amount_cents: cents } : { kind: 'money_out', amount_cents: cents },
    });
  }
  toString = () => `race ${this.type} #${this.i}`;
}

/** A requester approving its own credit: refused once its requests on the customer add up past $1,000. */
class SelfApprove implements Cmd {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => live(m).length > 0;
  async run(m: Model, r: Real) {
    const inv = pick(live(m), this.i);
    const cents = Math.min(balanceOf(m, inv).open_cents, 400_00);
    if (cents <= 0) return;
    const created = await post(`/api/memos/{token}`, tok.ar, memoBody(r, inv, 'C', cents));
    expect(created.status, created.raw).toBe(201);
    m.requested += cents;
    const memo = created.body.info;
    const self = await decideMemo(memo.id, memo.version, tok.ar);
    if (m.requested <= 1_000_00) expect(self.status, `${m.requested} asked in all: ${self.raw}`).toBe(200);
    else {
      expect(self.status, `${m.requested} asked in all: ${self.raw}`).toBe(409);
      expect(self.body.error.message).toMatch(/second person/);
      const other = await decideMemo(memo.id, memo.version);
      expect(other.status, other.raw).toBe(200);
    }
    m.entries.push({ invoice: inv.id, entry: { kind: 'credit', amount_cents: cents } });
  }
  toString = () => `self-approve #${this.i}`;
}

const share = fc.double({ min: 0.05, max: 1, noNaN: true });
const idx = fc.nat(7);
const commands = [
  fc.constantFrom(120_00, 75_51, 310_00, 640_00, 1_250_51).map((c) => new Bill(c)),
  idx.map((i) => new Charge(i)),
  idx.map((i) => new Retry(i)),
  fc
    .tuple(idx, fc.constantFrom('gateway' as const, 'check' as const), share, fc.boolean())
    .map(([i, method, s, over]) => new Refund(i, method, s, over)),
  idx.map((i) => new RefundCharge(i)),
  fc
    .tuple(idx, fc.constantFrom('C' as const, 'A' as const), share, fc.boolean(), fc.boolean())
    .map(([i, type, s, debit, over]) => new Credit(i, type, s, debit, over)),
  idx.map((i) => new WriteOff(i)),
  fc.integer({ min: 10_00, max: 400_00 }).map((c) => new Receipt(c)),
  fc.tuple(idx, idx, share).map(([rc, i, s]) => new Apply(rc, i, s)),
  idx.map((a) => new Unapply(a)),
  idx.map((i) => new Chargeback(i)),
  idx.map((i) => new Reverse(i)),
  fc.tuple(idx, fc.constantFrom('C' as const, 'R' as const)).map(([i, type]) => new Race(i, type)),
  idx.map((i) => new SelfApprove(i)),
  fc.constant(new Sale()),
  fc.constant(new Return()),
];

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  tok = await signInStaff(t, {
    ar: 'AR Team',
    ar2: 'AR Team',
    admin: 'Admin',
    support: 'Customer Support',
    service: 'Customer Service',
  });
  await ensureBillingItems(database.db, [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, 3]);
});
afterAll(() => t.close());

async function freshCustomer(): Promise<Real> {
  const db = t.database.db;
  seq += 1;
  const c = await createCustomer(db, { country: 'US', legalName: `Model Diner ${seq} LLC` });
  const s = await createStore(db, { customerId: c.id, country: 'US', doingBusinessAs: `Model Diner ${seq}` });
  await createPaymentInstrument(db, {
    customerId: c.id,
    storeId: s.id,
    kind: 'card',
    cardLast4: '4242',
    processorReference: `pm_local_test${c.id}_4242`,
  });
  return { customer: c.id, store: s.id };
}

describe('the money engine agrees with a model of the books (fast-check commands, through HTTP)', () => {
  it('any sequence of money operations by AR staff, some at once: books balance, no limit broken, balances as modelled', async () => {
    const seed = Number(process.env.MODEL_SEED ?? 20261127);
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 14 }), async (cmds) => {
        const real = await freshCustomer();
        const model: Model = { invoices: [], receipts: [], allocations: [], entries: [], requested: 0 };
        await new Bill(200_00).run(model, real);
        await new Sale().run(model, real);
        let step = 0;
        await fc.asyncModelRun(
          () => ({ model, real }),
          [...cmds].map((c) => ({
            check: (m: Readonly<Model>) => c.check(m),
            run: async (m: Model, r: Real) => {
              // A minute between steps, as between two people's clicks (the four-eyes sums count what came before).
              t.clock.advance(60_000);
              await c.run(m, r);
              step += 1;
              await verify(m, r, `step ${step} (${c.toString()})`);
            },
            toString: () => c.toString(),
          })),
        );
      }),
      { numRuns: Number(process.env.MODEL_RUNS ?? 20), seed },
    );
  }, 300_000);
});
