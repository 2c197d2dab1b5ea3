import { mailListQuery, SEARCH_TOTAL_CAP } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_SCHEMA } from '../../db/client';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { jobPageSql, jobTotalSql, mailListWhere, mailPage } from './admin.service';

/*
 * The Mailbox and the job monitor with more rows than the cap (issue 13, decision 109): 5,000 stored messages
 * (one in 100 to a "corner" address) and 1,501 jobs (1,201 archived, 300 live). Through HTTP the totals stop at
 * the cap; by EXPLAIN the Mailbox page walks an index and the job list keeps only the page's keys of each table.
 */

const MAILS = 5_000;
const QUEUE = 'bulk-test';

let t: TestApp;
let admin: string;
type Info = { items: { id: number | string }[]; total: number; total_capped: boolean };

async function get(url: string): Promise<Info & { queues?: { queue: string; counts: Record<string, number> }[] }> {
  const res = await t.request({ method: 'GET', url });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info;
}

async function explain(text: string, params: unknown[]): Promise<string> {
  const rows = await t.database.query<{ 'QUERY PLAN': string }>(`explain ${text}`, params);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

const sorts = (text: string) => text.split('\n').filter((l) => /(^|->\s+)Sort\s/.test(l));

beforeAll(async () => {
  const database = await createTestDatabase();
  // Message n was kept n minutes after the first; every 100th went to a "corner" shop, every 3rd is a signing link
  // and every 250th an order status (a rare template).
  await database.query(
    `insert into mail_log ("to", subject, template, status, html, text, created_at)
     select case when n % 100 = 0 then 'owner' || n || '@corner.example' else 'owner' || n || '@shop.example' end,
        'Message ' || n,
        case when n % 250 = 0 then 'order_status' when n % 3 = 0 then 'contract_signing_link' else 'payment_update_link' end,
        'stored',
        '<p>' || repeat('Hello. ', 40) || '</p>', repeat('Hello. ', 40), timestamptz '2026-01-01' + make_interval(mins => n)
     from generate_series(1, ${MAILS}) n`,
  );
  t = await createTestApp({ database });
  ({ admin } = await signInStaff(t, { admin: 'Admin' }));
  await t.app.ctx.queue.start();
  await t.app.ctx.queue.boss.createQueue(QUEUE);
  // Job n was created n seconds after the first and finished a second later: 1..1200 archived (every 50th failed),
  // 1201..1500 live, and 1600 — the newest — already archived (a quick job).
  const columns = `id, name, priority, data, state, retry_limit, retry_count, retry_delay, retry_backoff, start_after,
    expire_in, keep_until, created_on, completed_on`;
  const values = `gen_random_uuid(), '${QUEUE}', 0, jsonb_build_object('n', n),
    (case when n % 50 = 0 then 'failed' else 'completed' end)::${JOB_SCHEMA}.job_state, 0, 0, 0, false, c, interval '15 minutes',
    c + interval '14 days', c, c + interval '1 second'`;
  const created = `timestamptz '2026-01-01' + make_interval(secs => n)`;
  await database.query(
    `insert into ${JOB_SCHEMA}.archive (${columns}, archived_on) select ${values}, c + interval '2 seconds'
     from (select n from generate_series(1, 1200) n union all select 1600) n, lateral (select ${created} as c) x`,
  );
  await database.query(
    `insert into ${JOB_SCHEMA}.job (${columns}) select ${values} from generate_series(1201, 1500) n, lateral (select ${created} as c) x`,
  );
  await database.exec(`analyze mail_log; analyze ${JOB_SCHEMA}.archive; analyze ${JOB_SCHEMA}.job`);
}, 120_000);
afterAll(async () => {
  await t.close();
  await t.database.close();
});

describe('Mailbox with more messages than the cap', () => {
  it('answers "1,000+" and the newest first; a filter with fewer matches is counted exactly', async () => {
    const all = await get(`/api/admin/mail/${admin}?limit=3`);
    expect(all).toMatchObject({ total: SEARCH_TOTAL_CAP, total_capped: true });
    expect(all.items.map((m) => (m as unknown as { subject: string }).subject)).toEqual([
      'Message 5000',
      'Message 4999',
      'Message 4998',
    ]);
    const corner = await get(`/api/admin/mail/${admin}?to=CORNER&limit=2`);
    expect(corner).toMatchObject({ total: 50, total_capped: false });
    expect(corner.items.map((m) => (m as unknown as { to: string }).to)).toEqual([
      'owner5000@corner.example',
      'owner4900@corner.example',
    ]);
    const signing = await get(`/api/admin/mail/${admin}?template=contract_signing_link&limit=1`);
    expect(signing).toMatchObject({ total: SEARCH_TOTAL_CAP, total_capped: true });
    expect((signing.items[0] as unknown as { subject: string }).subject).toBe('Message 4998');
  });

  it('plans the page, with or without a template, as a backward index walk that stops at the page', async () => {
    for (const [filter, index] of [
      [{}, 'mail_log_created_idx'],
      // A frequent template is found soon enough walking the date order; a rare one walks its own index.
      [{ template: 'contract_signing_link' }, 'mail_log_(template_)?created_idx'],
      [{ template: 'order_status' }, 'mail_log_template_created_idx'],
    ] as const) {
      const q = mailListQuery.parse({ ...filter, limit: 25 });
      const { sql, params } = mailPage(t.database.db, mailListWhere(q), q).toSQL();
      const text = await explain(sql, params);
      expect(text.split('\n')[0], text).toMatch(/^Limit/);
      expect(text, text).toMatch(new RegExp(`Index Scan Backward using ${index} on mail_log`));
      expect(sorts(text), text).toEqual([]);
      expect(text, text).not.toMatch(/Seq Scan on mail_log/);
    }
  });
});

describe('job monitor with more jobs than the cap', () => {
  it('answers "1,000+" and the newest jobs of both tables first; counts the live table per state', async () => {
    const info = await get(`/api/admin/jobs/${admin}?queue=${QUEUE}&limit=3`);
    expect(info).toMatchObject({ total: SEARCH_TOTAL_CAP, total_capped: true });
    expect(info.items.map((j) => (j as unknown as { data: { n: number } }).data.n)).toEqual([1600, 1500, 1499]);
    // Across the boundary of the two tables: live 1201, then archived 1200, 1199.
    const boundary = await get(`/api/admin/jobs/${admin}?queue=${QUEUE}&limit=3&offset=300`);
    expect(boundary.items.map((j) => (j as unknown as { data: { n: number } }).data.n)).toEqual([1201, 1200, 1199]);
    const failed = await get(`/api/admin/jobs/${admin}?queue=${QUEUE}&state=failed&limit=1`);
    expect(failed).toMatchObject({ total: 31, total_capped: false });
    expect(info.queues!.find((q) => q.queue === QUEUE)!.counts).toEqual({ completed: 294, failed: 6 });
  });

  it('reads only the page keys of each table, and stops counting at the cap', async () => {
    const page = jobPageSql({ queue: QUEUE, limit: 25, offset: 0 });
    const text = await explain(page.text, page.params);
    // Each table's newest keys are a bounded (top-N) sort under its own Limit; the union is never sorted whole.
    expect(text.match(/Limit/g)?.length ?? 0, text).toBeGreaterThanOrEqual(3);
    expect(text, text).toMatch(/Index Scan using archive_pkey on archive/);
    const total = jobTotalSql({ queue: QUEUE, limit: 25, offset: 0 });
    const count = await explain(total.text, total.params);
    expect(count.match(/Limit/g)?.length ?? 0, count).toBe(2);
    expect(count, count).not.toMatch(/Sort/);
  });
});
