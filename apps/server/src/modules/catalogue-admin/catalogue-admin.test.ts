import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blankOrder, type OrderDocument } from '@pos/domain';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue, createCustomer, createInvoice, createStore, createTerminal } from '../../db/factories';
import { auditLog, mailLog, orders, taxRates } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Catalogue management for Admin (issue 17 point 4, decision 126) through HTTP: every call answers 200 / 400 / 403
 * (not Admin) / 404 and an edit on a stale version 409; and a price change leaves what was issued as it was.
 */

let t: TestApp;
let tok: Record<'admin' | 'ar' | 'sales', string>;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const B = '/api/admin/catalogue';

async function req(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, headers?: Record<string, string>) {
  const res = await t.request({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as Json }),
    ...(headers ? { headers } : {}),
  });
  let body: Json = {};
  try {
    body = res.json() as Json;
  } catch {
    /* a PDF */
  }
  return { status: res.statusCode, body, res };
}

beforeAll(async () => {
  t = await createTestApp({ config: { dataDir: mkdtempSync(path.join(os.tmpdir(), 'pos-catalogue-admin-')) } });
  await createCatalogue(t.database.db);
  tok = await signInStaff(t, { admin: 'Admin', ar: 'AR Team', sales: 'RAM' });
});
afterAll(() => t.close());

describe('billing items and categories', () => {
  it('an Admin adds a category and an item with prices, then reprices and deactivates it; audited', async () => {
    const cat = await req('POST', `${B}/categories/${tok.admin}`, { name: 'Hardware care' });
    expect(cat.status, JSON.stringify(cat.body)).toBe(200);
    expect(cat.body.info).toMatchObject({ name: 'Hardware care', item_count: 0 });
    const created = await req('POST', `${B}/billingitems/${tok.admin}`, {
      name: 'Screen protector',
      category_id: cat.body.info.id,
      feature: 'N',
      charge_at_level: 'S',
      recurring: false,
      prices: { USD: 1500, CAD: 1900 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const item = created.body.info;
    expect(item).toMatchObject({
      name: 'Screen protector',
      category_name: 'Hardware care',
      prices: { USD: 1500, CAD: 1900 },
      active: true,
      version: 1,
    });

    const edited = await req('PUT', `${B}/billingitems/${item.billing_item_id}/${tok.admin}`, {
      ...item,
      prices: { USD: 1750, CAD: null },
      active: false,
      version: 1,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.info).toMatchObject({ prices: { USD: 1750, CAD: null }, active: false, version: 2 });

    const list = await req('GET', `${B}/billingitems/${tok.admin}`);
    expect(list.body.info.items.find((i: Json) => i.billing_item_id === item.billing_item_id)).toMatchObject({
      prices: { USD: 1750, CAD: null },
      active: false,
    });
    expect(list.body.info.categories.find((c: Json) => c.id === cat.body.info.id).item_count).toBe(1);
    // Inactive: not offered any more by the order flow's catalogue read.
    const offered = await req('GET', `/api/customers/billingitems/${tok.admin}/all?currency=USD`);
    expect(offered.body.info.billing_items.map((i: Json) => i.billing_item_id)).not.toContain(item.billing_item_id);

    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'billing_item'), eq(auditLog.entityId, String(item.billing_item_id))))
      .orderBy(auditLog.id);
    expect(audit.map((a) => a.action)).toEqual(['create', 'update']);
    expect((audit[1]!.before as Json).prices).toEqual({ USD: 1500, CAD: 1900 });
  });

  it('400 for a bad body, 404 for an unknown item, 409 for a stale version or a taken id', async () => {
    const bad = await req('POST', `${B}/billingitems/${tok.admin}`, {
      name: '',
      category_id: null,
      feature: 'N',
      charge_at_level: 'S',
      recurring: false,
      prices: { USD: -1 },
    });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'validation_failed']);
    expect(bad.body.error.fields).toMatchObject({ name: 'Enter the billing item name.' });

    const body = { name: 'X', category_id: null, feature: 'N', charge_at_level: 'S', recurring: false, prices: {} };
    const missing = await req('PUT', `${B}/billingitems/999999/${tok.admin}`, { ...body, active: true, version: 1 });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'not_found']);
    const noCategory = await req('POST', `${B}/billingitems/${tok.admin}`, { ...body, category_id: 999999 });
    expect([noCategory.status, noCategory.body.error.fields]).toEqual([
      400,
      { category_id: 'There is no category 999999.' },
    ]);

    const made = await req('POST', `${B}/billingitems/${tok.admin}`, { ...body, name: 'Stale test' });
    const id = made.body.info.billing_item_id as number;
    expect(
      (await req('PUT', `${B}/billingitems/${id}/${tok.admin}`, { ...body, active: true, version: 1 })).status,
    ).toBe(200);
    const stale = await req('PUT', `${B}/billingitems/${id}/${tok.admin}`, {
      ...body,
      name: 'Y',
      active: true,
      version: 1,
    });
    expect([stale.status, stale.body.error.code]).toEqual([409, 'version_conflict']);
    const taken = await req('POST', `${B}/billingitems/${tok.admin}`, { ...body, billing_item_id: id });
    expect([taken.status, taken.body.error.code]).toEqual([409, 'conflict']);

    const dupCategory = await req('POST', `${B}/categories/${tok.admin}`, { name: 'hardware CARE' });
    expect(dupCategory.status).toBe(409);
    expect((await req('PUT', `${B}/categories/999999/${tok.admin}`, { name: 'Z' })).status).toBe(404);
  });
});

