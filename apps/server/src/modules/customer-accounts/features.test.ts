import { JOB_QUEUE, LIMITED_FEATURES, canChangeFeature } from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue, createCustomerBillingItem, createPaymentPlan, createStore } from '../../db/factories';
import { customerBillingItems } from '../../db/schema';
import { accountsFixture, auditOf, failAuditOf, UNKNOWN_TOKEN, type AccountsFixture } from './test-support';

/** Catalogue ids of some features (decision 017): 201 Advanced Data … 210 Unlimited EBT, 214 Online ordering. */
const ADVANCED_DATA = 201;
const CUSTOMER_TABS = 202;
const E_COMMERCE = 203;
const NO_ADS = 207;
const ONLINE_ORDERING = 214;

interface FeatureInfo {
  features_version: string;
  features: Array<{
    billing_item_id: number;
    name: string;
    enabled: boolean;
    can_change: boolean;
    limited: boolean;
    customer_billing_item_id: number | null;
    price_cents: number | null;
  }>;
}

describe('features (/editplan): list, change, the limited privilege', () => {
  let f: AccountsFixture;
  let customerId: number;
  let storeId: number;
  let otherStoreId: number;
  let planId: number;

  const url = (query = '', token = f.editor) => `/api/customers/${customerId}/${token}/features${query}`;
  const get = async (token = f.editor, store = storeId): Promise<FeatureInfo> => {
    const res = await f.t.request({ method: 'GET', url: url(`?custstoreid=${store}`, token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().info;
  };
  const put = (payload: unknown, token = f.editor) =>
    f.t.request({ method: 'PUT', url: url('', token), payload: payload as object });
  const enabled = (info: FeatureInfo) => info.features.filter((x) => x.enabled).map((x) => x.billing_item_id);
  const activeRows = async () =>
    f.t.database.db
      .select()
      .from(customerBillingItems)
      .where(and(eq(customerBillingItems.customerId, customerId), eq(customerBillingItems.status, 'A')));

  beforeAll(async () => {
    f = await accountsFixture();
    const db = f.t.database.db;
    await createCatalogue(db);
    const store = await createStore(db);
    storeId = store.id;
    customerId = store.customerId;
    otherStoreId = (await createStore(db, { customerId })).id;
    planId = (await createPaymentPlan(db, { storeId, kind: 'monthly' })).id;
    await createCustomerBillingItem(db, {
      storeId,
      planId,
      billingItemId: E_COMMERCE,
      unitPriceCents: 2500,
      startsOn: '2025-01-01',
    });
    await createCustomerBillingItem(db, {
      storeId,
      planId,
      billingItemId: NO_ADS,
      unitPriceCents: 900,
      startsOn: '2025-01-01',
    });
    await createCustomerBillingItem(db, {
      customerId,
      billingItemId: ONLINE_ORDERING,
      unitPriceCents: 3900,
      startsOn: '2025-01-01',
    });
    // An ended row does not count.
    await createCustomerBillingItem(db, {
      storeId,
      billingItemId: CUSTOMER_TABS,
      unitPriceCents: 1000,
      startsOn: '2024-01-01',
      endsOn: '2024-12-31',
    });
  });
  afterAll(() => f.t.close());

  it('the domain rule: edit changes anything, limited only LIMITED_FEATURES, others nothing', () => {
    expect(canChangeFeature(['customer_features_edit'], 'E-commerce')).toBe(true);
    expect(canChangeFeature(['customer_features_limited'], 'No Ads')).toBe(true);
    expect(canChangeFeature(['customer_features_limited'], { name: 'E-commerce' })).toBe(false);
    expect(canChangeFeature(['customer_details_edit'], 'No Ads')).toBe(false);
    expect(LIMITED_FEATURES).toContain('Employee Time Clock');
  });

  it('lists every feature with on/off for the store (a customer-level one counts), and what the caller may change', async () => {
    const info = await get();
    expect(info.features.map((x) => x.billing_item_id)).toEqual([
      201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 212, 213, 214,
    ]);
    expect(enabled(info)).toEqual([E_COMMERCE, NO_ADS, ONLINE_ORDERING]);
    expect(info.features.find((x) => x.billing_item_id === E_COMMERCE)).toMatchObject({
      name: 'E-commerce',
      nrs_pay: true,
      limited: false,
      can_change: true,
      price_cents: 2500,
      currency: 'USD',
      charge_at_level: 'S',
    });
    const limited = await get(f.limited);
    expect(limited.features.filter((x) => x.can_change).map((x) => x.name)).toEqual([
      'Advanced Data',
      'Customer Tabs',
      'Employee Time Clock',
      'Item Modifiers',
      'No Ads',
    ]);
    expect(limited.features_version).toBe(info.features_version);
    // The other store has only the customer-level feature.
    expect(enabled(await get(f.viewer, otherStoreId))).toEqual([ONLINE_ORDERING]);
  });

  it('400 for a missing store or unknown ids, 404 for a foreign store, 403 without a session or privilege', async () => {
    expect((await f.t.request({ method: 'GET', url: url() })).json().error.fields.custstoreid).toMatch(/store id/);
    const foreign = await createStore(f.t.database.db);
    expect((await f.t.request({ method: 'GET', url: url(`?custstoreid=${foreign.id}`) })).statusCode).toBe(404);
    expect((await f.t.request({ method: 'GET', url: url(`?custstoreid=${storeId}`, UNKNOWN_TOKEN) })).statusCode).toBe(
      403,
    );
    expect((await f.t.request({ method: 'GET', url: url(`?custstoreid=${storeId}`, f.outsider) })).statusCode).toBe(
      403,
    );
    const { features_version } = await get();
    const unknown = await put({ custstoreid: storeId, features: [E_COMMERCE, 8], features_version });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields.features).toBe('Not a feature: 8. Choose features from the list.');
    const dup = await put({ custstoreid: storeId, features: [E_COMMERCE, E_COMMERCE], features_version });
    expect(dup.json().error.fields.features).toBe('Each feature may appear once.');
    expect((await put({ custstoreid: storeId, features: [] })).json().error.fields.features_version).toBe(
      'Send the features_version you read.',
    );
  });

  it('with customer_features_limited: a limited feature changes; another → 403 naming it, nothing changed', async () => {
    const before = await get(f.limited);
    const refused = await put(
      {
        custstoreid: storeId,
        features: [NO_ADS, ONLINE_ORDERING, ADVANCED_DATA],
        features_version: before.features_version,
      },
      f.limited,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(
      /You may not switch 'E-commerce' on or off: that needs customer_features_edit/,
    );
    expect(enabled(await get())).toEqual([E_COMMERCE, NO_ADS, ONLINE_ORDERING]);

    const res = await put(
      {
        custstoreid: storeId,
        features: [E_COMMERCE, NO_ADS, ONLINE_ORDERING, ADVANCED_DATA],
        features_version: before.features_version,
      },
      f.limited,
    );
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info).toMatchObject({ added: [ADVANCED_DATA], removed: [], email_job_id: null });
    expect(enabled(info)).toEqual([ADVANCED_DATA, E_COMMERCE, NO_ADS, ONLINE_ORDERING]);
    expect(info.features_version).not.toBe(before.features_version);
    const row = (await activeRows()).find((r) => r.billingItemId === ADVANCED_DATA)!;
    expect(row).toMatchObject({ storeId, planId, unitPriceCents: 1500, currency: 'USD', startsOn: '2026-11-22' });
    const [entry] = await auditOf(f.t, 'customer_billing_item', row.id);
    expect(entry).toMatchObject({
      action: 'feature_on',
      actorEmail: 'limited@example.com',
      customerId,
      after: { customer_id: customerId, store_id: storeId, feature: 'Advanced Data' },
    });
  });

  it('409 with the current features for a stale features_version', async () => {
    const current = await get();
    const res = await put({ custstoreid: storeId, features: [], features_version: 'fv_stale' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'version_conflict',
      current: { features_version: current.features_version },
    });
    expect(enabled(await get())).toEqual(enabled(current));
  });

  it('customer_features_edit switches any feature off (ends today) and on; notify_merchant queues the e-mail', async () => {
    const before = await get();
    const ecommerceRow = before.features.find((x) => x.billing_item_id === E_COMMERCE)!.customer_billing_item_id!;
    const res = await put({
      custstoreid: storeId,
      features: [ADVANCED_DATA, NO_ADS, ONLINE_ORDERING, CUSTOMER_TABS],
      features_version: before.features_version,
      notify_merchant: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info).toMatchObject({ added: [CUSTOMER_TABS], removed: [E_COMMERCE] });
    expect(info.email_job_id).toMatch(/^[0-9a-f-]{36}$/);
    const [off] = await f.t.database.db
      .select()
      .from(customerBillingItems)
      .where(eq(customerBillingItems.id, ecommerceRow));
    expect(off).toMatchObject({ status: 'C', endsOn: '2026-11-22', version: 2 });
    const [enqueue] = await auditOf(f.t, JOB_QUEUE.featureChangeEmail, info.email_job_id);
    expect(enqueue!.after).toMatchObject({
      customer_id: customerId,
      storeid: storeId,
      features: [
        { billingitemid: CUSTOMER_TABS, action: 'add' },
        { billingitemid: E_COMMERCE, action: 'remove' },
      ],
    });
    // The same set again changes nothing and queues nothing.
    const same = await put({
      custstoreid: storeId,
      features: enabled(info),
      features_version: info.features_version,
      notify_merchant: true,
    });
    expect(same.json().info).toMatchObject({
      added: [],
      removed: [],
      email_job_id: null,
      features_version: info.features_version,
    });
  });

  it('403 for a view-only user; nothing half-written when an audit entry fails', async () => {
    const before = await get();
    expect(
      (await put({ custstoreid: storeId, features: [], features_version: before.features_version }, f.viewer))
        .statusCode,
    ).toBe(403);
    const rows = await activeRows();
    const undo = await failAuditOf(f.t, 'feature_off');
    try {
      expect(
        (await put({ custstoreid: storeId, features: [ADVANCED_DATA], features_version: before.features_version }))
          .statusCode,
      ).toBe(500);
    } finally {
      await undo();
    }
    expect(await activeRows()).toEqual(rows);
    expect((await get()).features_version).toBe(before.features_version);
  });
});
