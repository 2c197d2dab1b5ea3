import { addDays, customerListingQuery, licenseStatus, type CustomerListingItem } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createCustomer, createInvoice, createPaymentPlan, createStore } from '../../db/factories';
import { agentStores } from '../../db/schema';
import { agentScopedCtx } from '../../test/service-ctx';
import { signInStaff } from '../../test/sign-in';
import { customerListing, customerListingCount, customerListingOptions } from './customer-listing.service';
import { createTestApp, type TestApp } from '../../test/test-app';
import { billingToday } from '../billing';

/** GET /api/reports/customer-listing/{token} (issue 18 part 2, decision 130). */
describe('customer listing', () => {
  let t: TestApp;
  let mk: string; // Marketing: reports_edit
  let cs: string; // Customer Service: no reports_edit
  let dist: string; // Distributor staff of the agent, with reports_edit added: agent-scoped
  let today: string;
  const ids = {} as Record<'alpha' | 'maple' | 'zed' | 'a' | 'b' | 'c' | 'd' | 'agent', number>;

  type Info = { items: CustomerListingItem[]; total: number; total_capped: boolean };
  async function list(query: string, token = mk) {
    return t.request({ method: 'GET', url: `/api/reports/customer-listing/${token}?${query}` });
  }
  async function storeIds(query: string): Promise<number[]> {
    const res = await list(query);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { info: Info }).info.items.map((r) => r.store_id);
  }

  beforeAll(async () => {
    t = await createTestApp();
    today = billingToday(t.app.ctx);
    const db = t.database.db;
    ids.alpha = (await createCustomer(db, { legalName: 'Alpha Foods LLC', country: 'US', currency: 'USD' })).id;
    ids.maple = (await createCustomer(db, { legalName: 'Maple Grocers Inc.', country: 'CA', currency: 'CAD' })).id;
    ids.zed = (await createCustomer(db, { legalName: 'Zed Market Ltd', country: 'CA', currency: 'CAD' })).id;
    const store = (o: Parameters<typeof createStore>[1]) => createStore(db, o);
    ids.a = (
      await store({
        customerId: ids.alpha,
        storeName: 'Alpha One',
        doingBusinessAs: 'Alpha One Deli',
        country: 'US',
        state: 'TX',
        currency: 'USD',
        salesRep: 'Alice Moreau',
        status: 'active',
        licenseExpiresOn: addDays(today, 30),
      })
    ).id;
    ids.b = (
      await store({
        customerId: ids.alpha,
        storeName: 'Alpha Two',
        doingBusinessAs: 'Alpha Two Mart',
        country: 'US',
        state: 'TX',
        currency: 'USD',
        salesRep: 'Brian Otis',
        status: 'active',
        licenseExpiresOn: addDays(today, -10),
      })
    ).id;
    ids.c = (
      await store({
        customerId: ids.maple,
        storeName: 'Maple Toronto',
        doingBusinessAs: 'Maple Toronto',
        country: 'CA',
        state: 'ON',
        currency: 'CAD',
        salesRep: 'Alice Moreau',
        status: 'active',
        licenseExpiresOn: addDays(today, -80),
      })
    ).id;
    ids.d = (
      await store({
        customerId: ids.zed,
        storeName: 'Zed Montreal',
        doingBusinessAs: 'Zed Montreal',
        country: 'CA',
        state: 'QC',
        currency: 'CAD',
        salesRep: null,
        status: 'suspended',
        licenseExpiresOn: null,
      })
    ).id;
    await createPaymentPlan(db, { storeId: ids.a, kind: 'monthly' });
    await createPaymentPlan(db, { storeId: ids.b, kind: 'yearly' });
    await createPaymentPlan(db, { storeId: ids.c, kind: 'monthly', status: 'canceled' });
    // Open: A 79.00 + 20.00, C 50.00 (CAD); B's only invoice is paid (the ledger: a successful charge).
    await createInvoice(db, { storeId: ids.a });
    await createInvoice(db, { storeId: ids.a, lines: [{ billingItemId: 8, unitCents: 20_00 }] });
    await createInvoice(db, { storeId: ids.c, lines: [{ billingItemId: 8, unitCents: 50_00 }] });
    ids.agent = (await createAgent(db, { name: 'Acme Distribution', email: 'acme-listing@example.com' })).id;
    await db.insert(agentStores).values([{ agentId: ids.agent, storeId: ids.c }]);
    ({ mk, cs, dist } = await signInStaff(t, {
      mk: 'Marketing',
      cs: 'Customer Service',
      dist: {
        role: 'Distributor',
        agentId: ids.agent,
        additionalPrivileges: ['reports_edit'],
        email: 'acme-staff@example.com',
      },
    }));
  });
  afterAll(async () => {
    await t.close();
    await t.database.close();
  });

  it('one row per store with its customer, plan, agents, open balance and license state', async () => {
    const res = await list('sort=store_id');
    expect(res.statusCode, res.body).toBe(200);
    const info = (res.json() as { info: Info }).info;
    expect(info.total).toBe(4);
    expect(info.total_capped).toBe(false);
    const [a, b, c, d] = info.items;
    expect(a).toMatchObject({
      customer_id: ids.alpha,
      legal_name: 'Alpha Foods LLC',
      customer_status: 'active',
      store_id: ids.a,
      store_name: 'Alpha One',
      doing_business_as: 'Alpha One Deli',
      store_status: 'active',
      country: 'US',
      state: 'TX',
      sales_rep: 'Alice Moreau',
      agents: null,
      plan_kind: 'monthly',
      open_balance_cents: 99_00,
      currency: 'USD',
      license_state: 'active',
      license_expires_on: addDays(today, 30),
    });
    expect(b).toMatchObject({ store_id: ids.b, plan_kind: 'yearly', open_balance_cents: 0, license_state: 'grace' });
    expect(c).toMatchObject({
      store_id: ids.c,
      plan_kind: 'none',
      plan_name: null,
      agents: 'Acme Distribution',
      open_balance_cents: 50_00,
      currency: 'CAD',
      license_state: 'expired',
    });
    expect(d).toMatchObject({ store_id: ids.d, store_status: 'suspended', license_state: 'disabled', sales_rep: null });
  });

  it('each filter', async () => {
    expect(await storeIds('status=suspended')).toEqual([ids.d]);
    expect(await storeIds('country=CA&sort=store_id')).toEqual([ids.c, ids.d]);
    expect(await storeIds('country=CA&state=on')).toEqual([ids.c]);
    expect(await storeIds('state=TX&sort=store_id')).toEqual([ids.a, ids.b]);
    expect(await storeIds('sales_rep=alice%20moreau&sort=store_id')).toEqual([ids.a, ids.c]);
    expect(await storeIds(`agent_id=${ids.agent}`)).toEqual([ids.c]);
    // Several values of one field (the multi-select of §2): any of them.
    expect(await storeIds('state=TX,on&sort=store_id')).toEqual([ids.a, ids.b, ids.c]);
    expect(await storeIds(`agent_id=${ids.agent},2147483647`)).toEqual([ids.c]);
    expect(await storeIds('plan=monthly')).toEqual([ids.a]);
    expect(await storeIds('plan=yearly')).toEqual([ids.b]);
    expect(await storeIds('plan=none&sort=store_id')).toEqual([ids.c, ids.d]);
    expect(await storeIds('balance=with&sort=store_id')).toEqual([ids.a, ids.c]);
    expect(await storeIds('balance=without&sort=store_id')).toEqual([ids.b, ids.d]);
    expect(await storeIds('balance_min=6000')).toEqual([ids.a]);
    expect(await storeIds('balance_min=1&balance_max=6000')).toEqual([ids.c]);
    expect(await storeIds('license=active')).toEqual([ids.a]);
    expect(await storeIds('license=grace')).toEqual([ids.b]);
    expect(await storeIds('license=expired')).toEqual([ids.c]);
    expect(await storeIds('license=disabled')).toEqual([ids.d]);
    expect(await storeIds('country=US&license=grace&plan=yearly&balance=without')).toEqual([ids.b]);
  });

  it('each sort, both ways, ties by store id', async () => {
    expect(await storeIds('')).toEqual([ids.a, ids.b, ids.c, ids.d]); // customer name
    expect(await storeIds('sort=-customer')).toEqual([ids.d, ids.c, ids.b, ids.a]);
    expect(await storeIds('sort=customer_id')).toEqual([ids.a, ids.b, ids.c, ids.d]);
    expect(await storeIds('sort=-store_id')).toEqual([ids.d, ids.c, ids.b, ids.a]);
    expect(await storeIds('sort=store')).toEqual([ids.a, ids.b, ids.c, ids.d]);
    expect(await storeIds('sort=state')).toEqual([ids.c, ids.d, ids.a, ids.b]); // CA-ON, CA-QC, US-TX
    expect(await storeIds('sort=sales_rep')).toEqual([ids.d, ids.a, ids.c, ids.b]); // none first
    expect(await storeIds('sort=-balance')).toEqual([ids.a, ids.c, ids.d, ids.b]);
    expect(await storeIds('sort=license_expires_on')).toEqual([ids.c, ids.b, ids.a, ids.d]); // none last
  });

  it('pages with the total', async () => {
    const res = await list('limit=2&offset=2&sort=store_id');
    const info = (res.json() as { info: Info }).info;
    expect(info.items.map((r) => r.store_id)).toEqual([ids.c, ids.d]);
    expect(info.total).toBe(4);
  });

  it('options: the active agents and sales reps to filter by; 403 without reports_edit', async () => {
    const res = await t.request({ method: 'GET', url: `/api/reports/customer-listing/options/${mk}` });
    expect(res.statusCode, res.body).toBe(200);
    const info = (res.json() as { info: { agents: { agent_id: number; name: string }[]; sales_reps: string[] } }).info;
    expect(info.agents).toContainEqual({ agent_id: ids.agent, name: 'Acme Distribution' });
    expect(Array.isArray(info.sales_reps)).toBe(true);
    const denied = await t.request({ method: 'GET', url: `/api/reports/customer-listing/options/${cs}` });
    expect(denied.statusCode).toBe(403);
  });

  it('an agent-scoped staff user granted reports_edit is refused: the listing is provider-wide (decision 140)', async () => {
    expect((await list('', dist)).statusCode).toBe(403);
    expect((await list('format=csv', dist)).statusCode).toBe(403);
  });

  it("defence in depth: asked as an agent-scoped session, the listing keeps only its agent's stores and agents", async () => {
    const ctx = agentScopedCtx(t, ids.agent, ['reports_edit']);
    const info = await customerListing(ctx, customerListingQuery.parse({}));
    expect(info.items.map((r) => r.store_id)).toEqual([ids.c]);
    expect(info.total).toBe(1);
    expect(await customerListingCount(ctx, customerListingQuery.parse({}))).toBe(1);
    const options = await customerListingOptions(ctx);
    expect(options.agents.map((a) => a.agent_id)).toEqual([ids.agent]);
  });

  it('400 with the fields; 403 without reports_edit', async () => {
    const bad = await list('country=FR&state=ZZZ&plan=gold&balance_min=-1&license=lapsed&sort=size&limit=0');
    expect(bad.statusCode).toBe(400);
    const err = (bad.json() as { error: { code: string; fields: Record<string, string> } }).error;
    expect(err.code).toBe('validation_failed');
    expect(Object.keys(err.fields)).toEqual(
      expect.arrayContaining(['country', 'state', 'plan', 'balance_min', 'license', 'sort', 'limit']),
    );
    const wrongState = await list('country=CA&state=TX');
    expect(wrongState.statusCode).toBe(400);
    expect((wrongState.json() as { error: { fields: Record<string, string> } }).error.fields.state).toMatch(/TX/);
    const wrongStates = await list('country=CA&state=ON,TX,NY');
    expect((wrongStates.json() as { error: { fields: Record<string, string> } }).error.fields.state).toBe(
      'TX, NY are not states of CA.',
    );
    const badAgents = await list('agent_id=3,x');
    expect(badAgents.statusCode).toBe(400);
    expect((badAgents.json() as { error: { fields: Record<string, string> } }).error.fields.agent_id).toBe(
      'The agent id is a whole number from 1, or a comma list of them.',
    );
    const minMax = await list('balance_min=500&balance_max=100');
    expect(minMax.statusCode).toBe(400);
    expect((await list('', cs)).statusCode).toBe(403);
    expect((await list('format=csv', cs)).statusCode).toBe(403);
  });

  it('CSV: every filtered row, the count in x-total-count, money as decimals', async () => {
    const res = await list('country=CA&format=csv&sort=-customer');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.headers['content-disposition']).toMatch(/customer-listing-\d{4}-\d{2}-\d{2}\.csv/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'customer_id,legal_name,customer_status,store_id,store_name,doing_business_as,store_status,country,state,' +
        'sales_rep,agents,plan_name,open_balance,currency,license_state,license_expires_on',
    );
    // Store id order (the keyset), whatever the list's sort.
    expect(lines.slice(1)).toEqual([
      `${ids.maple},Maple Grocers Inc.,active,${ids.c},Maple Toronto,Maple Toronto,active,CA,ON,Alice Moreau,` +
        `Acme Distribution,,50.00,CAD,expired,${addDays(today, -80)}`,
      `${ids.zed},Zed Market Ltd,active,${ids.d},Zed Montreal,Zed Montreal,suspended,CA,QC,,,,0.00,CAD,disabled,`,
    ]);
    const none = await list('country=CA&state=BC&format=csv');
    expect(none.headers['x-total-count']).toBe('0');
    expect(
      none.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n'),
    ).toHaveLength(1);
  });
});

