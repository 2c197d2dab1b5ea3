import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOrders } from '../../db/schema';
import { createAgent, createDistributorAccount, createOrder, createStaffUser } from '../../db/factories';
import { signIn } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/* The order list (decision 080): GET /api/customers/orders/search/{token}. One app; fixed orders made once. */

let t: TestApp;
let admin: string;
let ar: string;
let noOrders: string;
let distributor: string;
let agentA: number;
let agentB: number;
const ids: Record<string, number> = {};

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function get(tok: string, query = ''): Promise<{ status: number; body: Json; text: string; headers: Json }> {
  const res = await t.request({ method: 'GET', url: `/api/customers/orders/search/${tok}${query ? `?${query}` : ''}` });
  const text = res.body;
  let body: Json = {};
  try {
    body = JSON.parse(text) as Json;
  } catch {
    /* CSV */
  }
  return { status: res.statusCode, body, text, headers: res.headers };
}
const idsOf = (body: Json) => (body.info.items as Json[]).map((r) => r.id as number).sort();

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await createStaffUser(db, { email: 'admin@example.com', role: 'Admin' });
  await createStaffUser(db, { email: 'ar@example.com', role: 'AR Team' });
  await createStaffUser(db, { email: 'marketing@example.com', role: 'Marketing' });
  // Every role holds an order privilege; take Marketing's only one away in this database to get a user without.
  await t.database.query(
    `delete from role_privileges where role_id = (select id from roles where name = 'Marketing')
       and privilege_id = (select id from privileges where name = 'search_orders_view')`,
  );
  agentA = (await createAgent(db, { type: 'Distributor', name: 'Acme Distribution' })).id;
  agentB = (await createAgent(db, { type: 'Distributor', name: 'Bolt Resellers' })).id;
  const day = (d: string) => new Date(`${d}T12:00:00Z`);
  ids.ar1 = (
    await createOrder(db, {
      status: '121',
      flow: 'AR',
      legalName: 'Zephyr Foods LLC',
      dbaName: 'Zephyr Deli',
      salesRep: 'Dana Whitfield',
      fedTaxId: '41-7100001',
      orderDate: day('2026-03-01'),
      totalSaleCents: 149950,
      agentId: agentA,
    })
  ).id;
  ids.ar2 = (
    await createOrder(db, {
      status: '125',
      flow: 'AR',
      legalName: 'Maple Goods Inc',
      dbaName: 'Maple Corner',
      salesRep: 'Lee Park',
      orderDate: day('2026-03-10'),
      agentId: agentB,
    })
  ).id;
  ids.ram = (
    await createOrder(db, {
      status: '11',
      flow: 'RAM',
      legalName: 'Harbor Fuel Co',
      dbaName: 'Harbor Gas',
      salesRep: 'Dana Whitfield',
      orderDate: day('2026-04-02'),
    })
  ).id;
  ids.draft = (
    await createOrder(db, {
      status: '1',
      flow: 'AR',
      legalName: 'Quartz, "Cafe"',
      dbaName: '=cmd',
      salesRep: 'Lee Park',
      orderDate: day('2026-05-20'),
      unifiedOrderId: 'UO-FIND-ME-77',
    })
  ).id;
  // An order assigned to agent A through agent_orders (not by agent_id).
  ids.assigned = (
    await createOrder(db, {
      status: '140',
      flow: 'AR',
      legalName: 'Assigned Store',
      orderDate: day('2026-06-01'),
      agentId: agentB,
    })
  ).id;
  await db.insert(agentOrders).values({ agentId: agentA, orderId: ids.assigned, assignedByEmail: 'admin@example.com' });
  [admin, ar] = (await Promise.all(['admin@example.com', 'ar@example.com'].map((e) => signIn(t, e)))) as [
    string,
    string,
  ];
  noOrders = await signIn(t, 'marketing@example.com');
  await createDistributorAccount(db, {
    email: 'dist-search@example.com',
    password: 'distributor-demo',
    agentId: agentA,
  });
  const login = await t.request({
    method: 'POST',
    url: '/api/auth/distributor/login',
    payload: { email: 'dist-search@example.com', password: 'distributor-demo' },
  });
  if (login.statusCode !== 200) throw new Error(login.body);
  distributor = login.json().info.token as string;
});
afterAll(() => t.close());

