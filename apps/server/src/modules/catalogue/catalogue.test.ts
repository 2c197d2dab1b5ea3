import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BILLING_ITEM_DEFS,
  createBillingItem,
  createCatalogue,
  createDistributorAccount,
  createStore,
} from '../../db/factories';
import { billingItemCategories } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('catalogue reads (spec §7 Catalogue)', () => {
  let t: TestApp;
  let token: string;
  let cats: { fees: number; software: number; hardware: number };
  let caStoreId: number;
  let usStoreId: number;
  const items = (query = '', tok = token) => `/api/customers/billingitems/${tok}/all${query}`;
  const categories = (tok = token) => `/api/customers/billingitemcategories/${tok}`;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    const rows = await db
      .insert(billingItemCategories)
      .values([{ name: 'Software features' }, { name: 'Fees' }, { name: 'Hardware' }])
      .returning();
    const id = (name: string) => rows.find((r) => r.name === name)!.id;
    cats = { fees: id('Fees'), software: id('Software features'), hardware: id('Hardware') };
    await createBillingItem(db, {
      id: 8,
      name: 'Monthly service fee',
      categoryId: cats.fees,
      recurring: true,
      prices: { USD: 79_00, CAD: 107_99 },
    });
    await createBillingItem(db, {
      id: 20,
      name: 'Shipping',
      categoryId: cats.fees,
      chargeAtLevel: 'C',
      prices: { USD: 15_00 },
    });
    await createBillingItem(db, {
      id: 201,
      name: 'Advanced Data',
      categoryId: cats.software,
      feature: 'Y',
      recurring: true,
      prices: { USD: 15_00, CAD: 19_99 },
    });
    await createBillingItem(db, { id: 30, name: 'Other charges', categoryId: null, prices: {} });
    await createBillingItem(db, {
      id: 91,
      name: 'Cancellation fee',
      categoryId: cats.fees,
      active: false,
      prices: { USD: 99_00, CAD: 129_00 },
    });
    caStoreId = (await createStore(db, { country: 'CA' })).id;
    usStoreId = (await createStore(db, { country: 'US' })).id;
    ({ marketing: token } = await signInStaff(t, { marketing: 'Marketing' }));
  });
  afterAll(() => t.close());

  describe('GET /api/customers/billingitems/{token}/all', () => {
    it('lists the active items in USD by default, by category then name (uncategorised last)', async () => {
      const res = await t.request({ method: 'GET', url: items() });
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info as { currency: string; billing_items: Array<Record<string, unknown>> };
      expect(info.currency).toBe('USD');
      expect(info.billing_items.map((i) => i.name)).toEqual([
        'Monthly service fee',
        'Shipping',
        'Advanced Data',
        'Other charges',
      ]);
      expect(info.billing_items[0]).toEqual({
        billing_item_id: 8,
        name: 'Monthly service fee',
        category: { id: cats.fees, name: 'Fees' },
        feature: 'N',
        charge_at_level: 'S',
        recurring: true,
        active: true,
        unit_price_cents: 79_00,
        currency: 'USD',
      });
      expect(info.billing_items[1]).toMatchObject({
        billing_item_id: 20,
        charge_at_level: 'C',
        unit_price_cents: 15_00,
      });
      expect(info.billing_items[2]).toMatchObject({
        billing_item_id: 201,
        feature: 'Y',
        category: { id: cats.software, name: 'Software features' },
      });
      expect(info.billing_items[3]).toMatchObject({
        billing_item_id: 30,
        category: null,
        unit_price_cents: null,
        currency: 'USD',
      });
    });

    it('prices in CAD when asked (any case); an item without a CAD price has a null price', async () => {
      const res = await t.request({ method: 'GET', url: items('?currency=cad') });
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info as {
        currency: string;
        billing_items: Array<{ billing_item_id: number; unit_price_cents: number | null; currency: string }>;
      };
      expect(info.currency).toBe('CAD');
      expect(info.billing_items.map((i) => [i.billing_item_id, i.unit_price_cents, i.currency])).toEqual([
        [8, 107_99, 'CAD'],
        [20, null, 'CAD'],
        [201, 19_99, 'CAD'],
        [30, null, 'CAD'],
      ]);
    });

    it("uses the store's currency when custstoreid is given without a currency; an explicit currency wins", async () => {
      const ca = (await t.request({ method: 'GET', url: items(`?custstoreid=${caStoreId}`) })).json().info;
      expect(ca.currency).toBe('CAD');
      expect(ca.billing_items[0]).toMatchObject({ billing_item_id: 8, unit_price_cents: 107_99, currency: 'CAD' });
      const us = (await t.request({ method: 'GET', url: items(`?custstoreid=${usStoreId}`) })).json().info;
      expect(us.currency).toBe('USD');
      const caInUsd = (await t.request({ method: 'GET', url: items(`?custstoreid=${caStoreId}&currency=USD`) })).json()
        .info;
      expect(caInUsd.currency).toBe('USD');
      expect(caInUsd.billing_items[0]).toMatchObject({ billing_item_id: 8, unit_price_cents: 79_00 });
      // An empty value counts as not given.
      expect(
        (await t.request({ method: 'GET', url: items(`?custstoreid=${caStoreId}&currency=`) })).json().info.currency,
      ).toBe('CAD');
    });

    it('400 with field messages for a bad currency or store id', async () => {
      const eur = await t.request({ method: 'GET', url: items('?currency=EUR') });
      expect(eur.statusCode).toBe(400);
      expect(eur.json().error).toMatchObject({ code: 'validation_failed', fields: { currency: 'Choose USD or CAD.' } });
      for (const [value, message] of [
        ['abc', 'Enter the store id (a number).'],
        ['0', 'The store id is a positive number.'],
        ['-4', 'The store id is a positive number.'],
        ['1.5', 'The store id is a whole number.'],
        ['99999999999', 'The store id is too large.'],
      ] as const) {
        const res = await t.request({ method: 'GET', url: items(`?custstoreid=${value}`) });
        expect(res.statusCode, value).toBe(400);
        expect(res.json().error, value).toMatchObject({ code: 'validation_failed', fields: { custstoreid: message } });
      }
      const both = await t.request({ method: 'GET', url: items('?custstoreid=x&currency=GBP') });
      expect(Object.keys(both.json().error.fields).sort()).toEqual(['currency', 'custstoreid']);
    });

    it('404 for an unknown store', async () => {
      const res = await t.request({ method: 'GET', url: items('?custstoreid=999999') });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({
        code: 'not_found',
        message: 'Store 999999 was not found.',
        fields: { custstoreid: 'There is no store 999999.' },
      });
    });

    it('403 without a session or with a bad token', async () => {
      for (const url of [items('', ''), items('', 'Q'.repeat(43)), items('', 'short')]) {
        const res = await t.request({ method: 'GET', url });
        expect(res.statusCode, url).toBe(403);
        expect(res.json().error.code).toBe('session_invalid');
      }
    });

    it('is open to a distributor session too', async () => {
      await createDistributorAccount(t.database.db, {
        email: 'dist-catalogue@example.com',
        password: 'distributor-demo',
      });
      const login = await t.request({
        method: 'POST',
        url: '/api/auth/distributor/login',
        payload: { email: 'dist-catalogue@example.com', password: 'distributor-demo' },
      });
      expect(login.statusCode, login.body).toBe(200);
      const distributorToken = login.json().info.token as string;
      expect((await t.request({ method: 'GET', url: items('', distributorToken) })).statusCode).toBe(200);
      expect((await t.request({ method: 'GET', url: categories(distributorToken) })).statusCode).toBe(200);
    });
  });

  describe('GET /api/customers/billingitemcategories/{token}', () => {
    it('lists every category by name', async () => {
      const res = await t.request({ method: 'GET', url: categories() });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        info: {
          categories: [
            { id: cats.fees, name: 'Fees' },
            { id: cats.hardware, name: 'Hardware' },
            { id: cats.software, name: 'Software features' },
          ],
        },
      });
    });

    it('403 without a session or with a bad token', async () => {
      for (const url of [categories(''), categories('Q'.repeat(43))]) {
        const res = await t.request({ method: 'GET', url });
        expect(res.statusCode, url).toBe(403);
        expect(res.json().error.code).toBe('session_invalid');
      }
    });
  });
});