describe('categories', () => {
  it('renames a category; the items list shows the new name; a bad name 400', async () => {
    const made = await req('POST', `${B}/categories/${tok.admin}`, { name: 'Old name' });
    const renamed = await req('PUT', `${B}/categories/${made.body.info.id}/${tok.admin}`, { name: '  New name ' });
    expect([renamed.status, renamed.body.info.name]).toEqual([200, 'New name']);
    const list = await req('GET', `${B}/billingitems/${tok.admin}`);
    expect(list.body.info.categories.map((c: Json) => c.name)).toContain('New name');
    expect(list.body.info.categories.map((c: Json) => c.name)).not.toContain('Old name');
    const bad = await req('PUT', `${B}/categories/${made.body.info.id}/${tok.admin}`, { name: ' ' });
    expect([bad.status, bad.body.error.fields]).toEqual([400, { name: 'Enter the category name.' }]);
  });
});

describe('bundles and price options', () => {
  it('adds a bundle and a price option, edits it under the bundle version (stale → 409), 404 for unknown ones', async () => {
    const made = await req('POST', `${B}/bundles/${tok.admin}`, {
      name: 'Café starter',
      description: null,
      nrs_pay: false,
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const bundle = made.body.info;
    const option = {
      billing_item_id: 8,
      currency: 'USD',
      reference_id: null,
      label: 'Monthly',
      price_cents: 4900,
      term: 1,
    };
    const added = await req('POST', `${B}/bundles/${bundle.bundle_id}/options/${tok.admin}`, { ...option, version: 1 });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.info.version).toBe(2);
    const [opt] = added.body.info.options;
    expect(opt).toMatchObject({ label: 'Monthly', price_cents: 4900, currency: 'USD' });

    const stale = await req('PUT', `${B}/bundles/${bundle.bundle_id}/options/${opt.id}/${tok.admin}`, {
      ...option,
      price_cents: 5900,
      version: 1,
    });
    expect([stale.status, stale.body.error.code]).toEqual([409, 'version_conflict']);
    const ok = await req('PUT', `${B}/bundles/${bundle.bundle_id}/options/${opt.id}/${tok.admin}`, {
      ...option,
      price_cents: 5900,
      version: 2,
    });
    expect(ok.body.info.options[0].price_cents).toBe(5900);
    // The order flow reads the new price option.
    const read = await req(
      'GET',
      `/api/bundles/billingitempriceoptions/${tok.admin}?bundle_id=${bundle.bundle_id}&currency=USD`,
    );
    expect(JSON.stringify(read.body)).toContain('5900');

    const badOption = await req('POST', `${B}/bundles/${bundle.bundle_id}/options/${tok.admin}`, {
      ...option,
      billing_item_id: 999999,
      version: 3,
    });
    expect([badOption.status, badOption.body.error.fields]).toEqual([
      400,
      { billing_item_id: 'There is no billing item 999999.' },
    ]);
    expect(
      (await req('PUT', `${B}/bundles/${bundle.bundle_id}/options/999999/${tok.admin}`, { ...option, version: 3 }))
        .status,
    ).toBe(404);
    expect(
      (
        await req('PUT', `${B}/bundles/999999/${tok.admin}`, {
          name: 'x',
          description: null,
          nrs_pay: false,
          active: true,
          version: 1,
        })
      ).status,
    ).toBe(404);
    const off = await req('PUT', `${B}/bundles/${bundle.bundle_id}/${tok.admin}`, {
      name: 'Café starter',
      description: 'Retired',
      nrs_pay: false,
      active: false,
      version: 3,
    });
    expect(off.body.info).toMatchObject({ active: false, version: 4, description: 'Retired' });
    expect(
      (await req('POST', `${B}/bundles/${tok.admin}`, { name: '', description: null, nrs_pay: false })).status,
    ).toBe(400);
  });
});

describe('products and terminal models', () => {
  it('adds a terminal model with prices; a taken SKU 409, stale version 409, unknown 404, bad kind 400', async () => {
    const body = { name: 'PX-9 terminal', sku: 'PX-9', kind: 'terminal', description: null, prices: { USD: 129900 } };
    const made = await req('POST', `${B}/products/${tok.admin}`, body);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body.info).toMatchObject({ kind: 'terminal', prices: { USD: 129900, CAD: null }, version: 1 });
    const id = made.body.info.product_id as number;
    const terminals = await req('GET', `/api/products/terminals/${tok.admin}/all?currency=USD`);
    expect(JSON.stringify(terminals.body)).toContain('PX-9 terminal');

    expect((await req('POST', `${B}/products/${tok.admin}`, body)).status).toBe(409);
    expect((await req('POST', `${B}/products/${tok.admin}`, { ...body, sku: 'PX-10', kind: 'robot' })).status).toBe(
      400,
    );
    expect((await req('PUT', `${B}/products/${id}/${tok.admin}`, { ...body, active: true, version: 1 })).status).toBe(
      200,
    );
    const stale = await req('PUT', `${B}/products/${id}/${tok.admin}`, { ...body, active: false, version: 1 });
    expect([stale.status, stale.body.error.code]).toEqual([409, 'version_conflict']);
    expect(stale.body.error.current ?? stale.body.error).toBeDefined();
    expect((await req('PUT', `${B}/products/999999/${tok.admin}`, { ...body, active: true, version: 1 })).status).toBe(
      404,
    );
  });
});

