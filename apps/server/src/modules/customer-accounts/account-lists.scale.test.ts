import { invoiceListQuery, SEARCH_TOTAL_CAP, transactionListQuery } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeStatements } from '../../db/scale/scale.sql';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { invoiceListWhere, invoicePage } from './invoices.service';
import { acrossStatusesSql, transactionListWhere, transactionPage } from './transactions.service';

/*
 * The failed-payments list and one customer's invoices and transactions on generated tables (issue 13,
 * decision 109): 10,000 stores of 5,000 customers made by the SQL of `npm run seed:scale` — 120,000 invoices,
 * about 110,000 transactions of which about 4,800 failed — and store 1 (customer 1) given 2,000 more invoices
 * and charges. Through HTTP the totals stop at the cap; by EXPLAIN the default pages walk an index and stop at the
 * page (Limit, no Sort of every row, no Seq Scan of the big table).
 */

const STORES = 10_000;
const EXTRA = 2_000;
const BIG_CUSTOMER = 1;
const BIG_STORE = 1;

let t: TestApp;
let token: string;
type Info = { items: { id: number }[]; total: number; total_capped: boolean };

async function list(path: string): Promise<Info> {
  const res = await t.request({ method: 'GET', url: `/api/customers/${BIG_CUSTOMER}/${token}/${path}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { info: Info }).info;
}

async function plan(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql, params } = query.toSQL();
  const rows = await t.database.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** The page is read in index order and stops at the page: Limit first, the index read backwards, no full Sort. */
function expectIndexWalk(text: string, index: RegExp, table: string) {
  const lines = text.split('\n');
  expect(lines[0], text).toMatch(/^Limit/);
  expect(text, text).toMatch(new RegExp(`Index Scan Backward using ${index.source} on ${table}`));
  expect(
    lines.filter((l) => /(^|->\s+)Sort\s/.test(l)),
    text,
  ).toEqual([]);
  expect(text, text).not.toMatch(new RegExp(`Seq Scan on ${table}`));
}

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

beforeAll(async () => {
  const database = await createTestDatabase();
  const offsets = { customer: 0, store: 0, terminal: 0, plan: 0, invoice: 0, transaction: 0, order: 0 };
  const [customers, stores, , plans, invoices, transactions] = rangeStatements(offsets);
  for (const text of [customers!, stores!, plans!, invoices!, transactions!]) await database.query(text, [1, STORES]);
  // Store 1 with years of history: one more invoice and a failed charge for it per day, going back 2,000 days.
  await database.query(
    `insert into invoices (id, invoice_number, customer_id, store_id, status, type, issued_on, due_on, total_cents,
        currency, created_at, updated_at)
     select 1000000 + g, 'INV-X' || g, $1, $2, 'N', 'M', current_date - g, current_date - g + 15, 5399, 'USD', now(), now()
     from generate_series(1, ${EXTRA}) g`,
    [BIG_CUSTOMER, BIG_STORE],
  );
  await database.query(
    `insert into transactions (id, customer_id, store_id, invoice_id, kind, status, amount_cents, currency,
        failure_reason, attempted_at, created_at, updated_at)
     select 1000000 + g, $1, $2, 1000000 + g, 'charge', 'F', 5399, 'USD', 'Card expired',
        (current_date - g) + interval '1 day', now(), now()
     from generate_series(1, ${EXTRA}) g`,
    [BIG_CUSTOMER, BIG_STORE],
  );
  await database.exec('analyze customers; analyze stores; analyze invoices; analyze transactions');
  t = await createTestApp({ database });
  ({ viewer: token } = await signInStaff(t, { viewer: 'AR Team' }));
}, 180_000);
afterAll(async () => {
  await t.close();
  await t.database.close();
});

describe('the failed-payments list (fetch=true&status=F) on a large table', () => {
  it('answers the capped total ("1,000+") and the newest failures first, ties newest id first', async () => {
    const [{ n }] = (await t.database.query<{ n: number }>(
      `select count(*)::int as n from transactions where status = 'F'`,
    )) as [{ n: number }];
    expect(n).toBeGreaterThan(SEARCH_TOTAL_CAP);
    const info = await list('transactions?fetch=true&status=F&limit=25');
    expect(info).toMatchObject({ total: SEARCH_TOTAL_CAP, total_capped: true });
    const expected = await t.database.query<{ id: number }>(
      `select id from transactions where status = 'F' order by attempted_at desc, id desc limit 25`,
    );
    expect(ids(info.items)).toEqual(ids(expected));
    // Past the cap, and a sort no index serves (largest amount first): still the rows of the full sort.
    const far = await list('transactions?fetch=true&status=F&limit=10&offset=3000&sort=-amount_cents');
    const farExpected = await t.database.query<{ id: number }>(
      `select id from transactions where status = 'F' order by amount_cents desc, id desc limit 10 offset 3000`,
    );
    expect(ids(far.items)).toEqual(ids(farExpected));
    expect(far.total_capped).toBe(true);
  });

  it('counts a filter with fewer rows than the cap exactly', async () => {
    // One ordinary store: 11 charges (its 12th invoice is this month's, not yet charged).
    const info = await list('transactions?fetch=true&storeid=4242&limit=5');
    expect(info).toMatchObject({ total: 11, total_capped: false });
  });

  it('plans the default page as a backward walk of (status, attempted_at, id) that stops at the page', async () => {
    const q = transactionListQuery.parse({ fetch: 'true', status: 'F', limit: 25 });
    expectIndexWalk(
      await plan(transactionPage(t.database.db, transactionListWhere(null, q), q)),
      /transactions_status_idx/,
      'transactions',
    );
  });
});

describe('every transaction of every customer (fetch=true without a status)', () => {
  it('answers the capped total and the rows of the full sort, also deep and ascending', async () => {
    for (const [query, order] of [
      ['limit=25', 'attempted_at desc, id desc limit 25'],
      ['limit=10&offset=4000', 'attempted_at desc, id desc limit 10 offset 4000'],
      ['limit=10&offset=30&sort=attempted_at', 'attempted_at asc, id asc limit 10 offset 30'],
    ] as const) {
      const info = await list(`transactions?fetch=true&${query}`);
      expect(info).toMatchObject({ total: SEARCH_TOTAL_CAP, total_capped: true });
      const expected = await t.database.query<{ id: number }>(`select id from transactions order by ${order}`);
      expect(ids(info.items), query).toEqual(ids(expected));
    }
  });

  it('plans the page as one backward walk of (status, attempted_at, id) per status, each under its Limit', async () => {
    const merge = acrossStatusesSql(transactionListQuery.parse({ fetch: 'true', limit: 25 }))!;
    const rows = await t.database.query<{ 'QUERY PLAN': string }>(`explain ${merge.text}`, merge.params);
    const text = rows.map((r) => r['QUERY PLAN']).join('\n');
    // P may walk the partial index of pending charges (attempted_at, id) where status = 'P' (decision 116): as good.
    expect(
      text.match(/Index (Only )?Scan Backward using transactions_(status|pending)_idx on transactions/g),
      text,
    ).toHaveLength(7);
    expect(text, text).not.toMatch(/Seq Scan on transactions/);
    // Filtered or sorted otherwise, the list is the plain page.
    expect(acrossStatusesSql(transactionListQuery.parse({ fetch: 'true', status: 'F' }))).toBeNull();
    expect(acrossStatusesSql(transactionListQuery.parse({ fetch: 'true', sort: 'amount_cents' }))).toBeNull();
  });
});

describe("one customer's invoices and transactions (the account tabs) with more than 1,000 rows", () => {
  it('answers the capped total and the newest rows first', async () => {
    const txs = await list(`transactions?storeid=${BIG_STORE}&limit=25`);
    expect(txs).toMatchObject({ total: SEARCH_TOTAL_CAP, total_capped: true });
    expect(ids(txs.items).slice(0, 3)).toEqual([1000001, 1000002, 1000003]);
    const invs = await list(`customerinvoices?storeid=${BIG_STORE}&limit=25`);
    expect(invs).toMatchObject({ total: SEARCH_TOTAL_CAP, total_capped: true });
    const expected = await t.database.query<{ id: number }>(
      `select id from invoices where customer_id = $1 and store_id = $2 order by issued_on desc, id desc limit 25`,
      [BIG_CUSTOMER, BIG_STORE],
    );
    expect(ids(invs.items)).toEqual(ids(expected));
  });

  it('plans the default pages (by customer, and by store) as backward index walks that stop at the page', async () => {
    for (const storeid of [undefined, BIG_STORE]) {
      const tq = transactionListQuery.parse({ storeid, limit: 25 });
      expectIndexWalk(
        await plan(transactionPage(t.database.db, transactionListWhere(BIG_CUSTOMER, tq), tq)),
        /transactions_(customer|store)_idx/,
        'transactions',
      );
      const iq = invoiceListQuery.parse({ storeid, limit: 25 });
      expectIndexWalk(
        await plan(invoicePage(t.database.db, invoiceListWhere(BIG_CUSTOMER, iq), iq)),
        /invoices_(customer|store)_idx/,
        'invoices',
      );
    }
  });
});
