import {
  ORDER_STATUS_CODES,
  ORDER_FLOWS,
  ordersReportListQuery,
  ordersReportQuery,
  type OrderStatusCode,
} from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng, createAgent, createCustomer, createOrder, createSalesPerson, createStore } from '../../db/factories';
import { eq } from 'drizzle-orm';
import { customers, orders, salesHistory } from '../../db/schema';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { agentScopedCtx } from '../../test/service-ctx';
import { getOrdersReport, listReportOrders, repMonthsQuery } from './sales-reports.service';

/*
 * The orders and sales reports (issue 18 parts 1 and 3, decision 129) through HTTP. Today is 2026-11-22 (the test
 * clock). Orders and sales-history rows are generated at random (a fixed seed); every figure the server answers is
 * recomputed here from the generated rows and compared.
 */

let t: TestApp;
let tok: Record<'ops' | 'service' | 'scoped', string>;

interface GenOrder {
  id: number;
  status: OrderStatusCode;
  flow: string;
  channel: string;
  currency: string;
  country: string;
  cents: number;
  orderDate: Date;
  submittedAt: Date | null;
  agent: boolean;
}
const genOrders: GenOrder[] = [];
interface GenSale {
  rep: number;
  agent: number | null;
  month: string;
  currency: string;
  units: number;
  cents: number;
}
const genSales: GenSale[] = [];
const ids = { repRam: 0, repDist: 0, repIdle: 0, agent: 0, usCustomer: 0 };
const names = new Map<number, string>();

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  const db = database.db;
  const rng = new Rng(129);

  const agent = await createAgent(db, { name: 'Gulf Coast POS', salesChannel: 'Distributor' });
  ids.agent = agent.id;
  tok = await signInStaff(t, {
    ops: 'Operations',
    service: 'Customer Service',
    // An agent-scoped staff user given reports_edit: the one order access rule still applies (decision 102).
    scoped: { role: 'Distributor', agentId: agent.id, additionalPrivileges: ['reports_edit'] },
  });
  const ram = await createSalesPerson(db, { name: 'Rita Ramos', salesChannel: 'RAM' });
  const dist = await createSalesPerson(db, { name: 'Dave Dist', salesChannel: 'Distributor', agentId: agent.id });
  const idle = await createSalesPerson(db, { name: 'Ida Idle', salesChannel: 'IS' });
  const mss = await createSalesPerson(db, { name: 'Mo Mss', salesChannel: 'MSS' });
  Object.assign(ids, { repRam: ram.id, repDist: dist.id, repIdle: idle.id });
  for (const sp of [ram, dist, idle, mss]) names.set(sp.id, sp.name);

  const us = await createCustomer(db, {
    country: 'US',
    currency: 'USD',
    legalName: 'Alpha Diner LLC',
    salesPersonId: ram.id,
  });
  ids.usCustomer = us.id;
  const us2 = await createCustomer(db, {
    country: 'US',
    currency: 'USD',
    legalName: 'Beta Mart LLC',
    salesPersonId: ram.id,
  });
  const ca = await createCustomer(db, {
    country: 'CA',
    currency: 'CAD',
    legalName: 'Maple Hardware Ltd',
    salesPersonId: dist.id,
  });
  const none = await createCustomer(db, { country: 'US', currency: 'USD', legalName: 'Orphan Shop Inc' });
  const caStoreMss = await createStore(db, { customerId: ca.id, country: 'CA', salesPersonId: mss.id });
  const customerChannel = new Map<number, string>([
    [us.id, 'RAM'],
    [us2.id, 'RAM'],
    [ca.id, 'Distributor'],
    [none.id, 'none'],
  ]);

  const start = Date.parse('2025-10-01T00:00:00Z');
  const end = Date.parse('2026-11-22T00:00:00Z');
  for (let i = 0; i < 60; i++) {
    const customer = rng.pick([us, us2, ca, none]);
    const withStore = customer.id === ca.id && rng.chance(0.3);
    const withAgent = !withStore && rng.chance(0.2);
    const status = rng.pick(ORDER_STATUS_CODES);
    const flow = rng.pick(ORDER_FLOWS);
    const orderDate = new Date(start + Math.floor(rng.next() * (end - start)));
    const submittedAt = rng.chance(0.6) ? new Date(orderDate.getTime() + rng.int(0, 40) * 86_400_000) : null;
    const cents = rng.int(0, 500_000);
    const o = await createOrder(db, {
      customerId: customer.id,
      storeId: withStore ? caStoreMss.id : null,
      agentId: withAgent ? agent.id : null,
      status,
      flow,
      totalSaleCents: cents,
      orderDate,
      submittedAt,
    });
    genOrders.push({
      id: o.id,
      status,
      flow,
      channel: withAgent ? 'Distributor' : withStore ? 'MSS' : customerChannel.get(customer.id)!,
      currency: customer.currency,
      country: customer.country,
      cents,
      orderDate,
      submittedAt,
      agent: withAgent,
    });
  }

  const months = Array.from({ length: 30 }, (_, i) => {
    const d = new Date(Date.UTC(2024, 5 + i, 1));
    return d.toISOString().slice(0, 10);
  });
  for (let i = 0; i < 80; i++) {
    const rep = rng.pick([ram, dist, mss]);
    const customer = rep.id === dist.id ? ca : rep.id === ram.id ? rng.pick([us, us2]) : ca;
    const currency = rng.chance(0.15) ? (customer.currency === 'USD' ? 'CAD' : 'USD') : customer.currency;
    const row = {
      rep: rep.id,
      agent: rep.agentId,
      month: rng.pick(months),
      currency,
      units: rng.int(0, 5),
      cents: rng.int(0, 300_000),
    };
    genSales.push(row);
    await db.insert(salesHistory).values({
      salesPersonId: row.rep,
      customerId: customer.id,
      periodMonth: row.month,
      units: row.units,
      amountCents: row.cents,
      currency: row.currency,
    });
  }
});

