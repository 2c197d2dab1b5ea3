import { SEARCH_TOTAL_CAP } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeStatements } from '../../db/scale/scale.sql';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { cappedCountSql, hitsSql, searchPageSql } from './customer-search.service';

/*
 * Customer search on a large generated table (issue 13, decision 107): 40,000 stores of 20,000 customers made by
 * the set-based SQL of `npm run seed:scale` (customers and stores only). "mar" matches about 40% of the rows
 * ("Market", "Mart", "Martin"…), so a plan that reads every match would show a full Sort; the plan must walk an
 * index and stop at the page (Limit), and the total stops at the cap. How fast it is at 1M stores is
 * measured by `npm run bench`, not here.
 */

const STORES = 40_000;

let t: TestApp;
let token: string;
type Row = { customer_id: number; store_id: number | null; legal_name: string };
type Info = { items: Row[]; total: number; total_capped: boolean };

async function search(query: string): Promise<Info> {
  const res = await t.request({ method: 'GET', url: `/api/customers/${token}/all?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { info: Info }).info;
}

async function plan(sql: { text: string; params: unknown[] }): Promise<string> {
  const rows = await t.database.query<{ 'QUERY PLAN': string }>(`explain ${sql.text}`, sql.params);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

beforeAll(async () => {
  const database = await createTestDatabase();
  const offsets = { customer: 0, store: 0, terminal: 0, plan: 0, invoice: 0, transaction: 0, order: 0 };
  const [insertCustomers, insertStores] = rangeStatements(offsets);
  for (const text of [insertCustomers!, insertStores!]) await database.query(text, [1, STORES]);
  await database.exec('analyze customers; analyze stores');
  t = await createTestApp({ database });
  ({ viewer: token } = await signInStaff(t, { viewer: 'AR Team' }));
}, 120_000);
afterAll(async () => {
  await t.close();
  await t.database.close();
});

describe('customer search on a large table', () => {
  it('answers a frequent 3-letter term with the capped total ("1,000+") and the first page in name order', async () => {
    const info = await search('search=mar&limit=25');
    expect(info.total).toBe(SEARCH_TOTAL_CAP);
    expect(info.total_capped).toBe(true);
    expect(info.items).toHaveLength(25);
    // The same rows, in the same order, as the plan that collects every match and sorts them.
    const reference = searchPageSql(
      { kind: 'search', value: 'mar', sort: undefined },
      { limit: 25, offset: 0 },
      'hits',
    );
    const expected = await t.database.query<Row>(reference.text, reference.params);
    expect(info.items.map((r) => [r.customer_id, r.store_id])).toEqual(
      expected.map((r) => [r.customer_id, r.store_id]),
    );
  });

  it('pages past the cap until a page comes back short, in the order of the full sort', async () => {
    const far = await search('search=mar&limit=10&offset=5000&sort=-legal_name');
    expect(far.total_capped).toBe(true);
    const reference = searchPageSql(
      { kind: 'search', value: 'mar', sort: '-legal_name' },
      { limit: 10, offset: 5000 },
      'hits',
    );
    const expected = await t.database.query<Row>(reference.text, reference.params);
    expect(far.items.map((r) => [r.customer_id, r.store_id])).toEqual(expected.map((r) => [r.customer_id, r.store_id]));
    expect((await search('search=mar&limit=10&offset=1000000')).items).toEqual([]);
  });

  it('counts a term with fewer matches than the cap exactly', async () => {
    // One customer's number: its legal name, e-mail and federal tax id hold it ("Holdings 12345 Inc.").
    const info = await search('search=Holdings%2012345%20Inc');
    expect(info).toMatchObject({ total: 2, total_capped: false });
    expect(info.items.map((r) => r.legal_name)).toEqual([
      expect.stringContaining('Holdings 12345 Inc.'),
      expect.stringContaining('Holdings 12345 Inc.'),
    ]);
  });

  it('counts what the page plan finds: a term matching stores and customers, both counted once', async () => {
    // "12345": store #12345, customer 12345 (name, e-mail) and its stores (bracct BR000012345), stores #12345x…
    for (const value of ['12345', 'Holdings 1234', 'Summit Grocery #1']) {
      const hits = hitsSql({ kind: 'search', value });
      const [reference] = await t.database.query<{ n: number }>(
        `select count(*)::int as n from (${hits.text}) h`,
        hits.params,
      );
      const info = await search(`search=${encodeURIComponent(value)}&limit=1`);
      expect(info.total, value).toBe(Math.min(reference!.n, SEARCH_TOTAL_CAP));
      expect(info.total_capped, value).toBe(reference!.n > SEARCH_TOTAL_CAP);
    }
  });

  it('plans the page of a frequent term as an index walk that stops at the page (Limit, no full Sort)', async () => {
    for (const sort of [undefined, '-legal_name', 'customer_id'] as const) {
      const text = await plan(searchPageSql({ kind: 'search', value: 'mar', sort }, { limit: 50, offset: 0 }, 'walk'));
      const lines = text.split('\n');
      expect(lines[0], text).toMatch(/^Limit/);
      expect(text, text).toMatch(
        /Index Scan( Backward)? using (customers_legal_name_sort_idx|customers_pkey) on customers/,
      );
      // An Incremental Sort orders the stores inside one customer; a plain Sort would have read every match.
      expect(
        lines.filter((l) => /(^|->\s+)Sort\s/.test(l)),
        text,
      ).toEqual([]);
      expect(text, text).not.toMatch(/Seq Scan on (customers|stores)/);
    }
  });

  it('plans the capped count so that it stops after the cap (Limit over an append of the two match sets)', async () => {
    const text = await plan(cappedCountSql({ kind: 'search', value: 'mar' }));
    expect(text, text).toMatch(/Limit/);
    expect(text, text).toMatch(/Append/);
    // No de-duplication of all matches (a UNION's HashAggregate / Unique would read them all before the Limit).
    expect(text, text).not.toMatch(/HashAggregate|Unique|HashSetOp/);
  });
});
