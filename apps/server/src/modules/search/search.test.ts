import { GLOBAL_SEARCH_LIMIT, globalSearchTerms, SEARCH_KINDS } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentOrders } from '../../db/schema';
import {
  createAgent,
  createCustomer,
  createDistributorAccount,
  createOrder,
  createStaffUser,
  createStore,
  createTerminal,
} from '../../db/factories';
import { signIn } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import type { SessionContext } from '../../http/session';
import { KIND_SQL, shareLimit } from './search.service';

/* The global search (decision 106): GET /api/search/{token}?q=. One app; the records are made once. */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
const tok: Record<string, string> = {};
const ids: Record<string, number> = {};
let agentA: number;

async function search(token: string, q: string | null): Promise<{ status: number; body: Json }> {
  const query = q === null ? '' : `?q=${encodeURIComponent(q)}`;
  const res = await t.request({ method: 'GET', url: `/api/search/${token}${query}` });
  return { status: res.statusCode, body: res.json() as Json };
}
const found = async (token: string, q: string) => {
  const { status, body } = await search(token, q);
  expect(status, q).toBe(200);
  return body.info as Json;
};
const customerIds = (info: Json) => (info.customers as Json[]).map((c) => c.customer_id as number);
const storeIds = (info: Json) => (info.stores as Json[]).map((s) => s.store_id as number);
const terminalIds = (info: Json) => (info.terminals as Json[]).map((x) => x.terminal_id as number);
const orderIds = (info: Json) => (info.orders as Json[]).map((o) => o.order_id as number);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await createStaffUser(db, { email: 'admin@example.com', role: 'Admin' });
  await createStaffUser(db, { email: 'ops@example.com', role: 'Operations' });
  await createStaffUser(db, { email: 'marketing@example.com', role: 'Marketing' });
  await createStaffUser(db, { email: 'care@example.com', role: 'Customer Care' });
  await createStaffUser(db, { email: 'ram@example.com', role: 'RAM' });
  const quokka = await createCustomer(db, {
    legalName: 'Quokka Holdings LLC',
    federalTaxId: '41-9900001',
    brAcct: 'BRX-77123',
  });
  ids.quokka = quokka.id;
  ids.wombat = (await createCustomer(db, { legalName: 'Wombat Trading Inc', federalTaxId: '41-9900002' })).id;
  ids.bakery = (
    await createStore(db, {
      customerId: quokka.id,
      storeName: 'Numbat Bakery - Harbour Road',
      doingBusinessAs: 'Sunrise Crumbs',
    })
  ).id;
  ids.deli = (
    await createStore(db, { customerId: ids.wombat, storeName: 'Wombat Deli - Elm St', doingBusinessAs: 'Wombat Deli' })
  ).id;
  ids.terminal = (
    await createTerminal(db, { storeId: ids.bakery, elmerId: '88770001', serialNumber: 'NT260088001' })
  ).id;
  ids.otherTerminal = (
    await createTerminal(db, { storeId: ids.deli, elmerId: '88770002', serialNumber: 'NT260088002' })
  ).id;

  agentA = (await createAgent(db, { type: 'Distributor', name: 'Acme Distribution' })).id;
  const agentB = (await createAgent(db, { type: 'Distributor', name: 'Bolt Resellers' })).id;
  ids.orderA = (
    await createOrder(db, { legalName: 'Quokka Holdings LLC', unifiedOrderId: 'UO-SEARCH-0001', agentId: agentA })
  ).id;
  ids.orderB = (
    await createOrder(db, { legalName: 'Wombat Trading Inc', unifiedOrderId: 'UO-SEARCH-0002', agentId: agentB })
  ).id;
  ids.orderAssigned = (await createOrder(db, { unifiedOrderId: 'UO-SEARCH-0003', agentId: agentB })).id;
  await db
    .insert(agentOrders)
    .values({ agentId: agentA, orderId: ids.orderAssigned, assignedByEmail: 'admin@example.com' });
  await createStaffUser(db, { email: 'rdc@example.com', role: 'RDC', agentId: agentA });

  // (After the last createStaffUser, which restores the role table's privileges.)
  // Customer Care without its order privileges in this database: a role that may search customers but not orders.
  await t.database.query(
    `delete from role_privileges where role_id = (select id from roles where name = 'Customer Care')
       and privilege_id in (select id from privileges where name in ('search_orders_view', 'search_orders_edit'))`,
  );
  // RAM without any privilege the search asks for: create_distributor_orders, search_orders_*, customer_details_view.
  await t.database.query(
    `delete from role_privileges where role_id = (select id from roles where name = 'RAM')
       and privilege_id in (select id from privileges where name in
         ('search_orders_view', 'search_orders_edit', 'create_distributor_orders', 'customer_details_view'))`,
  );

  for (const who of ['admin', 'ops', 'marketing', 'care', 'ram', 'rdc'])
    tok[who] = await signIn(t, `${who}@example.com`);
  await createDistributorAccount(db, { email: 'dist@example.com', password: 'distributor-demo', agentId: agentA });
  const login = await t.request({
    method: 'POST',
    url: '/api/auth/distributor/login',
    payload: { email: 'dist@example.com', password: 'distributor-demo' },
  });
  if (login.statusCode !== 200) throw new Error(login.body);
  tok.distributor = login.json().info.token as string;
});
afterAll(() => t.close());

