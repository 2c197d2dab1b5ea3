import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createCustomer, createOrder } from '../../db/factories';
import { agentOrders, auditLog, orders } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/** Agents lookup and agent orders (decision 076). */
describe('agents', () => {
  let t: TestApp;
  let edit: string; // IS: search_orders_edit
  let view: string; // Marketing: search_orders_view only
  let dist: string; // Distributor role: create_distributor_orders only
  const ids = {} as Record<'alpha' | 'beta' | 'gamma' | 'delta' | 'retired' | 'percent', number>;
  const BAD_TOKENS = ['Q'.repeat(43), 'short'];

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    ids.alpha = (
      await createAgent(db, { name: 'Alpha Distribution', email: 'Alpha.Sales@Example.com', type: 'Distributor' })
    ).id;
    ids.beta = (await createAgent(db, { name: 'Beta Partners', email: 'beta@example.com', type: 'REFP' })).id;
    ids.gamma = (await createAgent(db, { name: 'Gamma Regional', email: 'gamma@example.com', type: 'RDC' })).id;
    ids.delta = (
      await createAgent(db, { name: 'Delta Distribution', email: 'delta@example.com', type: 'Distributor' })
    ).id;
    ids.retired = (
      await createAgent(db, {
        name: 'Retired Distribution',
        email: 'retired@example.com',
        type: 'Distributor',
        active: false,
      })
    ).id;
    ids.percent = (await createAgent(db, { name: '100% Sales_Co', email: 'pct@example.com', type: 'REFP' })).id;
    ({ edit, view, dist } = await signInStaff(t, {
      edit: { role: 'IS', email: 'agents-edit@example.com' },
      view: 'Marketing',
      dist: { role: 'Distributor', agentId: ids.gamma, email: 'agents-dist@example.com' },
    }));
  });
  afterAll(() => t.close());

  describe('GET /api/customers/getagents/{token}', () => {
    const get = (q: string, tok = edit) => t.request({ method: 'GET', url: `/api/customers/getagents/${tok}${q}` });
    const names = async (q: string, tok = edit) => {
      const res = await get(q, tok);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().info.agents as Array<{ name: string }>).map((a) => a.name);
    };

    it('search= matches name or e-mail text (any case), active agents only, by name', async () => {
      expect(await names('?search=distribution')).toEqual(['Alpha Distribution', 'Delta Distribution']);
      expect(await names('?search=ALPHA.SALES')).toEqual(['Alpha Distribution']);
      // % and _ are literal characters, not patterns.
      expect(await names('?search=0%25 S')).toEqual(['100% Sales_Co']);
      expect(await names('?search=s_c')).toEqual(['100% Sales_Co']);
      expect(await names('?search=zzz')).toEqual([]);
    });

    it('type= one type; types= a comma list', async () => {
      expect(await names('?type=Distributor')).toEqual(['Alpha Distribution', 'Delta Distribution']);
      expect(await names('?types=REFP,RDC')).toEqual(['100% Sales_Co', 'Beta Partners', 'Gamma Regional']);
      expect(await names('?types=REFP,Distributor,RDC,REFP')).toHaveLength(5);
    });

    it('email= exact, any case; answers the whole record', async () => {
      const res = await get('?email=ALPHA.sales@example.com');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toEqual({
        agents: [
          {
            agent_id: ids.alpha,
            name: 'Alpha Distribution',
            email: 'Alpha.Sales@Example.com',
            phone: '555-010-0000',
            type: 'Distributor',
            sales_channel: expect.any(String),
            sales_channel_code: expect.any(Number),
            parent_agent_id: null,
            active: true,
          },
        ],
        total: 1,
        limit: 50,
        offset: 0,
      });
      expect(await names('?email=alpha@example.com')).toEqual([]);
    });

    it('no filter (§7 calls them optional): the first page of every agent the caller may see; a distributor its tree', async () => {
      const res = await get('');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({ total: 5, limit: 50, offset: 0 });
      expect(await names('')).toEqual(await names('?types=REFP,Distributor,RDC'));
      expect(await names('', dist)).toEqual(await names('?types=REFP,Distributor,RDC', dist));
    });

    it('pages with limit and offset; total counts every match', async () => {
      const res = await get('?types=REFP,Distributor,RDC&limit=2&offset=1');
      expect(res.json().info).toMatchObject({ total: 5, limit: 2, offset: 1 });
      expect((res.json().info.agents as Array<{ name: string }>).map((a) => a.name)).toEqual([
        'Alpha Distribution',
        'Beta Partners',
      ]);
    });

    it('is open to order viewers and distributors; a distributor sees only its own agent tree (decision 124)', async () => {
      expect(await names('?type=RDC', view)).toEqual(['Gamma Regional']);
      expect(await names('?type=RDC', dist)).toEqual(['Gamma Regional']);
      expect(await names('?type=Distributor', view)).toEqual(['Alpha Distribution', 'Delta Distribution']);
      expect(await names('?type=Distributor', dist)).toEqual([]);
    });

    it('400 with field messages', async () => {
      const cases: Array<[string, Record<string, string>]> = [
        ['?search=ab', { search: 'Type at least 3 characters.' }],
        ['?search=abc&type=REFP', { type: 'Give at most one of search, type, types or email.' }],
        ['?type=IS', { type: 'Choose an agent type: Distributor, REFP, RDC.' }],
        ['?types=REFP,IS', { types: 'Choose an agent type: Distributor, REFP, RDC.' }],
        ['?email=not-an-email', { email: expect.any(String) as unknown as string }],
        ['?type=REFP&limit=0&offset=-1', { limit: 'limit is at least 1.', offset: 'offset is at least 0.' }],
      ];
      for (const [q, fields] of cases) {
        const res = await get(q);
        expect(res.statusCode, q).toBe(400);
        expect(res.json().error.code).toBe('validation_failed');
        expect(res.json().error.fields, q).toEqual(fields);
      }
    });

    it('403 without a session', async () => {
      for (const bad of BAD_TOKENS) {
        const res = await get('?type=REFP', bad);
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('session_invalid');
      }
    });
  });

  describe('agent orders', () => {
    const send = (method: 'POST' | 'PUT' | 'DELETE', action: string, payload: unknown, tok = edit) =>
      t.request({
        method,
        url: `/api/customers/agentorders/${tok}/${action}`,
        payload: payload as Record<string, unknown>,
      });
    const add = (p: unknown, tok?: string) => send('POST', 'add', p, tok);
    const update = (p: unknown, tok?: string) => send('PUT', 'updateagentid', p, tok);
    const del = (p: unknown, tok?: string) => send('DELETE', 'delete', p, tok);
    const assigned = async (orderId: number) =>
      (
        await t.database.db
          .select({ agentId: agentOrders.agentId })
          .from(agentOrders)
          .where(eq(agentOrders.orderId, orderId))
      )
        .map((r) => r.agentId)
        .sort((a, b) => a - b);
    const audits = (orderId: number, action: string) =>
      t.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, String(orderId)), eq(auditLog.action, action)));
    let orderId: number;
    let customerId: number;

    beforeAll(async () => {
      customerId = (await createCustomer(t.database.db)).id;
      orderId = (await createOrder(t.database.db, { customerId })).id;
    });

    it('add puts an agent on the order (audited under the customer); twice → 409', async () => {
      const res = await add({ order_id: orderId, agent_id: ids.alpha });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({
        order_id: orderId,
        agent_id: null,
        version: 1,
        agents: [
          {
            agent_id: ids.alpha,
            name: 'Alpha Distribution',
            type: 'Distributor',
            assigned_by_email: 'agents-edit@example.com',
            assigned_at: t.clock.now().toISOString(),
          },
        ],
      });
      expect(await assigned(orderId)).toEqual([ids.alpha]);
      const [entry] = await audits(orderId, 'agent_order_add');
      expect(entry).toMatchObject({
        actorType: 'staff',
        actorEmail: 'agents-edit@example.com',
        customerId,
        after: { order_id: orderId, agent_id: ids.alpha, customer_id: customerId },
      });

      const again = await add({ order_id: orderId, agent_id: ids.alpha });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({
        code: 'conflict',
        fields: { agent_id: `Agent Alpha Distribution is already on order ${orderId}.` },
      });
      expect(await audits(orderId, 'agent_order_add')).toHaveLength(1);

      expect((await add({ order_id: orderId, agent_id: ids.beta })).statusCode).toBe(200);
      expect(await assigned(orderId)).toEqual([ids.alpha, ids.beta].sort((a, b) => a - b));
    });

    it('updateagentid switches the order to one agent, bumps its version and checks a sent version', async () => {
      const res = await update({ order_id: orderId, agent_id: ids.gamma, version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({
        order_id: orderId,
        agent_id: ids.gamma,
        version: 2,
        agents: [{ agent_id: ids.gamma }],
      });
      expect(await assigned(orderId)).toEqual([ids.gamma]);
      const [order] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
      expect(order).toMatchObject({ agentId: ids.gamma, version: 2 });
      const [entry] = await audits(orderId, 'agent_order_switch');
      expect(entry).toMatchObject({
        customerId,
        before: { agent_id: null, agent_ids: [ids.alpha, ids.beta].sort((a, b) => a - b), customer_id: customerId },
        after: { agent_id: ids.gamma, agent_ids: [ids.gamma] },
      });

      const stale = await update({ order_id: orderId, agent_id: ids.delta, version: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.code).toBe('version_conflict');
      expect(stale.json().error.current).toMatchObject({ order_id: orderId, agent_id: ids.gamma, version: 2 });
      expect(await assigned(orderId)).toEqual([ids.gamma]);

      // The same sole agent again changes nothing; without a version no check is made.
      const same = await update({ order_id: orderId, agent_id: ids.gamma });
      expect(same.json().info.version).toBe(2);
      expect(await audits(orderId, 'agent_order_switch')).toHaveLength(1);
    });

    it('two concurrent switches with one version → one 409', async () => {
      const o = (await createOrder(t.database.db)).id;
      const results = await Promise.all([
        update({ order_id: o, agent_id: ids.alpha, version: 1 }),
        update({ order_id: o, agent_id: ids.delta, version: 1 }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect((await assigned(o)).length).toBe(1);
    });

    it('delete takes an agent off (audited); one not on the order → 404', async () => {
      const res = await del({ order_id: orderId, agent_id: ids.gamma });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info.agents).toEqual([]);
      expect(await assigned(orderId)).toEqual([]);
      const [entry] = await audits(orderId, 'agent_order_delete');
      expect(entry).toMatchObject({
        customerId,
        before: { order_id: orderId, agent_id: ids.gamma, assigned_by_email: 'agents-edit@example.com' },
      });
      const again = await del({ order_id: orderId, agent_id: ids.gamma });
      expect(again.statusCode).toBe(404);
      expect(again.json().error.fields).toEqual({ agent_id: `Agent ${ids.gamma} is not on order ${orderId}.` });
    });

    it('404 for an unknown order or agent; 400 for an inactive agent', async () => {
      for (const call of [add, update, del]) {
        const res = await call({ order_id: 999_999, agent_id: ids.alpha });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.fields).toEqual({ order_id: 'Order 999999 was not found.' });
      }
      for (const call of [add, update]) {
        const res = await call({ order_id: orderId, agent_id: 999_999 });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.fields).toEqual({ agent_id: 'There is no agent 999999.' });
        const retired = await call({ order_id: orderId, agent_id: ids.retired });
        expect(retired.statusCode).toBe(400);
        expect(retired.json().error.fields).toEqual({
          agent_id: 'Agent Retired Distribution is not active; choose another agent.',
        });
      }
    });

    it('400 with field messages', async () => {
      for (const call of [add, update, del]) {
        const res = await call({ order_id: 'x', agent_id: 0 });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.fields).toEqual({
          order_id: 'Enter the order id (a number).',
          agent_id: 'The agent id is a positive number.',
        });
        const extra = await call({ order_id: orderId, agent_id: ids.alpha, note: 'x' });
        expect(extra.statusCode).toBe(400);
      }
      const v = await update({ order_id: orderId, agent_id: ids.alpha, version: 0 });
      expect(v.json().error.fields).toEqual({ version: 'The version is at least 1.' });
    });

    it('403 without a session, or without search_orders_edit (order viewers, distributors)', async () => {
      for (const call of [add, update, del]) {
        for (const bad of BAD_TOKENS)
          expect((await call({ order_id: orderId, agent_id: ids.alpha }, bad)).json().error.code).toBe(
            'session_invalid',
          );
        for (const tok of [view, dist]) {
          const res = await call({ order_id: orderId, agent_id: ids.alpha }, tok);
          expect(res.statusCode).toBe(403);
          expect(res.json().error.code).toBe('forbidden');
        }
      }
      expect(await assigned(orderId)).toEqual([]);
    });
  });

  describe('GET /api/customers/agentorders/{orderId}/{token} (decision 162)', () => {
    const get = (orderId: number | string, tok = edit) =>
      t.request({ method: 'GET', url: `/api/customers/agentorders/${orderId}/${tok}` });
    let own: number; // Gamma's order (the distributor session's agent), with Beta added beside it
    let foreign: number; // Alpha's order

    beforeAll(async () => {
      const db = t.database.db;
      own = (await createOrder(db, { agentId: ids.gamma })).id;
      foreign = (await createOrder(db, { agentId: ids.alpha })).id;
      await db.insert(agentOrders).values([
        { orderId: own, agentId: ids.gamma, assignedByEmail: 'first@example.com', assignedAt: new Date('2024-03-01') },
        { orderId: own, agentId: ids.beta, assignedByEmail: 'second@example.com', assignedAt: new Date('2024-03-02') },
        {
          orderId: foreign,
          agentId: ids.alpha,
          assignedByEmail: 'first@example.com',
          assignedAt: new Date('2024-03-01'),
        },
      ]);
    });

    it("answers the order's agents by assignment time, its main agent and version, to any order reader", async () => {
      for (const tok of [edit, view, dist]) {
        const res = await get(own, tok);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().info).toEqual({
          order_id: own,
          agent_id: ids.gamma,
          version: 1,
          agents: [
            {
              agent_id: ids.gamma,
              name: 'Gamma Regional',
              type: 'RDC',
              assigned_by_email: 'first@example.com',
              assigned_at: '2024-03-01T00:00:00.000Z',
            },
            {
              agent_id: ids.beta,
              name: 'Beta Partners',
              type: 'REFP',
              assigned_by_email: 'second@example.com',
              assigned_at: '2024-03-02T00:00:00.000Z',
            },
          ],
        });
      }
    });

    it("another agent's order is 404 for an agent-scoped session, exactly like a missing one", async () => {
      expect((await get(foreign)).statusCode).toBe(200);
      const hidden = await get(foreign, dist);
      const missing = await get(1_999_999_999, dist);
      expect(hidden.statusCode).toBe(404);
      expect(missing.statusCode).toBe(404);
      expect(hidden.json().error.code).toBe('not_found');
      expect(hidden.json().error.message).toBe(`Order ${foreign} was not found.`);
      expect(missing.json().error.message).toBe('Order 1999999999 was not found.');
    });

    it('400 envelope for a bad id; 403 without a session; the write routes still answer their own paths', async () => {
      for (const bad of ['x', '0', '-3']) {
        const res = await get(bad);
        expect(res.statusCode, bad).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'validation_failed', fields: { orderId: expect.any(String) } });
      }
      for (const bad of BAD_TOKENS) expect((await get(own, bad)).json().error.code).toBe('session_invalid');
      // GET on the write routes' paths is the read route with a bad id, never one of them.
      expect((await get('add')).statusCode).toBe(400);
      const add = await t.request({
        method: 'POST',
        url: `/api/customers/agentorders/${edit}/add`,
        payload: { order_id: foreign, agent_id: ids.delta },
      });
      expect(add.statusCode, add.body).toBe(200);
      expect((await get(foreign)).json().info.agents.map((a: { agent_id: number }) => a.agent_id)).toEqual([
        ids.alpha,
        ids.delta,
      ]);
    });
  });

  it('the OpenAPI document describes the agent, catalogue and tax routes', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = (res.json() as { paths: Record<string, Record<string, { parameters?: Array<{ name: string }> }>> })
      .paths;
    expect(paths['/api/customers/getagents/{token}']?.get?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['search', 'type', 'types', 'email', 'limit', 'offset']),
    );
    expect(paths['/api/bundles/billingitempriceoptions/{token}']?.get?.parameters?.map((p) => p.name)).toEqual(
      expect.arrayContaining(['bundle_id', 'currency', 'reference_id']),
    );
    for (const [path, method] of [
      ['/api/customers/agentorders/{orderId}/{token}', 'get'],
      ['/api/customers/agentorders/{token}/add', 'post'],
      ['/api/customers/agentorders/{token}/updateagentid', 'put'],
      ['/api/customers/agentorders/{token}/delete', 'delete'],
      ['/api/products/{token}/all', 'get'],
      ['/api/products/terminals/{token}/all', 'get'],
      ['/api/bundles/{token}/all', 'get'],
      ['/api/customers/promotions/{code}/{token}', 'get'],
      ['/api/customers/referrals/{refId}/{token}', 'get'],
      ['/api/customers/taxes/fetch/{token}', 'post'],
    ] as const) {
      expect(paths[path], path).toHaveProperty([method]);
    }
  });
});
