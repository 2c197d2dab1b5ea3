import { randomUUID } from 'node:crypto';
import {
  blankOrder,
  effectivePrivileges,
  hasAnyPermission,
  type OrderStatusCode,
  type Permission,
  type Role,
} from '@pos/domain';
import { count, eq } from 'drizzle-orm';
import { type PgTable } from 'drizzle-orm/pg-core';
import type { HTTPMethods, InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createCustomer,
  createDistributorAccount,
  createOrder,
  createPromotion,
  createStaffUser,
  createStore,
} from '../../db/factories';
import {
  agentOrders,
  auditLog,
  contracts,
  linkTokens,
  mailLog,
  orderCustomerMatches,
  orderNotes,
  orderPromotions,
  orderStatusHistory,
  orders,
  staffUsers,
  uploads,
} from '../../db/schema';
import { SESSION_GUARD, type RequireSessionOptions } from '../../http/session';
import { agentSwitchWorker } from '../../jobs/workers/agent-switch';
import { orderStatusWorker } from '../../jobs/workers/order-status';
import { PermanentJobError } from '../../jobs/queue';
import { signIn } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { multipartBody, sampleFile } from '../../test/uploads';

/*
 * The order-access matrix (issue 12, decision 102): every endpoint that takes an order id (or lists orders) ×
 * {own order, another agent's order, an order assigned to the session's agent through agent_orders} × {agent-scoped
 * staff, distributor login, unscoped staff} → the expected answer, generated from ONE table (ENDPOINTS).
 *
 * - A route guard that refuses the session → 403 whatever the order (privileges are the guard's business).
 * - Otherwise an order the session may not see → 404 not_found, the same answer (code, message, fields) as for an
 *   order that does not exist, and nothing is written; a visible order → the endpoint's success status.
 * - A list → 200, with the order in it exactly when the session may see it.
 *
 * A new endpoint cannot be forgotten: every registered route that names an order (a path segment or a parameter
 * about orders, an order id in its query or body) must be in ENDPOINTS or, with its reason, in NOT_ORDER_SCOPED.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type OrderRow = typeof orders.$inferSelect;

// ── Who calls ─────────────────────────────────────────────────────────────────────────────────────────────────────

interface Caller {
  readonly label: string;
  /** Limited to its agent's orders (decision 102). */
  readonly scoped: boolean;
  readonly kind: 'staff' | 'distributor';
  readonly role: Role;
  readonly privileges: readonly string[];
  token: string;
  /** The caller's agent (null for unscoped staff). */
  agentId: number | null;
}

/** The order privileges a scoped staff user is given on top of its role, so that every guard lets it reach the rule. */
const EXTRA: Permission[] = ['search_orders_view', 'search_orders_edit', 'customer_details_view'];

const CALLERS: Record<'rdc' | 'distributorStaff' | 'distributorLogin' | 'admin', Caller> = {
  rdc: {
    label: 'RDC staff (agent-scoped, staff sign-in)',
    scoped: true,
    kind: 'staff',
    role: 'RDC',
    privileges: effectivePrivileges('RDC'),
    token: '',
    agentId: null,
  },
  distributorStaff: {
    label: 'Distributor staff with every order privilege (agent-scoped, staff sign-in)',
    scoped: true,
    kind: 'staff',
    role: 'Distributor',
    privileges: effectivePrivileges('Distributor', EXTRA),
    token: '',
    agentId: null,
  },
  distributorLogin: {
    label: 'distributor login session (agent-scoped)',
    scoped: true,
    kind: 'distributor',
    role: 'Distributor',
    privileges: effectivePrivileges('Distributor'),
    token: '',
    agentId: null,
  },
  admin: {
    label: 'Admin (unscoped staff)',
    scoped: false,
    kind: 'staff',
    role: 'Admin',
    privileges: effectivePrivileges('Admin'),
    token: '',
    agentId: null,
  },
};
type CallerName = keyof typeof CALLERS;
const CALLER_NAMES = Object.keys(CALLERS) as CallerName[];

/** Which order: the caller's own agent's, another agent's, or another agent's assigned to the caller's agent. */
const CASES = ['own', 'foreign', 'assigned'] as const;
type Case = (typeof CASES)[number];

