import { verify } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import {
  BILLING_ITEM_IDS,
  CA_PROVINCES,
  MARKETPLACE_FEE_ITEM_IDS,
  NRS_PAY_BUNDLE_IDS,
  ORDER_STATUS_CODES,
  OTHER_IDS,
  PROMOTION_ITEM_IDS,
  ROLE_PRIVILEGES,
  TRANSACTION_STATUSES,
  US_STATES,
  currencyForCountry,
  isStateOf,
  validateZip,
} from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/db-template';
import type { Database, Db } from './client';
import { staffPrivilegesOf } from './factories';
import { schema } from './client';
import { DEMO_SEED_MARKER, countRows, seedDemoData, type SeedDemoResult } from './seed';
import { DEMO_STAFF } from './seed/reference-data';

const TODAY = new Date('2026-11-22T12:00:00Z');

async function rows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

describe('demo seed', () => {
  let database: Database;
  let first: SeedDemoResult;
  beforeAll(async () => {
    database = await createTestDatabase();
    first = await seedDemoData(database, { today: TODAY });
  });
  afterAll(() => database.close());

  it('fills the tables the issue asks for', () => {
    expect(first.seeded).toBe(true);
    const c = first.counts;
    expect(c.customers).toBe(250);
    expect(c.stores).toBeGreaterThanOrEqual(250);
    expect(c.stores).toBeLessThanOrEqual(1000);
    for (const t of [
      'terminals',
      'invoices',
      'invoice_lines',
      'transactions',
      'orders',
      'order_notes',
      'order_status_history',
      'credit_memos',
      'receipts',
      'promotions',
      'referrals',
      'sales_history',
      'customer_billing_items',
      'customer_bundles',
      'customer_bundle_prices',
    ]) {
      expect(c[t], t).toBeGreaterThan(0);
    }
    expect(c.staff_users).toBe(DEMO_STAFF.length);
    expect(c.distributor_accounts).toBe(1);
  });

  it('runs twice without change: same counts, marker present', async () => {
    const again = await seedDemoData(database, { today: TODAY });
    expect(again.seeded).toBe(false);
    expect(await countRows(database.db)).toEqual(first.counts);
    const [marker] = await database.db.select().from(schema.appMeta).where(eq(schema.appMeta.key, DEMO_SEED_MARKER));
    expect(marker!.value).toMatchObject({ version: 1 });
  });

  it('gives every seeded staff user exactly the privileges of its role (ROLE_PRIVILEGES)', async () => {
    for (const s of DEMO_STAFF) {
      const [user] = await database.db
        .select()
        .from(schema.staffUsers)
        .where(eq(schema.staffUsers.email, `${s.username}@example.com`));
      expect(user, s.username).toBeDefined();
      const [role] = await database.db.select().from(schema.roles).where(eq(schema.roles.id, user!.roleId));
      expect(role!.name).toBe(s.role);
      expect(await staffPrivilegesOf(database.db, user!.id), s.username).toEqual([...ROLE_PRIVILEGES[s.role]].sort());
    }
  });

  it('has the distributor login with the documented password, tied to a Distributor agent', async () => {
    const [account] = await database.db
      .select()
      .from(schema.distributorAccounts)
      .where(eq(schema.distributorAccounts.email, 'distributor@example.com'));
    expect(await verify(account!.passwordHash, 'distributor-demo')).toBe(true);
    const [agent] = await database.db.select().from(schema.agents).where(eq(schema.agents.id, account!.agentId));
    expect(agent!.type).toBe('Distributor');
    const types = await rows<{ type: string }>(database.db, sql`select distinct type from agents order by type`);
    expect(types.map((t) => t.type)).toEqual(['Distributor', 'RDC', 'REFP']);
  });

  it('writes valid addresses in both countries, CAD for Canadian stores, and test/demo stores', async () => {
    const all = await database.db.select().from(schema.stores);
    const byCountry = { US: 0, CA: 0 } as Record<string, number>;
    for (const s of all) {
      byCountry[s.country] = (byCountry[s.country] ?? 0) + 1;
      expect(validateZip(s.country, s.storeAddress.zip), `${s.id} ${s.storeAddress.zip}`).toMatchObject({
        ok: true,
        normalized: s.storeAddress.zip,
      });
      expect(isStateOf(s.country, s.state), `${s.id} ${s.state}`).toBe(true);
      expect(s.currency).toBe(currencyForCountry(s.country));
    }
    expect(byCountry.US).toBeGreaterThan(byCountry.CA!);
    expect(byCountry.CA).toBeGreaterThan(0);
    const custs = await database.db.select().from(schema.customers);
    expect(custs.filter((c) => c.country === 'US')).toHaveLength(200);
    expect(custs.filter((c) => c.country === 'CA')).toHaveLength(50);
    for (const c of custs) expect(validateZip(c.country, c.homeAddress!.zip).ok, c.homeAddress!.zip).toBe(true);
    const types = await rows<{ store_type: string; n: number }>(
      database.db,
      sql`select store_type, count(*)::int as n from stores group by 1 order by 1`,
    );
    expect(types.map((t) => t.store_type)).toEqual(['D', 'R', 'T']);
    const cadInvoices = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from invoices i join stores s on s.id = i.store_id where s.country = 'CA' and i.currency = 'CAD'`,
    );
    expect(cadInvoices[0]!.n).toBeGreaterThan(0);
    const wrong = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from invoices i join stores s on s.id = i.store_id where i.currency <> s.currency`,
    );
    expect(wrong[0]!.n).toBe(0);
  });

  it('has unique terminal ids and serials, and some retired / under-transfer terminals', async () => {
    const [t] = await rows<{ n: number; elmer: number; serial: number; retired: number; transfer: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct elmer_id)::int as elmer, count(distinct serial_number)::int as serial,
                 count(*) filter (where status = 'retired')::int as retired, count(*) filter (where under_transfer)::int as transfer
          from terminals`,
    );
    expect(t!.elmer).toBe(t!.n);
    expect(t!.serial).toBe(t!.n);
    expect(t!.retired).toBeGreaterThan(0);
    expect(t!.transfer).toBeGreaterThan(0);
  });

  it('has orders in every §4 status, each with its status history; notes of both types', async () => {
    const statuses = await rows<{ status: string; n: number; with_history: number }>(
      database.db,
      sql`select o.status, count(*)::int as n, count(*) filter (where exists (select 1 from order_status_history h where h.order_id = o.id and h.to_status = o.status))::int as with_history
          from orders o group by 1`,
    );
    expect(statuses.map((s) => s.status).sort()).toEqual([...ORDER_STATUS_CODES].sort());
    for (const s of statuses) expect(s.with_history, s.status).toBe(s.n);
    const notes = await rows<{ note_type: string }>(
      database.db,
      sql`select distinct note_type from order_notes order by 1`,
    );
    expect(notes.map((n) => n.note_type)).toEqual(['order_note', 'status_reason']);
    const [doc] = await rows<{ document: Record<string, unknown>; id: number }>(
      database.db,
      sql`select id, document from orders where store_id is not null limit 1`,
    );
    expect(doc!.document).toMatchObject({
      orderInfoId: doc!.id,
      mobileConsent: 'N',
      CustomerInfo: { customerCategory: 'DISTRIBUTOR', customerClass: 'POS' },
    });
  });

  it('numbers demo invoices and orders as the product does; the product numbers the next invoice after them (decision 156)', async () => {
    const odd = await rows<{ n: number }>(
      database.db,
      sql`select (select count(*) from invoices where invoice_number !~ '^INV-[0-9]{4}-[0-9]{7}$')::int
               + (select count(*) from orders where unified_order_id !~ '^UO-[0-9]{8}-[0-9]+$')::int as n`,
    );
    expect(odd[0]!.n).toBe(0);
    const clash = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from invoice_number_counters c
          join invoices i on i.invoice_number = 'INV-' || c.year || '-' || lpad((c.last_number + 1)::text, 7, '0')`,
    );
    expect(clash[0]!.n).toBe(0);
    const counters = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from invoice_number_counters`,
    );
    expect(counters[0]!.n).toBeGreaterThan(0);
  });

  it('has 12 months of billing with every transaction status, failures with reasons, chargebacks and pending memos', async () => {
    const months = await rows<{ n: number }>(
      database.db,
      sql`select count(distinct date_trunc('month', issued_on))::int as n from invoices where type <> 'S'`,
    );
    expect(months[0]!.n).toBe(12);
    const tx = await rows<{ status: string }>(database.db, sql`select distinct status from transactions`);
    expect(tx.map((t) => t.status).sort()).toEqual([...TRANSACTION_STATUSES].sort());
    const failed = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from transactions where status = 'F' and failure_reason is null`,
    );
    expect(failed[0]!.n).toBe(0);
    const inv = await rows<{ status: string }>(database.db, sql`select distinct status from invoices order by 1`);
    expect(inv.map((i) => i.status)).toEqual(['N', 'P', 'R']);
    const memos = await rows<{ status: string; n: number }>(
      database.db,
      sql`select status, count(*)::int as n from credit_memos group by 1 order by 1`,
    );
    expect(memos.map((m) => m.status)).toEqual(['A', 'P', 'R']);
    expect(memos.find((m) => m.status === 'P')!.n).toBeGreaterThanOrEqual(10);
    // Invoice totals are the sum of their lines.
    const off = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from invoices i where i.total_cents <> (select sum(amount_cents) from invoice_lines l where l.invoice_id = i.id)`,
    );
    expect(off[0]!.n).toBe(0);
    // The failed-payment cohort holds recovered invoices too: most months' recovery rate is above 0 (issue 30).
    const recovery = await rows<{ month: string; failed: number; recovered: number }>(
      database.db,
      sql`select to_char(first_failed_at, 'YYYY-MM') as month, count(*)::int as failed,
                 (count(*) filter (where status = 'P' and paid_cents > 0))::int as recovered
          from invoices where first_failed_at is not null group by 1 order by 1`,
    );
    expect(recovery.filter((m) => m.recovered > 0).length).toBeGreaterThanOrEqual(recovery.length / 2);
  });

  it('has the whole catalogue, tax rates for every state and province, look-ups and reasons', async () => {
    const itemIds = [...Object.values(BILLING_ITEM_IDS), ...MARKETPLACE_FEE_ITEM_IDS, ...PROMOTION_ITEM_IDS];
    const prices = await rows<{ id: number; currencies: string }>(
      database.db,
      sql`select b.id, string_agg(p.currency, ',' order by p.currency) as currencies from billing_items b join billing_item_prices p on p.billing_item_id = b.id group by b.id`,
    );
    for (const id of itemIds) expect(prices.find((p) => p.id === id)?.currencies, `billing item ${id}`).toBe('CAD,USD');
    const bundles = await rows<{ id: number; options: number }>(
      database.db,
      sql`select b.id, count(o.id)::int as options from bundles b join bundle_price_options o on o.bundle_id = b.id where b.nrs_pay group by b.id`,
    );
    expect(bundles.map((b) => b.id).sort((a, b) => a - b)).toEqual([...NRS_PAY_BUNDLE_IDS].sort((a, b) => a - b));
    const products = await database.db.select().from(schema.products);
    expect(products.find((p) => p.id === OTHER_IDS.TERMINAL_PRODUCT_ID)!.kind).toBe('terminal');
    expect(products.find((p) => p.id === OTHER_IDS.PETRO_PRODUCT_ID)!.name).toMatch(/Petro/);
    expect(products.some((p) => p.kind === 'accessory')).toBe(true);
    const tax = await database.db.select().from(schema.taxRates);
    for (const s of US_STATES)
      expect(
        tax.some((t) => t.country === 'US' && t.state === s.code),
        s.code,
      ).toBe(true);
    for (const p of CA_PROVINCES)
      expect(
        tax.some((t) => t.country === 'CA' && t.state === p.code),
        p.code,
      ).toBe(true);
    expect(tax.find((t) => t.country === 'CA' && t.state === 'ON')!.rateBasisPoints).toBe(1300);
    // Issue 17: the same rates as versions (components) in force since 2000-01-01 — what every reader uses.
    const versions = await database.db.select().from(schema.taxRateVersions);
    const of = (country: string, state: string) =>
      versions
        .filter((v) => v.country === country && v.state === state && v.effectiveOn === '2000-01-01')
        .map((v) => [v.component, v.rateBasisPoints]);
    expect(of('CA', 'ON')).toEqual([['HST', 1300]]);
    expect(of('CA', 'BC').sort()).toEqual([
      ['GST', 500],
      ['PST', 700],
    ]);
    expect(of('US', 'AZ')).toEqual([['STATE', 560]]);
    const retire = await database.db
      .select()
      .from(schema.domainData)
      .where(eq(schema.domainData.type, 'retire_reason'));
    expect(retire.length).toBeGreaterThanOrEqual(5);
    const promos = await database.db.select().from(schema.promotions);
    expect(new Set(promos.map((p) => p.method))).toEqual(new Set(['A', 'P']));
    expect(promos.some((p) => p.expiresOn !== null && p.expiresOn < '2026-11-01')).toBe(true);
    const currencies = await database.db.select().from(schema.currencies);
    expect(currencies.map((c) => c.code).sort()).toEqual(['CAD', 'USD']);
  });

  it('has stores to win back: lapsed licenses (past the grace) and service plans canceled past it (decision 131)', async () => {
    const [lapsed] = await rows<{ n: number; early: number }>(
      database.db,
      sql`select count(*)::int as n,
                 (count(*) filter (where license_lapsed_on <= license_expires_on + 37))::int as early
          from stores where license_lapsed_on is not null`,
    );
    expect(lapsed!.n).toBeGreaterThanOrEqual(2);
    expect(lapsed!.early).toBe(0);
    const [canceled] = await rows<{ n: number }>(
      database.db,
      sql`select count(distinct store_id)::int as n from customer_payment_plans
          where status = 'canceled' and kind in ('monthly', 'yearly') and updated_at < ${TODAY.toISOString()}::timestamptz - interval '37 days'`,
    );
    expect(canceled!.n).toBeGreaterThanOrEqual(2);
  });

  it('answers a 3-character store search from the trigram index of the search text (EXPLAIN)', async () => {
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`analyze stores`);
      // With ~500 demo stores the planner rightly prefers a sequential scan; switching it off shows the index
      // is usable for the search (on a real-size table the planner picks it by itself).
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = (await tx.execute(
        sql.raw(`explain select id from stores where search_text like '%mar%'`),
      )) as unknown as { rows: Record<string, string>[] };
      return res.rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('stores_search_text_trgm_idx');
    // The generated column holds every searched field, lower-cased: the same stores as the four ilike.
    const [{ n, m }] = (await rows<{ n: number; m: number }>(
      database.db,
      sql`select count(*) filter (where search_text like '%mar%')::int as n,
                 count(*) filter (where store_name ilike '%mar%' or doing_business_as ilike '%mar%' or br_acct ilike '%mar%' or sales_rep ilike '%mar%')::int as m
          from stores`,
    )) as [{ n: number; m: number }];
    expect(n).toBe(m);
    expect(n).toBeGreaterThan(0);
  });
});

describe('demo seed determinism', () => {
  const digest = sql`select md5(string_agg(x, '|' order by x)) as d from (
      select concat_ws(',', id, legal_name, email, federal_tax_id, br_acct, home_address::text) as x from customers
      union all select concat_ws(',', id, customer_id, store_name, doing_business_as, br_acct, sales_rep, store_address::text, license_expires_on) from stores
      union all select concat_ws(',', id, invoice_number, status, type, total_cents, paid_cents, issued_on) from invoices
      union all select concat_ws(',', id, status, amount_cents, failure_reason, attempted_at) from transactions
      union all select concat_ws(',', id, status, flow, document::text) from orders
      union all select concat_ws(',', id, elmer_id, serial_number, status) from terminals) t`;

  it('writes the same rows for the same month in two empty databases', async () => {
    const digests: string[] = [];
    for (let i = 0; i < 2; i++) {
      const database = await createTestDatabase();
      try {
        await seedDemoData(database, { today: TODAY, customers: { us: 12, ca: 4 } });
        digests.push((await rows<{ d: string }>(database.db, digest))[0]!.d);
      } finally {
        await database.close();
      }
    }
    expect(digests[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(digests[1]).toBe(digests[0]);
  }, 90_000);
});
