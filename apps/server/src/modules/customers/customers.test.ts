import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createSalesPerson, createStore, createTerminal } from '../../db/factories';
import { auditLog, customers, stores } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * Customers core (issue 6): search, the customer record, stores, the federal tax id look-up, store and
 * customer edits, store addresses. One app per file; each test makes the rows it changes.
 */

let t: TestApp;
/** Customer Support: customer_details_view + customer_details_edit. */
let editor: string;
/** AR Team: customer_details_view only. */
let viewer: string;
/** Marketing: no customer privilege. */
let outsider: string;
const BAD_TOKEN = 'Q'.repeat(43);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function get(url: string): Promise<{ status: number; body: Json }> {
  const res = await t.request({ method: 'GET', url });
  return { status: res.statusCode, body: res.json() as Json };
}
async function send(method: 'POST' | 'PUT', url: string, payload: unknown): Promise<{ status: number; body: Json }> {
  const res = await t.request({ method, url, payload: payload as Json });
  return { status: res.statusCode, body: res.json() as Json };
}
const auditRows = (entity: string, entityId: number) =>
  t.database.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.entityId, String(entityId)))
    .then((rows) => rows.filter((r) => r.entity === entity));

beforeAll(async () => {
  t = await createTestApp();
  ({ editor, viewer, outsider } = await signInStaff(t, {
    editor: { role: 'Customer Support', email: 'support@example.com' },
    viewer: 'AR Team',
    outsider: 'Marketing',
  }));
});
afterAll(() => t.close());

// ── Search ─────────────────────────────────────────────────────────────────────────────────────────

