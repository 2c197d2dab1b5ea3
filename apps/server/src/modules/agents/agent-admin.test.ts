import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createCatalogue,
  createDistributorAccount,
  createInvoice,
  createOrder,
  createReferral,
  createStore,
  setTaxRate,
} from '../../db/factories';
import { agentStores, auditLog, distributorAccounts } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/** Agent management and agent isolation (issue 17 points 1 and 2; decision 124). */
describe('agents management', () => {
  let t: TestApp;
  let admin: string; // Admin: edits agents
  let viewer: string; // Marketing: reads every agent, edits none
  let distLogin: string; // distributor login of agent A
  let distStaff: string; // Distributor-role staff of agent A
  const ids = {} as Record<'a' | 'aChild' | 'b' | 'refp' | 'storeA' | 'storeB' | 'orderA' | 'orderB', number>;
  const BAD = 'Q'.repeat(43);
  let crestId = 0; // made in 'create', moved under A in 'edit'

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    await createCatalogue(db);
    await setTaxRate(db, { country: 'US', state: 'TX', rateBasisPoints: 625, label: 'Texas sales tax' });
    ids.a = (
      await createAgent(db, {
        name: 'Acme Distribution',
        email: 'acme@example.com',
        type: 'Distributor',
        salesChannel: 'Distributor',
        salesChannelCode: 5,
      })
    ).id;
    ids.aChild = (
      await createAgent(db, {
        name: 'Acme Sub REFP',
        email: 'acme-sub@example.com',
        type: 'REFP',
        parentAgentId: ids.a,
      })
    ).id;
    ids.b = (
      await createAgent(db, {
        name: 'Bolt Distribution',
        email: 'bolt@example.com',
        type: 'Distributor',
        salesChannel: 'Distributor',
        salesChannelCode: 7,
      })
    ).id;
    ids.refp = (
      await createAgent(db, { name: 'Zed Referral Partner', email: 'zed@example.com', type: 'REFP', active: false })
    ).id;
    const storeA = await createStore(db, {
      storeName: 'Acme Corner Shop',
      state: 'TX',
      country: 'US',
      currency: 'USD',
    });
    const storeB = await createStore(db, { storeName: 'Bolt Grocery', state: 'TX', country: 'US', currency: 'USD' });
    ids.storeA = storeA.id;
    ids.storeB = storeB.id;
    await db.insert(agentStores).values([
      { agentId: ids.a, storeId: storeA.id },
      { agentId: ids.b, storeId: storeB.id },
    ]);
    // Store A owes 79.00 + 20.00 on two open invoices (ledger view), and has one paid invoice.
    await createInvoice(db, { customerId: storeA.customerId, storeId: storeA.id });
    await createInvoice(db, {
      customerId: storeA.customerId,
      storeId: storeA.id,
      lines: [{ billingItemId: 8, unitCents: 20_00 }],
    });
    ids.orderA = (await createOrder(db, { agentId: ids.a, customerId: storeA.customerId, storeId: storeA.id })).id;
    ids.orderB = (await createOrder(db, { agentId: ids.b, customerId: storeB.customerId, storeId: storeB.id })).id;

    await createDistributorAccount(db, {
      email: 'acme-login@example.com',
      password: 'acme-demo-pass-1',
      agentId: ids.a,
    });
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/distributor/login',
      payload: { email: 'acme-login@example.com', password: 'acme-demo-pass-1' },
    });
    if (login.statusCode !== 200) throw new Error(login.body);
    distLogin = login.json().info.token as string;
    ({ admin, viewer, distStaff } = await signInStaff(t, {
      admin: 'Admin',
      viewer: 'Marketing',
      distStaff: { role: 'Distributor', agentId: ids.a, email: 'acme-staff@example.com' },
    }));
  });
  afterAll(() => t.close());

  const get = (url: string) => t.request({ method: 'GET', url });
  const send = (method: 'POST' | 'PUT', url: string, payload?: object) =>
    t.request({ method, url, ...(payload !== undefined && { payload }) });
  const names = async (q: string, tok = viewer) => {
    const res = await get(`/api/agents/${tok}${q}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().info.items as Array<{ name: string }>).map((a) => a.name);
  };

  describe('GET /api/agents/{token}', () => {
    it('lists active agents by name with parent, store count and login; filters by type, channel, text, status', async () => {
      const res = await get(`/api/agents/${viewer}`);
      expect(res.statusCode, res.body).toBe(200);
      const { items, total } = res.json().info;
      expect(total).toBe(3);
      expect(items.map((a: { name: string }) => a.name)).toEqual([
        'Acme Distribution',
        'Acme Sub REFP',
        'Bolt Distribution',
      ]);
      expect(items[0]).toMatchObject({ agent_id: ids.a, store_count: 1, has_login: true, parent_agent_name: null });
      expect(items[1]).toMatchObject({
        parent_agent_id: ids.a,
        parent_agent_name: 'Acme Distribution',
        has_login: false,
      });
      expect(await names('?type=REFP')).toEqual(['Acme Sub REFP']);
      expect(await names('?type=REFP&status=all')).toEqual(['Acme Sub REFP', 'Zed Referral Partner']);
      expect(await names('?status=inactive')).toEqual(['Zed Referral Partner']);
      expect(await names('?channel=Distributor')).toEqual(['Acme Distribution', 'Bolt Distribution']);
      expect(await names('?q=BOLT@')).toEqual(['Bolt Distribution']);
      expect(await names('?q=100%25')).toEqual([]);
      const page = await get(`/api/agents/${viewer}?limit=1&offset=1`);
      expect(page.json().info).toMatchObject({ total: 3, items: [{ name: 'Acme Sub REFP' }] });
    });

    it('CSV of every matching row', async () => {
      const res = await get(`/api/agents/${viewer}?format=csv&limit=1`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/csv');
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines[0]).toBe(
        'agent_id,name,type,sales_channel,parent_agent_name,contact_name,email,phone,commission_percent,store_count,status',
      );
      expect(lines).toHaveLength(4);
      expect(lines[2]).toContain('Acme Sub REFP,REFP');
    });

    it('400 for bad filters; 403 without a session', async () => {
      const bad = await get(`/api/agents/${viewer}?type=Boss&channel=Web&status=gone`);
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().error.fields).sort()).toEqual(['channel', 'status', 'type']);
      expect((await get(`/api/agents/${BAD}`)).json().error.code).toBe('session_invalid');
    });
  });

  describe('GET /api/agents/{agentId}/{token} and /stores', () => {
    it('one agent; 404 unknown; 400 bad id', async () => {
      const res = await get(`/api/agents/${ids.aChild}/${viewer}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().info).toMatchObject({ name: 'Acme Sub REFP', type: 'REFP', version: 1 });
      const missing = await get(`/api/agents/999999/${viewer}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.message).toBe('Agent 999999 was not found.');
      expect((await get(`/api/agents/abc/${viewer}`)).statusCode).toBe(400);
      expect((await get(`/api/agents/${ids.a}/${BAD}`)).statusCode).toBe(403);
    });

    it("an agent's stores with status and open balance from the ledger", async () => {
      const res = await get(`/api/agents/${ids.a}/${viewer}/stores`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({
        agent: { agent_id: ids.a, name: 'Acme Distribution' },
        total: 1,
        items: [
          {
            store_id: ids.storeA,
            store_name: 'Acme Corner Shop',
            status: 'active',
            status_label: 'Active',
            currency: 'USD',
            open_balance_cents: 99_00,
          },
        ],
      });
      const none = await get(`/api/agents/${ids.aChild}/${viewer}/stores`);
      expect(none.json().info).toMatchObject({ total: 0, items: [] });
      expect((await get(`/api/agents/999999/${viewer}/stores`)).statusCode).toBe(404);
      expect((await get(`/api/agents/${ids.a}/${viewer}/stores?limit=0`)).statusCode).toBe(400);
    });
  });

  describe('create, edit, deactivate', () => {
    const body = {
      name: 'Crest Regional',
      email: 'Crest@Example.com',
      phone: '555-0100',
      contact_name: 'Carla Crest',
      type: 'RDC',
      sales_channel: 'RAM',
      parent_agent_id: null,
      commission_percent: 12.5,
    };

    it('POST creates (e-mail lowercased, channel code from the channel, audited)', async () => {
      const res = await send('POST', `/api/agents/${admin}`, body);
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info;
      crestId = info.agent_id;
      expect(info).toMatchObject({
        name: 'Crest Regional',
        email: 'crest@example.com',
        contact_name: 'Carla Crest',
        type: 'RDC',
        sales_channel: 'RAM',
        sales_channel_code: 2,
        commission_percent: 12.5,
        active: true,
        version: 1,
      });
      const [entry] = await t.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'agent_create'), eq(auditLog.entityId, String(crestId))));
      expect(entry).toMatchObject({ actorEmail: 'admin@example.com', after: { email: 'crest@example.com' } });
      // The e-mail check of the form sees it, whatever the case.
      const check = await send('POST', `/api/customers/agents/checkemail/${admin}`, { email: 'CREST@example.com' });
      expect(check.json().info).toMatchObject({ exists: true, agent_id: crestId });
    });

    it('400 with field messages; 409 for a taken e-mail in another case', async () => {
      const bad = await send('POST', `/api/agents/${admin}`, {
        ...body,
        name: '',
        email: 'nope',
        type: 'Boss',
        commission_percent: 120,
      });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().error.fields).sort()).toEqual(['commission_percent', 'email', 'name', 'type']);
      const parent = await send('POST', `/api/agents/${admin}`, {
        ...body,
        email: 'x@example.com',
        parent_agent_id: 999999,
      });
      expect(parent.statusCode).toBe(400);
      expect(parent.json().error.fields).toEqual({ parent_agent_id: 'There is no agent 999999.' });
      const taken = await send('POST', `/api/agents/${admin}`, { ...body, email: 'ACME@example.com' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().error.fields.email).toMatch(/already has the e-mail acme@example.com/);
    });

    it('403 for staff without an editor role and for distributor sessions', async () => {
      for (const tok of [viewer, distLogin, distStaff]) {
        const res = await send('POST', `/api/agents/${tok}`, { ...body, email: 'other@example.com' });
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('forbidden');
        expect((await send('PUT', `/api/agents/${ids.a}/${tok}`, { ...body, version: 1 })).statusCode).toBe(403);
        expect((await send('POST', `/api/agents/${ids.b}/${tok}/deactivate`, { version: 1 })).statusCode).toBe(403);
        expect((await send('POST', `/api/agents/${ids.b}/${tok}/invite`)).statusCode).toBe(403);
      }
    });

    it('PUT edits with the version; stale → 409 with the current agent; a loop of parents → 400; 404', async () => {
      const res = await send('PUT', `/api/agents/${crestId}/${admin}`, {
        ...body,
        sales_channel: 'MSS',
        commission_percent: null,
        parent_agent_id: ids.a,
        version: 1,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({
        sales_channel: 'MSS',
        sales_channel_code: 10,
        commission_percent: null,
        parent_agent_name: 'Acme Distribution',
        version: 2,
      });
      const stale = await send('PUT', `/api/agents/${crestId}/${admin}`, { ...body, version: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error).toMatchObject({ code: 'version_conflict', current: { version: 2 } });
      const loop = await send('PUT', `/api/agents/${ids.a}/${admin}`, {
        name: 'Acme Distribution',
        email: 'acme@example.com',
        type: 'Distributor',
        sales_channel: 'Distributor',
        parent_agent_id: crestId,
        version: 1,
      });
      expect(loop.statusCode).toBe(400);
      expect(loop.json().error.fields.parent_agent_id).toMatch(/own sub-agents/);
      expect((await send('PUT', `/api/agents/999999/${admin}`, { ...body, version: 1 })).statusCode).toBe(404);
    });

    it('deactivate: the agent stops and its distributor logins end; again → 409; stale → 409', async () => {
      const bolt = await createDistributorAccount(t.database.db, {
        email: 'bolt-login@example.com',
        password: 'bolt-demo-pass-1',
        agentId: ids.b,
      });
      const login = await send('POST', '/api/auth/distributor/login', {
        email: 'bolt-login@example.com',
        password: 'bolt-demo-pass-1',
      });
      const boltToken = login.json().info.token as string;
      expect((await get(`/api/agents/${boltToken}`)).statusCode).toBe(200);

      expect((await send('POST', `/api/agents/${ids.b}/${admin}/deactivate`, { version: 9 })).statusCode).toBe(409);
      const res = await send('POST', `/api/agents/${ids.b}/${admin}/deactivate`, { version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({ active: false, version: 2 });
      expect((await get(`/api/agents/${boltToken}`)).json().error.code).toBe('session_invalid');
      const [account] = await t.database.db
        .select()
        .from(distributorAccounts)
        .where(eq(distributorAccounts.id, bolt.id));
      expect(account!.active).toBe(false);
      expect(await names('?type=Distributor')).toEqual(['Acme Distribution']);
      const again = await send('POST', `/api/agents/${ids.b}/${admin}/deactivate`, { version: 2 });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toBe('Agent Bolt Distribution is already inactive.');
      expect((await send('POST', `/api/agents/999999/${admin}/deactivate`, { version: 1 })).statusCode).toBe(404);
      expect((await send('POST', `/api/agents/${ids.b}/${admin}/deactivate`, {})).statusCode).toBe(400);
    });
  });

  describe('POST /api/agents/{agentId}/{token}/invite', () => {
    it('makes the distributor login and e-mails a set-password link that the reset flow accepts', async () => {
      const agent = (
        await send('POST', `/api/agents/${admin}`, {
          name: 'Delta Distribution',
          email: 'Delta.Owner@example.com',
          contact_name: 'Dana Delta',
          type: 'Distributor',
          sales_channel: 'Distributor',
        })
      ).json().info;
      const res = await send('POST', `/api/agents/${agent.agent_id}/${admin}/invite`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toEqual({ agent_id: agent.agent_id, email: 'delta.owner@example.com', created: true });
      const [mail] = await t.database.query<{ links: string[]; template: string }>(
        `select links, template from mail_log where "to" = $1 order by id desc limit 1`,
        ['delta.owner@example.com'],
      );
      expect(mail!.template).toBe('distributor_password_reset');
      const token = mail!.links[0]!.split('/').pop()!;
      // Before the password is set the login refuses any guess.
      const reset = await send('POST', '/api/auth/distributor/password/reset', {
        token,
        password: 'Delta-new-pass-2026',
      });
      expect(reset.statusCode, reset.body).toBe(200);
      const login = await send('POST', '/api/auth/distributor/login', {
        email: 'delta.owner@example.com',
        password: 'Delta-new-pass-2026',
      });
      expect(login.statusCode, login.body).toBe(200);
      expect(login.json().info).toMatchObject({ agent_id: agent.agent_id, role: 'Distributor', name: 'Dana Delta' });
      // A second invitation only sends a new link.
      const again = await send('POST', `/api/agents/${agent.agent_id}/${admin}/invite`);
      expect(again.json().info.created).toBe(false);
      expect((await get(`/api/agents/${agent.agent_id}/${admin}`)).json().info.has_login).toBe(true);
    });

    it('400 for a non-Distributor or inactive agent; 404 unknown', async () => {
      const refp = await send('POST', `/api/agents/${ids.aChild}/${admin}/invite`);
      expect(refp.statusCode).toBe(400);
      expect(refp.json().error.fields.agent_id).toMatch(/Only Distributor agents/);
      const inactive = await send('POST', `/api/agents/${ids.b}/${admin}/invite`);
      expect(inactive.statusCode).toBe(400);
      expect((await send('POST', `/api/agents/999999/${admin}/invite`)).statusCode).toBe(404);
    });
  });

  describe('agent isolation (point 2): a session of agent A never reads agent B', () => {
    const sessions = () =>
      [
        ['distributor login', distLogin],
        ['Distributor-role staff', distStaff],
      ] as const;

    it('agent lists hold A and its sub-agents only (management list and getagents)', async () => {
      for (const [who, tok] of sessions()) {
        // Crest was moved under A by the edit test: a sub-agent at any depth is in A's tree.
        expect(await names('?status=all', tok), who).toEqual(['Acme Distribution', 'Acme Sub REFP', 'Crest Regional']);
        const lookup = await get(`/api/customers/getagents/${tok}?types=Distributor,REFP,RDC`);
        expect(lookup.statusCode).toBe(200);
        expect(
          lookup
            .json()
            .info.agents.map((a: { agent_id: number }) => a.agent_id)
            .sort(),
        ).toEqual([ids.a, ids.aChild, crestId].sort());
      }
      // Staff outside the agent roles still see B.
      expect(await names('?status=all&q=bolt', viewer)).toEqual(['Bolt Distribution']);
    });

    it("B's agent record and stores are 404 as if missing; A's are readable", async () => {
      for (const [who, tok] of sessions()) {
        const record = await get(`/api/agents/${ids.b}/${tok}`);
        expect(record.statusCode, who).toBe(404);
        expect(record.json().error.message).toBe(`Agent ${ids.b} was not found.`);
        expect((await get(`/api/agents/${ids.b}/${tok}/stores`)).statusCode).toBe(404);
        const own = await get(`/api/agents/${ids.a}/${tok}/stores`);
        expect(own.statusCode, who).toBe(200);
        expect(own.json().info.items.map((s: { store_id: number }) => s.store_id)).toEqual([ids.storeA]);
        expect((await get(`/api/agents/${ids.aChild}/${tok}`)).statusCode).toBe(200);
      }
    });

    it("B's orders are 404; A's order is readable", async () => {
      for (const [who, tok] of sessions()) {
        const other = await get(`/api/customers/orderinfo/${tok}?id=${ids.orderB}`);
        expect(other.statusCode, who).toBe(404);
        const own = await get(`/api/customers/orderinfo/${tok}?id=${ids.orderA}`);
        expect(own.statusCode, who).toBe(200);
      }
    });

    it("catalogue reads priced for a store: B's store is 404, A's store works; staff read both", async () => {
      for (const [who, tok] of sessions()) {
        const items = await get(`/api/customers/billingitems/${tok}/all?custstoreid=${ids.storeB}`);
        expect(items.statusCode, who).toBe(404);
        expect(items.json().error.fields).toEqual({ custstoreid: `There is no store ${ids.storeB}.` });
        expect((await get(`/api/customers/billingitems/${tok}/all?custstoreid=${ids.storeA}`)).statusCode).toBe(200);
        const tax = (storeId: number) =>
          send('POST', `/api/customers/taxes/fetch/${tok}`, { store_id: storeId, lines: [{ amount_cents: 100_00 }] });
        expect((await tax(ids.storeB)).statusCode, who).toBe(404);
        const own = await tax(ids.storeA);
        expect(own.statusCode, own.body).toBe(200);
        expect(own.json().info.total_tax_cents ?? own.json().info.lines[0].tax_cents).toBe(6_25);
      }
      expect((await get(`/api/customers/billingitems/${viewer}/all?custstoreid=${ids.storeB}`)).statusCode).toBe(200);
    });

    it("referrals: A's (and its sub-agent's) are found, B's and house referrals read as missing", async () => {
      const db = t.database.db;
      const mine = await createReferral(db, { refCode: 'ACMEREF', agentId: ids.aChild });
      await createReferral(db, { refCode: 'BOLTREF', agentId: ids.b });
      await createReferral(db, { refCode: 'HOUSEREF', agentId: null });
      for (const [who, tok] of sessions()) {
        const own = await get(`/api/customers/referrals/acmeref/${tok}`);
        expect(own.statusCode, who).toBe(200);
        expect(own.json().info).toMatchObject({ referral_id: mine.id, agent_id: ids.aChild });
        expect((await get(`/api/customers/referrals/BOLTREF/${tok}`)).statusCode, who).toBe(404);
        expect((await get(`/api/customers/referrals/HOUSEREF/${tok}`)).statusCode, who).toBe(404);
      }
      expect((await get(`/api/customers/referrals/BOLTREF/${viewer}`)).statusCode).toBe(200);
    });

    it('the price book (products, terminals, bundles, billing items without a store) is the same for every channel', async () => {
      for (const path of ['/api/products/TOK/all', '/api/products/terminals/TOK/all', '/api/bundles/TOK/all']) {
        const staff = await get(path.replace('TOK', viewer));
        const dist = await get(path.replace('TOK', distLogin));
        expect(dist.statusCode, path).toBe(200);
        expect(dist.json()).toEqual(staff.json());
      }
    });
  });
});
