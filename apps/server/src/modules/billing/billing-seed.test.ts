import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { schema } from '../../db/client';
import { seedDemoData } from '../../db/seed';
import { fixedClock } from '../../lib/clock';
import { createTestDatabase } from '../../test/db-template';
import { PLANS_DUE_SQL } from './billing-run.sql';
import { executeBillingRun } from './billing.service';

/** The demo seed and the billing run (issue 14 point 6, decision 113): "Run now" on a fresh start has work. */
const TODAY = new Date('2026-11-22T12:00:00Z');

describe('the billing run on the demo seed', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemoData(database, { today: TODAY });
  }, 120_000);
  afterAll(() => database.close());

  it('leaves monthly plans due this month without their invoice: a billing run on the seed day bills them once', async () => {
    const asOf = TODAY.toISOString().slice(0, 10);
    const [due] = await database.query<{ n: number }>(PLANS_DUE_SQL, [asOf]);
    expect(due!.n).toBeGreaterThan(5);
    // The seed's test and demo stores' plans are moved on without an invoice (decision 149).
    const [unbilled] = await database.query<{ n: number }>(
      `select count(*)::int as n from (${PLANS_DUE_SQL}) d`.replace(
        'select count(*)::integer as n from customer_payment_plans p',
        "select 1 from customer_payment_plans p join stores s on s.id = p.store_id and s.store_type in ('T', 'D')",
      ),
      [asOf],
    );
    // No market fee configured (MARKET_FEES unset, decision 158).
    const app = { database, clock: fixedClock(TODAY), config: { fees: { markets: [] } } } as unknown as AppContext;
    const [run] = await database.db
      .insert(schema.billingRuns)
      .values({ asOf, requestedBy: 'test' })
      .returning({ id: schema.billingRuns.id });
    const info = await executeBillingRun(app, run!.id, { licenses: false });
    expect(info).toMatchObject({ status: 'done', plans_due: due!.n, skipped: 0 });
    expect(info.invoices_created).toBe(info.plans_done - unbilled!.n);
    expect(info.invoices_created).toBeGreaterThanOrEqual(due!.n - unbilled!.n);
    const [testInvoices] = await database.query<{ n: number }>(
      `select count(*)::int as n from invoices i join stores s on s.id = i.store_id
       where s.store_type in ('T', 'D') and i.issued_on = $1::date and i.plan_id is not null`,
      [asOf],
    );
    expect(testInvoices!.n).toBe(0);
    const [after] = await database.query<{ n: number }>(PLANS_DUE_SQL, [asOf]);
    expect(after!.n).toBe(0);
    // This month's M invoice of each billed plan is the one the run wrote: one per plan and period.
    const [dupes] = await database.query<{ n: number }>(
      `select count(*)::int as n from (select plan_id, period_start from invoices where plan_id is not null and period_start is not null
       group by 1, 2 having count(*) > 1) d`,
    );
    expect(dupes!.n).toBe(0);
  });

  it('seeds every failed charge with its decline code and every failed invoice with its dunning (decision 116)', async () => {
    const [f] = await database.query<{ failed: number; coded: number; invoices: number; dunned: number }>(
      `select count(*)::int as failed, count(decline_code)::int as coded, count(distinct invoice_id)::int as invoices,
              (select count(*)::int from invoice_dunning) as dunned
       from transactions where status = 'F' and kind = 'charge'`,
    );
    expect(f!.failed).toBeGreaterThan(0);
    expect(f).toMatchObject({ coded: f!.failed, dunned: f!.invoices });
    const states = await database.query<{ state: string }>(`select distinct state from invoice_dunning`);
    expect(states.every((r) => ['retrying', 'collection'].includes(r.state))).toBe(true);
  });
});
