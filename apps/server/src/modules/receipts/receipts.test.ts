import { BILLING_ITEM_IDS } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createInvoice, createStore, ensureBillingItems } from '../../db/factories';
import { auditLog, invoiceLines, invoices, receiptAllocations, receipts, uploads } from '../../db/schema';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { multipartBody, sampleFile } from '../../test/uploads';
import { ledgerMismatchesSql } from '../ledger';

/*
 * Receipts (issue 16 point 3, decision 119) through HTTP. Today is 2026-11-22 (the test clock). Runs on PGlite, and
 * on PostgreSQL with TEST_DATABASE_URL (then the concurrent applications really run at once and meet the row locks).
 */

let t: TestApp;
let tok: Record<'ar' | 'admin' | 'support' | 'marketing', string>;
const ids = { us: 0, usStore: 0, ca: 0, caStore: 0, other: 0 };

type Page = {
  receipt: {
    id: number;
    amount_cents: number;
    unapplied_cents: number;
    applied_cents: number;
    version: number;
    method: string;
    upload_id: string | null;
    fee_invoice_id: number | null;
    fee_invoice_number: string | null;
    reference: string | null;
  };
  allocations: Array<{ id: number; invoice_id: number; amount_cents: number; invoice_number: string }>;
  open_invoices: Array<{ invoice_id: number; open_cents: number; invoice_number: string }>;
};

const get = (url: string, token = tok.ar) => t.request({ method: 'GET', url: `${url}/${token}` });
const post = (url: string, payload: unknown, token = tok.ar, key?: string) =>
  t.request({
    method: 'POST',
    url: `${url}/${token}`,
    payload: payload as Record<string, unknown>,
    headers: key ? { 'idempotency-key': key } : {},
  });
const del = (url: string, version: number, token = tok.ar, key?: string) =>
  t.request({
    method: 'DELETE',
    url: `${url}/${token}?version=${version}`,
    headers: key ? { 'idempotency-key': key } : {},
  });

async function mismatches(): Promise<unknown[]> {
  const res = (await t.database.db.execute(ledgerMismatchesSql(50))) as unknown as { rows: unknown[] };
  return res.rows;
}

const checkReceipt = (over: Record<string, unknown> = {}) => ({
  customer_id: ids.us,
  store_id: ids.usStore,
  method: 'check',
  amount_cents: 100_00,
  currency: 'USD',
  received_on: '2026-11-20',
  reference: '1042',
  ...over,
});

async function record(over: Record<string, unknown> = {}): Promise<Page> {
  const res = await post('/api/receipts', checkReceipt(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().info as Page;
}

async function openInvoice(cents: number, customerId = ids.us, storeId: number | null = ids.usStore) {
  return createInvoice(t.database.db, {
    customerId,
    storeId,
    currency: customerId === ids.ca ? 'CAD' : 'USD',
    lines: [
      { billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, description: 'Monthly service fee', unitCents: cents },
    ],
  });
}

async function openOf(invoiceId: number): Promise<number> {
  const res = await t.database.query<{ open_cents: string }>(
    `select open_cents::text from invoice_balances where invoice_id = $1`,
    [invoiceId],
  );
  return Number(res[0]!.open_cents);
}

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  tok = await signInStaff(t, {
    ar: 'AR Team',
    admin: 'Admin',
    support: 'Customer Support',
    marketing: 'Marketing',
  });
  const db = database.db;
  await ensureBillingItems(db, [BILLING_ITEM_IDS.CASH_CHECK_FEE, BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE]);
  // Names and e-mails fixed: the text search below must find only Café Maple (random names may say "Maple").
  const us = await createCustomer(db, {
    country: 'US',
    legalName: 'Bluebird Diner LLC',
    email: 'owner@bluebird.example',
  });
  ids.us = us.id;
  ids.usStore = (
    await createStore(db, {
      customerId: us.id,
      country: 'US',
      doingBusinessAs: 'Bluebird Diner',
      storeName: 'Bluebird Diner Main St',
    })
  ).id;
  const ca = await createCustomer(db, { country: 'CA', legalName: 'Café Maple Inc' });
  ids.ca = ca.id;
  ids.caStore = (await createStore(db, { customerId: ca.id, country: 'CA', doingBusinessAs: 'Café Maple' })).id;
  ids.other = (
    await createCustomer(db, { country: 'US', legalName: 'Other Grill LLC', email: 'owner@grill.example' })
  ).id;
});
afterAll(() => t.close());