// ── The endpoints ─────────────────────────────────────────────────────────────────────────────────────────────────

interface CallContext {
  order: OrderRow;
  token: string;
  /** What the endpoint's setup prepared (a contract id, a card token…). */
  extra: Json;
  /** The caller's own agent (null for unscoped staff). */
  agentId: number | null;
}

interface Endpoint {
  /** `METHOD /path` exactly as registered. */
  readonly route: string;
  /** When one route is called more than one way. */
  readonly variant?: string;
  /** 'item': one order (404 when not visible); 'list': orders (the order listed only when visible). */
  readonly kind: 'item' | 'list';
  /** The status the order needs for the call to be valid (default Draft). */
  readonly status?: OrderStatusCode;
  /** The order needs a store (and so a customer). */
  readonly store?: boolean;
  /** Runs before the call (and before "nothing written" is measured). */
  readonly setup?: (order: OrderRow) => Promise<Json>;
  readonly request: (c: CallContext) => { url: string; payload?: unknown; headers?: Record<string, string> };
  /** Status of a successful call (items). */
  readonly ok?: number;
  /** The order ids of a list answer. */
  readonly listed?: (info: Json) => number[];
  /** A list under the order's customer: a customer the caller may not see is 404 (decision 140). */
  readonly customerScoped?: boolean;
}

const idsOf = (items: Json[], key = 'id') => items.map((i) => i[key] as number);

/** A store picture as the order flow sends it (multipart: kind and file). */
const orderFileBody = () =>
  multipartBody([
    { name: 'kind', data: 'store_picture' },
    { name: 'file', filename: 'front.png', contentType: 'image/png', data: sampleFile('png') },
  ]);