describe('GET /api/search/{token}?q=', () => {
  it('finds a customer by id (digits or C + digits), by part of its legal name, any case, and by tax id', async () => {
    expect(customerIds(await found(tok.admin!, String(ids.quokka)))).toEqual([ids.quokka]);
    expect(customerIds(await found(tok.admin!, `c${ids.quokka}`))).toEqual([ids.quokka]);
    const byName = await found(tok.admin!, 'okka hold');
    expect(byName.customers).toEqual([
      {
        customer_id: ids.quokka,
        legal_name: 'Quokka Holdings LLC',
        federal_tax_id: '41-9900001',
        country: 'US',
        status: 'active',
      },
    ]);
    expect(customerIds(await found(tok.admin!, '41-9900001'))).toEqual([ids.quokka]);
    expect(customerIds(await found(tok.admin!, '419900001'))).toEqual([ids.quokka]);
    // Part of a tax id (3+ characters) matches too, through its trigram index.
    expect(customerIds(await found(tok.admin!, '99000')).sort()).toEqual([ids.quokka, ids.wombat].sort());
  });

  it('finds a store by id (digits or S + digits), part of its name, its DBA or its bracct', async () => {
    expect(storeIds(await found(tok.admin!, `S${ids.bakery}`))).toEqual([ids.bakery]);
    const byName = await found(tok.admin!, 'numbat bak');
    expect(byName.stores).toEqual([
      expect.objectContaining({
        store_id: ids.bakery,
        customer_id: ids.quokka,
        store_name: 'Numbat Bakery - Harbour Road',
        doing_business_as: 'Sunrise Crumbs',
        bracct: 'BRX-77123',
        legal_name: 'Quokka Holdings LLC',
      }),
    ]);
    expect(storeIds(await found(tok.admin!, 'sunrise crumb'))).toEqual([ids.bakery]);
    expect(storeIds(await found(tok.admin!, 'brx-771'))).toEqual([ids.bakery]);
  });

  it('finds a terminal by its terminal id or its serial number (as typed or in lower case), with its store', async () => {
    const byElmer = await found(tok.admin!, '88770001');
    expect(byElmer.terminals).toEqual([
      {
        terminal_id: ids.terminal,
        elmer_id: '88770001',
        serial_number: 'NT260088001',
        status: 'active',
        store_id: ids.bakery,
        customer_id: ids.quokka,
        store_name: 'Numbat Bakery - Harbour Road',
      },
    ]);
    expect(terminalIds(await found(tok.admin!, 'NT260088002'))).toEqual([ids.otherTerminal]);
    expect(terminalIds(await found(tok.admin!, 'nt260088002'))).toEqual([ids.otherTerminal]);
  });

  it('finds an order by id or unified id (any case), with its status label', async () => {
    expect(orderIds(await found(tok.admin!, String(ids.orderA)))).toEqual([ids.orderA]);
    const byUnified = await found(tok.admin!, 'uo-search-0002');
    expect(byUnified.orders).toEqual([
      {
        order_id: ids.orderB,
        unified_order_id: 'UO-SEARCH-0002',
        status: '1',
        status_label: 'Draft',
        legal_name: 'Wombat Trading Inc',
        dba_name: null,
      },
    ]);
  });

  it('answers grouped by kind, the whole name first, and says which kinds it searched', async () => {
    const info = await found(tok.admin!, 'wombat');
    expect(info.searched).toEqual(['customer', 'store', 'terminal', 'order']);
    expect(customerIds(info)).toEqual([ids.wombat]);
    expect(storeIds(info)).toEqual([ids.deli]);
    expect(info.terminals).toEqual([]);
    expect(info.orders).toEqual([]);
    expect(info.more).toBe(false);
    expect(info.q).toBe('wombat');
  });

  it(`shows at most ${GLOBAL_SEARCH_LIMIT} results, shared among the kinds, and says there are more`, async () => {
    const db = t.database.db;
    const many = await createCustomer(db, { legalName: 'Platypus Group' });
    for (let i = 0; i < 25; i += 1) {
      await createStore(db, { customerId: many.id, storeName: `Platypus Cafe ${i}`, doingBusinessAs: `Platypus ${i}` });
    }
    const info = await found(tok.admin!, 'platypus');
    expect(customerIds(info)).toEqual([many.id]);
    expect(info.stores).toHaveLength(GLOBAL_SEARCH_LIMIT - 1);
    expect(info.more).toBe(true);
  });

  it('400 with the field for a blank or too short text (an id may be short)', async () => {
    for (const q of ['ab', '  x ', '', null]) {
      const { status, body } = await search(tok.admin!, q);
      expect(status, String(q)).toBe(400);
      expect(body.error.code).toBe('validation_failed');
      expect(Object.keys(body.error.fields)).toEqual(['q']);
    }
    expect((await search(tok.admin!, 'ab')).body.error.fields.q).toBe('Type at least 3 characters, or an id.');
    expect((await search(tok.admin!, 'x'.repeat(101))).status).toBe(400);
    expect((await search(tok.admin!, '7')).status).toBe(200);
  });

  it('403 without a valid session, and for a session with none of the privileges it needs', async () => {
    const none = await search('Q'.repeat(43), 'wombat');
    expect(none.status).toBe(403);
    expect(none.body.error.code).toBe('session_invalid');
    const ram = await search(tok.ram!, 'wombat');
    expect(ram.status).toBe(403);
    expect(ram.body.error.code).toBe('forbidden');
  });

  it('searches each kind only for a session that may see it', async () => {
    // Customer Care here has customer details but no order search: no orders.
    const care = await found(tok.care!, String(ids.orderA));
    expect(care.searched).toEqual(['customer', 'store', 'terminal']);
    expect(care.orders).toEqual([]);
    expect(orderIds(await found(tok.care!, 'UO-SEARCH-0001'))).toEqual([]);
    // Marketing has order search but no customer details: orders only.
    const marketing = await found(tok.marketing!, 'UO-SEARCH-0001');
    expect(marketing.searched).toEqual(['order']);
    expect(orderIds(marketing)).toEqual([ids.orderA]);
    expect((await found(tok.marketing!, 'wombat')).customers).toEqual([]);
    // Operations has both.
    expect((await found(tok.ops!, 'wombat')).searched).toEqual(['customer', 'store', 'terminal', 'order']);
  });

  it("limits an agent-scoped session to its agent's orders (own or assigned), staff RDC and distributor login alike", async () => {
    for (const who of ['rdc', 'distributor']) {
      expect(orderIds(await found(tok[who]!, 'UO-SEARCH-0001')), who).toEqual([ids.orderA]);
      expect(orderIds(await found(tok[who]!, 'UO-SEARCH-0002')), who).toEqual([]);
      expect(orderIds(await found(tok[who]!, String(ids.orderB))), who).toEqual([]);
      expect(orderIds(await found(tok[who]!, 'UO-SEARCH-0003')), who).toEqual([ids.orderAssigned]);
    }
    expect(orderIds(await found(tok.admin!, 'UO-SEARCH-0002'))).toEqual([ids.orderB]);
  });
});