describe('record a receipt: POST /api/receipts/{token}', () => {
  it('records a check with its image (upload field checkimage), linked to the receipt, with an audit entry', async () => {
    const body = multipartBody([
      { name: 'checkimage', filename: 'check-1042.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    const up = await t.request({
      method: 'POST',
      url: `/api/receipts/checkimage/${tok.ar}`,
      payload: body.payload,
      headers: body.headers,
    });
    expect(up.statusCode, up.body).toBe(201);
    const uploadId = up.json().info.upload_id as string;

    const page = await record({ upload_id: uploadId, note: 'Mailed in' });
    expect(page.receipt).toMatchObject({
      method: 'check',
      amount_cents: 100_00,
      unapplied_cents: 100_00,
      applied_cents: 0,
      upload_id: uploadId,
      fee_invoice_id: null,
      reference: '1042',
    });
    const [u] = await t.database.db.select().from(uploads).where(eq(uploads.publicId, uploadId));
    expect(u).toMatchObject({ ownerType: 'receipt', ownerId: String(page.receipt.id) });
    const [stored] = await t.database.db.select().from(receipts).where(eq(receipts.id, page.receipt.id));
    expect(stored!.uploadId).toBe(u!.id);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'receipt'));
    expect(audit.find((a) => a.entityId === String(page.receipt.id))).toMatchObject({
      action: 'create',
      actorEmail: 'ar@example.com',
      customerId: ids.us,
    });
    // The image reads back as it was stored (AR reads receipts).
    const image = await get(`/api/uploads/${uploadId}`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(0, 4).toString('latin1')).toBe('\x89PNG');
    // The image is the first receipt's now: a second receipt cannot take it (404 upload_id, like a missing upload).
    const again = await post('/api/receipts', checkReceipt({ upload_id: uploadId, reference: '1043' }));
    expect(again.statusCode, again.body).toBe(404);
    expect(again.json().error).toEqual({
      code: 'not_found',
      message: `Upload ${uploadId} was not found.`,
      fields: { upload_id: 'This file was not found: upload it again.' },
    });
    expect(await mismatches()).toEqual([]);
  });

  it("another user's check image, or an id that is no upload's, is 404 naming upload_id; nothing recorded", async () => {
    const body = multipartBody([
      { name: 'checkimage', filename: 'theirs.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    const up = await t.request({
      method: 'POST',
      url: `/api/receipts/checkimage/${tok.admin}`,
      payload: body.payload,
      headers: body.headers,
    });
    expect(up.statusCode, up.body).toBe(201);
    const theirs = up.json().info.upload_id as string;
    const before = (await t.database.db.select().from(receipts)).length;
    const foreign = await post('/api/receipts', checkReceipt({ upload_id: theirs, reference: '2001' }));
    const unknown = await post('/api/receipts', checkReceipt({ upload_id: 'x'.repeat(32), reference: '2002' }));
    expect([foreign.statusCode, unknown.statusCode]).toEqual([404, 404]);
    expect(foreign.json().error.fields).toEqual({ upload_id: 'This file was not found: upload it again.' });
    expect(unknown.json().error.fields).toEqual(foreign.json().error.fields);
    // A sequential id is not an upload id at all.
    const numeric = await post('/api/receipts', checkReceipt({ upload_id: 1, reference: '2003' }));
    expect(numeric.statusCode).toBe(400);
    expect(numeric.json().error.fields).toHaveProperty('upload_id');
    expect((await t.database.db.select().from(receipts)).length).toBe(before);
    const [u] = await t.database.db.select().from(uploads).where(eq(uploads.publicId, theirs));
    expect(u!.ownerType).toBeNull();
  });

  it('a file that is not an image is refused by its bytes (415, field checkimage)', async () => {
    const body = multipartBody([
      { name: 'checkimage', filename: 'check.png', contentType: 'image/png', data: Buffer.from('not a png at all') },
    ]);
    const up = await t.request({
      method: 'POST',
      url: `/api/receipts/checkimage/${tok.ar}`,
      payload: body.payload,
      headers: body.headers,
    });
    expect(up.statusCode).toBe(415);
    expect(up.json().error.fields).toHaveProperty('checkimage');
  });

  it('400 with fields: no check number, no amount, a date in the future, the wrong currency', async () => {
    const res = await post('/api/receipts', checkReceipt({ reference: '', amount_cents: 0 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toMatchObject({
      reference: 'Enter the check number.',
      amount_cents: 'The amount must be more than 0.',
    });
    const future = await post('/api/receipts', checkReceipt({ received_on: '2026-11-23' }));
    expect(future.statusCode).toBe(400);
    expect(future.json().error.fields.received_on).toBe('The day received cannot be in the future.');
    const cad = await post('/api/receipts', checkReceipt({ currency: 'CAD' }));
    expect(cad.statusCode).toBe(400);
    expect(cad.json().error.fields.currency).toContain('USD');
  });

  it('400 naming received_on for a day more than 2 years back (0001-01-01 too); the oldest day allowed is taken', async () => {
    const before = (await t.database.db.select().from(receipts)).length;
    for (const day of ['0001-01-01', '1999-12-31', '2024-11-21']) {
      const res = await post('/api/receipts', checkReceipt({ received_on: day, reference: `old-${day}` }));
      expect(res.statusCode, `${day}: ${res.body}`).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'validation_failed',
        fields: { received_on: 'The day received cannot be more than 2 years ago (the earliest is 2024-11-22).' },
      });
    }
    expect((await t.database.db.select().from(receipts)).length).toBe(before);
    // Today is 2026-11-22: exactly two years back is still inside the window.
    expect((await record({ received_on: '2024-11-22', reference: 'oldest-ok' })).receipt.id).toBeGreaterThan(0);
  });

  it('403 without the privilege receipts (Customer Support, Marketing); nothing recorded', async () => {
    const before = (await t.database.db.select().from(receipts)).length;
    for (const token of [tok.support, tok.marketing]) {
      const res = await post('/api/receipts', checkReceipt({ reference: '9999' }), token);
      expect(res.statusCode).toBe(403);
    }
    expect((await t.database.db.select().from(receipts)).length).toBe(before);
  });

  it('404 for an unknown customer, and for a store of another customer', async () => {
    const res = await post('/api/receipts', checkReceipt({ customer_id: 999_999, store_id: null }));
    expect(res.statusCode).toBe(404);
    expect(res.json().error.fields).toHaveProperty('customer_id');
    const wrongStore = await post('/api/receipts', checkReceipt({ customer_id: ids.other }));
    expect(wrongStore.statusCode).toBe(404);
  });

  it('cash with "charge the cash/check fee": a US customer gets a one-line invoice of item 53 at its USD price', async () => {
    const page = await record({ method: 'cash', reference: undefined, amount_cents: 50_00, charge_fee: true });
    expect(page.receipt.fee_invoice_id).not.toBeNull();
    expect(page.receipt.fee_invoice_number).toMatch(/^INV-2026-\d{7}$/);
    const [inv] = await t.database.db.select().from(invoices).where(eq(invoices.id, page.receipt.fee_invoice_id!));
    expect(inv).toMatchObject({ customerId: ids.us, totalCents: 5_00, currency: 'USD', type: 'S', status: 'N' });
    const lines = await t.database.db
      .select()
      .from(invoiceLines)
      .where(eq(invoiceLines.invoiceId, page.receipt.fee_invoice_id!));
    expect(lines).toEqual([
      expect.objectContaining({ billingItemId: BILLING_ITEM_IDS.CASH_CHECK_FEE, amountCents: 5_00, quantity: 1 }),
    ]);
    // The fee invoice is one of the customer's open invoices the receipt can pay.
    expect(page.open_invoices.map((i) => i.invoice_id)).toContain(page.receipt.fee_invoice_id);
    expect(await mismatches()).toEqual([]);
  });

  it('the fee is refused for a Canadian customer and for a wire (400, field charge_fee)', async () => {
    const ca = await post(
      '/api/receipts',
      checkReceipt({ customer_id: ids.ca, store_id: ids.caStore, currency: 'CAD', charge_fee: true }),
    );
    expect(ca.statusCode).toBe(400);
    expect(ca.json().error.fields.charge_fee).toContain('US customers');
    const wire = await post('/api/receipts', checkReceipt({ method: 'wire', reference: 'W-1', charge_fee: true }));
    expect(wire.statusCode).toBe(400);
    expect(wire.json().error.fields.charge_fee).toBe('The cash/check fee applies to cash and checks.');
  });

  it('Idempotency-Key: the same request twice records one receipt and answers the same', async () => {
    const body = checkReceipt({ reference: 'IDEM-1', amount_cents: 12_34 });
    const a = await post('/api/receipts', body, tok.ar, 'rec-key-1');
    const b = await post('/api/receipts', body, tok.ar, 'rec-key-1');
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json().info.receipt.id).toBe(a.json().info.receipt.id);
    const rows = await t.database.db.select().from(receipts).where(eq(receipts.reference, 'IDEM-1'));
    expect(rows).toHaveLength(1);
  });
});

