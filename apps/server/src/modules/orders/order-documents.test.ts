import { blankOrder, type OrderDocument } from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createBillingItem,
  createCustomer,
  createDistributorAccount,
  createOrder,
  createPaymentInstrument,
  createStaffUser,
  createStore,
} from '../../db/factories';
import {
  agentStores,
  auditLog,
  customerPaymentPlans,
  customers,
  orderCustomerMatches,
  orders,
  stores,
  terminals,
} from '../../db/schema';
import { signIn, signInStaff } from '../../test/sign-in';
import { terminalSerials } from '../../test/orders';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Issue 27 item 2, decision 142: an order document of an agent-scoped session (a distributor) names only merchant
 * records that session may see — customer, store of that customer, cards and bank accounts given to the order or its
 * customer — on every save and on submit (400 naming the document path, nothing written); and an order whose federal
 * tax id is an existing customer the distributor may not see is not merged silently: it waits for staff to confirm
 * the match (POST …/customermatch) before onboarding attaches it. Through HTTP, on the local gateway.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
/** Admin: unscoped staff with customer_details_edit. */
let admin: string;
/** Operations: moves an order to Complete (no customer_details_edit). */
let ops: string;
/** A distributor login of agent A. */
let distributor: string;
/** Distributor staff of agent A holding customer_details_edit (agent-scoped all the same). */
let distributorStaff: string;
let agentA: number;
let agentB: number;
/** Agent A's own merchant: a customer with two stores linked to agent A, a card on file. */
let own: { customerId: number; storeId: number; otherStoreId: number; cardReference: string };
/** Another of agent A's merchants (its store linked to agent A). */
let ownSecond: { customerId: number; storeId: number };
/** Agent B's merchant: customer, store linked to agent B, a card on file. */
let foreign: { customerId: number; storeId: number; cardReference: string; taxId: string };

const ADDRESS = {
  address1: '9 Oak Ave',
  address2: '',
  city: 'Austin',
  state: 'TX',
  zip: '73301',
  country: 'US' as const,
};

/** A document onboarding can complete, for a merchant with `taxId`, without any record id or card reference. */
function orderDoc(taxId: string, over: Partial<OrderDocument> = {}): OrderDocument {
  const o = blankOrder();
  o.CustomerInfo = {
    ...o.CustomerInfo,
    firstName: 'Iris',
    lastName: 'Stone',
    email: 'iris@shop.example',
    phone: '5125550100',
    federalTaxId: taxId,
  };
  o.HomeAddress = { ...ADDRESS };
  o.BillingAddress = { ...ADDRESS };
  o.ShippingAddress = { ...ADDRESS };
  o.StoreInfo = {
    ...o.StoreInfo,
    doingBusinessAs: 'Stone Grocery',
    storeName: 'Stone Grocery Oak',
    phone: '5125550101',
    StoreAddress: { ...ADDRESS },
  };
  o.noOfTerminals = 1;
  o.totalSalePrice = '1499.00';
  o.BillingItemInfo = [{ billingItemId: 20, name: 'Shipping', quantity: 1, unitPrice: '35.00' }];
  o.PaymentPlanInfo = o.PaymentPlanInfo!.map((p, i) => ({ ...p, paymentPlanId: i === 0 ? 1 : 4 }));
  return { ...o, ...over };
}

const withCustomer = (d: OrderDocument, customerID: number | null, customerStoreId: number | null = null) => ({
  ...d,
  additionalInfo: { ...d.additionalInfo, customerID },
  StoreInfo: { ...d.StoreInfo, customerStoreId },
});

async function save(token: string, id: number | 'new', json: unknown, extra: Json = {}) {
  const res = await t.request({
    method: 'POST',
    url: `/api/customers/orderinfo/${id}/${token}`,
    payload: { json, ...extra } as Json,
  });
  return { status: res.statusCode, body: res.json() as Json };
}