describe('GET /api/customers/{token}/all', () => {
  let zephyr: { id: number };
  let zephyrStores: { id: number }[];
  let lonely: { id: number };
  let canadian: { id: number; federalTaxId: string | null };
  const url = (query: string, tok = viewer) => `/api/customers/${tok}/all?${query}`;

  beforeAll(async () => {
    const db = t.database.db;
    zephyr = await createCustomer(db, {
      legalName: 'Zephyrine Holdings LLC',
      brAcct: 'BRZ0001',
      federalTaxId: '41-7000001',
    });
    zephyrStores = [
      await createStore(db, {
        customerId: zephyr.id,
        doingBusinessAs: 'Quokka Corner Mart',
        storeName: 'Quokka Corner Mart - Elm',
        salesRep: 'Dana Whitfield',
      }),
      await createStore(db, {
        customerId: zephyr.id,
        doingBusinessAs: 'Alpine Fuel Stop',
        storeName: 'Alpine Fuel Stop - Oak',
        salesRep: 'Rory Quokkason',
      }),
    ];
    lonely = await createCustomer(db, { legalName: 'Storeless Quokka Trading Inc', federalTaxId: '41-7000002' });
    canadian = await createCustomer(db, {
      country: 'CA',
      legalName: 'Maplewood Grocers Ltd',
      federalTaxId: '417000003',
    });
    await createStore(db, { customerId: canadian.id, doingBusinessAs: 'Maplewood Market', salesRep: 'Avery Tremblay' });
  });

  it('finds stores by 3+ letters of the DBA, any case, with their customer fields; total counts all matches', async () => {
    const { status, body } = await get(url('search=qUOkKa'));
    expect(status, JSON.stringify(body)).toBe(200);
    const items = body.info.items as Json[];
    // DBA match (store 1), sales rep match (store 2), and the storeless customer by legal name.
    expect(body.info.total).toBe(3);
    expect(items.map((i) => [i.customer_id, i.store_id])).toEqual([
      [lonely.id, null],
      [zephyr.id, zephyrStores[0]!.id],
      [zephyr.id, zephyrStores[1]!.id],
    ]);
    expect(items[1]).toMatchObject({
      legal_name: 'Zephyrine Holdings LLC',
      doing_business_as: 'Quokka Corner Mart',
      store_name: 'Quokka Corner Mart - Elm',
      bracct: 'BRZ0001',
      sales_rep: 'Dana Whitfield',
      federal_tax_id: '41-7000001',
      country: 'US',
      currency: 'USD',
      customer_status: 'active',
      store_status: 'active',
    });
    expect(items[1]!.city).toEqual(expect.any(String));
    expect(items[0]).toMatchObject({ store_id: null, store_name: null, doing_business_as: null, store_status: null });
  });

  it('matches the customer legal name, e-mail, federal tax id and the bracct (all stores of a matching customer)', async () => {
    const byName = await get(url('search=zephyrine'));
    expect(byName.body.info.items.map((i: Json) => i.store_id)).toEqual(zephyrStores.map((s) => s.id));
    const byBr = await get(url('search=brz00'));
    expect(byBr.body.info.total).toBe(2);
    const byTax = await get(url('search=7000003'));
    expect(byTax.body.info.items.map((i: Json) => i.customer_id)).toEqual([canadian.id]);
  });

  it('pages and sorts by a whitelisted column (descending with -)', async () => {
    const page1 = await get(url('search=quokka&limit=2&offset=0&sort=-doing_business_as'));
    const page2 = await get(url('search=quokka&limit=2&offset=2&sort=-doing_business_as'));
    expect(page1.body.info.total).toBe(3);
    expect(page1.body.info.items.map((i: Json) => i.doing_business_as)).toEqual([
      'Quokka Corner Mart',
      'Alpine Fuel Stop',
    ]);
    expect(page2.body.info.items.map((i: Json) => i.doing_business_as)).toEqual([null]);
  });

  it('finds by customer id (customers without stores too), store id, and federal tax id in either form', async () => {
    expect((await get(url(`customerid=${zephyr.id}`))).body.info.total).toBe(2);
    const alone = await get(url(`customerid=${lonely.id}`));
    expect(alone.body.info.items).toEqual([expect.objectContaining({ customer_id: lonely.id, store_id: null })]);
    const store = await get(url(`storeid=${zephyrStores[1]!.id}`));
    expect(store.body.info.items.map((i: Json) => i.store_id)).toEqual([zephyrStores[1]!.id]);
    expect((await get(url('federaltaxid=417000001'))).body.info.total).toBe(2);
    // The Canadian business number is stored as 9 digits; the EIN form finds it too.
    const ca = await get(url('federaltaxid=41-7000003'));
    expect(ca.body.info.items).toEqual([
      expect.objectContaining({ customer_id: canadian.id, country: 'CA', currency: 'CAD' }),
    ]);
    expect((await get(url('customerid=999999'))).body.info).toEqual({ items: [], total: 0, total_capped: false });
  });

  it('refuses no kind, several kinds, unknown kinds and bad values with 400 and field messages', async () => {
    const none = await get(url('limit=5'));
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('validation_failed');
    expect(none.body.error.fields).toEqual({ querystring: 'Give one of customerid, search, storeid, federaltaxid.' });
    const two = await get(url('search=quokka&storeid=5'));
    expect(two.status).toBe(400);
    expect(Object.keys(two.body.error.fields)).toEqual(['search', 'storeid']);
    const unknown = await get(url('name=quokka'));
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields.name).toMatch(/Unknown search kind: name/);
    const short = await get(url('search=qu'));
    expect(short.body.error.fields).toEqual({ search: 'Search with 3 to 100 characters.' });
    expect((await get(url('customerid=abc'))).body.error.fields.customerid).toMatch(/positive whole number/);
    expect((await get(url('federaltaxid=12-34'))).body.error.fields.federaltaxid).toMatch(/NN-NNNNNNN/);
    expect((await get(url('search=quokka&sort=password'))).body.error.fields.sort).toMatch(/Sort by one of/);
    expect((await get(url('search=quokka&limit=0'))).status).toBe(400);
  });

  it('treats LIKE wildcards in the text literally', async () => {
    const res = await get(url('search=%25%25%25'));
    expect(res.status).toBe(200);
    expect(res.body.info.total).toBe(0);
  });

  it('format=csv streams ALL matching rows as CSV (header, CRLF, BOM), ignoring limit', async () => {
    const res = await t.request({ method: 'GET', url: url('search=quokka&limit=1&format=csv') });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="customers-2026-11-22.csv"; filename*=UTF-8''customers-2026-11-22.csv`,
    );
    expect(res.body.startsWith('\uFEFFcustomer_id,legal_name,doing_business_as,store_id')).toBe(true);
    const lines = res.body.slice(1).split('\r\n');
    expect(lines).toHaveLength(5); // header, 3 rows, '' after the last CRLF
    expect(lines[2]).toContain(`${zephyr.id},Zephyrine Holdings LLC,Quokka Corner Mart,${zephyrStores[0]!.id}`);
    expect(lines[4]).toBe('');
  });

  it('needs a session (403 session_invalid) and a customer privilege (403 forbidden)', async () => {
    const bad = await get(url('search=quokka', BAD_TOKEN));
    expect(bad.status).toBe(403);
    expect(bad.body.error.code).toBe('session_invalid');
    const noPriv = await get(url('search=quokka', outsider));
    expect(noPriv.status).toBe(403);
    expect(noPriv.body.error.code).toBe('forbidden');
  });
});

// ── Federal tax id look-up ─────────────────────────────────────────────────────────────────────────

describe('GET /api/customers/{token}?fedtaxid=', () => {
  it('answers the customer id; 404 when none; 400 for a malformed id; 403 without a session', async () => {
    const c = await createCustomer(t.database.db, { federalTaxId: '52-1234567' });
    expect((await get(`/api/customers/${viewer}?fedtaxid=521234567`)).body).toEqual({ info: { customer_id: c.id } });
    expect((await get(`/api/customers/${viewer}?fedtaxid=52-1234567`)).body.info.customer_id).toBe(c.id);
    const none = await get(`/api/customers/${viewer}?fedtaxid=52-7654321`);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe('not_found');
    const bad = await get(`/api/customers/${viewer}?fedtaxid=52-12`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ fedtaxid: 'A federal tax id is NN-NNNNNNN or 9 digits.' });
    expect((await get(`/api/customers/${viewer}`)).status).toBe(400);
    expect((await get(`/api/customers/${BAD_TOKEN}?fedtaxid=521234567`)).status).toBe(403);
  });
});

// ── Customer record and stores ─────────────────────────────────────────────────────────────────────

describe('GET /api/customers/{id}/{token} and …/customerstores', () => {
  it('answers the customer with its sales person and stores, each with terminal counts', async () => {
    const db = t.database.db;
    const sp = await createSalesPerson(db, { name: 'Morgan Sales', email: 'morgan.sales@example.com' });
    const c = await createCustomer(db, {
      legalName: 'Record Test LLC',
      salesPersonId: sp.id,
      accountManagerUsername: 'amy.manager',
    });
    const s1 = await createStore(db, {
      customerId: c.id,
      doingBusinessAs: 'First Store',
      mid: 'MID-REC-1',
      licenseExpiresOn: '2027-01-31',
    });
    const s2 = await createStore(db, { customerId: c.id, doingBusinessAs: 'Second Store' });
    await createTerminal(db, { storeId: s1.id });
    await createTerminal(db, { storeId: s1.id });
    await createTerminal(db, { storeId: s1.id, status: 'retired' });

    const { status, body } = await get(`/api/customers/${c.id}/${viewer}`);
    expect(status, JSON.stringify(body)).toBe(200);
    const info = body.info as Json;
    expect(info).toMatchObject({
      customer_id: c.id,
      legal_name: 'Record Test LLC',
      first_name: c.firstName,
      email: c.email,
      bracct: c.brAcct,
      federal_tax_id: c.federalTaxId,
      country: 'US',
      currency: 'USD',
      status: 'active',
      account_manager: 'amy.manager',
      sales_person: { id: sp.id, name: 'Morgan Sales', email: 'morgan.sales@example.com', phone: sp.phone },
      mobile_consent: false,
      version: 1,
    });
    expect(info.home_address).toMatchObject({ country: 'US', zip: expect.stringMatching(/^\d{5}$/) });
    expect(info.stores.map((s: Json) => [s.store_id, s.doing_business_as, s.active_terminals, s.terminals])).toEqual([
      [s1.id, 'First Store', 2, 3],
      [s2.id, 'Second Store', 0, 0],
    ]);
    expect(info.stores[0]).toMatchObject({
      mid: 'MID-REC-1',
      license_expires_on: '2027-01-31',
      version: 1,
      customer_id: c.id,
      country: 'US',
    });

    const one = await get(`/api/customers/${c.id}/customerstores/${viewer}?cust_store_id=${s2.id}`);
    expect(one.body.info.stores.map((s: Json) => s.store_id)).toEqual([s2.id]);
    const all = await get(`/api/customers/${c.id}/customerstores/${viewer}`);
    expect(all.body.info.stores).toEqual(info.stores);
  });

  it('404 for an unknown customer or a store of another customer; 400 for a bad id; 403 without privilege', async () => {
    const other = await createStore(t.database.db);
    const c = await createCustomer(t.database.db);
    const missing = await get(`/api/customers/2000000000/${viewer}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect((await get(`/api/customers/${c.id}/customerstores/${viewer}?cust_store_id=${other.id}`)).status).toBe(404);
    const bad = await get(`/api/customers/99999999999/${viewer}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({ id: 'This id is too large.' });
    expect((await get(`/api/customers/${c.id}/customerstores/${viewer}?cust_store_id=x`)).status).toBe(400);
    expect((await get(`/api/customers/${c.id}/${outsider}`)).status).toBe(403);
    expect((await get(`/api/customers/${c.id}/customerstores/${BAD_TOKEN}`)).status).toBe(403);
  });
});

// ── Store edits ────────────────────────────────────────────────────────────────────────────────────

describe('PUT /api/storeinfo/{id}/{token}', () => {
  it('changes the given fields, bumps the version and audits only what changed (with customer_id)', async () => {
    const store = await createStore(t.database.db, {
      doingBusinessAs: 'Old DBA',
      salesRep: 'Old Rep',
      phone: '201-555-0000',
    });
    const { status, body } = await send('PUT', `/api/storeinfo/${store.id}/${editor}`, {
      version: 1,
      doing_business_as: '  New DBA ',
      sales_rep: 'Old Rep',
      mobile_phone: '(306) 555-1212',
      status: 'suspended',
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.info).toMatchObject({
      store_id: store.id,
      doing_business_as: 'New DBA',
      sales_rep: 'Old Rep',
      mobile_phone: '(306) 555-1212',
      status: 'suspended',
      version: 2,
    });
    const [audit] = await auditRows('store', store.id);
    expect(audit).toMatchObject({
      action: 'store_update',
      actorEmail: 'support@example.com',
      customerId: store.customerId,
      before: {
        customer_id: store.customerId,
        store_id: store.id,
        doing_business_as: 'Old DBA',
        mobile_phone: store.mobilePhone,
        status: 'active',
      },
      after: {
        customer_id: store.customerId,
        store_id: store.id,
        doing_business_as: 'New DBA',
        mobile_phone: '(306) 555-1212',
        status: 'suspended',
      },
    });
    expect(audit!.after).not.toHaveProperty('sales_rep');
  });

  it('a stale version → 409 version_conflict with the current store; nothing changes', async () => {
    const store = await createStore(t.database.db, { doingBusinessAs: 'Conflict Store' });
    expect(
      (await send('PUT', `/api/storeinfo/${store.id}/${editor}`, { version: 1, store_name: 'First edit' })).status,
    ).toBe(200);
    const stale = await send('PUT', `/api/storeinfo/${store.id}/${editor}`, { version: 1, store_name: 'Second edit' });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'version_conflict',
      current: { store_id: store.id, store_name: 'First edit', version: 2 },
    });
    const [row] = await t.database.db.select().from(stores).where(eq(stores.id, store.id));
    expect(row).toMatchObject({ storeName: 'First edit', version: 2 });
    expect(await auditRows('store', store.id)).toHaveLength(1);
  });

  it('bad input → 400 with field messages; unknown store → 404', async () => {
    const store = await createStore(t.database.db);
    const bad = await send('PUT', `/api/storeinfo/${store.id}/${editor}`, {
      version: 1,
      store_name: '',
      status: 'open',
      phone: 'call me',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({
      store_name: 'Store name is required.',
      status: 'Choose one of active, pending, suspended, closed.',
      phone: expect.stringMatching(/phone number/),
    });
    const empty = await send('PUT', `/api/storeinfo/${store.id}/${editor}`, { version: 1 });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/at least one field/);
    const noVersion = await send('PUT', `/api/storeinfo/${store.id}/${editor}`, { store_name: 'x' });
    expect(noVersion.body.error.fields.version).toMatch(/version/);
    const missing = await send('PUT', `/api/storeinfo/2000000000/${editor}`, { version: 1, store_name: 'x' });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('view-only (AR Team) → 403 forbidden and nothing changes; no token → 403 session_invalid', async () => {
    const store = await createStore(t.database.db, { doingBusinessAs: 'Untouchable' });
    const forged = await send('PUT', `/api/storeinfo/${store.id}/${viewer}`, {
      version: 1,
      doing_business_as: 'Hacked',
    });
    expect(forged.status).toBe(403);
    expect(forged.body.error.code).toBe('forbidden');
    const noSession = await send('PUT', `/api/storeinfo/${store.id}/${BAD_TOKEN}`, {
      version: 1,
      doing_business_as: 'Hacked',
    });
    expect(noSession.body.error.code).toBe('session_invalid');
    const [row] = await t.database.db.select().from(stores).where(eq(stores.id, store.id));
    expect(row).toMatchObject({ doingBusinessAs: 'Untouchable', version: 1 });
    expect(await auditRows('store', store.id)).toHaveLength(0);
  });
});

// ── Customer edits ─────────────────────────────────────────────────────────────────────────────────

describe('PUT /api/customerinfo/{id}/{token}', () => {
  it('changes names, e-mail, addresses and sales person; audits only the changed fields', async () => {
    const db = t.database.db;
    const sp = await createSalesPerson(db);
    const c = await createCustomer(db, { legalName: 'Before LLC', middleName: 'Q' });
    const home = { address1: '12 Main St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' };
    const { status, body } = await send('PUT', `/api/customerinfo/${c.id}/${editor}`, {
      version: 1,
      legal_name: 'After LLC',
      middle_name: '',
      email: ' New.Owner@Example.org ',
      home_address: home,
      sales_person_id: sp.id,
      mobile_consent: true,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.info).toMatchObject({
      legal_name: 'After LLC',
      middle_name: null,
      email: 'New.Owner@Example.org',
      home_address: { ...home, address2: null },
      sales_person: { id: sp.id },
      mobile_consent: true,
      version: 2,
    });
    const [audit] = await auditRows('customer', c.id);
    expect(audit).toMatchObject({ action: 'customer_update', customerId: c.id });
    expect(Object.keys(audit!.after as Json).sort()).toEqual(
      ['customer_id', 'email', 'home_address', 'legal_name', 'middle_name', 'mobile_consent', 'sales_person_id'].sort(),
    );
    expect(audit!.before).toMatchObject({
      customer_id: c.id,
      legal_name: 'Before LLC',
      middle_name: 'Q',
      mobile_consent: false,
    });
  });

  it('an edit that changes nothing keeps the version and writes no audit entry', async () => {
    const c = await createCustomer(t.database.db, { legalName: 'Same LLC' });
    const res = await send('PUT', `/api/customerinfo/${c.id}/${editor}`, { version: 1, legal_name: 'Same LLC' });
    expect(res.body.info.version).toBe(1);
    expect(await auditRows('customer', c.id)).toHaveLength(0);
  });

  it('a federal tax id another customer has → 409 conflict; nothing of the edit is written', async () => {
    const db = t.database.db;
    const a = await createCustomer(db, { federalTaxId: '63-1111111' });
    const b = await createCustomer(db, { legalName: 'Keeps Its Name LLC' });
    const dup = await send('PUT', `/api/customerinfo/${b.id}/${editor}`, {
      version: 1,
      legal_name: 'Renamed',
      federal_tax_id: '631111111',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'conflict', fields: { federal_tax_id: expect.any(String) } });
    expect(dup.body.error.message).toContain(String(a.id));
    const [row] = await db.select().from(customers).where(eq(customers.id, b.id));
    expect(row).toMatchObject({ legalName: 'Keeps Its Name LLC', version: 1 });
  });

  it('stores a Canadian business number as 9 digits and a US EIN as NN-NNNNNNN', async () => {
    const ca = await createCustomer(t.database.db, { country: 'CA' });
    const us = await createCustomer(t.database.db);
    expect(
      (await send('PUT', `/api/customerinfo/${ca.id}/${editor}`, { version: 1, federal_tax_id: '74-2222222' })).body
        .info.federal_tax_id,
    ).toBe('742222222');
    expect(
      (await send('PUT', `/api/customerinfo/${us.id}/${editor}`, { version: 1, federal_tax_id: '742222223' })).body.info
        .federal_tax_id,
    ).toBe('74-2222223');
  });

  it('stale version → 409 with the current customer; bad input → 400; unknown → 404; view-only → 403', async () => {
    const db = t.database.db;
    // The factory draws titles from Owner/President/Manager/Director: start from one the edit really changes.
    const c = await createCustomer(db, { legalName: 'Versioned LLC', title: 'Director' });
    expect((await send('PUT', `/api/customerinfo/${c.id}/${editor}`, { version: 1, title: 'Owner' })).status).toBe(200);
    const stale = await send('PUT', `/api/customerinfo/${c.id}/${editor}`, { version: 1, legal_name: 'Lost Update' });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'version_conflict',
      current: { customer_id: c.id, legal_name: 'Versioned LLC', title: 'Owner', version: 2 },
    });

    const bad = await send('PUT', `/api/customerinfo/${c.id}/${editor}`, {
      version: 2,
      email: 'not-an-email',
      federal_tax_id: '12',
      home_address: { address1: '1 Main', city: 'Austin', state: 'ZZ', zip: '1234', country: 'US' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toEqual({
      email: expect.stringMatching(/valid e-mail/),
      federal_tax_id: 'A federal tax id is NN-NNNNNNN or 9 digits.',
      'home_address.zip': 'US ZIP code must be 5 digits (00000).',
      'home_address.state': 'Choose a US state or territory.',
    });
    const foreign = await send('PUT', `/api/customerinfo/${c.id}/${editor}`, {
      version: 2,
      billing_address: { address1: '1 Rue', city: 'Regina', state: 'SK', zip: 'S4P 3Y2', country: 'CA' },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.fields).toEqual({ 'billing_address.country': 'Addresses of this customer are in US.' });
    const noSp = await send('PUT', `/api/customerinfo/${c.id}/${editor}`, { version: 2, sales_person_id: 2000000000 });
    expect(noSp.body.error.fields).toEqual({ sales_person_id: 'There is no sales person 2000000000.' });

    expect((await send('PUT', `/api/customerinfo/2000000000/${editor}`, { version: 1, title: 'x' })).status).toBe(404);
    const forged = await send('PUT', `/api/customerinfo/${c.id}/${viewer}`, { version: 2, legal_name: 'Forged' });
    expect(forged.status).toBe(403);
    expect(
      (await send('PUT', `/api/customerinfo/${c.id}/${BAD_TOKEN}`, { version: 2, legal_name: 'Forged' })).status,
    ).toBe(403);
    const [row] = await db.select().from(customers).where(eq(customers.id, c.id));
    expect(row).toMatchObject({ legalName: 'Versioned LLC', version: 2 });
  });
});

// ── Store address ──────────────────────────────────────────────────────────────────────────────────

describe('POST /api/customers/{id}/customerstores/address/{token}', () => {
  const saskatoon = { address1: '200 Main St N', city: 'Moose Jaw', state: 'SK', zip: 's6h0w2', country: 'CA' };

  it("replaces a Canadian store's address with an S0S 0S0 postal code (normalised); state and DBA address follow", async () => {
    const store = await createStore(t.database.db, { country: 'CA' });
    const { status, body } = await send('POST', `/api/customers/${store.customerId}/customerstores/address/${editor}`, {
      customer_store_id: store.id,
      version: 1,
      address: saskatoon,
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.info).toEqual({ customer_store_id: store.id, version: 2 });
    const [row] = await t.database.db.select().from(stores).where(eq(stores.id, store.id));
    expect(row!.storeAddress).toEqual({ ...saskatoon, zip: 'S6H 0W2', address2: null });
    expect(row!.dbaAddress).toEqual(row!.storeAddress);
    expect(row).toMatchObject({ state: 'SK', country: 'CA', geocodedAddress: null, version: 2 });
    const [audit] = await auditRows('store', store.id);
    expect(audit).toMatchObject({
      action: 'store_address_update',
      customerId: store.customerId,
      before: { customer_id: store.customerId, store_id: store.id, address: { zip: store.storeAddress.zip } },
      after: { customer_id: store.customerId, store_id: store.id, address: { zip: 'S6H 0W2' } },
    });
  });

  it('a US zip for a Canadian store → 400 on address.zip; moving country → 400 on address.country; nothing changes', async () => {
    const store = await createStore(t.database.db, { country: 'CA' });
    const url = `/api/customers/${store.customerId}/customerstores/address/${editor}`;
    const usZip = await send('POST', url, {
      customer_store_id: store.id,
      version: 1,
      address: { ...saskatoon, zip: '12345' },
    });
    expect(usZip.status).toBe(400);
    expect(usZip.body.error).toMatchObject({
      code: 'validation_failed',
      fields: { 'address.zip': 'Canadian postal code must look like A1A 1A1.' },
    });
    const move = await send('POST', url, {
      customer_store_id: store.id,
      version: 1,
      address: { address1: '1 Main St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
    });
    expect(move.status).toBe(400);
    expect(move.body.error.fields['address.country']).toMatch(/cannot move to another country/);
    const noVersion = await send('POST', url, { customer_store_id: store.id, address: saskatoon });
    expect(noVersion.body.error.fields).toEqual({ version: 'Send the version of the store you edited.' });
    const [row] = await t.database.db.select().from(stores).where(eq(stores.id, store.id));
    expect(row).toMatchObject({ version: 1, storeAddress: store.storeAddress });
  });

  it('stale version → 409 with the current store; a store of another customer → 404; view-only → 403', async () => {
    const store = await createStore(t.database.db, { country: 'CA' });
    const other = await createStore(t.database.db, { country: 'CA' });
    const url = `/api/customers/${store.customerId}/customerstores/address/${editor}`;
    expect((await send('POST', url, { customer_store_id: store.id, version: 1, address: saskatoon })).status).toBe(200);
    const stale = await send('POST', url, {
      customer_store_id: store.id,
      version: 1,
      address: { ...saskatoon, address1: '9 Other St' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'version_conflict',
      current: { store_id: store.id, version: 2, address: { address1: '200 Main St N' } },
    });
    expect((await send('POST', url, { customer_store_id: other.id, version: 1, address: saskatoon })).status).toBe(404);
    expect(
      (
        await send('POST', `/api/customers/2000000000/customerstores/address/${editor}`, {
          doing_business_as: 'X',
          address: saskatoon,
        })
      ).status,
    ).toBe(404);
    const forged = await send('POST', `/api/customers/${other.customerId}/customerstores/address/${viewer}`, {
      customer_store_id: other.id,
      version: 1,
      address: saskatoon,
    });
    expect(forged.status).toBe(403);
    const [row] = await t.database.db.select().from(stores).where(eq(stores.id, other.id));
    expect(row!.version).toBe(1);
  });

  it('without customer_store_id opens a new (pending) store in the customer country; a DBA name is required', async () => {
    const c = await createCustomer(t.database.db, { country: 'CA', accountManagerUsername: 'am.ca' });
    const url = `/api/customers/${c.id}/customerstores/address/${editor}`;
    const noDba = await send('POST', url, { address: saskatoon });
    expect(noDba.body.error.fields).toEqual({ doing_business_as: 'A new store needs its DBA name.' });
    const wrongCountry = await send('POST', url, {
      doing_business_as: 'Prairie Mart',
      address: { address1: '1 Main St', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
    });
    expect(wrongCountry.body.error.fields['address.country']).toMatch(/in CA/);
    const { status, body } = await send('POST', url, { doing_business_as: 'Prairie Mart', address: saskatoon });
    expect(status, JSON.stringify(body)).toBe(200);
    const record = await get(
      `/api/customers/${c.id}/customerstores/${viewer}?cust_store_id=${body.info.customer_store_id}`,
    );
    expect(record.body.info.stores[0]).toMatchObject({
      store_name: 'Prairie Mart',
      doing_business_as: 'Prairie Mart',
      country: 'CA',
      currency: 'CAD',
      state: 'SK',
      status: 'pending',
      account_manager: 'am.ca',
      address: { zip: 'S6H 0W2' },
      version: 1,
    });
    const [audit] = await auditRows('store', body.info.customer_store_id);
    expect(audit).toMatchObject({
      action: 'store_create',
      customerId: c.id,
      after: { customer_id: c.id, doing_business_as: 'Prairie Mart' },
    });
  });

  it('a failing audit write rolls every edit back (nothing half-written)', async () => {
    const db = t.database.db;
    const store = await createStore(db, { country: 'CA', doingBusinessAs: 'Rollback Store' });
    const customerBefore = (await db.select().from(customers).where(eq(customers.id, store.customerId)))[0]!;
    await t.database.exec(`
      create function s1_refuse_audit() returns trigger language plpgsql as $$ begin raise exception 'audit down'; end $$;
      create trigger s1_refuse_audit before insert on audit_log for each row execute function s1_refuse_audit();`);
    try {
      const address = await send('POST', `/api/customers/${store.customerId}/customerstores/address/${editor}`, {
        customer_store_id: store.id,
        version: 1,
        address: saskatoon,
      });
      const newStore = await send('POST', `/api/customers/${store.customerId}/customerstores/address/${editor}`, {
        doing_business_as: 'Never Opened',
        address: saskatoon,
      });
      const storeEdit = await send('PUT', `/api/storeinfo/${store.id}/${editor}`, {
        version: 1,
        doing_business_as: 'Half Written',
      });
      const customerEdit = await send('PUT', `/api/customerinfo/${store.customerId}/${editor}`, {
        version: 1,
        legal_name: 'Half Written LLC',
      });
      expect([address.status, newStore.status, storeEdit.status, customerEdit.status]).toEqual([500, 500, 500, 500]);
      expect(customerEdit.body.error.code).toBe('internal');
    } finally {
      await t.database.exec('drop trigger s1_refuse_audit on audit_log; drop function s1_refuse_audit();');
    }
    const storeRows = await db.select().from(stores).where(eq(stores.customerId, store.customerId));
    expect(storeRows).toHaveLength(1);
    expect(storeRows[0]).toMatchObject({
      version: 1,
      storeAddress: store.storeAddress,
      doingBusinessAs: 'Rollback Store',
    });
    const [customerAfter] = await db.select().from(customers).where(eq(customers.id, store.customerId));
    expect(customerAfter).toMatchObject({ legalName: customerBefore.legalName, version: 1 });
  });
});

// ── OpenAPI ────────────────────────────────────────────────────────────────────────────────────────

describe('OpenAPI document', () => {
  it('describes the customer routes with their query parameters', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as Json;
    const search = doc.paths['/api/customers/{token}/all']?.get;
    expect(search?.parameters?.map((p: Json) => p.name)).toEqual(
      expect.arrayContaining(['customerid', 'search', 'storeid', 'federaltaxid', 'limit', 'sort']),
    );
    for (const path of [
      '/api/customers/{id}/{token}',
      '/api/storeinfo/{id}/{token}',
      '/api/customerinfo/{id}/{token}',
      '/api/domaindata/{token}',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
  });
});