afterAll(async () => {
  await t.close();
  await t.database.close();
});

const get = (url: string, token = tok.ops) => t.request({ method: 'GET', url: url.replace('{t}', token) });

/** Sum figures keyed by `key|currency`. */
function tally<T>(rows: readonly T[], key: (r: T) => string, cents: (r: T) => number) {
  const out = new Map<string, { count: number; cents: number }>();
  for (const r of rows) {
    const k = key(r);
    const f = out.get(k) ?? { count: 0, cents: 0 };
    f.count += 1;
    f.cents += cents(r);
    out.set(k, f);
  }
  return out;
}
const asMap = (figures: { key: string; currency: string; count: number; amount_cents: number }[]) =>
  new Map(figures.map((f) => [`${f.key}|${f.currency}`, { count: f.count, cents: f.amount_cents }]));

function inRange(d: Date | null, from: string, to: string) {
  if (d === null) return false;
  return d.getTime() >= Date.parse(`${from}T00:00:00Z`) && d.getTime() < Date.parse(`${to}T00:00:00Z`) + 86_400_000;
}

describe('GET /api/reports/orders/{token}', () => {
  it('counts and sums orders per status, flow and channel, each per currency (default: the last 365 days)', async () => {
    const res = await get('/api/reports/orders/{t}');
    expect(res.statusCode).toBe(200);
    const info = res.json().info;
    expect(info).toMatchObject({ from: '2025-11-23', to: '2026-11-22', date_basis: 'created' });
    const rows = genOrders.filter((o) => inRange(o.orderDate, '2025-11-23', '2026-11-22'));
    expect(rows.length).toBeGreaterThan(10);
    expect(asMap(info.by_status)).toEqual(
      tally(
        rows,
        (o) => `${o.status}|${o.currency}`,
        (o) => o.cents,
      ),
    );
    expect(asMap(info.by_flow)).toEqual(
      tally(
        rows,
        (o) => `${o.flow}|${o.currency}`,
        (o) => o.cents,
      ),
    );
    expect(asMap(info.by_channel)).toEqual(
      tally(
        rows,
        (o) => `${o.channel}|${o.currency}`,
        (o) => o.cents,
      ),
    );
    const totals = tally(
      rows,
      (o) => o.currency,
      (o) => o.cents,
    );
    expect(info.totals).toEqual(
      [...totals].sort().map(([currency, f]) => ({ currency, count: f.count, amount_cents: f.cents })),
    );
    expect(info.by_status.find((f: { key: string }) => f.key === '150')?.label ?? 'Complete').toBe('Complete');
    // Statuses in workflow order.
    const order = info.by_status.map((f: { key: string }) => ORDER_STATUS_CODES.indexOf(f.key as OrderStatusCode));
    expect(order).toEqual([...order].sort((a: number, b: number) => a - b));
  });

  it('filters by submitted date, country and currency', async () => {
    const res = await get('/api/reports/orders/{t}?from=2026-01-01&to=2026-06-30&date_basis=submitted&country=CA');
    expect(res.statusCode).toBe(200);
    const info = res.json().info;
    const rows = genOrders.filter((o) => o.country === 'CA' && inRange(o.submittedAt, '2026-01-01', '2026-06-30'));
    expect(asMap(info.by_channel)).toEqual(
      tally(
        rows,
        (o) => `${o.channel}|${o.currency}`,
        (o) => o.cents,
      ),
    );
    expect(info.totals.every((x: { currency: string }) => x.currency === 'CAD')).toBe(true);

    const usd = (await get('/api/reports/orders/{t}?from=2025-01-01&to=2026-11-22&currency=USD')).json().info;
    const usdRows = genOrders.filter((o) => o.currency === 'USD');
    expect(asMap(usd.by_flow)).toEqual(
      tally(
        usdRows,
        (o) => `${o.flow}|${o.currency}`,
        (o) => o.cents,
      ),
    );
  });

  it('400 with the fields for a bad query; 403 without reports_edit', async () => {
    const bad = await get('/api/reports/orders/{t}?from=2026-13-01&to=2026-01-01&date_basis=paid&country=MX');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['country', 'date_basis', 'from']);
    const reversed = await get('/api/reports/orders/{t}?from=2026-02-01&to=2026-01-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().error.fields).toEqual({ to: 'The last day is before the first.' });
    expect((await get('/api/reports/orders/{t}', tok.service)).statusCode).toBe(403);
    expect((await get('/api/reports/orders/{t}', 'no-such-token')).statusCode).toBe(403);
  });

  it('format=csv: the figures table', async () => {
    const res = await get('/api/reports/orders/{t}?format=csv&from=2025-01-01&to=2026-11-22');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('orders-report-2026-11-22.csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('dimension,key,label,currency,count,amount_cents');
    const flows = tally(
      genOrders,
      (o) => `${o.flow}|${o.currency}`,
      (o) => o.cents,
    );
    for (const [k, f] of flows) {
      const [flow, currency] = k.split('|');
      expect(lines).toContain(`flow,${flow},${flow} flow,${currency},${f.count},${f.cents}`);
    }
    const statusLines = lines.filter((l) => l.startsWith('status,'));
    expect(statusLines.reduce((s, l) => s + Number(l.split(',')[4]), 0)).toBe(genOrders.length);
  });
});

describe('the orders report of an agent-scoped caller', () => {
  it('an agent-scoped staff user granted reports_edit is refused: reports are provider-wide (decision 140)', async () => {
    expect((await get('/api/reports/orders/{t}?from=2025-01-01&to=2026-11-22', tok.scoped)).statusCode).toBe(403);
    expect((await get('/api/reports/orders/list/{t}?from=2025-01-01&to=2026-11-22', tok.scoped)).statusCode).toBe(403);
  });

  it("defence in depth: asked as an agent-scoped session, it counts and lists only its agent's orders", async () => {
    const own = genOrders.filter((o) => o.agent);
    expect(own.length).toBeGreaterThan(0);
    const ctx = agentScopedCtx(t, ids.agent, ['reports_edit']);
    const info = await getOrdersReport(ctx, ordersReportQuery.parse({ from: '2025-01-01', to: '2026-11-22' }));
    expect(asMap(info.by_status)).toEqual(
      tally(
        own,
        (o) => `${o.status}|${o.currency}`,
        (o) => o.cents,
      ),
    );
    const list = await listReportOrders(
      ctx,
      ordersReportListQuery.parse({ from: '2025-01-01', to: '2026-11-22', limit: '500' }),
    );
    expect(list.items.map((i: { order_id: number }) => i.order_id).sort()).toEqual(own.map((o) => o.id).sort());
  });
});

describe('GET /api/reports/orders/list/{token} (the drill-down)', () => {
  it('lists the orders behind a figure, newest first, paged', async () => {
    const base = '/api/reports/orders/list/{t}?from=2025-01-01&to=2026-11-22&channel=RAM&currency=USD';
    const expected = genOrders
      .filter((o) => o.channel === 'RAM' && o.currency === 'USD')
      .sort((a, b) => b.orderDate.getTime() - a.orderDate.getTime() || b.id - a.id);
    const first = (await get(`${base}&limit=3`)).json().info;
    expect(first.total).toBe(expected.length);
    expect(first.items.map((i: { order_id: number }) => i.order_id)).toEqual(expected.slice(0, 3).map((o) => o.id));
    expect(first.items[0]).toMatchObject({ channel: 'RAM', currency: 'USD', status_label: expect.any(String) });
    const byAmount = (await get(`${base}&sort=-total_sale_cents&limit=500`)).json().info;
    const amounts = [...expected].sort((a, b) => b.cents - a.cents || b.id - a.id).map((o) => o.id);
    expect(byAmount.items.map((i: { order_id: number }) => i.order_id)).toEqual(amounts);
    const byStatus = expected.filter((o) => o.status === expected[0]!.status);
    const one = (await get(`${base}&status=${expected[0]!.status}`)).json().info;
    expect(one.items.map((i: { order_id: number }) => i.order_id)).toEqual(byStatus.map((o) => o.id));
  });

  it('400 for an unknown status or channel; 403 without reports_edit', async () => {
    const bad = await get('/api/reports/orders/list/{t}?status=99&channel=Web&limit=0&sort=customer');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['channel', 'limit', 'sort', 'status']);
    expect((await get('/api/reports/orders/list/{t}', tok.service)).statusCode).toBe(403);
  });

  it('format=csv: every order the filters match', async () => {
    const res = await get('/api/reports/orders/list/{t}?format=csv&from=2025-01-01&to=2026-11-22&flow=AR&limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('orders-2026-11-22.csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]!.split(',')[0]).toBe('order_id');
    const expected = genOrders.filter((o) => o.flow === 'AR');
    expect(lines.length - 1).toBe(expected.length);
    expect(
      lines
        .slice(1)
        .map((l) => Number(l.split(',')[0]))
        .sort(),
    ).toEqual(expected.map((o) => o.id).sort());
  });
});

