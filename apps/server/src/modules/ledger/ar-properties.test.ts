import { BILLING_ITEM_IDS, invoiceBalance, type InvoiceBalance, type LedgerEntry } from '@pos/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createInvoice, createStore, ensureBillingItems } from '../../db/factories';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { journalMismatchesSql, journalOpenCents, unbalancedEntriesSql } from './journal.service';
import { ledgerMismatchesSql, ledgerLimitBreachesSql } from './ledger.service';

/*
 * Accounts receivable against the ledger (issue 16, acceptance: property tests). fast-check draws sequences of
 * receipts, applications (some over what is left, which must be refused), un-applications, memos and write-offs,
 * and plays them through HTTP as AR staff would. After every step each invoice's balance read from
 * invoice_balances equals the domain's invoiceBalance over a model of what was accepted, every receipt's unapplied
 * amount equals its amount minus its applications, and the ledger check finds nothing. An application followed by
 * its un-application restores the exact earlier state (balances, stored paid/status, unapplied amounts). Seeded:
 * a failure prints the seed and the shrunk sequence.
 */

let t: TestApp;
let tok: Record<'ar' | 'ar2', string>;
let storeSeq = 0;

const TOTALS = [120_00, 75_50, 310_00] as const;

type Op =
  | { kind: 'receipt'; cents: number }
  | { kind: 'apply'; receipt: number; invoice: number; share: number; over: boolean }
  | { kind: 'applyUndo'; receipt: number; invoice: number; share: number }
  | { kind: 'unapply'; allocation: number }
  | { kind: 'memo'; type: 'C' | 'A' | 'R'; invoice: number; share: number; negative: boolean; approve: boolean }
  | { kind: 'writeOff'; invoice: number; approve: boolean };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('receipt' as const), cents: fc.integer({ min: 1, max: 400_00 }) }),
  fc.record({
    kind: fc.constant('apply' as const),
    receipt: fc.nat(5),
    invoice: fc.nat(TOTALS.length - 1),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
    over: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('applyUndo' as const),
    receipt: fc.nat(5),
    invoice: fc.nat(TOTALS.length - 1),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
  }),
  fc.record({ kind: fc.constant('unapply' as const), allocation: fc.nat(8) }),
  fc.record({
    kind: fc.constant('memo' as const),
    type: fc.constantFrom('C' as const, 'A' as const, 'R' as const),
    invoice: fc.nat(TOTALS.length - 1),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
    negative: fc.boolean(),
    approve: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('writeOff' as const), invoice: fc.nat(TOTALS.length - 1), approve: fc.boolean() }),
);

interface Model {
  invoices: { id: number; total: number }[];
  receipts: { id: number; amount: number; version: number }[];
  allocations: { id: number; receipt: number; invoice: number; cents: number }[];
  /** Approved memos and write-offs, as the ledger entries they are. */
  decided: { invoice: number; entry: LedgerEntry }[];
}

const key = () => `prop-${crypto.randomUUID()}`;

function expected(m: Model, invoiceId: number): InvoiceBalance {
  const inv = m.invoices.find((i) => i.id === invoiceId)!;
  const entries: LedgerEntry[] = [
    ...m.allocations
      .filter((a) => a.invoice === invoiceId)
      .map((a): LedgerEntry => ({ kind: 'money_in', amount_cents: a.cents })),
    ...m.decided.filter((d) => d.invoice === invoiceId).map((d) => d.entry),
  ];
  return invoiceBalance(inv.total, entries);
}
const unapplied = (m: Model, receiptId: number) =>
  m.receipts.find((r) => r.id === receiptId)!.amount -
  m.allocations.filter((a) => a.receipt === receiptId).reduce((s, a) => s + a.cents, 0);

interface Snapshot {
  balances: Record<number, unknown>;
  stored: Record<number, unknown>;
  receipts: Record<number, number>;
}

async function snapshot(m: Model): Promise<Snapshot> {
  const ids = m.invoices.map((i) => i.id);
  const balances = await t.database.query<Record<string, unknown>>(
    `select b.invoice_id, b.open_cents::int, b.paid_cents::int, b.credited_cents::int, b.written_off_cents::int,
       b.overpaid_cents::int, b.status, i.paid_cents::int as stored_paid, i.status as stored_status
     from invoice_balances b join invoices i on i.id = b.invoice_id where b.invoice_id = any($1::int[])
     order by b.invoice_id`,
    [ids],
  );
  const recs = await t.database.query<{ id: number; unapplied_cents: string }>(
    `select id, unapplied_cents::text from receipts where id = any($1::int[]) order by id`,
    [m.receipts.map((r) => r.id)],
  );
  return {
    balances: Object.fromEntries(
      balances.map((b) => [
        Number(b.invoice_id),
        { open: b.open_cents, paid: b.paid_cents, credited: b.credited_cents, status: b.status },
      ]),
    ),
    stored: Object.fromEntries(
      balances.map((b) => [Number(b.invoice_id), { paid: b.stored_paid, status: b.stored_status }]),
    ),
    receipts: Object.fromEntries(recs.map((r) => [r.id, Number(r.unapplied_cents)])),
  };
}

