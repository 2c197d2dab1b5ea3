import { lineTaxCents } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDistributorAccount, createStore, setTaxRate } from '../../db/factories';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/** POST /api/customers/taxes/fetch/{token} (decision 075). */
describe('POST /api/customers/taxes/fetch/{token}', () => {
  let t: TestApp;
  let token: string;
  let onStoreId: number;
  let bcStoreId: number;
  const fetchTaxes = (payload: unknown, tok = token) =>
    t.request({
      method: 'POST',
      url: `/api/customers/taxes/fetch/${tok}`,
      payload: payload as Record<string, unknown>,
    });

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    await setTaxRate(db, { country: 'US', state: 'TX', rateBasisPoints: 625, label: 'Texas sales tax' });
    await setTaxRate(db, { country: 'US', state: 'NJ', rateBasisPoints: 663, label: 'New Jersey sales tax' });
    await setTaxRate(db, { country: 'CA', state: 'ON', rateBasisPoints: 1300, label: 'HST' });
    onStoreId = (await createStore(db, { country: 'CA', state: 'ON', currency: 'CAD' })).id;
    // No tax rate row for BC in this database.
    bcStoreId = (await createStore(db, { country: 'CA', state: 'BC', currency: 'CAD' })).id;
    ({ is: token } = await signInStaff(t, { is: 'IS' }));
  });
  afterAll(() => t.close());

  it('taxes each line from the state rate, rounding half up per line', async () => {
    const res = await fetchTaxes({
      state: 'tx',
      country: 'us',
      lines: [
        { billing_item_id: 8, amount_cents: 200, quantity: 1 }, // 12.5 → 13 (half up, not to even)
        { product_id: 1, amount_cents: 1499_00, quantity: 2 }, // 2998.00 × 6.25 % = 187.375 → 187.38
        { amount_cents: 1 }, // quantity defaults to 1; 0.0625 → 0
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info).toEqual({
      country: 'US',
      state: 'TX',
      rate_basis_points: 625,
      label: 'Texas sales tax',
      currency: 'USD',
      date: '2026-11-22',
      effective_on: '2000-01-01',
      components: [{ component: 'STATE', rate_basis_points: 625, label: 'Texas sales tax' }],
      exempt: false,
      lines: [
        { billing_item_id: 8, product_id: null, amount_cents: 200, quantity: 1, taxable_cents: 200, tax_cents: 13 },
        {
          billing_item_id: null,
          product_id: 1,
          amount_cents: 1499_00,
          quantity: 2,
          taxable_cents: 2998_00,
          tax_cents: 187_38,
        },
        { billing_item_id: null, product_id: null, amount_cents: 1, quantity: 1, taxable_cents: 1, tax_cents: 0 },
      ],
      taxable_cents: 200 + 2998_00 + 1,
      tax_cents: 13 + 187_38,
      total_cents: 200 + 2998_00 + 1 + 13 + 187_38,
    });
  });

  it("uses the store's province and currency when store_id is sent; an explicit currency wins", async () => {
    const res = await fetchTaxes({ store_id: onStoreId, lines: [{ amount_cents: 99_99, quantity: 3 }] });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info).toMatchObject({
      country: 'CA',
      state: 'ON',
      rate_basis_points: 1300,
      label: 'HST',
      currency: 'CAD',
      taxable_cents: 299_97,
      tax_cents: 39_00,
      total_cents: 338_97,
    });
    expect(
      (await fetchTaxes({ store_id: onStoreId, currency: 'USD', lines: [{ amount_cents: 1 }] })).json().info.currency,
    ).toBe('USD');
  });

  it('rounds half up and never overflows (domain helper)', () => {
    expect(lineTaxCents(200, 625)).toBe(13);
    expect(lineTaxCents(100, 663)).toBe(7);
    expect(lineTaxCents(1, 4999)).toBe(0);
    expect(lineTaxCents(1, 5000)).toBe(1);
    expect(lineTaxCents(1_000_000_000_00 * 10_000, 1498)).toBe(149_800_000_000_000);
  });

  it('400 with field messages', async () => {
    const cases: Array<[unknown, Record<string, string>]> = [
      [
        { lines: [{ amount_cents: 1 }] },
        {
          state: 'Enter the state or province (or a store id).',
          country: 'Enter the country, US or CA (or a store id).',
        },
      ],
      [
        { store_id: onStoreId, state: 'ON', country: 'CA', lines: [{ amount_cents: 1 }] },
        { store_id: 'Send a store id or a state and country, not both.' },
      ],
      [{ state: 'TX', country: 'US', lines: [] }, { lines: 'Send at least one line.' }],
      [{ state: 'TX', country: 'US' }, { lines: 'Send the lines to tax.' }],
      [
        {
          state: 'TX',
          country: 'US',
          currency: 'EUR',
          lines: [{ amount_cents: -1, quantity: 0 }, { amount_cents: 1.5 }],
        },
        {
          currency: 'Choose USD or CAD.',
          'lines.0.amount_cents': 'The amount cannot be negative.',
          'lines.0.quantity': 'The quantity is at least 1.',
          'lines.1.amount_cents': 'The amount is whole cents.',
        },
      ],
      [{ state: 'ZZ', country: 'US', lines: [{ amount_cents: 1 }] }, { state: 'ZZ is not a US state.' }],
      [{ state: 'ON', country: 'FR', lines: [{ amount_cents: 1 }] }, { country: 'Choose US or CA.' }],
      [
        { state: 'TX', country: 'US', lines: [{ amount_cents: 1, sku: 'x' }] },
        { 'lines.0': expect.any(String) as unknown as string },
      ],
    ];
    for (const [body, fields] of cases) {
      const res = await fetchTaxes(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
      expect(res.json().error.fields, JSON.stringify(body)).toEqual(fields);
    }
  });

  it('404 for an unknown store or a state without a rate', async () => {
    const store = await fetchTaxes({ store_id: 999_999, lines: [{ amount_cents: 1 }] });
    expect(store.statusCode).toBe(404);
    expect(store.json().error).toMatchObject({ code: 'not_found', fields: { store_id: 'There is no store 999999.' } });
    const noRate = await fetchTaxes({ store_id: bcStoreId, lines: [{ amount_cents: 1 }] });
    expect(noRate.statusCode).toBe(404);
    expect(noRate.json().error.fields).toEqual({ store_id: 'There is no tax rate for BC, CA on 2026-11-22.' });
    expect(
      (await fetchTaxes({ state: 'NY', country: 'US', lines: [{ amount_cents: 1 }] })).json().error.fields,
    ).toEqual({ state: 'There is no tax rate for NY, US on 2026-11-22.' });
  });

  it('403 without a session; open to a distributor session', async () => {
    for (const bad of ['Q'.repeat(43), 'short']) {
      const res = await fetchTaxes({ state: 'TX', country: 'US', lines: [{ amount_cents: 1 }] }, bad);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('session_invalid');
    }
    await createDistributorAccount(t.database.db, { email: 'dist-taxes@example.com', password: 'distributor-demo' });
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/distributor/login',
      payload: { email: 'dist-taxes@example.com', password: 'distributor-demo' },
    });
    const distToken = login.json().info.token as string;
    expect(
      (await fetchTaxes({ state: 'NJ', country: 'US', lines: [{ amount_cents: 100 }] }, distToken)).json().info
        .tax_cents,
    ).toBe(7);
  });
});
