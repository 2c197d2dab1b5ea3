import { invoiceSearchQuery, SEARCH_TOTAL_CAP } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeStatements } from '../../db/scale/scale.sql';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { invoiceSearchPage, invoiceSearchWhere } from './invoices.service';

/*
 * The invoices screen on generated tables (decision 114): 10,000 stores of 5,000 customers made by the SQL of
 * `npm run seed:scale` — 120,000 invoices. Through HTTP the total stops at the cap; by EXPLAIN the default page
 * (newest first) walks invoices_issued_idx backwards and stops at the page: Limit, no Sort of every row, no
 * Seq Scan of invoices.
 */

const STORES = 10_000;
const TODAY = '2026-11-22';

let t: TestApp;
let token: string;
type Info = { items: { id: number; balance_cents: number }[]; total: number; total_capped: boolean };

async function list(query: string): Promise<Info> {
  const res = await t.request({ method: 'GET', url: `/api/invoices/${token}?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { info: Info }).info;
}

async function plan(query: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
  const { sql, params } = query.toSQL();
  const rows = await t.database.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

beforeAll(async () => {
  const database = await createTestDatabase();
  const offsets = { customer: 0, store: 0, terminal: 0, plan: 0, invoice: 0, transaction: 0, order: 0 };
  const [customers, stores, , plans, invoices, transactions] = rangeStatements(offsets);
  for (const text of [customers!, stores!, plans!, invoices!, transactions!]) await database.query(text, [1, STORES]);
  await database.exec('analyze customers; analyze stores; analyze invoices; analyze transactions');
  t = await createTestApp({ database });
  t.clock.set(`${TODAY}T12:00:00Z`);
  ({ viewer: token } = await signInStaff(t, { viewer: 'AR Team' }));
}, 240_000);
afterAll(async () => {
  await t.close();
  await t.database.close();
});

describe('the invoices list on 120,000 invoices', () => {
  it('answers the capped total ("1,000+") and the newest invoices first, ties newest id first', async () => {
    const info = await list('limit=25');
    expect(info).toMatchObject({ total: SEARCH_TOTAL_CAP, total_capped: true });
    const expected = await t.database.query<{ id: number }>(
      'select id from invoices order by issued_on desc, id desc limit 25',
    );
    expect(ids(info.items)).toEqual(ids(expected));
  });

  it('overdue CAD: the ledger’s open invoices due before today, balances from invoice_balances', async () => {
    const info = await list('overdue=true&currency=CAD&limit=10');
    const expected = await t.database.query<{ id: number; open_cents: string }>(
      `select i.id, b.open_cents from invoices i join invoice_balances b on b.invoice_id = i.id
       where i.currency = 'CAD' and i.due_on < $1 and b.open_cents > 0
       order by i.issued_on desc, i.id desc limit 10`,
      [TODAY],
    );
    expect(expected.length).toBe(10);
    expect(info.items.map((i) => [i.id, i.balance_cents])).toEqual(expected.map((r) => [r.id, Number(r.open_cents)]));
    const [{ n }] = (await t.database.query<{ n: number }>(
      `select count(*)::int as n from invoices i join invoice_balances b on b.invoice_id = i.id
       where i.currency = 'CAD' and i.due_on < $1 and b.open_cents > 0`,
      [TODAY],
    )) as [{ n: number }];
    expect(info.total).toBe(Math.min(n, SEARCH_TOTAL_CAP));
    expect(info.total_capped).toBe(n > SEARCH_TOTAL_CAP);
  });

  it('plans the default page as a backward walk of (issued_on, id) that stops at the page', async () => {
    const q = invoiceSearchQuery.parse({ limit: 50 });
    const text = await plan(invoiceSearchPage(t.database.db, invoiceSearchWhere(q, TODAY), q, q));
    const lines = text.split('\n');
    expect(lines[0], text).toMatch(/^Limit/);
    expect(text, text).toMatch(/Index Scan Backward using invoices_issued_idx on invoices/);
    expect(
      lines.filter((l) => /(^|->\s+)Sort\s/.test(l)),
      text,
    ).toEqual([]);
    expect(text, text).not.toMatch(/Seq Scan on invoices/);
  });

  it('plans the overdue CAD page as the same walk, filtering as it goes (no Sort of the pending invoices)', async () => {
    const q = invoiceSearchQuery.parse({ limit: 25, overdue: 'true', currency: 'CAD' });
    const text = await plan(invoiceSearchPage(t.database.db, invoiceSearchWhere(q, TODAY), q, q));
    expect(text.split('\n')[0], text).toMatch(/^Limit/);
    expect(text, text).toMatch(/Index Scan Backward using invoices_issued_idx on invoices/);
    expect(
      text.split('\n').filter((l) => /(^|->\s+)Sort\s/.test(l)),
      text,
    ).toEqual([]);
  });
});
