import { SEARCH_TOTAL_CAP } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeStatements } from '../../db/scale/scale.sql';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { hitsSql, searchPageSql } from './customer-search.service';

/*
 * Customer search on a large generated table (issue 13, decisions 107 and 111): 40,000 stores of 20,000 customers
 * made by the set-based SQL of `npm run seed:scale` (customers and stores only). "mar" matches about 40% of the
 * rows ("Market", "Mart", "Martin"…): the search must stop after the cap (1,001 matches read), never read every
 * match, and page within the first 1,000 found. How fast it is at 1M stores is measured by `npm run bench`.
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

type Pair = [number, number | null];
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
const pairs = (rows: Row[]): Pair[] => rows.map((r) => [r.customer_id, r.store_id]);
/** The pairs in the database's own name order (its collation), the way the list must come back. */
async function inNameOrder(rows: Row[], desc = false): Promise<Pair[]> {
  const dir = desc ? 'desc' : 'asc';
  const sorted = await t.database.query<{ customer_id: number; store_id: number | null }>(
    `select p.customer_id, p.store_id from unnest($1::int[], $2::int[]) as p(customer_id, store_id)
     join customers c on c.id = p.customer_id
     order by lower(c.legal_name) ${dir}, p.customer_id, p.store_id nulls first`,
    [rows.map((r) => r.customer_id), rows.map((r) => r.store_id)],
  );
  return sorted.map((r) => [r.customer_id, r.store_id]);
}

/** Every match of a term, from the reference query (all matches, no cap). */
async function allMatches(value: string): Promise<Set<string>> {
  const hits = hitsSql({ kind: 'search', value });
  const rows = await t.database.query<{ customer_id: number; store_id: number | null }>(hits.text, hits.params);
  return new Set(rows.map((r) => `${r.customer_id}/${r.store_id}`));
}

