/**
 * The billing run at volume (issue 14): N monthly plans due (default 100,000) in a scratch PostgreSQL database
 * beside the one `npm run bench` was given — its own, so the benched data is never billed —, billed by the run's
 * own code (executeBillingRun: batches of BILLING_BATCH_SIZE, one statement each), then the same invoices and
 * lines written again by a raw INSERT … SELECT (no locking, numbering, catch-up or skip logic): the floor of what
 * the database can write. Reports both invoices/s and their ratio. The scratch database is dropped afterwards.
 */
import pg from 'pg';
import type { AppContext } from '../apps/server/src/context';
import { migrateDatabase, openPostgres } from '../apps/server/src/db/client';
import { ensureBillingItems } from '../apps/server/src/db/factories';
import { rangeStatements } from '../apps/server/src/db/scale/scale.sql';
import { fixedClock } from '../apps/server/src/lib/clock';
import { BILLING_BATCH_SIZE, executeBillingRun } from '../apps/server/src/modules/billing';

export const BILLING_PLANS = 100_000;
/** Issue 14: the run writes at least this many invoices a second on PostgreSQL… */
export const BILLING_TARGET_PER_S = 20_000;
/** …and keeps at least this share of a raw INSERT … SELECT of the same rows. */
export const BILLING_TARGET_RATIO = 0.3;

export interface BillingBench {
  plans: number;
  batchSize: number;
  run: { invoices: number; lines: number; seconds: number; perSecond: number };
  raw: { invoices: number; lines: number; seconds: number; perSecond: number };
  ratio: number;
  targetPerSecond: number;
  targetRatio: number;
  meetsTarget: boolean;
}

function scratchUrl(databaseUrl: string): { admin: string; scratch: string; name: string } {
  const url = new URL(databaseUrl);
  const name = `bench_billing_${process.pid}`;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return { admin: admin.toString(), scratch: scratch.toString(), name };
}

export async function benchBilling(databaseUrl: string, plans = BILLING_PLANS): Promise<BillingBench> {
  const { admin, scratch, name } = scratchUrl(databaseUrl);
  const adminClient = new pg.Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`drop database if exists ${name}`);
  await adminClient.query(`create database ${name}`);
  const database = await openPostgres(scratch, { max: 2 });
  try {
    await migrateDatabase(database);
    // N stores with one monthly plan each (the seed:scale shapes), every plan due on the first of next month.
    const offsets = { customer: 100000, store: 500000, terminal: 0, plan: 0, invoice: 0, transaction: 0, order: 0 };
    for (const text of rangeStatements(offsets).filter((s) =>
      /^insert into (customers|stores|customer_payment_plans) /.test(s.trim()),
    )) {
      await database.query(text, [1, plans]);
    }
    await database.query(
      `insert into tax_rate_versions (country, state, component, rate_basis_points, label, effective_on)
       select distinct country, upper(state), case when country = 'CA' then 'HST' else 'STATE' end, 600, 'Sales tax',
              date '2000-01-01'
       from stores on conflict do nothing`,
    );
    await ensureBillingItems(database.db, [8, 9, 10, 11]);
    await database.exec('analyze');
    const [{ as_of: asOf } = { as_of: '' }] = await database.query<{ as_of: string }>(
      `select min(next_billing_on)::text as as_of from customer_payment_plans`,
    );
    const app = {
      database,
      clock: fixedClock(`${asOf}T12:00:00Z`),
      config: { fees: { markets: [] } },
    } as unknown as AppContext;
    const [run] = await database.query<{ id: number }>(
      `insert into billing_runs (as_of, requested_by) values ($1, 'bench') returning id`,
      [asOf],
    );

    let t0 = performance.now();
    const info = await executeBillingRun(app, run!.id, { licenses: false });
    const runSeconds = (performance.now() - t0) / 1000;
    const [lines] = await database.query<{ n: number }>('select count(*)::int as n from invoice_lines');

    // The raw floor: the same invoices and lines, straight from the plans, into the same tables (indexes, checks
    // and foreign keys included) once the run's rows are gone.
    await database.exec('truncate invoice_lines, invoices cascade');
    t0 = performance.now();
    await database.query(
      `insert into invoices (invoice_number, customer_id, store_id, plan_id, status, type, period_start, period_end,
         issued_on, due_on, total_cents, tax_cents, paid_cents, currency, created_at, updated_at)
       select 'RAW-' || p.id, p.customer_id, p.store_id, p.id, 'N', 'M', $1::date, ($1::date + interval '1 month')::date,
         $1::date, $1::date, p.recurring_amount_cents + p.recurring_amount_cents * 6 / 100, p.recurring_amount_cents * 6 / 100,
         0, p.currency, now(), now()
       from customer_payment_plans p`,
      [asOf],
    );
    await database.query(
      `insert into invoice_lines (invoice_id, billing_item_id, description, quantity, unit_cents, amount_cents)
       select i.id, 8, 'Monthly service fee', 1, i.total_cents - i.tax_cents, i.total_cents - i.tax_cents from invoices i`,
    );
    const rawSeconds = (performance.now() - t0) / 1000;
    const runPerSecond = Math.round(info.invoices_created / runSeconds);
    const rawPerSecond = Math.round(plans / rawSeconds);
    const ratio = +(runPerSecond / rawPerSecond).toFixed(2);
    return {
      plans,
      batchSize: BILLING_BATCH_SIZE,
      run: {
        invoices: info.invoices_created,
        lines: lines!.n,
        seconds: +runSeconds.toFixed(2),
        perSecond: runPerSecond,
      },
      raw: { invoices: plans, lines: plans, seconds: +rawSeconds.toFixed(2), perSecond: rawPerSecond },
      ratio,
      targetPerSecond: BILLING_TARGET_PER_S,
      targetRatio: BILLING_TARGET_RATIO,
      meetsTarget: runPerSecond >= BILLING_TARGET_PER_S && ratio >= BILLING_TARGET_RATIO,
    };
  } finally {
    await database.close();
    await adminClient.query(`drop database if exists ${name}`);
    await adminClient.end();
  }
}

// `npx tsx bench/billing.ts` alone: DATABASE_URL names the server (any database on it).
if (process.argv[1]?.endsWith('billing.ts')) {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const plans = Number(process.argv[process.argv.indexOf('--plans') + 1]) || BILLING_PLANS;
  benchBilling(url, plans).then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
