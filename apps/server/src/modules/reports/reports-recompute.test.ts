import {
  AGING_BUCKET_FIELDS,
  AGING_BUCKETS,
  agingBucketOf,
  creditMemoLedgerEntry,
  daysPastDue,
  invoiceBalance,
  transactionLedgerEntry,
  type AgingBucket,
  type InvoiceBalance,
  type LedgerEntry,
} from '@pos/domain';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCreditMemo,
  createCustomer,
  createInvoice,
  createReceipt,
  createReceiptAllocation,
  createStore,
  createTransaction,
  createWriteOff,
} from '../../db/factories';
import { creditMemos, invoices, receiptAllocations, transactions, writeOffs } from '../../db/schema';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * The reports against the domain's own balance function (decision 128). fast-check draws invoices in USD and CAD
 * with due dates around today (2026-11-22), partial charges, receipts applied, credit / adjustment / refund memos
 * (approved or pending), write-offs and reversals, written with the factories. After each draw, every figure of the
 * aging report (totals per currency and bucket, each customer's row, each bucket's drill-down) on two as-of days,
 * every revenue row and every failed-payment row (with failed charges drawn too) is recomputed here from the raw rows
 * with invoiceBalance and agingBucketOf, and must be equal.
 */

let t: TestApp;
let tok: string;
let seq = 0;
/** Open invoices and drill-down rows compared (the property must have compared something). */
let compared = 0;