describe('list: GET /api/receipts/{token}', () => {
  it('filters by method, unapplied, currency, dates and text; sorts; pages', async () => {
    await record({
      customer_id: ids.ca,
      store_id: ids.caStore,
      currency: 'CAD',
      reference: 'MAPLE-77',
      amount_cents: 70_00,
    });
    const cash = await get('/api/receipts', tok.ar).then(() =>
      t.request({ method: 'GET', url: `/api/receipts/${tok.ar}?method=cash` }),
    );
    expect(cash.statusCode).toBe(200);
    expect(cash.json().info.items.every((r: { method: string }) => r.method === 'cash')).toBe(true);
    expect(cash.json().info.items.length).toBeGreaterThan(0);

    const cad = await t.request({ method: 'GET', url: `/api/receipts/${tok.ar}?currency=CAD` });
    expect(cad.json().info.items.map((r: { reference: string }) => r.reference)).toEqual(['MAPLE-77']);

    const text = await t.request({ method: 'GET', url: `/api/receipts/${tok.ar}?q=maple` });
    expect(text.json().info.items).toHaveLength(1);
    expect(text.json().info.items[0]).toMatchObject({ legal_name: 'Café Maple Inc', doing_business_as: 'Café Maple' });

    const sorted = await t.request({ method: 'GET', url: `/api/receipts/${tok.ar}?sort=amount_cents&limit=2` });
    const amounts = sorted.json().info.items.map((r: { amount_cents: number }) => r.amount_cents);
    expect(amounts).toEqual([...amounts].sort((x, y) => x - y));
    expect(amounts).toHaveLength(2);
    expect(sorted.json().info.total).toBeGreaterThan(2);

    const unapplied = await t.request({ method: 'GET', url: `/api/receipts/${tok.ar}?unapplied=true&limit=500` });
    expect(unapplied.json().info.items.length).toBeGreaterThan(0);
    expect(unapplied.json().info.items.every((r: { unapplied_cents: number }) => r.unapplied_cents > 0)).toBe(true);

    const none = await t.request({
      method: 'GET',
      url: `/api/receipts/${tok.ar}?received_from=2026-11-21&received_to=2026-11-22`,
    });
    expect(none.json().info).toEqual({ items: [], total: 0, total_capped: false });
  });

  it('400 with fields for a bad filter; 403 without receipts', async () => {
    const bad = await t.request({
      method: 'GET',
      url: `/api/receipts/${tok.ar}?method=bitcoin`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.method).toBe('The method is one of check, cash, wire, ach, card.');
    const dates = await t.request({
      method: 'GET',
      url: `/api/receipts/${tok.ar}?received_from=2026-11-20&received_to=2026-11-01`,
    });
    expect(dates.statusCode).toBe(400);
    expect(dates.json().error.fields.received_to).toBe('The last day is before the first.');
    expect((await get('/api/receipts', tok.support)).statusCode).toBe(403);
  });

  it('format=csv: every matching row as CSV', async () => {
    const res = await t.request({ method: 'GET', url: `/api/receipts/${tok.ar}?format=csv&currency=CAD` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('receipts-2026-11-22.csv');
    const lines = res.body.trim().split(/\r?\n/);
    expect(lines[0]).toContain('id,received_on,customer_id,legal_name');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('MAPLE-77');
  });
});

describe('one receipt: GET /api/receipts/{id}/{token}', () => {
  it('answers the receipt, its applications and the open invoices in its currency; 404 for an unknown one', async () => {
    const inv = await openInvoice(40_00);
    const page = await record({ reference: 'ONE-1' });
    const res = await get(`/api/receipts/${page.receipt.id}`);
    expect(res.statusCode).toBe(200);
    const info = res.json().info as Page;
    expect(info.allocations).toEqual([]);
    expect(info.open_invoices.find((i) => i.invoice_id === inv.id)).toMatchObject({ open_cents: 40_00 });
    expect((await get('/api/receipts/999999')).statusCode).toBe(404);
    expect((await get(`/api/receipts/${page.receipt.id}`, tok.marketing)).statusCode).toBe(403);
  });
});

describe('apply and un-apply', () => {
  it('applies one receipt across two invoices: balances drop, the rest stays on the receipt; un-apply restores exactly', async () => {
    const a = await openInvoice(79_00);
    const b = await openInvoice(45_00);
    const page = await record({ reference: 'APPLY-1', amount_cents: 150_00 });
    const res = await post(
      `/api/receipts/${page.receipt.id}/applications`,
      {
        version: page.receipt.version,
        applications: [
          { invoice_id: a.id, amount_cents: 79_00 },
          { invoice_id: b.id, amount_cents: 30_00 },
        ],
      },
      tok.ar,
      'apply-1',
    );
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json().info as Page;
    expect(after.receipt).toMatchObject({ unapplied_cents: 41_00, applied_cents: 109_00 });
    expect(after.receipt.version).toBe(page.receipt.version + 1);
    expect(after.allocations.map((x) => [x.invoice_id, x.amount_cents])).toEqual([
      [a.id, 79_00],
      [b.id, 30_00],
    ]);
    expect(await openOf(a.id)).toBe(0);
    expect(await openOf(b.id)).toBe(15_00);
    // The paid invoice leaves the open list; the other shows its new balance.
    expect(after.open_invoices.find((i) => i.invoice_id === a.id)).toBeUndefined();
    expect(after.open_invoices.find((i) => i.invoice_id === b.id)).toMatchObject({ open_cents: 15_00 });
    const [stored] = await t.database.db.select().from(invoices).where(eq(invoices.id, a.id));
    expect(stored).toMatchObject({ paidCents: 79_00, status: 'P' });
    expect(await mismatches()).toEqual([]);
    const invoiceAudit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(b.id)));
    expect(invoiceAudit.map((x) => x.action)).toContain('receipt_applied');

    // Un-apply the first: the invoice is open again for 79.00, the receipt has 120.00 left.
    const allocation = after.allocations.find((x) => x.invoice_id === a.id)!;
    const un = await del(`/api/receipts/${page.receipt.id}/applications/${allocation.id}`, after.receipt.version);
    expect(un.statusCode, un.body).toBe(200);
    const undone = un.json().info as Page;
    expect(undone.receipt.unapplied_cents).toBe(120_00);
    expect(undone.allocations.map((x) => x.invoice_id)).toEqual([b.id]);
    expect(await openOf(a.id)).toBe(79_00);
    const [reopened] = await t.database.db.select().from(invoices).where(eq(invoices.id, a.id));
    expect(reopened).toMatchObject({ paidCents: 0, status: 'N' });
    expect(
      await t.database.db.select().from(receiptAllocations).where(eq(receiptAllocations.id, allocation.id)),
    ).toEqual([]);
    const receiptAudit = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, String(page.receipt.id)));
    expect(receiptAudit.filter((x) => x.entity === 'receipt').map((x) => x.action)).toEqual([
      'create',
      'apply',
      'unapply',
    ]);
    expect(await mismatches()).toEqual([]);

    // The same Idempotency-Key again answers the first application and applies nothing more.
    const replay = await post(
      `/api/receipts/${page.receipt.id}/applications`,
      {
        version: page.receipt.version,
        applications: [
          { invoice_id: a.id, amount_cents: 79_00 },
          { invoice_id: b.id, amount_cents: 30_00 },
        ],
      },
      tok.ar,
      'apply-1',
    );
    expect(replay.statusCode).toBe(200);
    expect(replay.json().info.receipt.unapplied_cents).toBe(41_00);
    expect(await openOf(a.id)).toBe(79_00);
  });

  it('400 with fields: more than an invoice owes, more than the receipt has left, an invoice of another customer', async () => {
    const inv = await openInvoice(20_00);
    const inv2 = await openInvoice(90_00);
    const foreign = await openInvoice(10_00, ids.other, null);
    const page = await record({ reference: 'OVER-1', amount_cents: 50_00 });
    const over = await post(`/api/receipts/${page.receipt.id}/applications`, {
      version: page.receipt.version,
      applications: [{ invoice_id: inv.id, amount_cents: 20_01 }],
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().error.fields['applications.0.amount_cents']).toBe(
      `Invoice ${inv.invoiceNumber} has only $20.00 open.`,
    );
    const tooMuch = await post(`/api/receipts/${page.receipt.id}/applications`, {
      version: page.receipt.version,
      applications: [
        { invoice_id: inv.id, amount_cents: 20_00 },
        { invoice_id: inv2.id, amount_cents: 30_01 },
      ],
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.fields.applications).toBe(
      'Only $50.00 of the receipt is left to apply; you entered $50.01.',
    );
    const other = await post(`/api/receipts/${page.receipt.id}/applications`, {
      version: page.receipt.version,
      applications: [{ invoice_id: foreign.id, amount_cents: 1_00 }],
    });
    // Another customer's invoice is answered like a missing one (decision 140).
    expect(other.statusCode).toBe(404);
    expect(other.json().error.fields).toHaveProperty('applications.0.invoice_id');
    const empty = await post(`/api/receipts/${page.receipt.id}/applications`, {
      version: page.receipt.version,
      applications: [],
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields.applications).toBe('Enter an amount for at least one invoice.');
    // Nothing was applied.
    expect(await openOf(inv.id)).toBe(20_00);
    const [r] = await t.database.db.select().from(receipts).where(eq(receipts.id, page.receipt.id));
    expect(r).toMatchObject({ unappliedCents: 50_00, version: page.receipt.version });
  });

  it('403 without apply_receipt; 404 for an unknown receipt or application; 409 on a stale version', async () => {
    const inv = await openInvoice(30_00);
    const page = await record({ reference: 'GUARD-1', amount_cents: 30_00 });
    const body = { version: page.receipt.version, applications: [{ invoice_id: inv.id, amount_cents: 10_00 }] };
    expect((await post(`/api/receipts/${page.receipt.id}/applications`, body, tok.support)).statusCode).toBe(403);
    expect((await post('/api/receipts/999999/applications', body)).statusCode).toBe(404);

    const ok = await post(`/api/receipts/${page.receipt.id}/applications`, body);
    expect(ok.statusCode).toBe(200);
    const stale = await post(`/api/receipts/${page.receipt.id}/applications`, body);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('version_conflict');
    expect(stale.json().error.current.receipt.unapplied_cents).toBe(20_00);

    const allocationId = (ok.json().info as Page).allocations[0]!.id;
    expect(
      (await del(`/api/receipts/${page.receipt.id}/applications/${allocationId}`, page.receipt.version)).statusCode,
    ).toBe(409);
    expect(
      (
        await del(
          `/api/receipts/${page.receipt.id}/applications/${allocationId}`,
          page.receipt.version + 1,
          tok.support,
        )
      ).statusCode,
    ).toBe(403);
    expect(
      (await del(`/api/receipts/${page.receipt.id}/applications/999999`, page.receipt.version + 1)).statusCode,
    ).toBe(404);
    expect(await openOf(inv.id)).toBe(20_00);
    expect(await mismatches()).toEqual([]);
  });
});

describe('concurrent applications cannot overdraw', () => {
  it('two applications of one receipt at once (Promise.all): one applies, the other is refused', async () => {
    const x = await openInvoice(80_00);
    const y = await openInvoice(80_00);
    const page = await record({ reference: 'RACE-1', amount_cents: 100_00 });
    const [first, second] = await Promise.all(
      [x, y].map((inv, i) =>
        post(
          `/api/receipts/${page.receipt.id}/applications`,
          { version: page.receipt.version, applications: [{ invoice_id: inv.id, amount_cents: 80_00 }] },
          tok.ar,
          `race-${i}`,
        ),
      ),
    );
    const statuses = [first!.statusCode, second!.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const [r] = await t.database.db.select().from(receipts).where(eq(receipts.id, page.receipt.id));
    expect(r!.unappliedCents).toBe(20_00);
    const allocated = await t.database.db
      .select()
      .from(receiptAllocations)
      .where(eq(receiptAllocations.receiptId, page.receipt.id));
    expect(allocated.reduce((s, a) => s + a.amountCents, 0)).toBe(80_00);
    expect(await mismatches()).toEqual([]);
  });

  it('two receipts applied to one invoice at once: the invoice is never paid past its balance', async () => {
    const inv = await openInvoice(79_00);
    const r1 = await record({ reference: 'RACE-2A', amount_cents: 60_00 });
    const r2 = await record({ reference: 'RACE-2B', amount_cents: 60_00 });
    const answers = await Promise.all(
      [r1, r2].map((p) =>
        post(`/api/receipts/${p.receipt.id}/applications`, {
          version: p.receipt.version,
          applications: [{ invoice_id: inv.id, amount_cents: 60_00 }],
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const refused = answers.find((a) => a.statusCode === 400)!;
    expect(refused.json().error.fields['applications.0.amount_cents']).toContain('has only $19.00 open');
    expect(await openOf(inv.id)).toBe(19_00);
    expect(await mismatches()).toEqual([]);
  });
});