const monthKey = (m: string) => m.slice(0, 7);

describe('GET /api/reports/sales/{token}', () => {
  it('per sales person and currency: the range total and every month, largest first', async () => {
    const res = await get('/api/reports/sales/{t}?from_month=2025-12&to_month=2026-11');
    expect(res.statusCode).toBe(200);
    const info = res.json().info;
    expect(info.months).toHaveLength(12);
    expect(info).toMatchObject({ group: 'rep', from_month: '2025-12-01', to_month: '2026-11-01' });
    const rows = genSales.filter((s) => monthKey(s.month) >= '2025-12' && monthKey(s.month) <= '2026-11');
    const byRep = new Map<string, { units: number; cents: number; months: Map<string, number> }>();
    for (const s of rows) {
      const k = `${s.rep}|${s.currency}`;
      const f = byRep.get(k) ?? { units: 0, cents: 0, months: new Map() };
      f.units += s.units;
      f.cents += s.cents;
      f.months.set(s.month, (f.months.get(s.month) ?? 0) + s.cents);
      byRep.set(k, f);
    }
    expect(info.total).toBe(byRep.size);
    for (const r of info.rows) {
      const f = byRep.get(`${r.id}|${r.currency}`)!;
      expect(r).toMatchObject({ name: names.get(r.id), units: f.units, amount_cents: f.cents });
      for (const m of r.months) expect(m.amount_cents).toBe(f.months.get(m.period_month) ?? 0);
    }
    const amounts = info.rows.map((r: { amount_cents: number }) => r.amount_cents);
    expect(amounts).toEqual([...amounts].sort((a: number, b: number) => b - a));
    const totals = tally(
      rows,
      (s) => s.currency,
      (s) => s.cents,
    );
    for (const x of info.totals) expect(x.amount_cents).toBe(totals.get(x.currency)!.cents);
    const nov = info.month_totals.filter((m: { period_month: string }) => m.period_month === '2026-11-01');
    for (const m of nov)
      expect(m.amount_cents).toBe(
        rows.filter((s) => s.month === '2026-11-01' && s.currency === m.currency).reduce((a, s) => a + s.cents, 0),
      );
  });

  it('per agent (a sales person without an agent counts under "No agent"), one currency, paged', async () => {
    const res = await get(
      '/api/reports/sales/{t}?from_month=2024-06&to_month=2026-11&group=agent&currency=CAD&limit=1',
    );
    expect(res.statusCode).toBe(200);
    const info = res.json().info;
    const rows = genSales.filter((s) => s.currency === 'CAD');
    const byAgent = tally(
      rows,
      (s) => String(s.agent),
      (s) => s.cents,
    );
    expect(info.total).toBe(byAgent.size);
    const [top] = [...byAgent].sort((a, b) => b[1].cents - a[1].cents);
    expect(info.rows).toHaveLength(1);
    expect(String(info.rows[0].id)).toBe(top![0]);
    expect(info.rows[0].amount_cents).toBe(top![1].cents);
    expect(info.rows[0].name).toBe(top![0] === 'null' ? 'No agent' : 'Gulf Coast POS');
  });

  it('400 for bad months; 403 without reports_edit', async () => {
    const bad = await get('/api/reports/sales/{t}?from_month=2026-1&to_month=2026-13&group=team');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields).sort()).toEqual(['from_month', 'group', 'to_month']);
    const long = await get('/api/reports/sales/{t}?from_month=2020-01&to_month=2026-11');
    expect(long.json().error.fields).toEqual({ to_month: 'The range is at most 60 months.' });
    expect((await get('/api/reports/sales/{t}', tok.service)).statusCode).toBe(403);
  });

  it('format=csv: one line per rep, currency and month with sales, every one', async () => {
    const res = await get('/api/reports/sales/{t}?format=csv&from_month=2024-06&to_month=2026-11&limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('sales-report-2026-11-22.csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id,name,sales_channel,currency,period_month,units,amount_cents');
    const cells = tally(
      genSales,
      (s) => `${s.rep},${s.currency},${s.month}`,
      (s) => s.cents,
    );
    expect(lines.length - 1).toBe(cells.size);
    const sum = lines.slice(1).reduce((a, l) => a + Number(l.split(',').at(-1)), 0);
    expect(sum).toBe(genSales.reduce((a, s) => a + s.cents, 0));
  });
});