describe('GET /api/customers/orders/search/{token}', () => {
  it('lists every order for staff, newest change first by default, with the row fields', async () => {
    const { status, body } = await get(admin);
    expect(status).toBe(200);
    expect(body.info.total).toBe(5);
    expect(idsOf(body)).toEqual(Object.values(ids).sort());
    const row = (body.info.items as Json[]).find((r) => r.id === ids.ar1)!;
    expect(row).toMatchObject({
      status: '121',
      status_label: 'Pending AR Approval',
      flow: 'AR',
      legal_name: 'Zephyr Foods LLC',
      dba_name: 'Zephyr Deli',
      sales_rep: 'Dana Whitfield',
      agent_id: agentA,
      agent: 'Acme Distribution',
      total_sale_cents: 149950,
      order_date: '2026-03-01T12:00:00.000Z',
      version: 1,
    });
    expect(typeof row.unified_order_id).toBe('string');
  });

  it('filters by status (one or a comma list), flow, sales rep, agent and order dates', async () => {
    expect(idsOf((await get(admin, 'status=121')).body)).toEqual([ids.ar1]);
    expect(idsOf((await get(admin, 'status=121,125')).body)).toEqual([ids.ar1, ids.ar2].sort());
    expect(idsOf((await get(admin, 'flow=RAM')).body)).toEqual([ids.ram]);
    expect(idsOf((await get(admin, 'sales_rep=whitfield')).body)).toEqual([ids.ar1, ids.ram].sort());
    expect(idsOf((await get(admin, `agent_id=${agentB}`)).body)).toEqual([ids.ar2, ids.assigned].sort());
    expect(idsOf((await get(admin, 'date_from=2026-03-10&date_to=2026-04-02')).body)).toEqual(
      [ids.ar2, ids.ram].sort(),
    );
    expect(idsOf((await get(admin, 'status=121&flow=RAM')).body)).toEqual([]);
  });

  it('q matches legal name, DBA, unified order id and federal tax id (case-insensitive, LIKE characters literal)', async () => {
    expect(idsOf((await get(admin, 'q=zephyr')).body)).toEqual([ids.ar1]);
    expect(idsOf((await get(admin, 'q=corner')).body)).toEqual([ids.ar2]);
    expect(idsOf((await get(admin, 'q=find-me')).body)).toEqual([ids.draft]);
    expect(idsOf((await get(admin, 'q=7100001')).body)).toEqual([ids.ar1]);
    expect(idsOf((await get(admin, `q=${encodeURIComponent('%%%')}`)).body)).toEqual([]);
  });

  it("mine=queue gives the caller's role start status (AR Team → 121)", async () => {
    expect(idsOf((await get(ar, 'mine=queue')).body)).toEqual([ids.ar1]);
    expect(idsOf((await get(admin, 'mine=queue')).body)).toEqual([ids.draft]);
  });

  it('sorts by a whitelisted column and pages with limit/offset', async () => {
    const asc = (await get(admin, 'sort=legal_name')).body.info.items as Json[];
    expect(asc.map((r) => r.legal_name)).toEqual([
      'Assigned Store',
      'Harbor Fuel Co',
      'Maple Goods Inc',
      'Quartz, "Cafe"',
      'Zephyr Foods LLC',
    ]);
    const desc = (await get(admin, 'sort=-order_date&limit=2&offset=1')).body;
    expect(desc.info.total).toBe(5);
    expect((desc.info.items as Json[]).map((r) => r.id)).toEqual([ids.draft, ids.ram]);
  });

  it('400 with fields for bad filters', async () => {
    for (const [query, field] of [
      ['status=999', 'status'],
      ['flow=XYZ', 'flow'],
      ['q=ab', 'q'],
      ['date_from=2026-13-45', 'date_from'],
      ['date_from=2026-05-01&date_to=2026-04-01', 'date_to'],
      ['agent_id=abc', 'agent_id'],
      ['mine=all', 'mine'],
      ['sort=password', 'sort'],
      ['limit=0', 'limit'],
      ['format=xml', 'format'],
    ] as const) {
      const { status, body } = await get(admin, query);
      expect(status, query).toBe(400);
      expect(body.error.code, query).toBe('validation_failed');
      expect(Object.keys(body.error.fields ?? {}), query).toContain(field);
    }
    const unknown = await get(admin, 'colour=red');
    expect(unknown.status).toBe(400);
  });

  it('403 session_invalid without a valid token, 403 forbidden without an order privilege', async () => {
    const bad = await get('Q'.repeat(43));
    expect([bad.status, bad.body.error.code]).toEqual([403, 'session_invalid']);
    const res = await get(noOrders);
    expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
  });

  it("a distributor sees only its agent's orders (own agent_id or assigned), whatever it filters on", async () => {
    const { status, body } = await get(distributor);
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([ids.ar1, ids.assigned].sort());
    expect(body.info.total).toBe(2);
    expect(idsOf((await get(distributor, `agent_id=${agentB}`)).body)).toEqual([ids.assigned]);
    expect(idsOf((await get(distributor, 'q=maple')).body)).toEqual([]);
    const csv = await get(distributor, 'format=csv');
    expect(csv.text.trim().split('\r\n')).toHaveLength(3);
  });

  it('format=csv streams all matching rows (BOM, header, CRLF, quoting, formula guard), ignoring limit', async () => {
    const { status, text, headers } = await get(admin, 'format=csv&limit=1&sort=legal_name');
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/csv/);
    expect(headers['content-disposition']).toMatch(/attachment; filename="orders-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(
      text.startsWith(
        '\uFEFFid,unified_order_id,status,status_label,flow,order_type,legal_name,dba_name,sales_rep,agent,',
      ),
    ).toBe(true);
    const lines = text.slice(1).split('\r\n');
    expect(lines).toHaveLength(7); // header + 5 rows + trailing ''
    expect(lines[4]).toContain(`"Quartz, ""Cafe""",'=cmd,Lee Park`);
    expect(lines[5]).toContain('Pending AR Approval');
  });
});