/** A store picture on the order, uploaded by Admin: the file id the item routes name. */
async function uploadOrderFile(order: OrderRow): Promise<Json> {
  const res = await t.request({
    method: 'POST',
    url: `/api/orders/${order.id}/files/${CALLERS.admin.token}`,
    ...orderFileBody(),
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return { fileId: res.json().info.id as number };
}

const ENDPOINTS: readonly Endpoint[] = [
  {
    route: 'GET /api/customers/orderinfo/:token',
    variant: 'by id',
    kind: 'item',
    request: ({ order, token }) => ({ url: `/api/customers/orderinfo/${token}?id=${order.id}` }),
    ok: 200,
  },
  {
    route: 'GET /api/customers/orderinfo/:token',
    variant: 'by unified id',
    kind: 'item',
    request: ({ order, token }) => ({ url: `/api/customers/orderinfo/${token}?unifiedid=${order.unifiedOrderId}` }),
    ok: 200,
  },
  {
    route: 'GET /api/customers/orderinfo/:token',
    variant: 'role queue',
    kind: 'list',
    request: ({ token }) => ({ url: `/api/customers/orderinfo/${token}?limit=500` }),
    listed: (info) => idsOf(info.queue.items, 'orderInfoId'),
  },
  {
    route: 'GET /api/customers/orderinfo/pending/:token',
    kind: 'list',
    status: '11',
    request: ({ order, token }) => ({ url: `/api/customers/orderinfo/pending/${token}?type=ram&id=${order.id}` }),
    listed: (info) => idsOf(info.orders),
  },
  {
    route: 'POST /api/customers/orderinfo/:orderInfoId/:token',
    kind: 'item',
    request: ({ order, token }) => ({
      url: `/api/customers/orderinfo/${order.id}/${token}`,
      payload: { json: blankOrder(), version: order.version },
    }),
    ok: 200,
  },
  {
    // Decision 142: the order's existing-customer match (null here: the order waits for none).
    route: 'GET /api/customers/orderinfo/:orderId/customermatch/:token',
    kind: 'item',
    request: ({ order, token }) => ({ url: `/api/customers/orderinfo/${order.id}/customermatch/${token}` }),
    ok: 200,
  },
  {
    // Decision 142: staff confirm the match an agent's save flagged (customer_details_edit; never an agent's session).
    route: 'POST /api/customers/orderinfo/:orderId/customermatch/:token',
    kind: 'item',
    setup: async (order) => {
      const existing = await createCustomer(t.database.db, { email: `match-${randomUUID()}@example.org` });
      await t.database.db.insert(orderCustomerMatches).values({
        orderId: order.id,
        customerId: existing.id,
        federalTaxId: `TAX-${order.id}`,
        flaggedAt: new Date(),
        flaggedByEmail: 'distributor@example.com',
      });
      return { customerId: existing.id };
    },
    request: ({ order, token, extra }) => ({
      url: `/api/customers/orderinfo/${order.id}/customermatch/${token}`,
      payload: { customer_id: extra.customerId, decision: 'confirm' },
    }),
    ok: 200,
  },
  {
    route: 'POST /api/customers/orderinfo/:orderId/onboard/:token',
    kind: 'item',
    status: '150',
    store: true,
    setup: async (order) => {
      // Already onboarded: the re-run answers what exists and writes nothing.
      await t.database.db.update(orders).set({ onboardedAt: new Date() }).where(eq(orders.id, order.id));
      return {};
    },
    request: ({ order, token }) => ({ url: `/api/customers/orderinfo/${order.id}/onboard/${token}`, payload: {} }),
    ok: 200,
  },
  {
    route: 'GET /api/customers/orders/search/:token',
    kind: 'list',
    request: ({ order, token }) => ({ url: `/api/customers/orders/search/${token}?q=${order.unifiedOrderId}` }),
    listed: (info) => idsOf(info.items),
  },
  {
    route: 'GET /api/customers/orders/:orderId/:token',
    kind: 'item',
    request: ({ order, token }) => ({ url: `/api/customers/orders/${order.id}/${token}` }),
    ok: 200,
  },
  {
    // The orders report's drill-down (decision 129): the order's day, its status.
    route: 'GET /api/reports/orders/list/:token',
    kind: 'list',
    request: ({ order, token }) => {
      const day = order.orderDate.toISOString().slice(0, 10);
      return { url: `/api/reports/orders/list/${token}?from=${day}&to=${day}&status=${order.status}&limit=500` };
    },
    listed: (info) => idsOf(info.items, 'order_id'),
  },
  {
    route: 'GET /api/customers/:id/:token/customerorders',
    kind: 'list',
    request: ({ order, token }) => ({ url: `/api/customers/${order.customerId}/${token}/customerorders?limit=500` }),
    listed: (info) => idsOf(info.items, 'order_id'),
    customerScoped: true,
  },
  {
    route: 'GET /api/customers/orderstatus/history/:orderId/:token',
    kind: 'item',
    request: ({ order, token }) => ({ url: `/api/customers/orderstatus/history/${order.id}/${token}` }),
    ok: 200,
  },
  {
    route: 'GET /api/customers/ordernotes/:orderId/:token',
    kind: 'item',
    request: ({ order, token }) => ({ url: `/api/customers/ordernotes/${order.id}/${token}` }),
    ok: 200,
  },
  {
    route: 'POST /api/customers/ordernotes/:orderId/:token',
    kind: 'item',
    request: ({ order, token }) => ({
      url: `/api/customers/ordernotes/${order.id}/${token}`,
      payload: { note: 'Matrix note.' },
    }),
    ok: 201,
  },
  {
    route: 'PUT /api/customers/ordernotes/:token',
    kind: 'item',
    // Draft → Incomplete: a move the sales roles (Distributor, RDC) and Admin may make.
    request: ({ order, token }) => ({
      url: `/api/customers/ordernotes/${token}`,
      payload: { order_id: order.id, status: '2', version: order.version },
    }),
    ok: 200,
  },
  {
    route: 'POST /api/orderinfo/status/sns/:token',
    kind: 'item',
    request: ({ order, token }) => ({
      url: `/api/orderinfo/status/sns/${token}`,
      payload: { orderInfoId: order.id, status: '2', action: 'reopen' },
    }),
    ok: 202,
  },
  {
    route: 'GET /api/customers/agentorders/:orderId/:token',
    kind: 'item',
    request: ({ order, token }) => ({ url: `/api/customers/agentorders/${order.id}/${token}` }),
    ok: 200,
  },
  {
    route: 'POST /api/customers/agentorders/:token/add',
    kind: 'item',
    request: ({ order, token }) => ({
      url: `/api/customers/agentorders/${token}/add`,
      payload: { order_id: order.id, agent_id: spareAgent },
    }),
    ok: 200,
  },
  {
    route: 'PUT /api/customers/agentorders/:token/updateagentid',
    kind: 'item',
    request: ({ order, token }) => ({
      url: `/api/customers/agentorders/${token}/updateagentid`,
      payload: { order_id: order.id, agent_id: spareAgent, version: order.version },
    }),
    ok: 200,
  },
  {
    route: 'DELETE /api/customers/agentorders/:token/delete',
    kind: 'item',
    setup: async (order) => {
      await t.database.db.insert(agentOrders).values({ orderId: order.id, agentId: spareAgent, assignedByEmail: 'x' });
      return {};
    },
    request: ({ order, token }) => ({
      url: `/api/customers/agentorders/${token}/delete`,
      payload: { order_id: order.id, agent_id: spareAgent },
    }),
    ok: 200,
  },
  {
    route: 'POST /api/orderinfo/agentswitch/sns/:token',
    kind: 'item',
    // To an agent the caller may see (decision 140): its own agent, or for unscoped staff any agent.
    request: ({ order, token, agentId }) => ({
      url: `/api/orderinfo/agentswitch/sns/${token}`,
      payload: { orderInfoIds: [order.id], agent_id: agentId ?? spareAgent },
    }),
    ok: 202,
  },
  {
    route: 'POST /api/paymentauthorizations/:token',
    kind: 'item',
    setup: async (order) => {
      // Something to authorize (decision 142: at most the order's upfront total): a $100 one-time charge.
      const document = {
        ...order.document,
        BillingItemInfo: [{ billingItemId: 20, name: 'Shipping', quantity: 1, unitPrice: '100.00' }],
      };
      await t.database.db.update(orders).set({ document }).where(eq(orders.id, order.id));
      const res = await t.request({
        method: 'POST',
        url: '/gateway-local/v1/tokens',
        payload: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123' },
      });
      return { cardToken: res.json().token as string };
    },
    request: ({ order, token, extra }) => ({
      url: `/api/paymentauthorizations/${token}`,
      payload: { order_id: order.id, amount_cents: 100, currency: order.currency, card_token: extra.cardToken },
      headers: { 'idempotency-key': randomUUID() },
    }),
    ok: 200,
  },
  {
    route: 'GET /api/paymentauthorizations/orders/:orderId/:token',
    kind: 'item',
    request: ({ order, token }) => ({ url: `/api/paymentauthorizations/orders/${order.id}/${token}` }),
    ok: 200,
  },
  {
    route: 'POST /api/paymentauthorizations/orders/:orderId/:token',
    kind: 'item',
    request: ({ order, token }) => ({
      url: `/api/paymentauthorizations/orders/${order.id}/${token}`,
      headers: { 'idempotency-key': randomUUID() },
    }),
    ok: 200,
  },
  {
    route: 'GET /api/customers/contracts/:orderId/:token',
    kind: 'item',
    request: ({ order, token }) => ({ url: `/api/customers/contracts/${order.id}/${token}` }),
    ok: 200,
  },
  {
    route: 'GET /api/customers/contracts/:orderId/:contractId/pdf/:token',
    kind: 'item',
    setup: async (order) => {
      // The contract of a submitted order, made the product's way: Admin moves the Draft to Pending Contract Sign.
      const moved = await t.request({
        method: 'PUT',
        url: `/api/customers/ordernotes/${CALLERS.admin.token}`,
        payload: { order_id: order.id, status: '11', version: order.version },
      });
      if (moved.statusCode !== 200) throw new Error(moved.body);
      const [contract] = await t.database.db.select().from(contracts).where(eq(contracts.orderId, order.id));
      return { contractId: contract!.id };
    },
    request: ({ order, token, extra }) => ({
      url: `/api/customers/contracts/${order.id}/${extra.contractId}/pdf/${token}`,
    }),
    ok: 200,
  },
  {
    route: 'POST /api/customers/contracts/:orderId/send/:token',
    kind: 'item',
    status: '11',
    request: ({ order, token }) => ({
      url: `/api/customers/contracts/${order.id}/send/${token}`,
      payload: { kind: 'sign' },
    }),
    ok: 200,
  },
  {
    route: 'POST /api/customers/contracts/:orderId/upload/:token',
    kind: 'item',
    status: '11',
    request: ({ order, token }) => {
      const body = multipartBody([
        { name: 'file', filename: 'signed.pdf', contentType: 'application/pdf', data: sampleFile('pdf') },
      ]);
      return { url: `/api/customers/contracts/${order.id}/upload/${token}`, ...body };
    },
    ok: 201,
  },
  // A new merchant's store pictures and licences, kept with the order until Complete (decision 160).
  {
    route: 'POST /api/orders/:orderId/files/:token',
    kind: 'item',
    request: ({ order, token }) => ({
      url: `/api/orders/${order.id}/files/${token}`,
      ...orderFileBody(),
    }),
    ok: 201,
  },
  {
    route: 'GET /api/orders/:orderId/files/:token',
    kind: 'item',
    request: ({ order, token }) => ({ url: `/api/orders/${order.id}/files/${token}` }),
    ok: 200,
  },
  {
    route: 'GET /api/orders/:orderId/files/:fileId/:token',
    kind: 'item',
    setup: (order) => uploadOrderFile(order),
    request: ({ order, token, extra }) => ({ url: `/api/orders/${order.id}/files/${extra.fileId}/${token}` }),
    ok: 200,
  },
  {
    route: 'DELETE /api/orders/:orderId/files/:fileId/:token',
    kind: 'item',
    setup: (order) => uploadOrderFile(order),
    request: ({ order, token, extra }) => ({ url: `/api/orders/${order.id}/files/${extra.fileId}/${token}` }),
    ok: 200,
  },
  {
    route: 'GET /api/promotions/:id/orders/:token',
    kind: 'list',
    status: '11',
    setup: async (order) => {
      const promotion = await createPromotion(t.database.db);
      await t.database.db.insert(orderPromotions).values({
        orderId: order.id,
        customerId: order.customerId,
        promotionId: promotion.id,
        amountCents: 50_00,
        currency: 'USD',
      });
      return { promotionId: promotion.id };
    },
    request: ({ token, extra }) => ({ url: `/api/promotions/${extra.promotionId}/orders/${token}` }),
    listed: (info) => idsOf(info.items, 'order_id'),
  },
];

/**
 * Routes that name orders but do not act on one order or list orders, each with why the rule does not apply. A new
 * order route goes into ENDPOINTS, or here on purpose.
 */
const NOT_ORDER_SCOPED: Readonly<Record<string, string>> = {
  'GET /api/customers/orderstatus/:token': 'the status reasons of the catalogue: no order',
  'GET /api/customers/:id/:token/orderpromotions':
    "a store's promotions (customer area, guarded by customer_details_*)",
  'GET /api/customers/:id/:token/customerterminals':
    "a customer's terminals, filterable by the order that made them (customer area, guarded by customer_details_*)",
  'POST /api/zoho/accessoriesorder/:token': "a CRM feature request for a store (a 'CRM order'): no order of ours",
  'GET /api/reports/orders/:token':
    'the orders report: counts and sums per status, flow and channel, no order named (scoped like its drill-down; 129)',
  'POST /api/returns/:token':
    "a return of a store's hardware (customer area: the store is checked; order_id only narrows to that store's sale; 122)",
};

/** Names of path segments, parameters and query/body fields that are about orders. */
const ORDER_WORD = /order/i;
const ORDER_ID_FIELD = /^(order_?id|order_?info_?ids?|custorderid)$/i;

/** The field names of a zod schema (object, through optional/default/pipe/union wrappers). */
function fieldsOf(schema: unknown): string[] {
  const def = (schema as { _zod?: { def?: Json } } | undefined)?._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case 'object':
      return Object.keys(def.shape as object);
    case 'pipe':
      return fieldsOf(def.in);
    case 'union':
      return (def.options as unknown[]).flatMap(fieldsOf);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
      return fieldsOf(def.innerType);
    default:
      return [];
  }
}

interface RegisteredRoute {
  name: string;
  guard: RequireSessionOptions | null;
  fields: string[];
}

function namesAnOrder(r: RegisteredRoute): boolean {
  if (!r.guard) return false; // public pages: the merchant's link token is the credential (decision 082)
  const path = r.name.slice(r.name.indexOf(' ') + 1);
  return path.split('/').some((segment) => ORDER_WORD.test(segment)) || r.fields.some((f) => ORDER_ID_FIELD.test(f));
}

// ── The app ───────────────────────────────────────────────────────────────────────────────────────────────────────

let t: TestApp;
const routes = new Map<string, RegisteredRoute>();
/** Another agent's: owns the foreign and the assigned orders. */
let otherAgent: number;
/** An active agent the agent-order calls add, switch to and remove. */
let spareAgent: number;
const MISSING_ID = 1_999_999_999;
const MISSING_UNIFIED_ID = 'UO-NO-SUCH-ORDER';

function guardOf(route: RouteOptions): RequireSessionOptions | null {
  const hooks = ([] as unknown[]).concat(route.onRequest ?? []);
  const hook = hooks.find((h) => typeof h === 'function' && SESSION_GUARD in h) as
    Record<symbol, RequireSessionOptions> | undefined;
  return hook ? hook[SESSION_GUARD]! : null;
}

beforeAll(async () => {
  t = await createTestApp({
    onRoute(route) {
      const schema = (route.schema ?? {}) as Json;
      const fields = [...fieldsOf(schema.params), ...fieldsOf(schema.querystring), ...fieldsOf(schema.body)];
      for (const method of ([] as HTTPMethods[]).concat(route.method)) {
        if (method === 'HEAD') continue;
        const name = `${method} ${route.url}`;
        routes.set(name, { name, guard: guardOf(route), fields });
      }
    },
  });
  const db = t.database.db;
  otherAgent = (await createAgent(db, { type: 'Distributor', name: 'Other Agent Inc' })).id;
  spareAgent = (await createAgent(db, { type: 'Distributor', name: 'Spare Agent Inc' })).id;

  CALLERS.rdc.agentId = (await createAgent(db, { type: 'RDC', name: 'RDC Matrix' })).id;
  await createStaffUser(db, { email: 'rdc-matrix@example.com', role: 'RDC', agentId: CALLERS.rdc.agentId });
  CALLERS.rdc.token = await signIn(t, 'rdc-matrix@example.com');

  CALLERS.distributorStaff.agentId = (await createAgent(db, { type: 'Distributor', name: 'Staff Distributor' })).id;
  await createStaffUser(db, {
    email: 'distributor-staff-matrix@example.com',
    role: 'Distributor',
    agentId: CALLERS.distributorStaff.agentId,
    additionalPrivileges: EXTRA,
  });
  CALLERS.distributorStaff.token = await signIn(t, 'distributor-staff-matrix@example.com');

  const account = await createDistributorAccount(db, { email: 'dist-matrix@example.com', password: 'matrix-demo-1' });
  CALLERS.distributorLogin.agentId = account.agentId;
  const login = await t.request({
    method: 'POST',
    url: '/api/auth/distributor/login',
    payload: { email: 'dist-matrix@example.com', password: 'matrix-demo-1' },
  });
  if (login.statusCode !== 200) throw new Error(login.body);
  CALLERS.distributorLogin.token = login.json().info.token as string;

  await createStaffUser(db, { email: 'admin-matrix@example.com', role: 'Admin' });
  CALLERS.admin.token = await signIn(t, 'admin-matrix@example.com');
});
afterAll(() => t.close());

/** The order of a case, in the status the endpoint needs, with a customer with an e-mail (for contract links). */
async function orderFor(endpoint: Endpoint, caller: Caller, which: Case): Promise<OrderRow> {
  const db = t.database.db;
  const store = endpoint.store ? await createStore(db) : null;
  const customerId = store?.customerId ?? (await createCustomer(db, { email: `m-${randomUUID()}@example.org` })).id;
  const order = await createOrder(db, {
    status: endpoint.status ?? '1',
    customerId,
    ...(store && { storeId: store.id }),
    agentId: which === 'own' ? caller.agentId : otherAgent,
  });
  if (which === 'assigned') {
    // Assigned to the caller's agent (an unscoped caller has none: to some agent, which changes nothing for it).
    await db
      .insert(agentOrders)
      .values({ orderId: order.id, agentId: caller.agentId ?? otherAgent, assignedByEmail: 'admin@example.com' });
  }
  return order;
}

/** Everything a call on an order could write, to show that a refused call wrote nothing. */
async function snapshot(orderId: number) {
  const db = t.database.db;
  const n = async (table: PgTable) => (await db.select({ n: count() }).from(table))[0]!.n;
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  return {
    order,
    agentOrders: await db.select().from(agentOrders).where(eq(agentOrders.orderId, orderId)),
    audit: await n(auditLog),
    notes: await n(orderNotes),
    history: await n(orderStatusHistory),
    contracts: await n(contracts),
    uploads: await n(uploads),
    mail: await n(mailLog),
    linkTokens: await n(linkTokens),
    customerMatches: await db.select().from(orderCustomerMatches).where(eq(orderCustomerMatches.orderId, orderId)),
  };
}

async function call(endpoint: Endpoint, c: CallContext) {
  const method = endpoint.route.slice(0, endpoint.route.indexOf(' ')) as HTTPMethods;
  const { url, payload, headers } = endpoint.request(c);
  const res = await t.request({
    method,
    url,
    ...(payload !== undefined && { payload: payload as InjectOptions['payload'] }),
    ...(headers && { headers }),
  });
  let body: Json = {};
  try {
    body = res.json() as Json;
  } catch {
    /* a PDF */
  }
  return { status: res.statusCode, body };
}

const mayPass = (guard: RequireSessionOptions, caller: Caller) =>
  (!guard.roles || (caller.kind === 'staff' && guard.roles.includes(caller.role))) &&
  (!guard.anyOf?.length || hasAnyPermission(caller.privileges, guard.anyOf));

// ── The tests ─────────────────────────────────────────────────────────────────────────────────────────────────────

describe('the endpoint table covers every order route', () => {
  it('every endpoint in the table is a registered, guarded route', () => {
    for (const e of ENDPOINTS) {
      expect(routes.get(e.route), e.route).toBeDefined();
      expect(routes.get(e.route)!.guard, e.route).not.toBeNull();
    }
    for (const name of Object.keys(NOT_ORDER_SCOPED)) expect(routes.has(name), name).toBe(true);
  });

  it('every registered route that names an order is in the table (or, on purpose, in NOT_ORDER_SCOPED)', () => {
    const covered = new Set([...ENDPOINTS.map((e) => e.route), ...Object.keys(NOT_ORDER_SCOPED)]);
    const orderRoutes = [...routes.values()].filter(namesAnOrder).map((r) => r.name);
    expect(orderRoutes.length).toBeGreaterThan(15);
    expect(orderRoutes.filter((name) => !covered.has(name))).toEqual([]);
    // The detection finds the table's routes by itself (it would find a new one the same way), and the exceptions
    // are all still order routes (no stale entry).
    expect([...covered].filter((name) => !orderRoutes.includes(name))).toEqual([]);
  });
});

describe.each(ENDPOINTS.map((e) => [e.variant ? `${e.route} (${e.variant})` : e.route, e] as const))(
  '%s',
  (_name, endpoint) => {
    const cells = CALLER_NAMES.flatMap((caller) =>
      CASES.map((which) => [CALLERS[caller].label, which, caller] as const),
    );

    it.each(cells)('%s — the %s order', async (_label, which, callerName) => {
      const caller: Caller = CALLERS[callerName];
      const guard = routes.get(endpoint.route)!.guard!;
      const order = await orderFor(endpoint, caller, which);
      const extra = (await endpoint.setup?.(order)) ?? {};
      // The setup may have moved the order on (e.g. a contract made): the call uses the order as it is now.
      const [current] = await t.database.db.select().from(orders).where(eq(orders.id, order.id));
      const before = await snapshot(order.id);
      const res = await call(endpoint, { order: current!, token: caller.token, extra, agentId: caller.agentId });
      const where = `${endpoint.route}${endpoint.variant ? ` (${endpoint.variant})` : ''} as ${caller.label} on the ${which} order: ${JSON.stringify(res.body)}`;
      const visible = !caller.scoped || which !== 'foreign';

      if (!mayPass(guard, caller)) {
        // The route guard refuses this session whatever the order.
        expect([res.status, res.body.error?.code], where).toEqual([403, 'forbidden']);
        expect(await snapshot(order.id), where).toEqual(before);
        return;
      }
      if (endpoint.kind === 'list') {
        if (endpoint.customerScoped && !visible) {
          // The customer of another agent's order is not the caller's to see: 404, like a missing customer.
          expect([res.status, res.body.error?.code], where).toEqual([404, 'not_found']);
          return;
        }
        expect(res.status, where).toBe(200);
        expect(endpoint.listed!(res.body.info).includes(order.id), where).toBe(visible);
        return;
      }
      if (visible) {
        expect(res.status, where).toBe(endpoint.ok);
        return;
      }
      expect([res.status, res.body.error?.code], where).toEqual([404, 'not_found']);
      expect(await snapshot(order.id), `nothing written: ${where}`).toEqual(before);
      // The same answer as for an order that does not exist: nothing tells the caller this one does.
      const ghost = { ...current!, id: MISSING_ID, unifiedOrderId: MISSING_UNIFIED_ID };
      const missing = await call(endpoint, { order: ghost, token: caller.token, extra, agentId: caller.agentId });
      const asMissing = JSON.stringify(res.body.error)
        .replaceAll(current!.unifiedOrderId, MISSING_UNIFIED_ID)
        .replaceAll(String(current!.id), String(MISSING_ID));
      expect(missing.status, where).toBe(404);
      expect(JSON.parse(asMissing), where).toEqual(missing.body.error);
    });
  },
);

describe('the workers that act on orders for a person (order status, agent switch)', () => {
  const rejection = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => e,
    );

  it("refuse another agent's order for an agent-scoped requester as if it did not exist; run for its own and for Admin", async () => {
    const db = t.database.db;
    const [rdc] = await db.select().from(staffUsers).where(eq(staffUsers.email, 'rdc-matrix@example.com'));
    const [admin] = await db.select().from(staffUsers).where(eq(staffUsers.email, 'admin-matrix@example.com'));
    const asRdc = { actorType: 'staff' as const, actorId: rdc!.id, actorEmail: rdc!.email };
    const asAdmin = { actorType: 'staff' as const, actorId: admin!.id, actorEmail: admin!.email };
    const foreign = await createOrder(db, { status: '1', agentId: otherAgent });
    const own = await createOrder(db, { status: '1', agentId: CALLERS.rdc.agentId });

    const move = (orderInfoId: number, requestedBy: typeof asRdc) =>
      orderStatusWorker.run(
        t.app.ctx,
        { input: { orderInfoId, status: '2', action: 'reopen' }, requestedBy, requestId: null },
        { id: randomUUID(), queue: 'order-status' },
      );
    const refused = await rejection(move(foreign.id, asRdc));
    expect(refused).toBeInstanceOf(PermanentJobError);
    expect(refused).toMatchObject({ code: 'not_found', message: `Order ${foreign.id} does not exist.` });
    expect((await db.select().from(orders).where(eq(orders.id, foreign.id)))[0]!.status).toBe('1');
    await expect(move(own.id, asRdc)).resolves.toMatchObject({ changed: true });
    await expect(move(foreign.id, asAdmin)).resolves.toMatchObject({ changed: true });

    const switchTo = (orderInfoIds: number[], requestedBy: typeof asRdc) =>
      agentSwitchWorker.run(
        t.app.ctx,
        { input: { orderInfoIds, agent_id: spareAgent }, requestedBy, requestId: null },
        { id: randomUUID(), queue: 'order-agent-switch' },
      );
    const other = await createOrder(db, { agentId: otherAgent });
    const switched = await rejection(switchTo([other.id], asRdc));
    expect(switched).toMatchObject({ code: 'not_found', message: `Order(s) ${other.id} do not exist.` });
    expect((await db.select().from(orders).where(eq(orders.id, other.id)))[0]!.agentId).toBe(otherAgent);
    await expect(switchTo([other.id], asAdmin)).resolves.toMatchObject({ orders: [other.id] });
  });
});