describe('the demo catalogue through GET /api/customers/billingitems/{token}/all', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    await createCatalogue(t.database.db);
    ({ is: token } = await signInStaff(t, { is: 'IS' }));
  });
  afterAll(() => t.close());

  it('answers every catalogue item once, grouped by category, with its price in each currency', async () => {
    for (const currency of ['USD', 'CAD'] as const) {
      const info = (
        await t.request({ method: 'GET', url: `/api/customers/billingitems/${token}/all?currency=${currency}` })
      ).json().info as {
        billing_items: Array<{
          billing_item_id: number;
          name: string;
          category: { name: string } | null;
          unit_price_cents: number | null;
        }>;
      };
      const list = info.billing_items;
      expect(new Set(list.map((i) => i.billing_item_id)).size).toBe(BILLING_ITEM_DEFS.length);
      // Each category is one run (the order within depends on the database's collation), uncategorised last.
      const runs = list.map((i) => i.category?.name ?? null).filter((name, n, all) => n === 0 || name !== all[n - 1]);
      expect(new Set(runs).size).toBe(runs.length);
      expect(runs.indexOf(null)).toBeOneOf([-1, runs.length - 1]);
      for (const item of list) {
        const def = BILLING_ITEM_DEFS.find((d) => d.id === item.billing_item_id)!;
        expect(item.unit_price_cents, `${item.name} in ${currency}`).toBe(def.prices[currency] ?? null);
      }
    }
  });
});
