import { eq, sql } from 'drizzle-orm';
import type { Database, Db } from '../client';
import { Rng } from '../factories';
import { appMeta } from '../schema';
import { planBilling } from './billing';
import { planCredits } from './credits';
import { DEMO_SEED, DEMO_SEED_VERSION, addDays, iso, monthStart, type DemoRun } from './demo-run';
import { planExtras } from './extras';
import { planInstruments } from './instruments';
import { planMerchants } from './merchants';
import { planOrders } from './orders';
import { seedPeople } from './people';
import { planPlans } from './plans';
import { seedReference } from './reference';
import { planTerminals } from './terminals';
import { writeDemoRows } from './write';

export { DEMO_SEED, DEMO_SEED_VERSION };
export const DEMO_SEED_MARKER = 'demo_seed_version';

export interface SeedDemoOptions {
  /** Progress lines ("demo seed: …"). */
  log?: (message: string) => void;
  /**
   * The day the demo is built around (default: now). Twelve months of billing end in its month; the same
   * day (month, really) and the same seed give the same rows.
   */
  today?: Date;
  /** How many customers (default 200 US, 50 CA — the two test/demo-store customers included in US). */
  customers?: { us: number; ca: number };
}

export interface SeedDemoResult {
  /** False when the marker was already there (nothing was written). */
  seeded: boolean;
  ms: number;
  counts: Record<string, number>;
}

/**
 * Fill an empty database with the demo data of issue 3, in one transaction. Idempotent: a marker row in
 * app_meta (`demo_seed_version`) makes a second run do nothing. Deterministic: a fixed-seed generator and
 * dates counted from `today`'s month.
 */
export async function seedDemoData(database: Database, opts: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  const started = performance.now();
  const log = opts.log ?? (() => undefined);
  const result = await database.db.transaction(async (db) => {
    // Two servers starting on one PostgreSQL: the second waits here, then sees the marker.
    await db.execute(sql`select pg_advisory_xact_lock(hashtext('pos-backoffice demo seed'))`);
    const [marker] = await db.select().from(appMeta).where(eq(appMeta.key, DEMO_SEED_MARKER));
    if (marker) return { seeded: false, counts: {} };
    log('demo seed: writing demo data');
    await writeDemoData(db, opts, log);
    const counts = await countRows(db);
    await db.insert(appMeta).values({
      key: DEMO_SEED_MARKER,
      value: { version: DEMO_SEED_VERSION, seed: DEMO_SEED, month: iso(monthStart(opts.today ?? new Date())) },
    });
    return { seeded: true, counts };
  });
  const ms = Math.round(performance.now() - started);
  if (result.seeded)
    log(
      `demo seed: done in ${ms} ms (${Object.entries(result.counts)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')})`,
    );
  else log('demo seed: already present, nothing to do');
  return { ...result, ms };
}

/** The tables the demo fills, for counts. */
export const DEMO_TABLES = [
  'roles',
  'privileges',
  'role_privileges',
  'staff_users',
  'distributor_accounts',
  'agents',
  'sales_persons',
  'customers',
  'stores',
  'store_emails',
  'customer_notes',
  'agent_stores',
  'terminals',
  'domain_data',
  'currencies',
  'products',
  'product_prices',
  'billing_item_categories',
  'billing_items',
  'billing_item_prices',
  'bundles',
  'bundle_price_options',
  'promotions',
  'referrals',
  'tax_rates',
  'tax_rate_versions',
  'banks',
  'customer_payment_plans',
  'customer_billing_items',
  'customer_bundles',
  'customer_bundle_prices',
  'payment_instruments',
  'invoices',
  'invoice_lines',
  'transactions',
  'credit_memos',
  'receipts',
  'receipt_allocations',
  'write_offs',
  'returns',
  'tax_certificates',
  'orders',
  'order_notes',
  'order_status_history',
  'status_reasons',
  'contracts',
  'agent_orders',
  'order_promotions',
  'sales_history',
  'audit_log',
] as const;

export async function countRows(db: Db): Promise<Record<string, number>> {
  const parts = DEMO_TABLES.map((t) => `select '${t}' as t, count(*)::int as n from ${t}`).join(' union all ');
  const res = (await db.execute(sql.raw(parts))) as unknown as { rows: { t: string; n: number }[] };
  return Object.fromEntries(res.rows.map((r) => [r.t, Number(r.n)]));
}

/**
 * The demo, one area at a time. The order of the parts is the order the generator is drawn from: moving a part
 * changes every row after it.
 */
async function writeDemoData(db: Db, opts: SeedDemoOptions, log: (m: string) => void): Promise<void> {
  const now = opts.today ?? new Date();
  const anchor = monthStart(now);
  const run: DemoRun = {
    db,
    rng: new Rng(DEMO_SEED),
    log,
    anchor,
    // "Today" inside the demo: the same time of day every run of the month keeps the rows identical.
    today: addDays(anchor, Math.min(now.getUTCDate() - 1, 27) + 0.5),
    windowStart: monthStart(anchor, -11),
  };
  const reference = await seedReference(run);
  const people = await seedPeople(run, reference);
  const merchants = await planMerchants(run, { us: opts.customers?.us ?? 200, ca: opts.customers?.ca ?? 50 }, people);
  const plans = await planPlans(run, merchants);
  const instruments = await planInstruments(run, merchants);
  const billing = await planBilling(run, plans);
  const credits = await planCredits(run, billing);
  const terminalRows = await planTerminals(run, merchants, reference);
  const orderRows = await planOrders(run, merchants, people, reference);
  const extras = await planExtras(run, merchants, people);
  await writeDemoRows(run, {
    ...merchants,
    ...plans,
    ...instruments,
    ...billing,
    ...credits,
    ...terminalRows,
    ...orderRows,
    ...extras,
  });
}