async function verify(m: Model, step: string): Promise<Snapshot> {
  const snap = await snapshot(m);
  for (const inv of m.invoices) {
    const want = expected(m, inv.id);
    expect(snap.balances[inv.id], `${step}: invoice ${inv.id}`).toEqual({
      open: want.open_cents,
      paid: want.paid_cents,
      credited: want.credited_cents,
      status: want.status,
    });
    expect(snap.stored[inv.id], `${step}: stored figures of invoice ${inv.id}`).toEqual({
      paid: want.paid_cents,
      status: want.status,
    });
  }
  for (const r of m.receipts) expect(snap.receipts[r.id], `${step}: receipt ${r.id}`).toBe(unapplied(m, r.id));
  const mismatches = (await t.database.db.execute(ledgerMismatchesSql(10))) as unknown as { rows: unknown[] };
  expect(mismatches.rows, `${step}: ledger check`).toEqual([]);
  // The journal (issue 28, decision 145): each invoice's receivables are the model's open balance, every entry
  // balances, and the journal agrees with the ledger per invoice and per customer.
  const journalOpen = await journalOpenCents(
    t.database.db,
    m.invoices.map((i) => i.id),
  );
  for (const inv of m.invoices)
    expect(journalOpen.get(inv.id), `${step}: journal receivables of invoice ${inv.id}`).toBe(
      expected(m, inv.id).open_cents,
    );
  const journal = (await t.database.db.execute(journalMismatchesSql(10))) as unknown as { rows: unknown[] };
  expect(journal.rows, `${step}: journal against the ledger`).toEqual([]);
  const unbalanced = (await t.database.db.execute(unbalancedEntriesSql(10))) as unknown as { rows: unknown[] };
  expect(unbalanced.rows, `${step}: unbalanced entries`).toEqual([]);
  return snap;
}

async function freshCustomer(): Promise<{ model: Model; customer: { customer: number; store: number } }> {
  const db = t.database.db;
  storeSeq += 1;
  const c = await createCustomer(db, { country: 'US', legalName: `Property Diner ${storeSeq} LLC` });
  const s = await createStore(db, { customerId: c.id, country: 'US', doingBusinessAs: `Property Diner ${storeSeq}` });
  const invoices = [];
  for (const total of TOTALS) {
    const inv = await createInvoice(db, {
      customerId: c.id,
      storeId: s.id,
      currency: 'USD',
      lines: [
        { billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, description: 'Monthly service fee', unitCents: total },
      ],
    });
    invoices.push({ id: inv.id, total });
  }
  return { model: { invoices, receipts: [], allocations: [], decided: [] }, customer: { customer: c.id, store: s.id } };
}

async function apply(m: Model, receiptIdx: number, invoiceIdx: number, cents: number) {
  const r = m.receipts[receiptIdx]!;
  const inv = m.invoices[invoiceIdx]!;
  const res = await t.request({
    method: 'POST',
    url: `/api/receipts/${r.id}/applications/${tok.ar}`,
    payload: { version: r.version, applications: [{ invoice_id: inv.id, amount_cents: cents }] },
    headers: { 'idempotency-key': key() },
  });
  return res;
}

