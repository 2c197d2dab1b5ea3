import { NRS_PAY_BUNDLE_IDS } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BUNDLE_DEFS,
  PRODUCT_DEFS,
  cadPrice,
  createAgent,
  createCatalogue,
  createPromotion,
  createReferral,
} from '../../db/factories';
import { bundles, products } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/** Issue 7 order-flow catalogue reads (decision 074). The test clock is 2026-11-22. */
describe('order-flow catalogue reads', () => {
  let t: TestApp;
  let token: string;
  const get = (url: string) => t.request({ method: 'GET', url });
  const BAD_TOKENS = ['', 'Q'.repeat(43)];

  beforeAll(async () => {
    t = await createTestApp();
    await createCatalogue(t.database.db);
    // An inactive product and bundle never show.
    await t.database.db.update(products).set({ active: false }).where(eq(products.id, 10));
    await t.database.db.insert(bundles).values({ id: 900, name: 'Retired bundle', active: false });
    ({ is: token } = await signInStaff(t, { is: 'IS' }));
  });
  afterAll(() => t.close());

  describe('GET /api/products/{token}/all', () => {
    it('lists the active products by id with their USD price by default', async () => {
      const res = await get(`/api/products/${token}/all`);
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info as { currency: string; products: Array<Record<string, unknown>> };
      expect(info.currency).toBe('USD');
      const expected = PRODUCT_DEFS.filter((p) => p.id !== 10);
      expect(info.products.map((p) => p.product_id)).toEqual(expected.map((p) => p.id));
      expect(info.products[0]).toEqual({
        product_id: 1,
        name: PRODUCT_DEFS[0]!.name,
        sku: PRODUCT_DEFS[0]!.sku,
        kind: 'terminal',
        description: PRODUCT_DEFS[0]!.description,
        terminal_product: true,
        petro_product: false,
        unit_price_cents: PRODUCT_DEFS[0]!.usdCents,
        currency: 'USD',
      });
      expect(info.products[1]).toMatchObject({ product_id: 2, terminal_product: false, petro_product: true });
    });

    it('prices in CAD when asked (any case)', async () => {
      const info = (await get(`/api/products/${token}/all?currency=cad`)).json().info;
      expect(info.currency).toBe('CAD');
      expect(info.products[2]).toMatchObject({
        product_id: 3,
        unit_price_cents: cadPrice(PRODUCT_DEFS[2]!.usdCents),
        currency: 'CAD',
      });
    });

    it('400 for a bad currency; 403 without a session', async () => {
      const res = await get(`/api/products/${token}/all?currency=EUR`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', fields: { currency: 'Choose USD or CAD.' } });
      for (const bad of BAD_TOKENS) expect((await get(`/api/products/${bad}/all`)).statusCode).toBe(403);
    });
  });

  describe('GET /api/products/terminals/{token}/all', () => {
    it('lists only terminal products (the §9 terminal product 1 flagged)', async () => {
      const res = await get(`/api/products/terminals/${token}/all?currency=CAD`);
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json().info.products as Array<{
        product_id: number;
        kind: string;
        terminal_product: boolean;
        unit_price_cents: number;
      }>;
      expect(list.map((p) => p.product_id)).toEqual([1, 2]);
      expect(list.every((p) => p.kind === 'terminal')).toBe(true);
      expect(list[0]).toMatchObject({ terminal_product: true, unit_price_cents: cadPrice(PRODUCT_DEFS[0]!.usdCents) });
    });

    it('400 for a bad currency; 403 without a session', async () => {
      expect((await get(`/api/products/terminals/${token}/all?currency=x`)).json().error.fields).toEqual({
        currency: 'Choose USD or CAD.',
      });
      for (const bad of BAD_TOKENS) expect((await get(`/api/products/terminals/${bad}/all`)).statusCode).toBe(403);
    });
  });

  describe('GET /api/bundles/{token}/all', () => {
    it('lists active bundles with their items and monthly prices; the §9 NRS Pay bundles are flagged', async () => {
      const res = await get(`/api/bundles/${token}/all`);
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json().info.bundles as Array<{
        bundle_id: number;
        nrs_pay: boolean;
        items: Array<{ billing_item_id: number; unit_price_cents: number }>;
        monthly_price_cents: number;
      }>;
      expect(list.map((b) => b.bundle_id)).toEqual(BUNDLE_DEFS.map((b) => b.id).sort((a, b) => a - b));
      for (const b of list) {
        expect(b.nrs_pay, String(b.bundle_id)).toBe((NRS_PAY_BUNDLE_IDS as readonly number[]).includes(b.bundle_id));
        const def = BUNDLE_DEFS.find((d) => d.id === b.bundle_id)!;
        expect(b.items.map((i) => [i.billing_item_id, i.unit_price_cents])).toEqual(
          [...def.items].sort((x, y) => x.billingItemId - y.billingItemId).map((i) => [i.billingItemId, i.usdCents]),
        );
        expect(b.monthly_price_cents).toBe(def.items.reduce((s, i) => s + i.usdCents, 0));
      }
      expect(list.find((b) => b.bundle_id === 100)).toMatchObject({
        nrs_pay: false,
        monthly_price_cents: 1299_00 + 69_00,
      });
    });

    it('prices in CAD when asked', async () => {
      const list = (await get(`/api/bundles/${token}/all?currency=CAD`)).json().info.bundles as Array<{
        bundle_id: number;
        currency: string;
        items: Array<{ unit_price_cents: number }>;
      }>;
      const starter = list.find((b) => b.bundle_id === 100)!;
      expect(starter.currency).toBe('CAD');
      expect(starter.items[0]!.unit_price_cents).toBe(cadPrice(1299_00));
    });

    it('400 for a bad currency; 403 without a session', async () => {
      expect((await get(`/api/bundles/${token}/all?currency=GBP`)).statusCode).toBe(400);
      for (const bad of BAD_TOKENS) expect((await get(`/api/bundles/${bad}/all`)).statusCode).toBe(403);
    });
  });

  describe('GET /api/bundles/billingitempriceoptions/{token}', () => {
    const url = (q: string, tok = token) => `/api/bundles/billingitempriceoptions/${tok}${q}`;

    it('without reference_id: every option of the bundle in the currency (base first, then per reference)', async () => {
      const res = await get(url('?bundle_id=100&currency=USD'));
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info as {
        bundle_id: number;
        currency: string;
        reference_id: null;
        options: Array<Record<string, unknown>>;
      };
      expect(info).toMatchObject({ bundle_id: 100, currency: 'USD', reference_id: null });
      expect(info.options).toHaveLength(6);
      const terminal = info.options.filter((o) => o.billing_item_id === 3);
      expect(terminal).toEqual([
        expect.objectContaining({ reference_id: null, label: 'Monthly', price_cents: 1299_00, term: 1 }),
        expect.objectContaining({ reference_id: 5, label: 'Yearly (2 months free)', price_cents: 12990_00, term: 12 }),
      ]);
    });

    it('reference_id narrows to that reference; currency defaults to USD', async () => {
      const info = (await get(url('?bundle_id=100&reference_id=5'))).json().info as {
        currency: string;
        reference_id: number;
        options: Array<{ reference_id: number; term: number }>;
      };
      expect(info.currency).toBe('USD');
      expect(info.reference_id).toBe(5);
      expect(info.options).toHaveLength(3);
      expect(info.options.every((o) => o.reference_id === 5 && o.term === 12)).toBe(true);
      const cad = (await get(url('?bundle_id=100&currency=CAD&reference_id=5'))).json().info.options as Array<{
        billing_item_id: number;
        price_cents: number;
      }>;
      expect(cad.find((o) => o.billing_item_id === 3)!.price_cents).toBe(cadPrice(1299_00) * 10);
      expect((await get(url('?bundle_id=100&reference_id=77'))).json().info.options).toEqual([]);
    });

    it('400 with field messages; 404 for an unknown bundle; 403 without a session', async () => {
      const missing = await get(url(''));
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields).toEqual({ bundle_id: 'Enter the bundle id.' });
      const bad = await get(url('?bundle_id=abc&currency=EUR&reference_id=-1'));
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toEqual({
        bundle_id: 'Enter the bundle id (a number).',
        currency: 'Choose USD or CAD.',
        reference_id: 'The reference id is a positive number.',
      });
      const unknown = await get(url('?bundle_id=4242'));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error).toMatchObject({
        code: 'not_found',
        fields: { bundle_id: 'There is no bundle 4242.' },
      });
      // (An empty token leaves no path segment: that is an unknown route, 404.)
      for (const bad of ['Q'.repeat(43), 'short']) expect((await get(url('?bundle_id=100', bad))).statusCode).toBe(403);
    });
  });

  describe('GET /api/customers/promotions/{code}/{token}', () => {
    const url = (code: string, q = '', tok = token) => `/api/customers/promotions/${code}/${tok}${q}`;
    let usd: number;
    let cad: number;
    let old: number;

    beforeAll(async () => {
      const db = t.database.db;
      usd = (
        await createPromotion(db, { code: 'SPRING', currency: 'USD', amountCents: 50_00, expiresOn: '2026-12-31' })
      ).id;
      cad = (
        await createPromotion(db, {
          code: 'spring',
          currency: 'CAD',
          method: 'P',
          percent: '12.50',
          startsOn: '2026-01-01',
        })
      ).id;
      old = (await createPromotion(db, { code: 'OLDIE', expiresOn: '2026-11-21' })).id;
      await createPromotion(db, { code: 'LATER', startsOn: '2026-11-23' });
      await createPromotion(db, { code: 'OFF', active: false });
    });

    it('finds the current promotions of a code, any case, USD first', async () => {
      const res = await get(url('Spring'));
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json().info.promotions as Array<Record<string, unknown>>;
      expect(list.map((p) => p.promo_id)).toEqual([usd, cad]);
      expect(list[0]).toEqual({
        promo_id: usd,
        code: 'SPRING',
        name: 'Hardware discount',
        type: 'H',
        method: 'A',
        amount_cents: 50_00,
        percent: null,
        customer_type: 'A',
        currency: 'USD',
        billing_item_id: null,
        starts_on: null,
        expires_on: '2026-12-31',
        expired: false,
        usage_limit: null,
        usage_count: 0,
      });
      expect(list[1]).toMatchObject({ method: 'P', percent: 12.5, amount_cents: null, currency: 'CAD' });
    });

    it('promo_id narrows to one promotion of the code', async () => {
      const list = (await get(url('SPRING', `?promo_id=${cad}`))).json().info.promotions as Array<{ promo_id: number }>;
      expect(list.map((p) => p.promo_id)).toEqual([cad]);
      expect((await get(url('SPRING', `?promo_id=${old}`))).statusCode).toBe(404);
    });

    it('an expired promotion needs expired=Y; inactive and not-yet-started ones are never found', async () => {
      const res = await get(url('OLDIE'));
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatchObject({
        code: 'not_found',
        fields: { code: 'No current promotion has the code OLDIE.' },
      });
      const withExpired = await get(url('oldie', '?expired=y'));
      expect(withExpired.statusCode, withExpired.body).toBe(200);
      expect(withExpired.json().info.promotions).toEqual([expect.objectContaining({ promo_id: old, expired: true })]);
      expect((await get(url('OLDIE', '?expired=N'))).statusCode).toBe(404);
      expect((await get(url('LATER', '?expired=Y'))).statusCode).toBe(404);
      expect((await get(url('OFF', '?expired=Y'))).statusCode).toBe(404);
      expect((await get(url('NOSUCH'))).statusCode).toBe(404);
    });

    it('400 with field messages; 403 without a session', async () => {
      const res = await get(url('SPRING', '?expired=maybe&promo_id=x'));
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({
        expired: 'expired is Y or N.',
        promo_id: 'Enter the promotion id (a number).',
      });
      const long = await get(url('X'.repeat(51)));
      expect(long.statusCode).toBe(400);
      expect(long.json().error.fields).toEqual({ code: 'A promotion code has at most 50 characters.' });
      for (const bad of BAD_TOKENS) expect((await get(url('SPRING', '', bad))).statusCode).toBe(403);
    });
  });

  describe('GET /api/customers/referrals/{refId}/{token}', () => {
    const url = (ref: string, tok = token) => `/api/customers/referrals/${ref}/${tok}`;
    let agentId: number;
    let refId: number;

    beforeAll(async () => {
      const agent = await createAgent(t.database.db, { name: 'Referring Rita' });
      agentId = agent.id;
      refId = (
        await createReferral(t.database.db, {
          refCode: 'RITA10',
          name: 'Rita referral',
          agentId,
          discountCents: 75_00,
          currency: 'CAD',
        })
      ).id;
      await createReferral(t.database.db, { refCode: 'GONE', active: false });
    });

    it('finds an active referral by code (any case) or by id, with its agent', async () => {
      const res = await get(url('rita10'));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toEqual({
        referral_id: refId,
        ref_code: 'RITA10',
        name: 'Rita referral',
        agent_id: agentId,
        agent_name: 'Referring Rita',
        discount_cents: 75_00,
        currency: 'CAD',
      });
      expect((await get(url(String(refId)))).json().info.ref_code).toBe('RITA10');
    });

    it('404 for an unknown or inactive code; 400 for a too-long one; 403 without a session', async () => {
      const gone = await get(url('GONE'));
      expect(gone.statusCode).toBe(404);
      expect(gone.json().error).toMatchObject({
        code: 'not_found',
        fields: { refId: 'No active referral has the code GONE.' },
      });
      expect((await get(url('NOPE'))).statusCode).toBe(404);
      const long = await get(url('R'.repeat(51)));
      expect(long.statusCode).toBe(400);
      expect(long.json().error.fields).toEqual({ refId: 'A referral code has at most 50 characters.' });
      for (const bad of BAD_TOKENS) expect((await get(url('RITA10', bad))).statusCode).toBe(403);
    });
  });
});