describe('GET /api/reports/sales/reps/{id}/{token} and …/customers/{token}', () => {
  it("the rep's record and the last 24 months per currency, zeros included", async () => {
    const res = await get(`/api/reports/sales/reps/${ids.repDist}/{t}`);
    expect(res.statusCode).toBe(200);
    const info = res.json().info;
    expect(info.sales_person).toMatchObject({
      id: ids.repDist,
      name: 'Dave Dist',
      sales_channel: 'Distributor',
      agent_id: ids.agent,
      agent_name: 'Gulf Coast POS',
      active: true,
      customers: 1,
    });
    expect(info).toMatchObject({ from_month: '2024-12-01', to_month: '2026-11-01' });
    const rows = genSales.filter((s) => s.rep === ids.repDist && s.month >= '2024-12-01');
    const currencies = [...new Set(rows.map((s) => s.currency))];
    expect(info.months).toHaveLength(24 * currencies.length);
    for (const m of info.months)
      expect(m.amount_cents).toBe(
        rows.filter((s) => s.month === m.period_month && s.currency === m.currency).reduce((a, s) => a + s.cents, 0),
      );
    for (const x of info.totals)
      expect(x.amount_cents).toBe(rows.filter((s) => s.currency === x.currency).reduce((a, s) => a + s.cents, 0));
  });

  it('a rep who sold nothing: 24 zero months in USD', async () => {
    const info = (await get(`/api/reports/sales/reps/${ids.repIdle}/{t}`)).json().info;
    expect(info.months).toHaveLength(24);
    expect(info.totals).toEqual([{ currency: 'USD', units: 0, amount_cents: 0 }]);
  });

  it("the rep's customers by name, paged; CSV of every one", async () => {
    const page = (await get(`/api/reports/sales/reps/${ids.repRam}/customers/{t}?limit=1`)).json().info;
    expect(page.total).toBe(2);
    expect(page.items).toEqual([
      { customer_id: ids.usCustomer, legal_name: 'Alpha Diner LLC', country: 'US', currency: 'USD', status: 'active' },
    ]);
    const desc = (await get(`/api/reports/sales/reps/${ids.repRam}/customers/{t}?sort=-legal_name`)).json().info;
    expect(desc.items.map((c: { legal_name: string }) => c.legal_name)).toEqual(['Beta Mart LLC', 'Alpha Diner LLC']);
    const csv = await get(`/api/reports/sales/reps/${ids.repRam}/customers/{t}?format=csv`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(
      csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toEqual([
      'customer_id,legal_name,country,currency,status',
      `${ids.usCustomer},Alpha Diner LLC,US,USD,active`,
      expect.stringContaining('Beta Mart LLC'),
    ]);
    const months = await get(`/api/reports/sales/reps/${ids.repRam}/{t}?format=csv`);
    expect(months.body.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('period_month,currency,units,amount_cents');
  });

  it('404 for an unknown rep, 400 for a bad id, 403 without reports_edit', async () => {
    expect((await get('/api/reports/sales/reps/2000000000/{t}')).statusCode).toBe(404);
    expect((await get('/api/reports/sales/reps/2000000000/customers/{t}')).statusCode).toBe(404);
    const bad = await get('/api/reports/sales/reps/0/{t}');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toHaveProperty('id');
    expect((await get(`/api/reports/sales/reps/${ids.repRam}/{t}`, tok.service)).statusCode).toBe(403);
    expect((await get(`/api/reports/sales/reps/${ids.repRam}/customers/{t}`, tok.service)).statusCode).toBe(403);
  });

  it("the rep's months are one GROUP BY over sales_history_sales_person_idx", async () => {
    const { sql, params } = repMonthsQuery(t.database.db, ids.repDist, '2024-12-01', '2026-11-01').toSQL();
    await t.database.exec('analyze sales_history; set enable_seqscan = off');
    try {
      const rows = await t.database.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toContain('sales_history_sales_person_idx');
      expect(plan).toMatch(/Aggregate/);
    } finally {
      await t.database.exec('reset enable_seqscan');
    }
  });
});

describe("an order's sales channel (decision 138)", () => {
  it('is the one in force when the order was linked: a later change of rep leaves it, a new link moves it', async () => {
    const db = t.database.db;
    const mss = await createSalesPerson(db, { name: 'Mona Mss', salesChannel: 'MSS' });
    const ram = await createSalesPerson(db, { name: 'Rob Ram', salesChannel: 'RAM' });
    const customer = await createCustomer(db, { country: 'US', currency: 'USD', salesPersonId: mss.id });
    const order = await createOrder(db, { customerId: customer.id, orderDate: new Date('2026-11-20T12:00:00Z') });
    const channelOf = async () => {
      const res = await get(`/api/reports/orders/list/{t}?from=2026-11-20&to=2026-11-20&limit=500`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().info.items.find((i: { order_id: number }) => i.order_id === order.id)?.channel;
    };
    expect(await channelOf()).toBe('MSS');
    await db.update(customers).set({ salesPersonId: ram.id }).where(eq(customers.id, customer.id));
    expect(await channelOf()).toBe('MSS');
    await db.update(orders).set({ agentId: ids.agent }).where(eq(orders.id, order.id));
    expect(await channelOf()).toBe('Distributor');
  });
});