async function play(m: Model, op: Op, customer: { customer: number; store: number }) {
  switch (op.kind) {
    case 'receipt': {
      const res = await t.request({
        method: 'POST',
        url: `/api/receipts/${tok.ar}`,
        payload: {
          customer_id: customer.customer,
          store_id: customer.store,
          method: 'wire',
          reference: `WIRE-${m.receipts.length + 1}`,
          amount_cents: op.cents,
          currency: 'USD',
          received_on: '2026-11-20',
        },
        headers: { 'idempotency-key': key() },
      });
      expect(res.statusCode, res.body).toBe(201);
      const info = res.json().info;
      m.receipts.push({ id: info.receipt.id, amount: op.cents, version: info.receipt.version });
      return;
    }
    case 'apply':
    case 'applyUndo': {
      if (m.receipts.length === 0) return;
      const ri = op.receipt % m.receipts.length;
      const r = m.receipts[ri]!;
      const inv = m.invoices[op.invoice]!;
      const room = Math.min(unapplied(m, r.id), expected(m, inv.id).open_cents);
      const over = op.kind === 'apply' && op.over;
      const cents = over ? room + 1 : Math.max(1, Math.floor(room * op.share));
      const before = op.kind === 'applyUndo' ? await snapshot(m) : undefined;
      const res = await apply(m, ri, op.invoice, cents);
      if (over || room === 0) {
        expect(res.statusCode, `over what is left (${cents} > ${room}): ${res.body}`).toBe(400);
        return;
      }
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info;
      r.version = info.receipt.version;
      const made = (info.allocations as { id: number; invoice_id: number; amount_cents: number }[]).filter(
        (a) => !m.allocations.some((x) => x.id === a.id),
      );
      expect(made).toHaveLength(1);
      m.allocations.push({ id: made[0]!.id, receipt: r.id, invoice: inv.id, cents });
      if (op.kind === 'applyUndo') {
        await verify(m, 'applied');
        await unapply(m, m.allocations.length - 1);
        expect(await snapshot(m), 'un-apply restores the exact earlier state').toEqual(before);
      }
      return;
    }
    case 'unapply': {
      if (m.allocations.length === 0) return;
      await unapply(m, op.allocation % m.allocations.length);
      return;
    }
    case 'memo': {
      const inv = m.invoices[op.invoice]!;
      const now = expected(m, inv.id);
      // A credit up to the invoice's total; an adjustment either way; a refund (by check) up to what was paid. A credit
      // (or an adjustment that lowers the balance) above what is open is refused (issue 28: never credit more than is
      // open) and changes nothing.
      const base = op.type === 'C' ? inv.total : op.type === 'R' ? now.paid_cents : 200_00;
      if (base === 0) return;
      const size = Math.max(1, Math.floor(base * op.share));
      const cents = op.type === 'A' && op.negative ? -size : size;
      const overOpen = op.type !== 'R' && cents > 0 && cents > now.open_cents;
      const created = await t.request({
        method: 'POST',
        url: `/api/memos/${tok.ar}`,
        payload: {
          customer_id: customer.customer,
          invoice_id: inv.id,
          type: op.type,
          amount_cents: cents,
          reason: 'Property test',
          note: 'Drawn by fast-check',
          ...(op.type === 'R' ? { refund_method: 'check' } : {}),
        },
        headers: { 'idempotency-key': key() },
      });
      if (overOpen) {
        expect(created.statusCode, `a credit over what is open: ${created.body}`).toBe(409);
        await verify(m, 'a refused credit changes nothing');
        return;
      }
      expect(created.statusCode, created.body).toBe(201);
      const memo = created.json().info;
      await verify(m, 'a pending memo changes nothing');
      const decided = await decide('memos', memo.id, memo.version, op.approve);
      expect(decided.statusCode, decided.body).toBe(200);
      if (op.approve)
        m.decided.push({
          invoice: inv.id,
          entry: op.type === 'R' ? { kind: 'money_out', amount_cents: cents } : { kind: 'credit', amount_cents: cents },
        });
      return;
    }
    case 'writeOff': {
      const inv = m.invoices[op.invoice]!;
      const open = expected(m, inv.id).open_cents;
      const created = await t.request({
        method: 'POST',
        url: `/api/writeoffs/${tok.ar}`,
        payload: { invoice_id: inv.id, type: 142, reason: 'Property test', note: 'Drawn by fast-check' },
        headers: { 'idempotency-key': key() },
      });
      if (open === 0) {
        expect(created.statusCode, `nothing open to write off: ${created.body}`).toBeGreaterThanOrEqual(400);
        expect(created.statusCode).toBeLessThan(500);
        return;
      }
      expect(created.statusCode, created.body).toBe(201);
      const w = created.json().info;
      expect(w.amount_cents).toBe(open);
      await verify(m, 'a pending write-off changes nothing');
      const decided = await decide('writeoffs', w.id, w.version, op.approve);
      expect(decided.statusCode, decided.body).toBe(200);
      if (op.approve) m.decided.push({ invoice: inv.id, entry: { kind: 'write_off', amount_cents: open } });
      return;
    }
  }
}

/** The second AR user decides (a request is never decided by its creator here). */
function decide(kind: 'memos' | 'writeoffs', id: number, version: number, approve: boolean) {
  return t.request({
    method: 'POST',
    url: `/api/${kind}/${id}/decision/${tok.ar2}`,
    payload: { decision: approve ? 'approve' : 'reject', reason: 'Checked', version },
    headers: { 'idempotency-key': key() },
  });
}

async function unapply(m: Model, idx: number) {
  const a = m.allocations[idx]!;
  const r = m.receipts.find((x) => x.id === a.receipt)!;
  const res = await t.request({
    method: 'DELETE',
    url: `/api/receipts/${r.id}/applications/${a.id}/${tok.ar}?version=${r.version}`,
    headers: { 'idempotency-key': key() },
  });
  expect(res.statusCode, res.body).toBe(200);
  r.version = res.json().info.receipt.version;
  m.allocations.splice(idx, 1);
}

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  tok = await signInStaff(t, { ar: 'AR Team', ar2: 'AR Team' });
  await ensureBillingItems(database.db, [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE]);
});
afterAll(() => t.close());

describe('accounts receivable keeps every balance equal to its derivation (fast-check, through HTTP)', () => {
  it('any sequence of receipts, applications, un-applications, memos and write-offs; undoing restores the exact earlier state', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        const { model: m, customer } = await freshCustomer();
        for (const [i, op] of ops.entries()) {
          await play(m, op, customer);
          await verify(m, `step ${i + 1} (${op.kind})`);
        }
        // Issue 28: whatever the sequence, no money limit is broken (refunds, credits, four-eyes sums).
        const breaches = (await t.database.db.execute(ledgerLimitBreachesSql(10))) as unknown as { rows: unknown[] };
        expect(breaches.rows, 'no money limit broken').toEqual([]);
      }),
      { numRuns: 25, seed: Number(process.env.PROPERTY_SEED ?? 20261125) },
    );
  }, 120_000);
});