const orderRow = async (id: number) => (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const matchRow = async (id: number) =>
  (await t.database.db.select().from(orderCustomerMatches).where(eq(orderCustomerMatches.orderId, id)))[0];
const ordersCount = async () => (await t.database.db.select({ id: orders.id }).from(orders)).length;

async function cardToken(): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/gateway-local/v1/tokens',
    payload: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123' },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.json().token as string;
}

/** A distributor's draft of `json` (created through HTTP), or the failure. */
async function draftOf(json: unknown, token = distributor): Promise<{ id: number; version: number }> {
  const created = await save(token, 'new', json);
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  return { id: created.body.info.orderInfoId as number, version: created.body.info.version as number };
}

/** The order moved on as the flow would (to Install Complete Pending, 140), then Operations moves it to Complete. */
async function complete(orderId: number) {
  await t.database.db.update(orders).set({ status: '140' }).where(eq(orders.id, orderId));
  const row = await orderRow(orderId);
  const res = await t.request({
    method: 'PUT',
    url: `/api/customers/ordernotes/${ops}`,
    payload: {
      order_id: orderId,
      status: '150',
      version: row.version,
      note: 'Installed.',
      terminal_serials: terminalSerials((row.document as OrderDocument).noOfTerminals ?? 0),
    },
  });
  return { status: res.statusCode, body: res.json() as Json };
}

const match = (orderId: number, token: string) =>
  t.request({ method: 'GET', url: `/api/customers/orderinfo/${orderId}/customermatch/${token}` });
const decide = (orderId: number, token: string, body: Json) =>
  t.request({ method: 'POST', url: `/api/customers/orderinfo/${orderId}/customermatch/${token}`, payload: body });

async function merchantOf(agentId: number, taxId?: string) {
  const db = t.database.db;
  const customer = await createCustomer(db, taxId ? { federalTaxId: taxId } : {});
  const store = await createStore(db, { customerId: customer.id });
  await db.insert(agentStores).values({ agentId, storeId: store.id });
  return { customerId: customer.id, storeId: store.id };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await createBillingItem(db, { id: 20, name: 'Shipping' });
  ({ admin, ops } = await signInStaff(t, { admin: 'Admin', ops: 'Operations' }));
  agentA = (await createAgent(db, { type: 'Distributor', name: 'Agent A' })).id;
  agentB = (await createAgent(db, { type: 'Distributor', name: 'Agent B' })).id;
  await createDistributorAccount(db, { email: 'dist-docs@example.com', password: 'distributor-demo', agentId: agentA });
  const login = await t.request({
    method: 'POST',
    url: '/api/auth/distributor/login',
    payload: { email: 'dist-docs@example.com', password: 'distributor-demo' },
  });
  if (login.statusCode !== 200) throw new Error(login.body);
  distributor = login.json().info.token as string;
  await createStaffUser(db, {
    email: 'dist-staff-docs@example.com',
    role: 'Distributor',
    agentId: agentA,
    additionalPrivileges: ['customer_details_view', 'customer_details_edit', 'search_orders_view'],
  });
  distributorStaff = await signIn(t, 'dist-staff-docs@example.com');

  const a = await merchantOf(agentA);
  const second = await createStore(db, { customerId: a.customerId });
  await db.insert(agentStores).values({ agentId: agentA, storeId: second.id });
  const ownCard = await createPaymentInstrument(db, { customerId: a.customerId, kind: 'card' });
  own = { ...a, otherStoreId: second.id, cardReference: ownCard.processorReference! };
  ownSecond = await merchantOf(agentA);
  const b = await merchantOf(agentB, '74-2700001');
  const foreignCard = await createPaymentInstrument(db, { customerId: b.customerId, kind: 'card' });
  foreign = { ...b, cardReference: foreignCard.processorReference!, taxId: '74-2700001' };
});
afterAll(() => t.close());