describe('domain data lists', () => {
  it('adds a retire reason (offered at once), renames it, deactivates it; in-use count; code taken 409; stale 409', async () => {
    const made = await req('POST', `${B}/domaindata/${tok.admin}`, {
      type: 'retire_reason',
      code: 'LIGHTNING',
      label: 'Lightning strike',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const entry = made.body.info;
    let offered = await req('GET', `/api/domaindata/${tok.ar}?type=retire_reason`);
    expect(offered.body.info.items.map((i: Json) => i.label)).toContain('Lightning strike');

    const customer = await createCustomer(t.database.db, { country: 'US' });
    const store = await createStore(t.database.db, { customerId: customer.id, country: 'US' });
    await createTerminal(t.database.db, {
      customerId: customer.id,
      storeId: store.id,
      status: 'retired',
      retireReasonId: entry.id,
      retiredAt: new Date(),
    } as never);
    const list = await req('GET', `${B}/domaindata/${tok.admin}?type=retire_reason`);
    expect(list.body.info.items.find((i: Json) => i.id === entry.id)).toMatchObject({ in_use: 1, active: true });

    const renamed = await req('PUT', `${B}/domaindata/${entry.id}/${tok.admin}`, {
      label: 'Struck by lightning',
      sort_order: 5,
      active: false,
      version: 1,
    });
    expect(renamed.body.info).toMatchObject({
      label: 'Struck by lightning',
      code: 'LIGHTNING',
      active: false,
      version: 2,
    });
    offered = await req('GET', `/api/domaindata/${tok.ar}?type=retire_reason`);
    expect(offered.body.info.items.map((i: Json) => i.id)).not.toContain(entry.id);

    expect(
      (await req('POST', `${B}/domaindata/${tok.admin}`, { type: 'retire_reason', code: 'lightning', label: 'Again' }))
        .status,
    ).toBe(409);
    expect(
      (
        await req('PUT', `${B}/domaindata/${entry.id}/${tok.admin}`, {
          label: 'x',
          sort_order: 1,
          active: true,
          version: 1,
        })
      ).status,
    ).toBe(409);
    expect(
      (await req('PUT', `${B}/domaindata/999999/${tok.admin}`, { label: 'x', sort_order: 1, active: true, version: 1 }))
        .status,
    ).toBe(404);
    expect((await req('GET', `${B}/domaindata/${tok.admin}?type=colours`)).status).toBe(400);
    expect(
      (await req('POST', `${B}/domaindata/${tok.admin}`, { type: 'retire_reason', code: 'has space', label: 'x' }))
        .status,
    ).toBe(400);
  });
});

describe('guard', () => {
  it('every call is Admin only: another staff role gets 403, a bad token 403', async () => {
    const calls: Array<['GET' | 'POST' | 'PUT', string, unknown?]> = [
      ['GET', `${B}/billingitems/T`],
      ['POST', `${B}/billingitems/T`, {}],
      ['PUT', `${B}/billingitems/8/T`, {}],
      ['POST', `${B}/categories/T`, {}],
      ['PUT', `${B}/categories/1/T`, {}],
      ['GET', `${B}/bundles/T`],
      ['POST', `${B}/bundles/T`, {}],
      ['PUT', `${B}/bundles/1/T`, {}],
      ['POST', `${B}/bundles/1/options/T`, {}],
      ['PUT', `${B}/bundles/1/options/1/T`, {}],
      ['GET', `${B}/products/T`],
      ['POST', `${B}/products/T`, {}],
      ['PUT', `${B}/products/1/T`, {}],
      ['GET', `${B}/domaindata/T?type=retire_reason`],
      ['POST', `${B}/domaindata/T`, {}],
      ['PUT', `${B}/domaindata/1/T`, {}],
    ];
    for (const [method, url, body] of calls) {
      for (const token of [tok.ar, tok.sales, 'not-a-token']) {
        const res = await req(method, url.replace('/T', `/${token}`), body);
        expect([method, url, res.status]).toEqual([method, url, 403]);
      }
    }
  });
});

// ── A price change never changes what was issued ───────────────────────────────────────────────────────────

const address = {
  address1: '12 Elm St',
  address2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US' as const,
};
const PNG_DOT =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** An order priced from the catalogue as the order flow does (the product's and the item's price in the document). */
function orderFrom(productCents: number, itemCents: number): OrderDocument {
  const o = blankOrder();
  o.CustomerInfo = {
    ...o.CustomerInfo,
    firstName: 'Ada',
    lastName: 'Price',
    email: 'ada@merchant.example',
    phone: '2175550100',
    federalTaxId: '41-7100002',
  };
  o.HomeAddress = { ...address };
  o.BillingAddress = { ...address };
  o.ShippingAddress = { ...address };
  o.StoreInfo = {
    ...o.StoreInfo,
    doingBusinessAs: 'Ada Mart',
    storeName: 'Ada Mart Elm',
    phone: '2175550101',
    StoreAddress: { ...address },
  };
  o.totalSalePrice = ((productCents + itemCents) / 100).toFixed(2);
  o.BillingItemInfo = [
    { billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 1, unitPrice: (productCents / 100).toFixed(2) },
    { billingItemId: 30, name: 'Setup', quantity: 1, unitPrice: (itemCents / 100).toFixed(2) },
  ];
  o.PaymentPlanInfo = o.PaymentPlanInfo!.map((p, i) => ({
    ...p,
    paymentPlanId: i === 0 ? 1 : 4,
    recurringAmount: i === 0 ? '0.00' : '59.00',
  }));
  o.PaymentInstrumentInfo = o.PaymentInstrumentInfo!.map((p) => ({
    ...p,
    paymentMethodTypeId: 1,
    creditCardNumber: '4242',
    issuer: 'visa',
  }));
  return o;
}

describe('a price change never changes what was issued', () => {
  it("an issued invoice's lines and totals and a signed contract (PDF, the order's amounts) stay; new ones take the new price", async () => {
    const db = t.database.db;
    await db
      .insert(taxRates)
      .values({ country: 'US', state: 'IL', rateBasisPoints: 625, label: 'Illinois sales tax' })
      .onConflictDoNothing();
    const items = (await req('GET', `${B}/billingitems/${tok.admin}`)).body.info.items as Json[];
    const other = items.find((i) => i.billing_item_id === 30)!;
    const product = ((await req('GET', `${B}/products/${tok.admin}`)).body.info.items as Json[]).find(
      (p) => p.product_id === 1,
    )!;
    const oldItem = other.prices.USD ?? 2500;
    const oldProduct = product.prices.USD ?? 149900;

    // A signed contract for an order priced at today's catalogue.
    const created = await req('POST', `/api/customers/orderinfo/new/${tok.sales}`, {
      json: orderFrom(oldProduct, oldItem),
    });
    const orderId = created.body.info.orderInfoId as number;
    const submit = await req('POST', `/api/customers/orderinfo/${orderId}/${tok.sales}`, {
      json: orderFrom(oldProduct, oldItem),
      version: 1,
      submit: true,
    });
    expect(submit.status, JSON.stringify(submit.body)).toBe(200);
    const [mail] = await db
      .select()
      .from(mailLog)
      .where(and(eq(mailLog.relatedType, 'order'), eq(mailLog.relatedId, String(orderId))))
      .orderBy(desc(mailLog.id))
      .limit(1);
    const link = mail!.links![0]!;
    const signed = await req('POST', `/api/public/contracts/${link.slice(link.lastIndexOf('/') + 1)}/sign`, {
      signer_name: 'Ada Price',
      signature_png: PNG_DOT,
      consent: true,
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    const contractsBefore = (await req('GET', `/api/customers/contracts/${orderId}/${tok.sales}`)).body.info
      .contracts as Json[];
    expect(contractsBefore[0]).toMatchObject({ status: 'signed' });
    const pdfBefore = (
      await req('GET', `/api/customers/contracts/${orderId}/${contractsBefore[0]!.id}/pdf/${tok.sales}`)
    ).res.rawPayload;
    const [orderBefore] = await db.select().from(orders).where(eq(orders.id, orderId));

    // An issued invoice with the item at its old price.
    const customer = await createCustomer(db, { country: 'US' });
    const store = await createStore(db, { customerId: customer.id, country: 'US' });
    const invoice = await createInvoice(db, {
      customerId: customer.id,
      storeId: store.id,
      currency: 'USD',
      lines: [{ billingItemId: 30, description: 'Other charges', unitCents: oldItem, quantity: 2 }],
    });
    const invoiceBefore = (await req('GET', `/api/invoices/${invoice.id}/${tok.admin}`)).body.info;
    expect(invoiceBefore.total_cents).toBe(oldItem * 2);

    // The Admin changes both prices.
    const newItem = oldItem + 1234;
    const newProduct = oldProduct + 10000;
    const e1 = await req('PUT', `${B}/billingitems/30/${tok.admin}`, {
      ...other,
      prices: { USD: newItem },
      version: other.version,
    });
    const e2 = await req('PUT', `${B}/products/1/${tok.admin}`, {
      ...product,
      prices: { USD: newProduct },
      version: product.version,
    });
    expect([e1.status, e2.status], JSON.stringify([e1.body, e2.body])).toEqual([200, 200]);

    // What was issued is as it was.
    const invoiceAfter = (await req('GET', `/api/invoices/${invoice.id}/${tok.admin}`)).body.info;
    expect(invoiceAfter.lines).toEqual(invoiceBefore.lines);
    expect(invoiceAfter.total_cents).toBe(oldItem * 2);
    const contractsAfter = (await req('GET', `/api/customers/contracts/${orderId}/${tok.sales}`)).body.info
      .contracts as Json[];
    expect(contractsAfter).toEqual(contractsBefore);
    const pdfAfter = (await req('GET', `/api/customers/contracts/${orderId}/${contractsAfter[0]!.id}/pdf/${tok.sales}`))
      .res.rawPayload;
    expect(Buffer.compare(pdfAfter, pdfBefore)).toBe(0);
    const [orderAfter] = await db.select().from(orders).where(eq(orders.id, orderId));
    expect(orderAfter!.document).toEqual(orderBefore!.document);
    expect(orderAfter!.totalSaleCents).toBe(orderBefore!.totalSaleCents);
    // What is made now takes the new price: the order flow's catalogue reads and a billing item added to a customer.
    const offered = await req('GET', `/api/customers/billingitems/${tok.sales}/all?currency=USD`);
    expect(offered.body.info.billing_items.find((i: Json) => i.billing_item_id === 30).unit_price_cents).toBe(newItem);
    const productsNow = await req('GET', `/api/products/${tok.sales}/all?currency=USD`);
    expect(JSON.stringify(productsNow.body)).toContain(String(newProduct));
    const added = await req(
      'POST',
      `/api/customers/${customer.id}/${tok.admin}/customerbillingitems`,
      { billing_item_id: 30, store_id: store.id },
      { 'idempotency-key': crypto.randomUUID() },
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.info.unit_price_cents).toBe(newItem);
    const newInvoice = await createInvoice(db, {
      customerId: customer.id,
      storeId: store.id,
      currency: 'USD',
      lines: [{ billingItemId: 30, unitCents: added.body.info.unit_price_cents }],
    });
    expect((await req('GET', `/api/invoices/${newInvoice.id}/${tok.admin}`)).body.info.total_cents).toBe(newItem);
  });
});