describe('a list with more matches than the cap (decision 107)', () => {
  let big: TestApp;
  let token: string;
  beforeAll(async () => {
    big = await createTestApp();
    await createStaffUser(big.database.db, { email: 'admin@example.com', role: 'Admin' });
    token = await signIn(big, 'admin@example.com');
    // 1,200 orders, one changed per minute: order n was changed n minutes after the first.
    await big.database.query(
      `insert into orders (unified_order_id, document, created_by_email, legal_name, status, updated_at)
       select 'UO-BULK-' || n, '{}'::jsonb, 'bulk@example.com', 'Bulk Foods ' || n, case when n % 2 = 0 then '1' else '121' end,
              timestamptz '2026-01-01T00:00:00Z' + make_interval(mins => n)
       from generate_series(1, 1200) as n`,
    );
  });
  afterAll(() => big.close());
  const list = async (query: string) => {
    const res = await big.request({ method: 'GET', url: `/api/customers/orders/search/${token}?${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { info: { items: Array<{ legal_name: string }>; total: number; total_capped: boolean } })
      .info;
  };

  it('answers total 1,000 with total_capped ("1,000+"), and pages past the cap until a page comes back short', async () => {
    const first = await list('limit=3');
    expect(first).toMatchObject({ total: 1000, total_capped: true });
    expect(first.items.map((r) => r.legal_name)).toEqual(['Bulk Foods 1200', 'Bulk Foods 1199', 'Bulk Foods 1198']);
    const last = await list('limit=50&offset=1180');
    expect(last.items.map((r) => r.legal_name)).toEqual(Array.from({ length: 20 }, (_, i) => `Bulk Foods ${20 - i}`));
    expect(last.total_capped).toBe(true);
  });

  it('counts exactly below the cap (600 in one status; a filtered text)', async () => {
    expect(await list('status=1&limit=1')).toMatchObject({ total: 600, total_capped: false });
    expect(await list('q=Bulk Foods 11&limit=1')).toMatchObject({ total: 111, total_capped: false });
  });
});