describe('order documents from agent-scoped sessions cannot name foreign records (issue 27 item 2)', () => {
  it("a distributor's order naming another agent's customer is refused (400 json.additionalInfo.customerID), nothing is written", async () => {
    const before = await ordersCount();
    const res = await save(distributor, 'new', withCustomer(orderDoc('74-2700100'), foreign.customerId));
    expect([res.status, res.body.error.code]).toEqual([400, 'validation_failed']);
    expect(res.body.error.fields).toEqual({
      'json.additionalInfo.customerID': `Customer ${foreign.customerId} was not found.`,
    });
    expect(await ordersCount()).toBe(before);

    // The same answer as for a customer that does not exist (nothing tells the distributor it does).
    const missing = await save(distributor, 'new', withCustomer(orderDoc('74-2700100'), 1_999_999_999));
    expect(missing.body.error.fields).toEqual({
      'json.additionalInfo.customerID': 'Customer 1999999999 was not found.',
    });

    // On an existing draft too: the draft keeps its document and version.
    const draft = await draftOf(orderDoc('74-2700101'));
    const update = await save(distributor, draft.id, withCustomer(orderDoc('74-2700101'), foreign.customerId), {
      version: draft.version,
    });
    expect([update.status, Object.keys(update.body.error.fields)]).toEqual([400, ['json.additionalInfo.customerID']]);
    const row = await orderRow(draft.id);
    expect(row.version).toBe(draft.version);
    expect((row.document as OrderDocument).additionalInfo?.customerID).toBeNull();
  });

  it("a distributor's order naming another agent's store is refused (400 json.StoreInfo.customerStoreId), and a store of another customer too", async () => {
    const foreignStore = await save(
      distributor,
      'new',
      withCustomer(orderDoc('74-2700102'), own.customerId, foreign.storeId),
    );
    expect([foreignStore.status, foreignStore.body.error.fields]).toEqual([
      400,
      { 'json.StoreInfo.customerStoreId': `Store ${foreign.storeId} was not found.` },
    ]);
    // A store the distributor may see, but of another of its customers: the store must be the named customer's.
    const mixed = await save(
      distributor,
      'new',
      withCustomer(orderDoc('74-2700102'), own.customerId, ownSecond.storeId),
    );
    expect([mixed.status, mixed.body.error.fields]).toEqual([
      400,
      { 'json.StoreInfo.customerStoreId': `Store ${ownSecond.storeId} is not a store of customer ${own.customerId}.` },
    ]);
    // A store without its customer.
    const alone = await save(distributor, 'new', withCustomer(orderDoc('74-2700102'), null, own.storeId));
    expect(Object.keys(alone.body.error.fields)).toEqual(['json.StoreInfo.customerStoreId']);
  });

  it("a distributor's order naming another agent's customer as the billing customer is refused (400 json.additionalInfo.billingCustomerID, json.billingCustomerId)", async () => {
    const doc = orderDoc('74-2700103', {
      billingCustomerId: foreign.customerId,
      additionalInfo: { ...blankOrder().additionalInfo, billingCustomerID: foreign.customerId },
    });
    const res = await save(distributor, 'new', doc);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields).sort()).toEqual([
      'json.additionalInfo.billingCustomerID',
      'json.billingCustomerId',
    ]);
  });

  it("a distributor's order carrying another merchant's card reference is refused (400 json.PaymentInstrumentInfo.N.paymentProcessorReference); its own cards are kept", async () => {
    const withCard = (reference: string | null, token: string | null = null) => {
      const d = withCustomer(orderDoc('74-2700104'), own.customerId, own.storeId);
      return {
        ...d,
        PaymentInstrumentInfo: d.PaymentInstrumentInfo!.map((m, i) =>
          i === 0
            ? {
                ...m,
                paymentMethodTypeId: 1,
                paymentProcessorReference: reference,
                processorSetupIntent: token,
                creditCardNumber: reference ? '4242' : null,
                expirationDate: reference ? '12/2030' : null,
              }
            : m,
        ),
      };
    };
    const stolen = await save(distributor, 'new', withCard(foreign.cardReference));
    expect([stolen.status, stolen.body.error.fields]).toEqual([
      400,
      {
        'json.PaymentInstrumentInfo.0.paymentProcessorReference':
          "This card was not entered on this order and is not one of its customer's: enter the card again.",
      },
    ]);

    // A card entered on this order (a token redeemed by the save) is kept, and sent again on the next save.
    const draft = await draftOf(withCard(null, await cardToken()));
    const stored = (await orderRow(draft.id)).document as OrderDocument;
    const reference = stored.PaymentInstrumentInfo![0]!.paymentProcessorReference as string;
    expect(reference).toMatch(/^pm_local_/);
    const again = await save(distributor, draft.id, stored, { version: draft.version });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    // Its own customer's card on file may be named; another order's card may not.
    const onFile = await save(distributor, 'new', withCard(own.cardReference));
    expect(onFile.status, JSON.stringify(onFile.body)).toBe(200);
    const otherOrders = await save(distributor, onFile.body.info.orderInfoId, withCard(reference), {
      version: onFile.body.info.version,
    });
    expect(Object.keys(otherOrders.body.error.fields)).toEqual([
      'json.PaymentInstrumentInfo.0.paymentProcessorReference',
    ]);
  });

  it("a distributor's order carrying a sealed bank account it was not given is refused (400 json.PaymentInstrumentInfo.N.achAccountNumberEncrypted)", async () => {
    const draft = await draftOf(orderDoc('74-2700105'));
    const withBank = (fields: Json) => {
      const d = orderDoc('74-2700105');
      return {
        ...d,
        PaymentInstrumentInfo: d.PaymentInstrumentInfo!.map((m, i) => (i === 1 ? { ...m, ...fields } : m)),
      };
    };
    const forged = await save(
      distributor,
      draft.id,
      withBank({ paymentMethodTypeId: 2, achAccountNumber: '****6789', achAccountNumberEncrypted: 'v1:forged:xyz' }),
      { version: draft.version },
    );
    expect([forged.status, Object.keys(forged.body.error.fields)]).toEqual([
      400,
      ['json.PaymentInstrumentInfo.1.achAccountNumberEncrypted'],
    ]);
    // The number typed on this order is sealed by the save and may be sent back as stored.
    const typed = await save(
      distributor,
      draft.id,
      withBank({ paymentMethodTypeId: 2, achAccountNumber: '000123456789', achRoutingNumber: '021000021' }),
      { version: draft.version },
    );
    expect(typed.status, JSON.stringify(typed.body)).toBe(200);
    const stored = (await orderRow(draft.id)).document;
    expect((await save(distributor, draft.id, stored, { version: typed.body.info.version })).status).toBe(200);
  });

  it("on submit too: a distributor's submit naming another agent's customer is refused and the order stays a Draft", async () => {
    const draft = await draftOf(orderDoc('74-2700106'));
    const doc = withCustomer(orderDoc('74-2700106'), foreign.customerId);
    doc.PaymentInstrumentInfo = doc.PaymentInstrumentInfo!.map((m) => ({ ...m, paymentMethodTypeId: 3 }));
    const res = await save(distributor, draft.id, doc, { version: draft.version, submit: true });
    expect([res.status, Object.keys(res.body.error.fields)]).toEqual([400, ['json.additionalInfo.customerID']]);
    expect((await orderRow(draft.id)).status).toBe('1');
  });

  it("its own merchant's customer and store are accepted (distributor login and Distributor staff), and onboarding puts the order under them", async () => {
    for (const token of [distributor, distributorStaff]) {
      const res = await save(token, 'new', withCustomer(orderDoc('74-2700107'), own.customerId, own.otherStoreId));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const draft = await draftOf(withCustomer(orderDoc('74-2700108'), own.customerId, own.otherStoreId));
    expect((await complete(draft.id)).status).toBe(200);
    const done = await orderRow(draft.id);
    expect([done.customerId, done.storeId]).toEqual([own.customerId, own.otherStoreId]);
    expect(await matchRow(draft.id)).toBeUndefined();
  });

  it("unscoped staff keep today's behaviour: an Admin's order may name any customer, store and card", async () => {
    const doc = withCustomer(orderDoc('74-2700109'), foreign.customerId, foreign.storeId);
    doc.PaymentInstrumentInfo = doc.PaymentInstrumentInfo!.map((m) => ({
      ...m,
      paymentProcessorReference: foreign.cardReference,
    }));
    const res = await save(admin, 'new', doc);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('an existing customer is attached only with a staff confirmation (issue 27 item 2)', () => {
  /** A fresh merchant of agent B with this tax id (once staff attach an agent-A order to it, agent A sees it). */
  let taxSeq = 2700200;
  const otherAgentsMerchant = async () => {
    const taxId = `74-${++taxSeq}`;
    return { ...(await merchantOf(agentB, taxId)), taxId };
  };

  it("a distributor's order whose federal tax id is another agent's customer is not merged silently: saved without it, flagged, Complete waits (409)", async () => {
    const foreign = await otherAgentsMerchant();
    const draft = await draftOf(orderDoc(foreign.taxId));
    const row = await orderRow(draft.id);
    expect(row.customerId).toBeNull();
    expect(await matchRow(draft.id)).toMatchObject({ customerId: foreign.customerId, status: 'pending' });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(draft.id)), eq(auditLog.action, 'order.customer_match')));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ customerId: foreign.customerId, after: { status: 'pending' } });

    // The distributor learns that the order waits, never which customer it is; staff see the customer.
    const asDistributor = await match(draft.id, distributor);
    expect(asDistributor.statusCode, asDistributor.body).toBe(200);
    expect(asDistributor.json().info.match).toMatchObject({
      status: 'pending',
      federal_tax_id: foreign.taxId,
      customer: null,
    });
    const asAdmin = (await match(draft.id, admin)).json().info.match;
    expect(asAdmin.customer).toMatchObject({ customer_id: foreign.customerId });

    // Complete waits: onboarding would attach the order to the existing customer.
    const res = await complete(draft.id);
    expect([res.status, res.body.error.code]).toEqual([409, 'conflict']);
    expect(res.body.error.message).toContain('existing-customer match');
    const after = await orderRow(draft.id);
    expect([after.status, after.onboardedAt, after.customerId]).toEqual(['140', null, null]);
  });

  it('staff with customer_details_edit confirm the match (audited): onboarding attaches the order to the existing customer', async () => {
    const foreign = await otherAgentsMerchant();
    const draft = await draftOf(orderDoc(foreign.taxId));
    const confirmed = await decide(draft.id, admin, { customer_id: foreign.customerId, decision: 'confirm' });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().info.match).toMatchObject({ status: 'confirmed', decided_by_email: 'admin@example.com' });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, String(draft.id)), eq(auditLog.action, 'order.customer_match_decision')));
    expect(audit.map((a) => a.after)).toEqual([
      { customer_id: foreign.customerId, status: 'confirmed', decision: 'confirm' },
    ]);
    expect((await complete(draft.id)).status).toBe(200);
    const done = await orderRow(draft.id);
    expect(done.customerId).toBe(foreign.customerId);
    const [store] = await t.database.db.select().from(stores).where(eq(stores.id, done.storeId!));
    expect(store!.customerId).toBe(foreign.customerId);
    expect(store!.id).not.toBe(foreign.storeId);
  });

  it('rejecting the match (Onboard as new) makes a new customer: the tax id stays the existing one’s', async () => {
    const foreign = await otherAgentsMerchant();
    const draft = await draftOf(orderDoc(foreign.taxId));
    const rejected = await decide(draft.id, admin, { customer_id: foreign.customerId, decision: 'reject' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().info.match.status).toBe('rejected');
    expect((await complete(draft.id)).status).toBe(200);
    const done = await orderRow(draft.id);
    expect(done.customerId).not.toBe(foreign.customerId);
    const [made] = await t.database.db.select().from(customers).where(eq(customers.id, done.customerId!));
    expect(made).toMatchObject({ legalName: 'Iris Stone', federalTaxId: null });
    const onboarded = await t.database.db
      .select()
      .from(terminals)
      .where(and(eq(terminals.orderId, draft.id), eq(terminals.customerId, foreign.customerId)));
    expect(onboarded).toHaveLength(0);
    const plans = await t.database.db
      .select()
      .from(customerPaymentPlans)
      .where(eq(customerPaymentPlans.customerId, foreign.customerId));
    expect(plans.filter((p) => p.orderId === draft.id)).toHaveLength(0);
  });

  it('only back-office staff decide: a distributor (even holding customer_details_edit) → 403, staff without it → 403, another customer → 409, no match → 404', async () => {
    const foreign = await otherAgentsMerchant();
    const draft = await draftOf(orderDoc(foreign.taxId));
    const body = { customer_id: foreign.customerId, decision: 'confirm' };
    for (const token of [distributor, distributorStaff, ops]) {
      const res = await decide(draft.id, token, body);
      expect([res.statusCode, res.json().error.code], token).toEqual([403, 'forbidden']);
    }
    expect((await matchRow(draft.id))!.status).toBe('pending');
    const stale = await decide(draft.id, admin, { ...body, customer_id: own.customerId });
    expect([stale.statusCode, Object.keys(stale.json().error.fields)]).toEqual([409, ['customer_id']]);
    const none = await draftOf(orderDoc('74-2700110'));
    expect((await decide(none.id, admin, body)).statusCode).toBe(404);
  });

  it('the match follows the document: another tax id withdraws it; its own merchant’s tax id is no match', async () => {
    const foreign = await otherAgentsMerchant();
    const draft = await draftOf(orderDoc(foreign.taxId));
    expect(await matchRow(draft.id)).toBeDefined();
    const moved = await save(distributor, draft.id, orderDoc('74-2700111'), { version: draft.version });
    expect(moved.status).toBe(200);
    expect(await matchRow(draft.id)).toBeUndefined();

    const mine = await createCustomer(t.database.db, { federalTaxId: '74-2700112' });
    const store = await createStore(t.database.db, { customerId: mine.id });
    await t.database.db.insert(agentStores).values({ agentId: agentA, storeId: store.id });
    const ownOrder = await draftOf(orderDoc('74-2700112'));
    expect(await matchRow(ownOrder.id)).toBeUndefined();
    expect((await complete(ownOrder.id)).status).toBe(200);
    expect((await orderRow(ownOrder.id)).customerId).toBe(mine.id);
  });

  it('unscoped staff attaching an order to an existing customer by tax id keep working as today (no match)', async () => {
    const foreign = await otherAgentsMerchant();
    const created = await save(admin, 'new', orderDoc(foreign.taxId));
    expect(created.status).toBe(200);
    const id = created.body.info.orderInfoId as number;
    expect(await matchRow(id)).toBeUndefined();
    expect((await match(id, admin)).json().info.match).toBeNull();
    expect((await complete(id)).status).toBe(200);
    expect((await orderRow(id)).customerId).toBe(foreign.customerId);
  });

  it("the tax id look-up (GET /api/customers/{token}?fedtaxid=, #/neworder/{fedTaxId}) answers another agent's customer as missing to an agent-scoped session", async () => {
    const foreign = await otherAgentsMerchant();
    const lookup = (token: string, taxId: string) =>
      t.request({ method: 'GET', url: `/api/customers/${token}?fedtaxid=${taxId}` });
    const hidden = await lookup(distributorStaff, foreign.taxId);
    const missing = await lookup(distributorStaff, '74-2799999');
    expect([hidden.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(JSON.parse(hidden.body.replaceAll(foreign.taxId, '74-2799999'))).toEqual(missing.json());
    expect((await lookup(admin, foreign.taxId)).json().info).toEqual({ customer_id: foreign.customerId });
    const mine = await createCustomer(t.database.db, { federalTaxId: '74-2700113' });
    const store = await createStore(t.database.db, { customerId: mine.id });
    await t.database.db.insert(agentStores).values({ agentId: agentA, storeId: store.id });
    expect((await lookup(distributorStaff, '74-2700113')).json().info).toEqual({ customer_id: mine.id });
  });

  it('a staff order made by the factory with its customer set is not flagged either (no agent save)', async () => {
    const foreign = await otherAgentsMerchant();
    const order = await createOrder(t.database.db, { customerId: foreign.customerId, agentId: agentB });
    expect((await match(order.id, admin)).json().info.match).toBeNull();
  });
});