describe('customer search on a large table', () => {
  it('answers a frequent 3-letter term with the capped total ("1,000+") and 40 pages of the first 1,000 matches, in name order', async () => {
    const first = await search('search=mar&limit=25');
    expect(first).toMatchObject({ total: SEARCH_TOTAL_CAP, total_capped: true });
    expect(first.items).toHaveLength(25);
    // All 1,000 rows, page by page (the largest page the contract allows): each a real match, none twice, and in
    // name order across the pages; past the 1,000th nothing.
    const matches = await allMatches('mar');
    const rows: Row[] = [];
    for (let offset = 0; offset < SEARCH_TOTAL_CAP; offset += 100) {
      rows.push(...(await search(`search=mar&limit=100&offset=${offset}`)).items);
    }
    expect(rows).toHaveLength(SEARCH_TOTAL_CAP);
    for (const r of rows) expect(matches.has(`${r.customer_id}/${r.store_id}`), JSON.stringify(r)).toBe(true);
    expect(new Set(rows.map((r) => `${r.customer_id}/${r.store_id}`)).size).toBe(SEARCH_TOTAL_CAP);
    expect(pairs(rows)).toEqual(await inNameOrder(rows));
    expect(pairs(first.items)).toEqual(pairs(rows.slice(0, 25)));
    expect((await search(`search=mar&limit=25&offset=${SEARCH_TOTAL_CAP}`)).items).toEqual([]);
    expect(await search(`search=mar&limit=25&offset=${SEARCH_TOTAL_CAP}`)).toMatchObject({ total_capped: true });
    // Another sort orders the same 1,000 rows.
    const desc: Row[] = [];
    for (let offset = 0; offset < SEARCH_TOTAL_CAP; offset += 100) {
      desc.push(...(await search(`search=mar&limit=100&offset=${offset}&sort=-legal_name`)).items);
    }
    expect(new Set(pairs(desc).map(String))).toEqual(new Set(pairs(rows).map(String)));
    expect(pairs(desc)).toEqual(await inNameOrder(desc, true));
  });

  it('counts and lists a term with fewer matches than the cap exactly, as the full sort of every match', async () => {
    // One customer's number: its legal name, e-mail and federal tax id hold it ("Holdings 12345 Inc.").
    const info = await search('search=Holdings%2012345%20Inc');
    expect(info).toMatchObject({ total: 2, total_capped: false });
    expect(info.items.map((r) => r.legal_name)).toEqual([
      expect.stringContaining('Holdings 12345 Inc.'),
      expect.stringContaining('Holdings 12345 Inc.'),
    ]);
    for (const value of ['12345', 'Holdings 1234', 'Summit Grocery #1']) {
      const reference = searchPageSql({ kind: 'search', value, sort: 'store_name' }, { limit: 1000, offset: 0 }, false);
      const expected = await t.database.query<Row & { n: number }>(reference.text, reference.params);
      const info = await search(`search=${encodeURIComponent(value)}&limit=100&sort=store_name`);
      const n = expected[0]?.n ?? 0;
      expect(info.total, value).toBe(Math.min(n, SEARCH_TOTAL_CAP));
      expect(info.total_capped, value).toBe(n > SEARCH_TOTAL_CAP);
      if (n <= SEARCH_TOTAL_CAP) expect(pairs(info.items), value).toEqual(pairs(expected.slice(0, 100)));
    }
  });

  it('reads at most the cap for a frequent term: each table scan stops under a Limit, rows joined by primary key', async () => {
    for (const sort of [undefined, '-legal_name', 'store_name', 'city'] as const) {
      const sql = searchPageSql({ kind: 'search', value: 'mar', sort }, { limit: 25, offset: 0 });
      const [row] = await t.database.query<{ 'QUERY PLAN': unknown }>(
        `explain (analyze, costs off, timing off, summary off, format json) ${sql.text}`,
        sql.params,
      );
      const planJson = row!['QUERY PLAN'];
      const root = ((typeof planJson === 'string' ? JSON.parse(planJson) : planJson) as Array<{ Plan: PlanNode }>)[0]!
        .Plan;
      const text = JSON.stringify(root, null, 1);
      // The stores scan sits under the cap's Limit, returned 1,001 rows and read far fewer than the table has.
      const limits = nodes(root).filter(
        (n) => n['Node Type'] === 'Limit' && n.Plans?.[0]?.['Relation Name'] === 'stores',
      );
      expect(limits, text).toHaveLength(1);
      const scan = limits[0]!.Plans![0]!;
      expect(scan['Actual Rows'], text).toBe(SEARCH_TOTAL_CAP + 1);
      const read =
        scan['Actual Rows'] + (scan['Rows Removed by Filter'] ?? 0) + (scan['Rows Removed by Index Recheck'] ?? 0);
      expect(read, text).toBeLessThan(STORES / 4);
      // The customers' own matches are not read at all once the stores filled the cap.
      const customerScans = nodes(root).filter((n) => n['Relation Name'] === 'customers');
      expect(
        customerScans.filter((n) => n['Index Name'] !== 'customers_pkey').every((n) => n['Actual Loops'] === 0),
        text,
      ).toBe(true);
      // Joins are primary-key probes of the ~1,001 rows, never a hash of a whole table.
      expect(
        customerScans.some((n) => n['Index Name'] === 'customers_pkey'),
        text,
      ).toBe(true);
      expect(
        nodes(root).filter((n) => /Hash/.test(n['Node Type']) && n['Node Type'] !== 'HashAggregate'),
        text,
      ).toEqual([]);
    }
  });

  it('finds a rare term through the trigram index of the generated search text', async () => {
    const sql = searchPageSql(
      { kind: 'search', value: 'Holdings 12345 Inc', sort: undefined },
      { limit: 25, offset: 0 },
    );
    const text = await plan(sql);
    expect(text, text).toMatch(/Bitmap Index Scan on stores_search_text_trgm_idx/);
    expect(text, text).toMatch(/Bitmap Index Scan on customers_search_text_trgm_idx/);
    expect(text, text).not.toMatch(/Seq Scan on (customers|stores)/);
  });
});