/** The SQL license state and its filters agree with the domain's licenseStatus at every boundary. */
describe('customer listing: the license state agrees with the domain rule', () => {
  let t: TestApp;
  let mk: string;
  afterAll(async () => {
    await t.close();
    await t.database.close();
  });

  it('every status × expiry around today and the end of the grace period', async () => {
    t = await createTestApp();
    const today = billingToday(t.app.ctx);
    const db = t.database.db;
    const customer = await createCustomer(db, { country: 'US', currency: 'USD' });
    const offsets = [null, 5, 1, 0, -1, -36, -37, -38, -100];
    const expected = new Map<number, string>();
    for (const status of ['active', 'suspended', 'pending', 'closed'] as const)
      for (const o of offsets) {
        const expiresOn = o === null ? null : addDays(today, o);
        const s = await createStore(db, {
          customerId: customer.id,
          country: 'US',
          state: 'TX',
          currency: 'USD',
          status,
          licenseExpiresOn: expiresOn,
        });
        expected.set(s.id, licenseStatus({ storeStatus: status, expiresOn, today }).status);
      }
    ({ mk } = await signInStaff(t, { mk: 'Marketing' }));
    const res = await t.request({ method: 'GET', url: `/api/reports/customer-listing/${mk}?limit=500` });
    const items = (res.json() as { info: { items: CustomerListingItem[] } }).info.items;
    expect(items).toHaveLength(expected.size);
    for (const r of items) expect([r.store_id, r.license_state]).toEqual([r.store_id, expected.get(r.store_id)]);
    for (const state of ['active', 'grace', 'expired', 'disabled']) {
      const filtered = await t.request({
        method: 'GET',
        url: `/api/reports/customer-listing/${mk}?limit=500&sort=store_id&license=${state}`,
      });
      const got = (filtered.json() as { info: { items: CustomerListingItem[] } }).info.items.map((r) => r.store_id);
      const want = [...expected].filter(([, s]) => s === state).map(([id]) => id);
      expect(got, state).toEqual(want.sort((x, y) => x - y));
    }
  });
});
