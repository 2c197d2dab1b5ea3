import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createCustomer, createInvoice, createStore, createTransaction } from '../../db/factories';
import { invoiceLines, invoices, reportChargeFacts, reportInvoiceMonthFacts, transactions } from '../../db/schema';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { reportFactsCompactWorker } from './report-facts-compact';

/*
 * The report facts (decision 137): triggers append a signed row per statement and key on every insert, update and
 * delete of invoices and transactions; the compaction job folds them; the revenue and failed-payment reports read
 * the same figures before and after, and the same as report_facts_rebuild() computes from scratch.
 */

let t: TestApp;
let tok: string;

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const report = async (url: string) => {
  const res = await t.request({ method: 'GET', url: url.replace('{token}', tok) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info;
};
const factCount = async () =>
  (await t.database.db.$count(reportInvoiceMonthFacts)) + (await t.database.db.$count(reportChargeFacts));
const storeBalances = async () =>
  rowsOf<{ store_id: number; open_cents: string }>(
    await t.database.db.execute(sql`select store_id, open_cents::text from store_balances order by store_id`),
  );
/** Both fact tables summed per key: what a report can read. */
const sums = async () =>
  rowsOf<Record<string, string>>(
    await t.database.db.execute(sql`
      select 'i' as t, month::text as k, type, currency, country, sum(invoice_count)::text as a, sum(invoiced_cents)::text as b,
        sum(reversed_cents)::text as c, sum(collected_cents)::text as d
      from report_invoice_month_facts group by 2, 3, 4, 5 having sum(invoice_count) <> 0
      union all
      select 'c', slot::text, '', currency, country, sum(attempts)::text, sum(attempted_cents)::text, sum(failed_attempts)::text,
        sum(failed_attempt_cents)::text
      from report_charge_facts group by 2, 3, 4, 5 having sum(attempts) <> 0
      order by 1, 2, 3, 4, 5`),
  );

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  tok = (await signInStaff(t, { ar: 'AR Team' })).ar;
  const db = database.db;
  const c = await createCustomer(db, { country: 'CA', currency: 'CAD' });
  const s = await createStore(db, { customerId: c.id, country: 'CA', currency: 'CAD' });
  for (const [issuedOn, total] of [
    ['2026-09-01', 50_00],
    ['2026-10-01', 60_00],
    ['2026-10-05', 70_00],
  ] as const) {
    const inv = await createInvoice(db, {
      customerId: c.id,
      storeId: s.id,
      currency: 'CAD',
      issuedOn,
      totalCents: total,
    });
    await createTransaction(db, {
      invoiceId: inv.id,
      status: 'F',
      declineCode: 'insufficient_funds',
      attemptedAt: new Date(`${issuedOn}T15:00:00Z`),
    });
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('report facts', () => {
  it('follow inserts, updates and deletes, fold without changing a figure, and equal a rebuild', async () => {
    const db = t.database.db;
    const [oct] = await db.select().from(invoices).where(eq(invoices.issuedOn, '2026-10-01'));
    // A paid retry, then the payment recorded on the invoice; a reversal of the September one.
    await createTransaction(db, { invoiceId: oct!.id, status: 'S', attemptedAt: new Date('2026-10-08T15:00:00Z') });
    await db.update(invoices).set({ status: 'P', paidCents: 60_00, openCents: 0 }).where(eq(invoices.id, oct!.id));
    await db
      .update(invoices)
      .set({ status: 'R', reversedAt: new Date('2026-09-20T00:00:00Z'), openCents: 0 })
      .where(eq(invoices.issuedOn, '2026-09-01'));
    // A pending charge that the gateway then declines (P → F: an attempt only once answered).
    const [oct5] = await db.select().from(invoices).where(eq(invoices.issuedOn, '2026-10-05'));
    const pending = await createTransaction(db, {
      invoiceId: oct5!.id,
      status: 'P',
      attemptedAt: new Date('2026-10-09T15:00:00Z'),
    });
    await db
      .update(transactions)
      .set({ status: 'F', failureReason: 'Do not honor' })
      .where(eq(transactions.id, pending.id));

    const revenue = await report('/api/reports/revenue/{token}?from=2026-09-01&to=2026-10-31&currency=CAD');
    const failed = await report('/api/reports/failed-payments/{token}?from=2026-09-01&to=2026-10-31&currency=CAD');
    expect(revenue.totals).toEqual([
      { currency: 'CAD', invoice_count: 3, invoiced_cents: 130_00, reversed_cents: 50_00, collected_cents: 60_00 },
    ]);
    expect(
      failed.rows.map((r: Record<string, unknown>) => [
        r.month,
        r.attempts,
        r.failed_attempts,
        r.failed_invoices,
        r.recovered_invoices,
      ]),
    ).toEqual([
      ['2026-09', 1, 1, 1, 0],
      ['2026-10', 4, 3, 2, 1],
    ]);
    const before = await sums();
    const rows = await factCount();
    expect(rows).toBeGreaterThan(before.length);

    const folded = await reportFactsCompactWorker.run(t);
    expect(folded.folded).toBe(rows - before.length);
    expect(await factCount()).toBe(before.length);
    expect(await sums()).toEqual(before);
    expect(await report('/api/reports/revenue/{token}?from=2026-09-01&to=2026-10-31&currency=CAD')).toEqual(revenue);
    expect(await report('/api/reports/failed-payments/{token}?from=2026-09-01&to=2026-10-31&currency=CAD')).toEqual(
      failed,
    );

    // Deleting rows takes their share out; a rebuild from scratch gives what the triggers kept.
    await db.delete(transactions).where(eq(transactions.id, pending.id));
    const afterDelete = await sums();
    const balances = await storeBalances();
    await db.execute(sql`select report_facts_rebuild()`);
    expect(await sums()).toEqual(afterDelete);
    expect(await storeBalances()).toEqual(balances);
  });

  it("keep every store's open balance: a row per store, the sum of its invoices' open_cents (decision 139)", async () => {
    const db = t.database.db;
    const c = await createCustomer(db, { country: 'US', currency: 'USD' });
    const a = await createStore(db, { customerId: c.id });
    const b = await createStore(db, { customerId: c.id });
    const one = await createInvoice(db, { customerId: c.id, storeId: a.id, totalCents: 100_00 });
    await createInvoice(db, { customerId: c.id, storeId: a.id, totalCents: 30_00 });
    const balanceOf = async (storeId: number) =>
      (await storeBalances()).find((r) => Number(r.store_id) === storeId)?.open_cents;
    expect(await balanceOf(a.id)).toBe('13000');
    expect(await balanceOf(b.id)).toBe('0');
    // A partial payment, then the invoice moved to the other store.
    await db.update(invoices).set({ openCents: 40_00 }).where(eq(invoices.id, one.id));
    expect(await balanceOf(a.id)).toBe('7000');
    await db.update(invoices).set({ storeId: b.id }).where(eq(invoices.id, one.id));
    expect([await balanceOf(a.id), await balanceOf(b.id)]).toEqual(['3000', '4000']);
    await db.delete(invoiceLines).where(eq(invoiceLines.invoiceId, one.id));
    await db.delete(invoices).where(eq(invoices.id, one.id));
    expect(await balanceOf(b.id)).toBe('0');
    const derived = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from stores s
        left join store_balances b on b.store_id = s.id
        left join (select store_id, sum(open_cents) as open from invoices group by store_id) i on i.store_id = s.id
        where b.store_id is null or b.open_cents <> coalesce(i.open, 0)`),
    );
    expect(derived[0]!.n).toBe(0);
  });
});
