import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentInstrument, createPaymentPlan, createStore, createTerminal } from '../../db/factories';
import { paymentInstruments } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { accountsFixture, auditOf, UNKNOWN_TOKEN, type AccountsFixture } from './test-support';

/** #/payment/instruments (decision 115): set default, remove, expiring cards — through HTTP. The clock: 2026-11-22. */
describe('payment instruments: default, remove, expiring cards', () => {
  let f: AccountsFixture;
  let customerId: number;
  let storeId: number;
  let defaultId: number;
  let otherId: number;
  let foreignId: number;
  let planCustomerId: number;
  let planDefaultId: number;
  let planOtherId: number;

  const url = (suffix = '', token = f.editor, id = customerId) =>
    `/api/customers/${id}/${token}/paymentinstruments${suffix}`;
  const put = (instrumentId: number, payload: unknown, opts: { token?: string; id?: number } = {}) =>
    f.t.request({
      method: 'PUT',
      url: url(`/${instrumentId}`, opts.token ?? f.editor, opts.id ?? customerId),
      payload: payload as object,
    });
  const del = (instrumentId: number | string, version: unknown, opts: { token?: string; id?: number } = {}) =>
    f.t.request({
      method: 'DELETE',
      url: url(`/${instrumentId}?version=${String(version)}`, opts.token ?? f.editor, opts.id ?? customerId),
    });
  const expiring = (query = '', token = f.viewer) =>
    f.t.request({ method: 'GET', url: `/api/customers/paymentinstruments/expiring/${token}${query}` });
  const rowOf = async (id: number) =>
    (await f.t.database.db.select().from(paymentInstruments).where(eq(paymentInstruments.id, id)))[0]!;

  beforeAll(async () => {
    f = await accountsFixture();
    const db = f.t.database.db;
    const store = await createStore(db, { country: 'US' });
    storeId = store.id;
    customerId = store.customerId;
    defaultId = (await createPaymentInstrument(db, { customerId, storeId, isDefault: true })).id;
    otherId = (await createPaymentInstrument(db, { customerId, storeId, isDefault: false })).id;
    foreignId = (await createPaymentInstrument(db, { isDefault: false })).id;
    const planStore = await createStore(db, { country: 'US' });
    planCustomerId = planStore.customerId;
    await createPaymentPlan(db, { customerId: planCustomerId, storeId: planStore.id });
    planDefaultId = (await createPaymentInstrument(db, { customerId: planCustomerId, isDefault: true })).id;
    planOtherId = (await createPaymentInstrument(db, { customerId: planCustomerId, isDefault: false })).id;
  });
  afterAll(() => f.t.close());

  describe('PUT …/paymentinstruments/{instrumentId}', () => {
    it('makes the instrument the default and unsets the other one, audited', async () => {
      const before = await rowOf(otherId);
      const res = await put(otherId, { is_default: true, version: before.version });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({ id: otherId, is_default: true, version: before.version + 1 });
      expect(await rowOf(defaultId)).toMatchObject({ isDefault: false });
      const entries = await auditOf(f.t, 'payment_instrument');
      expect(entries.map((e) => [e.action, e.entityId, e.customerId])).toEqual([
        ['unset_default', String(defaultId), customerId],
        ['set_default', String(otherId), customerId],
      ]);
      // Already the default: answered as it is, nothing written.
      const again = await put(otherId, { is_default: true, version: before.version + 1 });
      expect(again.statusCode).toBe(200);
      expect((await auditOf(f.t, 'payment_instrument')).length).toBe(2);
    });

    it('409 with the current instrument for a stale version', async () => {
      const res = await put(defaultId, { is_default: true, version: 1 });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('version_conflict');
      expect(res.json().error.current).toMatchObject({ id: defaultId, is_default: false, version: 2 });
    });

    it('409 for an expired card: it cannot become the default', async () => {
      const expired = await createPaymentInstrument(f.t.database.db, {
        customerId,
        isDefault: false,
        cardExpMonth: 10,
        cardExpYear: 2026,
      });
      const res = await put(expired.id, { is_default: true, version: 1 });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'conflict', message: expect.stringMatching(/has expired/) });
      expect(await rowOf(expired.id)).toMatchObject({ isDefault: false, version: 1 });
    });

    it('400 with fields: is_default other than true, no version, a bad id', async () => {
      const res = await put(defaultId, { is_default: false });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().error.fields).sort()).toEqual(['is_default', 'version']);
      const bad = await f.t.request({ method: 'PUT', url: url('/abc'), payload: { is_default: true, version: 1 } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.instrumentId).toMatch(/payment instrument id/);
    });

    it('403 view-only or without a session; 404 for another customer’s instrument or an unknown customer', async () => {
      expect((await put(defaultId, { is_default: true, version: 2 }, { token: f.viewer })).statusCode).toBe(403);
      expect((await put(defaultId, { is_default: true, version: 2 }, { token: UNKNOWN_TOKEN })).statusCode).toBe(403);
      expect((await put(foreignId, { is_default: true, version: 1 })).statusCode).toBe(404);
      expect((await put(defaultId, { is_default: true, version: 2 }, { id: 999_999 })).statusCode).toBe(404);
    });
  });

  describe('DELETE …/paymentinstruments/{instrumentId}?version', () => {
    it('refuses the default while the customer has an active plan (409, clear message); removes another', async () => {
      const res = await del(planDefaultId, 1, { id: planCustomerId });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'conflict',
        message: expect.stringMatching(/default payment method and the customer has 1 active payment plan/),
        active_plans: 1,
      });
      expect(await rowOf(planDefaultId)).toMatchObject({ status: 'active', isDefault: true });
      const other = await del(planOtherId, 1, { id: planCustomerId });
      expect(other.statusCode, other.body).toBe(200);
      expect(other.json().info).toMatchObject({ id: planOtherId, status: 'inactive', is_default: false, version: 2 });
    });

    it('soft-deletes (status inactive), audited; the default goes when no plan is active; again → 409', async () => {
      const row = await rowOf(otherId); // the default since the PUT test; this customer has no plan
      const res = await del(otherId, row.version);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({ status: 'inactive', is_default: false });
      expect(await rowOf(otherId)).toMatchObject({ status: 'inactive', isDefault: false });
      const [entry] = (await auditOf(f.t, 'payment_instrument', otherId)).filter((e) => e.action === 'remove');
      expect(entry).toMatchObject({
        customerId,
        before: { payment_instrument_id: otherId, status: 'active', is_default: true },
        after: { payment_instrument_id: otherId, status: 'inactive', is_default: false },
      });
      const again = await del(otherId, row.version + 1);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toMatch(/already removed/);
      // A removed instrument cannot become the default.
      const setDefault = await put(otherId, { is_default: true, version: row.version + 1 });
      expect(setDefault.statusCode).toBe(409);
    });

    it('400 without a version; 409 stale version; 403 view-only; 404 foreign', async () => {
      const missing = await f.t.request({ method: 'DELETE', url: url(`/${defaultId}`) });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields.version).toBeDefined();
      const stale = await del(defaultId, 1);
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.code).toBe('version_conflict');
      expect((await del(defaultId, 2, { token: f.viewer })).statusCode).toBe(403);
      expect((await del(foreignId, 1)).statusCode).toBe(404);
    });
  });

  describe('GET /api/customers/paymentinstruments/expiring/{token}', () => {
    let soonId: number;
    let decemberId: number;
    let noTerminalId: number;
    let elmerId: string;

    beforeAll(async () => {
      const db = f.t.database.db;
      const store = await createStore(db, { country: 'US', storeName: 'Corner Deli' });
      elmerId = (await createTerminal(db, { storeId: store.id })).elmerId;
      const card = { customerId: store.customerId, storeId: store.id, cardBrand: 'mastercard', isDefault: false };
      soonId = (await createPaymentInstrument(db, { ...card, cardLast4: '1111', cardExpMonth: 11, cardExpYear: 2026 }))
        .id;
      decemberId = (
        await createPaymentInstrument(db, { ...card, cardLast4: '2222', cardExpMonth: 12, cardExpYear: 2026 })
      ).id;
      // Expired, removed, or a bank account: never listed.
      await createPaymentInstrument(db, { ...card, cardExpMonth: 10, cardExpYear: 2026 });
      await createPaymentInstrument(db, { ...card, cardExpMonth: 11, cardExpYear: 2026, status: 'inactive' });
      await createPaymentInstrument(db, { customerId: store.customerId, kind: 'bank' });
      // A store with no terminal.
      const bare = await createStore(db, { country: 'US' });
      noTerminalId = (
        await createPaymentInstrument(db, {
          customerId: bare.customerId,
          storeId: bare.id,
          isDefault: false,
          cardExpMonth: 12,
          cardExpYear: 2026,
        })
      ).id;
    });

    it('lists active cards whose month ends within 30 days (by the app clock), with store and terminal', async () => {
      const res = await expiring();
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toEqual({
        total: 1,
        items: [
          {
            instrument_id: soonId,
            customer_id: expect.any(Number),
            customer_name: expect.any(String),
            store_id: expect.any(Number),
            store_name: 'Corner Deli',
            brand: 'mastercard',
            last4: '1111',
            exp_month: 11,
            exp_year: 2026,
            expires_on: '2026-11-30',
            is_default: false,
            elmer_id: elmerId,
          },
        ],
      });
      expect(res.body).not.toMatch(/processor|encrypted|pm_/);
    });

    it('days widens the window; paginated with the total; no terminal → elmer_id null', async () => {
      const wide = (await expiring('?days=45')).json().info;
      expect(wide.total).toBe(3);
      expect(wide.items.map((i: { instrument_id: number }) => i.instrument_id)).toEqual([
        soonId,
        decemberId,
        noTerminalId,
      ]);
      expect(wide.items[2].elmer_id).toBeNull();
      const page2 = (await expiring('?days=45&limit=1&offset=1', f.editor)).json().info;
      expect(page2).toMatchObject({ total: 3, items: [{ instrument_id: decemberId }] });
      // The clock moves: on 2026-12-05 the November card has expired (a new sign-in: the old session timed out).
      f.t.clock.set('2026-12-05T12:00:00Z');
      try {
        const { later: viewer } = await signInStaff(f.t, { later: 'AR Team' });
        const res = await expiring('', viewer);
        expect(res.statusCode, res.body).toBe(200);
        const later = res.json().info;
        expect(later.items.map((i: { instrument_id: number }) => i.instrument_id)).toEqual([decemberId, noTerminalId]);
      } finally {
        f.t.clock.set('2026-11-22T12:00:00Z');
      }
    });

    it('400 with fields for bad days; 403 without a customer privilege or session', async () => {
      const bad = await expiring('?days=0');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.days).toBe('Days is at least 1.');
      expect((await expiring('?days=abc')).json().error.fields.days).toBeDefined();
      expect((await expiring('', f.outsider)).statusCode).toBe(403);
      expect((await expiring('', UNKNOWN_TOKEN)).statusCode).toBe(403);
    });
  });
});
