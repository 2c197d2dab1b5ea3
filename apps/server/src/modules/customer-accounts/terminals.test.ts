import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDomainData,
  createOrder,
  createPaymentPlan,
  createStore,
  createTerminal,
  type TerminalRow,
} from '../../db/factories';
import { auditLog, terminals } from '../../db/schema';
import { accountsFixture, auditOf, failAuditOf, UNKNOWN_TOKEN, type AccountsFixture } from './test-support';

describe('terminals: list, transfer flag, processor serial, retire, validate', () => {
  let f: AccountsFixture;
  let storeId: number;
  let customerId: number;
  let other: { storeId: number; customerId: number };
  let planId: number;
  let orderId: number;
  let active: TerminalRow;
  let second: TerminalRow;
  let retired: TerminalRow;
  let foreign: TerminalRow;
  let reasonId: number;
  let inactiveReasonId: number;

  const list = (query: string, token = f.editor, id = customerId) =>
    f.t.request({ method: 'GET', url: `/api/customers/${id}/${token}/customerterminals${query}` });
  const put = (terminalId: number, payload: unknown, token = f.editor, id = customerId) =>
    f.t.request({
      method: 'PUT',
      url: `/api/customers/${id}/${token}/customerterminals/${terminalId}`,
      payload: payload as object,
    });
  const retire = (terminalId: number, payload: unknown, token = f.editor, query = '') =>
    f.t.request({
      method: 'DELETE',
      url: `/api/customers/${token}/customerterminals/${terminalId}${query}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const row = async (id: number) => (await f.t.database.db.select().from(terminals).where(eq(terminals.id, id)))[0]!;

  beforeAll(async () => {
    f = await accountsFixture();
    const db = f.t.database.db;
    const store = await createStore(db);
    storeId = store.id;
    customerId = store.customerId;
    const plan = await createPaymentPlan(db, { storeId });
    planId = plan.id;
    orderId = (await createOrder(db, { customerId, storeId })).id;
    active = await createTerminal(db, { storeId, planId, orderId, serialNumber: 'NRS-ACTIVE-1' });
    second = await createTerminal(db, { storeId, serialNumber: 'NRS-SECOND-2' });
    retired = await createTerminal(db, { storeId, status: 'retired' });
    const otherStore = await createStore(db);
    other = { storeId: otherStore.id, customerId: otherStore.customerId };
    foreign = await createTerminal(db, { storeId: otherStore.id, serialNumber: 'NRS-FOREIGN-9' });
    reasonId = (await createDomainData(db, { type: 'retire_reason', code: 'defective', label: 'Defective hardware' }))
      .id;
    inactiveReasonId = (
      await createDomainData(db, { type: 'retire_reason', code: 'old_reason', label: 'Old reason', active: false })
    ).id;
  });
  afterAll(() => f.t.close());

  describe('GET …/customerterminals', () => {
    it('lists the terminals of a store with the retire reason, for a view-only user too', async () => {
      const res = await list(`?storeid=${storeId}`, f.viewer);
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info;
      expect(info.total).toBe(3);
      const byId = new Map((info.items as Array<{ id: number }>).map((t) => [t.id, t]));
      expect(byId.get(active.id)).toEqual({
        id: active.id,
        elmer_id: active.elmerId,
        serial_number: 'NRS-ACTIVE-1',
        pos_cc_processor_serial_number: null,
        customer_id: customerId,
        store_id: storeId,
        product: null,
        order_id: orderId,
        plan_id: planId,
        under_transfer: false,
        status: 'active',
        status_label: 'Active',
        installed_at: expect.any(String),
        retired_at: null,
        retire_reason: null,
        version: 1,
      });
      expect(byId.get(retired.id)).toMatchObject({
        status: 'retired',
        status_label: 'Retired',
        retire_reason: { code: 'store_closed', label: 'Store closed' },
      });
      expect(byId.has(foreign.id)).toBe(false);
    });

    it('filters by order, plan or terminal id, and pages', async () => {
      expect((await list(`?custorderid=${orderId}`)).json().info.items.map((t: { id: number }) => t.id)).toEqual([
        active.id,
      ]);
      expect((await list(`?customerplanid=${planId}`)).json().info.items.map((t: { id: number }) => t.id)).toEqual([
        active.id,
      ]);
      expect((await list(`?elmer_id=${second.elmerId}`)).json().info.items.map((t: { id: number }) => t.id)).toEqual([
        second.id,
      ]);
      const page = (await list(`?storeid=${storeId}&limit=1&offset=1&sort=elmer_id`)).json().info;
      expect(page.total).toBe(3);
      expect(page.items).toHaveLength(1);
      // A terminal of another customer is not found through this customer.
      expect((await list(`?elmer_id=${foreign.elmerId}`)).json().info).toEqual({ items: [], total: 0 });
    });

    it('needs exactly one query kind (400 with a message)', async () => {
      const none = await list('');
      expect(none.statusCode).toBe(400);
      expect(none.json().error.code).toBe('validation_failed');
      expect(Object.values(none.json().error.fields)).toContain(
        'Filter by exactly one of: custorderid, customerplanid, storeid, elmer_id.',
      );
      const two = await list(`?storeid=${storeId}&custorderid=${orderId}`);
      expect(two.statusCode).toBe(400);
      expect(JSON.stringify(two.json().error.fields)).toMatch(
        /one of custorderid, customerplanid, storeid, elmer_id at a time/,
      );
      const bad = await list('?storeid=abc');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields.storeid).toMatch(/store id/);
      const badSort = await list(`?storeid=${storeId}&sort=password`);
      expect(badSort.statusCode).toBe(400);
      expect(badSort.json().error.fields.sort).toMatch(/Sort by one of/);
    });

    it('404 for an unknown customer or a store of another customer', async () => {
      expect((await list(`?storeid=${storeId}`, f.editor, 999_999)).json().error.code).toBe('not_found');
      const res = await list(`?storeid=${other.storeId}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.fields.storeid).toMatch(/is not a store of customer/);
    });

    it('403 without a valid session or without a customer privilege', async () => {
      expect((await list(`?storeid=${storeId}`, UNKNOWN_TOKEN)).json().error.code).toBe('session_invalid');
      const res = await list(`?storeid=${storeId}`, f.outsider);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
    });
  });

  describe('PUT …/customerterminals/{id}', () => {
    it('marks and unmarks a terminal under transfer (elmer_id must match), audited with customer_id', async () => {
      const res = await put(active.id, { elmer_id: active.elmerId, under_transfer: true, version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({ id: active.id, under_transfer: true, version: 2 });
      const back = await put(active.id, { elmer_id: active.elmerId, under_transfer: false, version: 2 });
      expect(back.json().info).toMatchObject({ under_transfer: false, version: 3 });
      const entries = await auditOf(f.t, 'terminal', active.elmerId);
      expect(entries.map((e) => e.action)).toEqual(['mark_under_transfer', 'unmark_under_transfer']);
      expect(entries[0]).toMatchObject({
        actorEmail: 'editor@example.com',
        customerId,
        before: { customer_id: customerId, terminal_id: active.id, under_transfer: false },
        after: { customer_id: customerId, terminal_id: active.id, under_transfer: true },
      });
    });

    it('sets and clears the processor serial number (upper-cased)', async () => {
      const res = await put(second.id, { pos_cc_processor_serial_number: 'pax-a920-001', version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({ pos_cc_processor_serial_number: 'PAX-A920-001', version: 2 });
      const cleared = await put(second.id, { pos_cc_processor_serial_number: null, version: 2 });
      expect(cleared.json().info).toMatchObject({ pos_cc_processor_serial_number: null, version: 3 });
      expect((await auditOf(f.t, 'terminal', second.elmerId)).map((e) => e.action)).toEqual([
        'update_processor_serial',
        'update_processor_serial',
      ]);
    });

    it('400 for no shape, both shapes, half a shape, or a wrong elmer_id — nothing changes', async () => {
      const before = await row(active.id);
      const none = await put(active.id, { version: before.version });
      expect(none.statusCode).toBe(400);
      expect(none.json().error.fields.body).toMatch(/Say what changes/);
      const both = await put(active.id, {
        elmer_id: active.elmerId,
        under_transfer: true,
        pos_cc_processor_serial_number: 'ABC-123',
        version: before.version,
      });
      expect(both.json().error.fields.body).toMatch(/not both/);
      const half = await put(active.id, { elmer_id: active.elmerId, version: before.version });
      expect(half.json().error.fields.under_transfer).toBe('Send under_transfer (true or false) with elmer_id.');
      const badSerial = await put(active.id, { pos_cc_processor_serial_number: 'no spaces!', version: before.version });
      expect(badSerial.json().error.fields.pos_cc_processor_serial_number).toBe(
        'A serial number has 3–40 letters, digits or dashes.',
      );
      const wrong = await put(active.id, { elmer_id: second.elmerId, under_transfer: true, version: before.version });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.fields.elmer_id).toMatch(/is not the terminal id of this terminal/);
      expect(await row(active.id)).toEqual(before);
    });

    it('409 with the current terminal for a stale version', async () => {
      const current = await row(active.id);
      const res = await put(active.id, {
        elmer_id: active.elmerId,
        under_transfer: true,
        version: current.version - 1,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({
        code: 'version_conflict',
        current: { id: active.id, version: current.version, under_transfer: false },
      });
      expect(await row(active.id)).toEqual(current);
    });

    it('404 for a terminal of another customer; 409 for a retired one', async () => {
      const res = await put(foreign.id, { elmer_id: foreign.elmerId, under_transfer: true, version: 1 });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('not_found');
      const gone = await put(retired.id, { elmer_id: retired.elmerId, under_transfer: true, version: retired.version });
      expect(gone.statusCode).toBe(409);
      expect(gone.json().error.message).toMatch(/retired terminal cannot be changed/);
    });

    it('403 for a view-only user (AR Team) and without a session — nothing changes', async () => {
      const before = await row(active.id);
      const res = await put(
        active.id,
        { elmer_id: active.elmerId, under_transfer: true, version: before.version },
        f.viewer,
      );
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('forbidden');
      expect(
        (
          await put(
            active.id,
            { elmer_id: active.elmerId, under_transfer: true, version: before.version },
            UNKNOWN_TOKEN,
          )
        ).json().error.code,
      ).toBe('session_invalid');
      expect(await row(active.id)).toEqual(before);
    });
  });

  describe('DELETE /api/customers/{token}/customerterminals/{id}', () => {
    it('400 without a reason, 404 for an unknown reason, 400 for a reason no longer used', async () => {
      const t = await row(second.id);
      const missing = await retire(second.id, { version: t.version });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields.reason_id).toMatch(/retire reason/);
      const unknown = await retire(second.id, { reason_id: 987_654, version: t.version });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.fields.reason_id).toBe('Choose a retire reason from the list.');
      const old = await retire(second.id, { reason_id: inactiveReasonId, version: t.version });
      expect(old.statusCode).toBe(400);
      expect(old.json().error.fields.reason_id).toBe('This retire reason is no longer used.');
      expect(await row(second.id)).toEqual(t);
    });

    it('403 for a view-only user; 409 for a stale version — nothing changes', async () => {
      const t = await row(second.id);
      expect((await retire(second.id, { reason_id: reasonId, version: t.version }, f.viewer)).statusCode).toBe(403);
      const stale = await retire(second.id, { reason_id: reasonId, version: t.version + 5 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error).toMatchObject({
        code: 'version_conflict',
        current: { id: second.id, status: 'active' },
      });
      expect(await row(second.id)).toEqual(t);
    });

    it('nothing is half-written: when the audit entry fails, the terminal stays active', async () => {
      const t = await row(second.id);
      const undo = await failAuditOf(f.t, 'retire');
      try {
        const res = await retire(second.id, { reason_id: reasonId, version: t.version });
        expect(res.statusCode).toBe(500);
      } finally {
        await undo();
      }
      expect(await row(second.id)).toEqual(t);
    });

    it('retires with a reason (body form), audited for the customer; a second retire → 409', async () => {
      const t = await row(second.id);
      const res = await retire(second.id, { reason_id: reasonId, version: t.version });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({
        id: second.id,
        status: 'retired',
        status_label: 'Retired',
        retired_at: '2026-11-22T12:00:00.000Z',
        retire_reason: { id: reasonId, code: 'defective', label: 'Defective hardware' },
        version: t.version + 1,
      });
      const [entry] = (await auditOf(f.t, 'terminal', second.elmerId)).filter((e) => e.action === 'retire');
      expect(entry).toMatchObject({
        customerId,
        before: { customer_id: customerId, status: 'active' },
        after: {
          customer_id: customerId,
          status: 'retired',
          retire_reason: 'defective',
          retire_reason_label: 'Defective hardware',
        },
      });
      const again = await retire(second.id, { reason_id: reasonId, version: t.version + 1 });
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({
        code: 'conflict',
        message: `Terminal ${second.elmerId} is already retired.`,
        current: { status: 'retired' },
      });
    });

    it('takes reason_id and version from the query too; 404 for an unknown terminal', async () => {
      const t = await row(foreign.id);
      const res = await retire(foreign.id, undefined, f.editor, `?reason_id=${reasonId}&version=${t.version}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({ status: 'retired', customer_id: other.customerId });
      const customerRows = await f.t.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.customerId, other.customerId));
      expect(customerRows.map((r) => r.action)).toEqual(['retire']);
      expect((await retire(2_000_000_000, { reason_id: reasonId, version: 1 })).statusCode).toBe(404);
    });
  });

  it('every customer-accounts route is in the OpenAPI document (the contracts convert)', async () => {
    const res = await f.t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    const paths = Object.keys(res.json().paths);
    for (const p of [
      '/api/customers/{id}/{token}/customerterminals',
      '/api/customers/{token}/customerterminals/{terminalId}',
      '/api/customers/{token}/terminals/validate/{a}/{b}',
      '/api/customers/{id}/{token}/customerpaymentplans/{planId}',
      '/api/customers/{id}/{token}/customerbillingitems',
      '/api/customers/{id}/{token}/features',
      '/api/customers/{id}/customerbundles/{token}',
      '/api/customers/{id}/{token}/transactions/{txId}',
      '/api/customers/{id}/{token}/customerinvoices/{invoiceId}/reverse',
      '/api/customers/{id}/{token}/paymentinstruments',
      '/gateway-local/v1/tokens',
    ]) {
      expect(paths).toContain(p);
    }
  });

  describe('GET /api/customers/{token}/terminals/validate/{elmer_id}/{serial}', () => {
    const validate = (a: string, b: string, token = f.viewer) =>
      f.t.request({ method: 'GET', url: `/api/customers/${token}/terminals/validate/${a}/${b}` });

    it('a terminal with its own serial, or an unused serial, is valid', async () => {
      const own = (await validate(active.elmerId, 'nrs-active-1')).json().info;
      expect(own).toEqual({
        elmer_id: active.elmerId,
        serial_number: 'NRS-ACTIVE-1',
        valid: true,
        serial_matches: true,
        serial_in_use_by: null,
        reasons: [],
        terminal: { id: active.id, customer_id: customerId, store_id: storeId, status: 'active' },
      });
      expect((await validate(active.elmerId, 'NEW-SERIAL-77')).json().info).toMatchObject({
        valid: true,
        serial_matches: false,
      });
    });

    it("another terminal's serial, a retired terminal or an unknown terminal is not valid, with reasons", async () => {
      const taken = (await validate(active.elmerId, 'NRS-FOREIGN-9')).json().info;
      expect(taken).toMatchObject({
        valid: false,
        serial_in_use_by: foreign.elmerId,
        reasons: [`Serial number NRS-FOREIGN-9 belongs to terminal ${foreign.elmerId}.`],
      });
      expect((await validate(retired.elmerId, 'ANY-SERIAL')).json().info.reasons).toEqual([
        `Terminal ${retired.elmerId} is retired.`,
      ]);
      expect((await validate('00000000', 'ANY-SERIAL')).json().info).toMatchObject({
        valid: false,
        terminal: null,
        reasons: ['Terminal 00000000 does not exist.'],
      });
    });

    it('400 for a malformed serial number; 403 without a session', async () => {
      const res = await validate(active.elmerId, 'a');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.b).toBe('A serial number has 3–40 letters, digits or dashes.');
      expect((await validate(active.elmerId, 'NRS-1', UNKNOWN_TOKEN)).statusCode).toBe(403);
    });
  });
});