describe('index use', () => {
  it('each kind reads through its indexes: trigram for text (at most the candidates), primary key and unique indexes for ids (no full scan)', async () => {
    const expected = {
      customer: ['customers_pkey', 'customers_search_text_trgm_idx', 'customers_legal_name_sort_idx'],
      store: ['stores_pkey', 'stores_search_text_trgm_idx'],
      terminal: ['terminals_elmer_id_uq', 'terminals_serial_number_uq'],
      order: ['orders_pkey', 'orders_unified_order_id_uq'],
    };
    // A text that is an id and has 3+ characters: every arm of every kind is in the query.
    const terms = globalSearchTerms('500001')!;
    const staff = { kind: 'staff', role: 'Admin', agentId: null } as SessionContext;
    await t.database.exec('analyze; set enable_seqscan = off; set enable_indexscan = off');
    try {
      for (const kind of SEARCH_KINDS) {
        const sql = KIND_SQL[kind](terms, staff)!;
        const plan = (await t.database.query<{ 'QUERY PLAN': string }>(`explain ${sql.text}`, sql.params))
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        for (const index of expected[kind]) expect(plan, `${kind}:\n${plan}`).toContain(index);
        expect(plan, `${kind}:\n${plan}`).not.toMatch(/Seq Scan/);
      }
    } finally {
      await t.database.exec('reset enable_seqscan; reset enable_indexscan');
    }
  });
});

describe('shareLimit', () => {
  it('gives every kind a turn until the limit, then the rest to the kinds that have more', () => {
    expect(shareLimit([0, 0, 0, 0], 20)).toEqual([0, 0, 0, 0]);
    expect(shareLimit([1, 30, 0, 2], 20)).toEqual([1, 17, 0, 2]);
    expect(shareLimit([21, 21, 21, 21], 20)).toEqual([5, 5, 5, 5]);
    expect(shareLimit([3, 2, 1, 0], 20)).toEqual([3, 2, 1, 0]);
  });
});