const TODAY = '2026-11-22';
const day = (offset: number) =>
  new Date(Date.parse(`${TODAY}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

interface Spec {
  cad: boolean;
  customer: number;
  dueOffset: number;
  total: number;
  type: 'M' | 'I' | 'S' | 'B';
  charge: number;
  receipt: number;
  memo: { type: 'C' | 'A' | 'R'; share: number; approved: boolean } | null;
  writeOff: boolean;
  reversed: boolean;
  /** Days (from today) of failed charges of the invoice, at 15:00 UTC (the same day in the billing time zone). */
  failures: number[];
}

const EXAMPLE: Spec = {
  cad: false,
  customer: 0,
  dueOffset: -60,
  total: 100_00,
  type: 'M',
  charge: 0,
  receipt: 0,
  memo: null,
  writeOff: false,
  reversed: false,
  failures: [],
};

const specArb: fc.Arbitrary<Spec> = fc.record({
  cad: fc.boolean(),
  customer: fc.nat(2),
  dueOffset: fc.integer({ min: -150, max: 20 }),
  total: fc.integer({ min: 1, max: 900_00 }),
  type: fc.constantFrom('M' as const, 'I' as const, 'S' as const, 'B' as const),
  charge: fc.double({ min: 0, max: 1.2, noNaN: true }),
  receipt: fc.double({ min: 0, max: 1, noNaN: true }),
  memo: fc.option(
    fc.record({
      type: fc.constantFrom('C' as const, 'A' as const, 'R' as const),
      share: fc.double({ min: 0.01, max: 1, noNaN: true }),
      approved: fc.boolean(),
    }),
  ),
  writeOff: fc.boolean(),
  reversed: fc.boolean(),
  failures: fc.array(fc.integer({ min: -330, max: 0 }), { maxLength: 3 }),
});

async function write(specs: Spec[]) {
  const db = t.database.db;
  seq += 1;
  const owners = new Map<string, { customerId: number; storeId: number }>();
  const ownerOf = async (cad: boolean, n: number) => {
    const k = `${cad}-${n}`;
    if (!owners.has(k)) {
      const country = cad ? 'CA' : 'US';
      const currency = cad ? 'CAD' : 'USD';
      const c = await createCustomer(db, { country, currency, legalName: `Recompute ${seq}-${k}` });
      const s = await createStore(db, { customerId: c.id, country, currency });
      owners.set(k, { customerId: c.id, storeId: s.id });
    }
    return owners.get(k)!;
  };
  for (const spec of specs) {
    const o = await ownerOf(spec.cad, spec.customer);
    const currency = spec.cad ? 'CAD' : 'USD';
    const inv = await createInvoice(db, {
      ...o,
      currency,
      type: spec.type,
      issuedOn: day(spec.dueOffset - 14),
      dueOn: day(spec.dueOffset),
      totalCents: spec.total,
    });
    for (const f of spec.failures)
      await createTransaction(db, {
        invoiceId: inv.id,
        status: 'F',
        declineCode: 'insufficient_funds',
        amountCents: spec.total,
        attemptedAt: new Date(`${day(f)}T15:00:00Z`),
      });
    const charge = Math.floor(spec.total * spec.charge);
    if (charge > 0) await createTransaction(db, { invoiceId: inv.id, status: 'S', amountCents: charge });
    const received = Math.floor(spec.total * spec.receipt);
    if (received > 0) {
      const r = await createReceipt(db, { customerId: o.customerId, amountCents: received, currency });
      await createReceiptAllocation(db, { receiptId: r.id, invoiceId: inv.id });
    }
    if (spec.memo) {
      const amount = Math.max(1, Math.floor(spec.total * spec.memo.share));
      await createCreditMemo(db, {
        ...o,
        invoiceId: inv.id,
        currency,
        type: spec.memo.type,
        status: spec.memo.approved ? 'A' : 'P',
        amountCents: spec.memo.type === 'A' && spec.memo.share > 0.8 ? -amount : amount,
      });
    }
    if (spec.writeOff) await createWriteOff(db, { invoiceId: inv.id, amountCents: Math.ceil(spec.total / 3) });
    // The stored status follows the ledger (as syncInvoice keeps it): reversed R, else N while open, else P.
    const b = await balanceFromRows(inv.id, spec.total, spec.reversed);
    await db
      .update(invoices)
      .set({
        status: b.status,
        paidCents: Math.min(b.paid_cents, spec.total),
        reversedAt: spec.reversed ? new Date() : null,
      })
      .where(eq(invoices.id, inv.id));
  }
}

/** The domain's balance of one invoice from its raw ledger rows. */
async function balanceFromRows(invoiceId: number, total: number, reversed: boolean): Promise<InvoiceBalance> {
  const db = t.database.db;
  const [txs, allocs, memos, wos] = await Promise.all([
    db.select().from(transactions).where(eq(transactions.invoiceId, invoiceId)),
    db.select().from(receiptAllocations).where(eq(receiptAllocations.invoiceId, invoiceId)),
    db.select().from(creditMemos).where(eq(creditMemos.invoiceId, invoiceId)),
    db.select().from(writeOffs).where(eq(writeOffs.invoiceId, invoiceId)),
  ]);
  const entries: LedgerEntry[] = [
    ...txs.map((x) => transactionLedgerEntry({ kind: x.kind, status: x.status, amount_cents: x.amountCents })),
    ...allocs.map((a): LedgerEntry => ({ kind: 'money_in', amount_cents: a.amountCents })),
    ...memos.map((m) => creditMemoLedgerEntry({ type: m.type, status: m.status, amount_cents: m.amountCents })),
    ...wos
      .filter((w) => w.status === 'A')
      .map((w): LedgerEntry => ({ kind: 'write_off', amount_cents: w.amountCents })),
    ...(reversed ? [{ kind: 'reversal' } as const] : []),
  ].filter((e): e is LedgerEntry => e !== null);
  return invoiceBalance(total, entries);
}

interface Figures {
  buckets: Record<AgingBucket, number>;
  count: number;
}
const zero = (): Figures => ({
  buckets: { current: 0, '1-30': 0, '31-60': 0, '61-90': 0, '90+': 0 },
  count: 0,
});

/** Every invoice of the database with its domain balance (the whole database: figures are global). */
async function everything() {
  const rows = await t.database.db.select().from(invoices);
  return Promise.all(
    rows.map(async (i) => ({ inv: i, bal: await balanceFromRows(i.id, i.totalCents, i.reversedAt !== null) })),
  );
}

async function checkAging(asOf: string) {
  const all = await everything();
  const totals = new Map<string, Figures>();
  const byCustomer = new Map<string, Figures>();
  const byBucket = new Map<string, number[]>();
  for (const { inv, bal } of all) {
    if (bal.open_cents <= 0 || inv.issuedOn > asOf) continue;
    const b = agingBucketOf(daysPastDue(inv.dueOn, asOf));
    for (const [map, key] of [
      [totals, inv.currency],
      [byCustomer, `${inv.customerId}-${inv.currency}`],
    ] as const) {
      const f = map.get(key) ?? zero();
      f.buckets[b] += bal.open_cents;
      f.count += 1;
      map.set(key, f);
    }
    const k = `${b}-${inv.currency}`;
    byBucket.set(k, [...(byBucket.get(k) ?? []), inv.id]);
  }
  const shape = (f: Figures) => ({
    ...Object.fromEntries(AGING_BUCKETS.map((b) => [AGING_BUCKET_FIELDS[b], f.buckets[b]])),
    total_cents: Object.values(f.buckets).reduce((s, n) => s + n, 0),
    invoice_count: f.count,
  });

  const res = await t.request({ method: 'GET', url: `/api/reports/aging/${tok}?as_of=${asOf}&limit=500` });
  expect(res.statusCode, res.body).toBe(200);
  const info = res.json().info;
  const gotTotals = Object.fromEntries(
    info.totals.map(({ currency, ...rest }: { currency: string }) => [currency, rest]),
  );
  expect(gotTotals).toEqual(Object.fromEntries([...totals].map(([c, f]) => [c, shape(f)])));
  expect(info.customers.total).toBe(byCustomer.size);
  const gotCustomers = Object.fromEntries(
    info.customers.items.map((r: Record<string, unknown>) => {
      const { customer_id, currency, legal_name: _n, country: _c, ...rest } = r;
      return [`${customer_id}-${currency}`, rest];
    }),
  );
  expect(gotCustomers).toEqual(Object.fromEntries([...byCustomer].map(([k, f]) => [k, shape(f)])));

  for (const b of AGING_BUCKETS) {
    for (const currency of ['USD', 'CAD']) {
      const d = await t.request({
        method: 'GET',
        url: `/api/reports/aging/invoices/${tok}?as_of=${asOf}&bucket=${encodeURIComponent(b)}&currency=${currency}&limit=500`,
      });
      const got = d.json().info;
      const want = byBucket.get(`${b}-${currency}`) ?? [];
      expect(got.items.map((i: { invoice_id: number }) => i.invoice_id).sort(), `${b} ${currency}`).toEqual(
        [...want].sort(),
      );
      compared += want.length;
      expect(got.totals.reduce((s: number, x: { open_cents: number }) => s + x.open_cents, 0)).toBe(
        totals.get(currency)?.buckets[b] ?? 0,
      );
    }
  }
}

async function checkRevenue() {
  const all = await everything();
  const want = new Map<string, { count: number; invoiced: number; reversed: number; collected: number }>();
  for (const { inv, bal } of all) {
    // Revenue answers by whole months (decision 137): to the end of today's month.
    if (inv.issuedOn < '2026-01-01' || inv.issuedOn > '2026-11-30') continue;
    const k = `${inv.issuedOn.slice(0, 7)} ${inv.type} ${inv.currency}`;
    const r = want.get(k) ?? { count: 0, invoiced: 0, reversed: 0, collected: 0 };
    r.count += 1;
    if (inv.reversedAt === null) r.invoiced += inv.totalCents;
    else r.reversed += inv.totalCents;
    r.collected += bal.paid_cents;
    want.set(k, r);
  }
  const res = await t.request({ method: 'GET', url: `/api/reports/revenue/${tok}?from=2026-01-01` });
  expect(res.statusCode, res.body).toBe(200);
  const got = Object.fromEntries(
    res
      .json()
      .info.rows.map(
        (r: {
          month: string;
          type: string;
          currency: string;
          invoice_count: number;
          invoiced_cents: number;
          reversed_cents: number;
          collected_cents: number;
        }) => [
          `${r.month} ${r.type} ${r.currency}`,
          {
            count: r.invoice_count,
            invoiced: r.invoiced_cents,
            reversed: r.reversed_cents,
            collected: r.collected_cents,
          },
        ],
      ),
  );
  expect(got).toEqual(Object.fromEntries(want));
}

/**
 * Failed payments from 2026-01-01 to today: charge attempts per month and currency from the raw transactions; each
 * failed invoice once, in the month of its first failed charge, for its total; recovered when the domain's balance
 * says paid (P, nothing written off, money paid).
 */
async function checkFailedPayments() {
  const all = await everything();
  const byInvoice = new Map(all.map((x) => [x.inv.id, x]));
  const txs = await t.database.db.select().from(transactions);
  type Row = Record<
    | 'attempts'
    | 'attempted_cents'
    | 'failed_attempts'
    | 'failed_attempt_cents'
    | 'failed_invoices'
    | 'failed_cents'
    | 'recovered_invoices'
    | 'recovered_cents',
    number
  >;
  const want = new Map<string, Row>();
  const row = (k: string) => {
    const r = want.get(k) ?? {
      attempts: 0,
      attempted_cents: 0,
      failed_attempts: 0,
      failed_attempt_cents: 0,
      failed_invoices: 0,
      failed_cents: 0,
      recovered_invoices: 0,
      recovered_cents: 0,
    };
    want.set(k, r);
    return r;
  };
  const inRange = (d: Date) => d.toISOString().slice(0, 10) >= '2026-01-01' && d.toISOString().slice(0, 10) <= TODAY;
  const firstFailure = new Map<number, Date>();
  for (const x of txs) {
    if (x.kind !== 'charge' || x.attemptedAt === null || !['S', 'F', 'R', 'B', 'C'].includes(x.status)) continue;
    if (x.status === 'F' && x.invoiceId !== null) {
      const first = firstFailure.get(x.invoiceId);
      if (!first || x.attemptedAt < first) firstFailure.set(x.invoiceId, x.attemptedAt);
    }
    if (!inRange(x.attemptedAt)) continue;
    const r = row(`${x.attemptedAt.toISOString().slice(0, 7)} ${x.currency}`);
    r.attempts += 1;
    r.attempted_cents += x.amountCents;
    if (x.status === 'F') {
      r.failed_attempts += 1;
      r.failed_attempt_cents += x.amountCents;
    }
  }
  for (const [invoiceId, at] of firstFailure) {
    if (!inRange(at)) continue;
    const { inv, bal } = byInvoice.get(invoiceId)!;
    const r = row(`${at.toISOString().slice(0, 7)} ${inv.currency}`);
    r.failed_invoices += 1;
    r.failed_cents += inv.totalCents;
    if (bal.status === 'P' && bal.written_off_cents === 0 && bal.paid_cents > 0) {
      r.recovered_invoices += 1;
      r.recovered_cents += inv.totalCents;
    }
  }
  const res = await t.request({
    method: 'GET',
    url: `/api/reports/failed-payments/${tok}?from=2026-01-01&to=${TODAY}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  const got = Object.fromEntries(
    res.json().info.rows.map((r: Row & { month: string; currency: string }) => [
      `${r.month} ${r.currency}`,
      {
        attempts: r.attempts,
        attempted_cents: r.attempted_cents,
        failed_attempts: r.failed_attempts,
        failed_attempt_cents: r.failed_attempt_cents,
        failed_invoices: r.failed_invoices,
        failed_cents: r.failed_cents,
        recovered_invoices: r.recovered_invoices,
        recovered_cents: r.recovered_cents,
      },
    ]),
  );
  expect(got).toEqual(Object.fromEntries(want));
  compared += firstFailure.size;
}

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  tok = (await signInStaff(t, { ar: 'AR Team' })).ar;
});

afterAll(async () => {
  await t?.close();
});

describe('reports recomputed from the domain ledger', () => {
  it('aging (two as-of days, by currency, customer and bucket), revenue and failed payments equal the recomputation', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(specArb, { minLength: 1, maxLength: 8 }), async (specs) => {
        await write(specs);
        await checkAging(TODAY);
        await checkAging(day(-30));
        await checkRevenue();
        await checkFailedPayments();
      }),
      {
        numRuns: 6,
        seed: 128,
        // Drawn first: a failed invoice paid 70 % and the rest written off (settled, but not recovered), and one
        // that failed twice, in two months, and was paid (recovered once, in the first month).
        examples: [
          [
            [
              { ...EXAMPLE, failures: [-40], charge: 0.7, writeOff: true },
              { ...EXAMPLE, cad: true, failures: [-70, -35], charge: 1, writeOff: false },
            ],
          ],
        ],
      },
    );
    expect(compared).toBeGreaterThan(10);
  }, 240_000);
});
