import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BILLING_ITEM_IDS, blankOrder, type OrderDocument } from '@pos/domain';
import type { HTTPMethods, RouteOptions } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HSTS } from './app';
import { createDistributorAccount, createAgent, createInvoice, createOrder, createStore } from './db/factories';
import { linkTokens, orders, paymentInstruments, sessions, uploads } from './db/schema';
import { issueLinkToken, PAYMENT_UPDATE_LINK_TTL_MS } from './lib/link-tokens';
import { hashToken } from './lib/tokens';
import { chargeInvoice } from './modules/payments';
import { findInDatabase, searchedColumnCount } from './test/find-in-database';
import { signInStaff } from './test/sign-in';
import { createTestApp, type TestApp } from './test/test-app';
import { multipartBody, sampleFile } from './test/uploads';

/*
 * Security checks of issue 19 point 6 (decision 135; docs/security.md lists what each test proves): response
 * headers, token strength and storage, tokens kept out of logs, uploads by magic bytes, rate limits, no card
 * number anywhere, bank account numbers only encrypted.
 */

const SYSTEM = { actorType: 'system' as const, actorId: 'test' };

/** The directives of a Content-Security-Policy header, by name. */
function cspDirectives(header: string | string[] | number | undefined): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of String(header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

async function liveLink(t: TestApp, storeId: number, purpose: 'payment_update' | 'payment_instrument') {
  return t.database.db.transaction((tx) =>
    issueLinkToken(tx, {
      purpose,
      subjectType: 'store',
      subjectId: storeId,
      now: t.clock.now(),
      ttlMs: PAYMENT_UPDATE_LINK_TTL_MS,
    }),
  );
}

/** A US store with a $100 open invoice (its customer and store). */
async function storeWithInvoice(t: TestApp, country: 'US' | 'CA' = 'US') {
  const db = t.database.db;
  const store = await createStore(db, { country });
  const today = t.clock.now().toISOString().slice(0, 10);
  const invoice = await createInvoice(db, {
    customerId: store.customerId,
    storeId: store.id,
    currency: country === 'CA' ? 'CAD' : 'USD',
    issuedOn: today,
    dueOn: today,
    lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 100_00 }],
  });
  return { store, invoice, customerId: store.customerId };
}

describe('security headers', () => {
  let t: TestApp;
  let admin: string;
  let linkToken: string;
  let customerId: number;

  beforeAll(async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'pbo-sec-dist-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>pos-backoffice</title>');
    t = await createTestApp({ config: { webDist: dist } });
    ({ admin } = await signInStaff(t, { admin: 'Admin' }));
    const s = await storeWithInvoice(t);
    customerId = s.customerId;
    linkToken = (await liveLink(t, s.store.id, 'payment_update')).token;
  });
  afterAll(() => t.close());

  const answers = () => ({
    'an API answer': { url: `/api/customers/${customerId}/${admin}` },
    'an API error': { url: '/api/no-such-route' },
    'index.html': { url: '/' },
    'a public token page': { url: `/api/public/payment/${linkToken}` },
  });

  it('CSP without inline or eval scripts, frame-ancestors none, no-referrer, nosniff — on API, index.html and a public token page', async () => {
    for (const [what, { url }] of Object.entries(answers())) {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, `${what}: ${res.body}`).toBeLessThan(500);
      const csp = cspDirectives(res.headers['content-security-policy']);
      const scriptSrc = csp.get('script-src') ?? csp.get('default-src');
      expect(scriptSrc, what).toBeDefined();
      expect(scriptSrc, what).not.toContain("'unsafe-inline'");
      expect(scriptSrc, what).not.toContain("'unsafe-eval'");
      expect(csp.get('default-src'), what).toEqual(["'self'"]);
      expect(csp.get('object-src'), what).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors'), what).toEqual(["'none'"]);
      expect(res.headers['referrer-policy'], what).toBe('no-referrer');
      expect(res.headers['x-content-type-options'], what).toBe('nosniff');
      // Plain HTTP, not behind a TLS proxy: no HSTS (a browser ignores it over HTTP anyway).
      expect(res.headers['strict-transport-security'], what).toBeUndefined();
    }
  });

  it('Cache-Control: no-store on every API answer — a guarded GET, errors, public token pages, a public POST; uploads keep private, no-store', async () => {
    const calls: Record<string, { method: HTTPMethods; url: string; payload?: object; status: number }> = {
      'a guarded GET': { method: 'GET', url: `/api/customers/${customerId}/${admin}`, status: 200 },
      'a guarded GET refused (403 session_invalid)': {
        method: 'GET',
        url: `/api/customers/${customerId}/${'Q'.repeat(43)}`,
        status: 403,
      },
      'a guarded GET of a missing record (404)': { method: 'GET', url: `/api/customers/999999/${admin}`, status: 404 },
      'an unknown API route (404)': { method: 'GET', url: '/api/no-such-route', status: 404 },
      'a validation error (400)': { method: 'GET', url: `/api/customers/abc/${admin}`, status: 400 },
      'a public token page': { method: 'GET', url: `/api/public/payment/${linkToken}`, status: 200 },
      'a public token page with an unknown token (404)': {
        method: 'GET',
        url: `/api/public/payment/${'x'.repeat(43)}`,
        status: 404,
      },
      'a public POST refused (401)': {
        method: 'POST',
        url: '/api/auth/distributor/login',
        payload: { email: 'nobody@example.com', password: 'not-the-password-1' },
        status: 401,
      },
      'a public GET': { method: 'GET', url: '/api/health', status: 200 },
    };
    for (const [what, call] of Object.entries(calls)) {
      const res = await t.request({
        method: call.method,
        url: call.url,
        ...(call.payload ? { payload: call.payload } : {}),
      });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(call.status);
      expect(res.headers['cache-control'], what).toBe('no-store');
    }
    // A route's own stricter value is kept: an upload is 'private, no-store'.
    const body = multipartBody([
      { name: 'checkimage', filename: 'check.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    const uploaded = await t.request({ method: 'POST', url: `/api/receipts/checkimage/${admin}`, ...body });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.headers['cache-control']).toBe('no-store');
    const file = await t.request({ method: 'GET', url: `/api/uploads/${uploaded.json().info.upload_id}/${admin}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toBe('private, no-store');
    // The web app's index.html keeps its own (revalidated, not an API answer).
    expect((await t.request({ method: 'GET', url: '/' })).headers['cache-control']).toBe('no-cache');
  });

  it('HSTS on every answer to a request that came over TLS through a trusted proxy (X-Forwarded-Proto: https)', async () => {
    const proxied = await createTestApp({ config: { trustProxy: true }, database: t.database });
    try {
      for (const [what, { url }] of Object.entries(answers())) {
        if (what === 'index.html') continue; // this app serves no built web app
        const res = await proxied.request({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
        expect(res.headers['strict-transport-security'], what).toBe(HSTS);
        const plain = await proxied.request({ method: 'GET', url });
        expect(plain.headers['strict-transport-security'], what).toBeUndefined();
      }
    } finally {
      await proxied.close();
    }
    // Without TRUST_PROXY the header is anyone's to forge: it does not count.
    const forged = await t.request({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it('HSTS always when the deployment is served over TLS (PUBLIC_URL https://…)', async () => {
    const deployed = await createTestApp({ config: { publicUrl: 'https://backoffice.example.com' } });
    try {
      const res = await deployed.request({ method: 'GET', url: '/api/health' });
      expect(res.headers['strict-transport-security']).toBe(HSTS);
      expect(HSTS).toMatch(/max-age=(\d+)/);
      expect(Number(/max-age=(\d+)/.exec(HSTS)![1])).toBeGreaterThanOrEqual(180 * 24 * 3600);
    } finally {
      await deployed.close();
    }
  });
});

describe('tokens: at least 128 random bits, stored only as a hash, never in a log line', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Every level, so a debug or trace line that carried a token would be caught too.
    t = await createTestApp({ config: { logLevel: 'trace' } });
  });
  afterAll(() => t.close());

  /** The bits a URL-safe base64 token carries (each character 6 bits). */
  const bitsOf = (token: string) => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    return Buffer.from(token, 'base64url').length * 8;
  };

  it('session tokens (staff sign-in, distributor login) and link tokens: ≥ 128 bits, unique, only their SHA-256 stored', async () => {
    const db = t.database.db;
    const { a, b } = await signInStaff(t, { a: 'Admin', b: 'AR Team' });
    const agentId = (await createAgent(db, { type: 'Distributor' })).id;
    await createDistributorAccount(db, { email: 'dist-sec@example.com', password: 'distributor-demo', agentId });
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/distributor/login',
      payload: { email: 'dist-sec@example.com', password: 'distributor-demo' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const distributor = login.json().info.token as string;
    const store = await createStore(db, { country: 'US' });
    const link = await liveLink(t, store.id, 'payment_update');
    const link2 = await liveLink(t, store.id, 'payment_instrument');

    const sessionTokens = [a, b, distributor];
    const all = [...sessionTokens, link.token, link2.token];
    expect(new Set(all).size).toBe(all.length);
    for (const token of all) expect(bitsOf(token)).toBeGreaterThanOrEqual(128);

    // The tables hold the hash, and the raw token is in no column of any table.
    const sessionHashes = (await db.select().from(sessions)).map((s) => s.tokenHash);
    for (const token of sessionTokens) expect(sessionHashes).toContain(hashToken(token));
    const linkHashes = (await db.select().from(linkTokens)).map((l) => l.tokenHash);
    expect(linkHashes).toEqual(expect.arrayContaining([hashToken(link.token), hashToken(link2.token)]));
    expect(await findInDatabase(t.database, all)).toEqual([]);
    // …and the sign-in still works from the hash: the token validates.
    expect((await t.request({ method: 'GET', url: `/api/auth/validate/${a}` })).statusCode).toBe(200);
  });

  it('no raw token in any captured log line: sign-in, token paths (ok, 4xx, unknown routes), public link pages', async () => {
    const db = t.database.db;
    t.logs.length = 0;
    const { staff } = await signInStaff(t, { staff: { role: 'Admin', email: 'logs@example.com' } });
    const s = await storeWithInvoice(t);
    const link = await liveLink(t, s.store.id, 'payment_update');
    const stale = await liveLink(t, s.store.id, 'payment_instrument');
    await db.update(linkTokens).set({ revokedAt: t.clock.now() }).where(eq(linkTokens.id, stale.id));
    const calls = [
      { method: 'GET', url: `/api/auth/validate/${staff}` },
      { method: 'GET', url: `/api/customers/${s.customerId}/${staff}` },
      { method: 'GET', url: `/api/customers/${s.customerId}/${staff}/transactions?storeid=${s.store.id}` },
      { method: 'GET', url: `/api/customers/999999999/${staff}` }, // 404
      { method: 'POST', url: `/api/customers/ordernotes/${staff}`, payload: { bad: true } }, // 400
      { method: 'GET', url: `/api/no-such-route/${staff}` }, // unknown route
      { method: 'GET', url: `/api/customers/1/x?token=${staff}` },
      { method: 'GET', url: `/api/public/payment/${link.token}` },
      { method: 'POST', url: `/api/public/payment/${link.token}`, payload: { kind: 'nothing' } }, // 400
      { method: 'GET', url: `/api/public/payment/instrument/${stale.token}` }, // 410
      { method: 'POST', url: `/api/auth/logout/${staff}` },
    ] as const;
    for (const call of calls) {
      const res = await t.request({ ...call, payload: 'payload' in call ? call.payload : undefined });
      expect(res.statusCode, `${call.method} ${call.url}`).toBeLessThan(500);
    }
    const requestLines = t.logs.filter((l) => l.msg === 'request');
    expect(requestLines.length).toBeGreaterThanOrEqual(calls.length);
    const text = JSON.stringify(t.logs);
    for (const token of [staff, link.token, stale.token]) expect(text).not.toContain(token);
    expect(text).toContain('/api/public/payment/[redacted]');
  });
});

describe('uploads are checked by their bytes on every upload endpoint', () => {
  let t: TestApp;
  let admin: string;
  let contractOrderId: number;
  let fileStoreId: number;
  const multipartRoutes: string[] = [];

  /** Every upload endpoint and its multipart field; a new one fails the test until it is listed here. */
  /** Each upload route: its file field, its address and the form's other fields (sent before the file). */
  const UPLOAD_ENDPOINTS: Record<
    string,
    { field: string; url: () => string; before?: { name: string; data: string }[] }
  > = {
    'POST /api/customers/paymentinstruments/check/addimage/:token': {
      field: 'checkimage',
      url: () => `/api/customers/paymentinstruments/check/addimage/${admin}`,
    },
    'POST /api/customers/paymentinstruments/achcad/addimage/:token': {
      field: 'achcadimage',
      url: () => `/api/customers/paymentinstruments/achcad/addimage/${admin}`,
    },
    'POST /api/receipts/checkimage/:token': { field: 'checkimage', url: () => `/api/receipts/checkimage/${admin}` },
    'POST /api/taxcertificates/upload/:token': {
      field: 'certificate',
      url: () => `/api/taxcertificates/upload/${admin}`,
    },
    'POST /api/customers/contracts/:orderId/upload/:token': {
      field: 'file',
      url: () => `/api/customers/contracts/${contractOrderId}/upload/${admin}`,
    },
    'POST /api/stores/:storeId/files/:token': {
      field: 'file',
      url: () => `/api/stores/${fileStoreId}/files/${admin}`,
      before: [{ name: 'kind', data: 'store_picture' }],
    },
    'POST /api/orders/:orderId/files/:token': {
      field: 'file',
      url: () => `/api/orders/${contractOrderId}/files/${admin}`,
      before: [{ name: 'kind', data: 'store_picture' }],
    },
  };

  beforeAll(async () => {
    t = await createTestApp({
      onRoute(route: RouteOptions) {
        const consumes = (route.schema as { consumes?: string[] } | undefined)?.consumes ?? [];
        if (!consumes.includes('multipart/form-data')) return;
        for (const method of ([] as HTTPMethods[]).concat(route.method)) multipartRoutes.push(`${method} ${route.url}`);
      },
    });
    ({ admin } = await signInStaff(t, { admin: 'Admin' }));
    const store = await createStore(t.database.db, { country: 'US' });
    contractOrderId = (await createOrder(t.database.db, { storeId: store.id, status: '11' })).id;
    fileStoreId = store.id;
  });
  afterAll(() => t.close());

  it('lists every multipart route', () => {
    expect([...new Set(multipartRoutes)].sort()).toEqual(Object.keys(UPLOAD_ENDPOINTS).sort());
  });

  const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), randomBytes(2040)]);
  const ELF = Buffer.concat([Buffer.from('\x7fELF'), randomBytes(2044)]);
  const HTML = Buffer.from('<!doctype html><script>alert(1)</script>'.padEnd(2048, ' '));

  it('a .png name with PDF, EXE, ELF or HTML bytes → 415 and nothing stored, on each endpoint; a real PNG is taken', async () => {
    const before = (await t.database.db.select().from(uploads)).length;
    for (const [name, endpoint] of Object.entries(UPLOAD_ENDPOINTS)) {
      for (const [what, data] of Object.entries({ PDF: sampleFile('pdf'), EXE, ELF, HTML })) {
        const body = multipartBody([
          ...(endpoint.before ?? []),
          { name: endpoint.field, filename: 'photo.png', contentType: 'image/png', data },
        ]);
        const res = await t.request({ method: 'POST', url: endpoint.url(), ...body });
        expect(res.statusCode, `${name} with ${what} bytes: ${res.body}`).toBe(415);
        expect(res.json().error.code).toBe('unsupported_media_type');
      }
    }
    expect((await t.database.db.select().from(uploads)).length).toBe(before);
    // The endpoints were reachable: the same call with PNG bytes passes the check (the contract takes a PDF).
    for (const [name, endpoint] of Object.entries(UPLOAD_ENDPOINTS)) {
      const pdfOnly = name.includes('/contracts/');
      const body = multipartBody([
        ...(endpoint.before ?? []),
        pdfOnly
          ? { name: endpoint.field, filename: 'signed.pdf', contentType: 'application/pdf', data: sampleFile('pdf') }
          : { name: endpoint.field, filename: 'photo.png', contentType: 'image/png', data: sampleFile('png') },
      ]);
      const res = await t.request({ method: 'POST', url: endpoint.url(), ...body });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
    }
  });
});

describe('rate limits', () => {
  let t: TestApp;
  const limited = new Map<string, number>();
  const publicRoutes: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      config: { signInRateLimitPerMinute: 3 },
      onRoute(route: RouteOptions) {
        const methods = ([] as HTTPMethods[]).concat(route.method).filter((m) => m !== 'HEAD');
        const max = (route.config as { rateLimit?: { max?: number } } | undefined)?.rateLimit?.max;
        for (const method of methods) {
          const name = `${method} ${route.url}`;
          if (max !== undefined) limited.set(name, max);
          if (route.url.startsWith('/api/public/')) publicRoutes.push(name);
        }
      },
    });
  });
  afterAll(() => t.close());

  it('sign-in, distributor login, password reset, make-token and every public token route are rate limited', () => {
    expect([...limited.keys()]).toEqual(
      expect.arrayContaining([
        'POST /api/auth/authenticate',
        'GET /api/auth/:x/gettoken',
        'POST /api/auth/distributor/login',
        'POST /api/auth/distributor/password/forgot',
        'POST /api/auth/distributor/password/reset',
      ]),
    );
    expect(publicRoutes.length).toBeGreaterThan(0);
    for (const route of publicRoutes) expect(limited.has(route), route).toBe(true);
  });

  it('each limited route answers 429 with the error envelope after its limit, per client address', async () => {
    let n = 0;
    for (const [name, max] of limited) {
      const [method, pattern] = name.split(' ') as [HTTPMethods, string];
      const url = pattern.replace(/:[A-Za-z]+/g, 'Q'.repeat(43));
      const remoteAddress = `10.9.${Math.floor(n / 250)}.${(n++ % 250) + 1}`;
      const statuses: number[] = [];
      for (let i = 0; i <= max; i++) {
        const res = await t.request({ method, url, remoteAddress, payload: method === 'GET' ? undefined : {} });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, max), name).not.toContain(429);
      expect(statuses[max], name).toBe(429);
      const last = await t.request({ method, url, remoteAddress, payload: method === 'GET' ? undefined : {} });
      expect(last.json().error.code, name).toBe('rate_limited');
      // Another address is not held back.
      const other = await t.request({
        method,
        url,
        remoteAddress: '10.8.0.1',
        payload: method === 'GET' ? undefined : {},
      });
      expect(other.statusCode, name).not.toBe(429);
    }
  });
});

describe('no card number (PAN) anywhere; bank account numbers only encrypted', () => {
  let t: TestApp;
  let admin: string;
  let sales: string;

  const VISA = '4242424242424242';
  const DECLINE = '4000000000000002';
  /** Each PAN as typed: plain, grouped with spaces, grouped with dashes. */
  const panForms = (pan: string) => {
    const groups = pan.match(/.{4}/g)!;
    return [pan, groups.join(' '), groups.join('-')];
  };
  const ACH_ACCOUNT = '918273645501';
  const PAD_ACCOUNT = '7364550129';
  const PAGE_ACCOUNT = '564738291044';

  beforeAll(async () => {
    t = await createTestApp({ config: { logLevel: 'trace' } });
    ({ admin, sales } = await signInStaff(t, { admin: 'Admin', sales: 'RAM' }));
  });
  afterAll(() => t.close());

  /** Tokenize a card in the browser's place (the local gateway's tokenization endpoint), as typed with spaces. */
  async function tokenize(pan: string): Promise<string> {
    const res = await t.request({
      method: 'POST',
      url: '/gateway-local/v1/tokens',
      payload: { number: panForms(pan)[1], exp_month: 12, exp_year: 2030, cvc: '123', name: 'Pat Merchant' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().token as string;
  }

  const addInstrument = (customerId: number, payload: object) =>
    t.request({
      method: 'POST',
      url: `/api/customers/${customerId}/${admin}/paymentinstruments`,
      payload,
      headers: { 'idempotency-key': randomUUID() },
    });

  it('after an order authorization, a card update, a charge, a merchant payment page payment and bank accounts: no PAN and no raw account number in any table or log line', async () => {
    const db = t.database.db;
    t.logs.length = 0;

    // An order with a card: typed into the order flow (tokenized in the browser's place), saved as a draft…
    const draft = blankOrder();
    draft.CustomerInfo = { ...draft.CustomerInfo, firstName: 'Iris', lastName: 'Stone', email: 'iris@shop.example' };
    draft.PaymentInstrumentInfo = draft.PaymentInstrumentInfo!.map((m) => ({
      ...m,
      paymentMethodTypeId: 1,
      creditCardNumber: null,
      paymentProcessorReference: null,
      processorSetupIntent: null,
    }));
    draft.PaymentInstrumentInfo[0] = { ...draft.PaymentInstrumentInfo[0]!, processorSetupIntent: await tokenize(VISA) };
    const saved = await t.request({
      method: 'POST',
      url: `/api/customers/orderinfo/new/${sales}`,
      payload: { json: draft },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const [savedRow] = await db
      .select()
      .from(orders)
      .where(eq(orders.id, saved.json().info.orderInfoId as number));
    // The token was redeemed at save: brand and last 4 kept, the number itself never reached us.
    expect((savedRow!.document as OrderDocument).PaymentInstrumentInfo![0]).toMatchObject({
      creditCardNumber: '4242',
      issuer: 'visa',
    });
    // …and an amount authorized on the card for an order.
    const us = await storeWithInvoice(t);
    // Something to authorize (decision 142: at most the order's upfront total): a $1,499.00 terminal.
    const sale = { billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 1, unitPrice: '1499.00' };
    const order = await createOrder(db, { storeId: us.store.id, documentInput: { billingItems: [sale] } });
    const auth = await t.request({
      method: 'POST',
      url: `/api/paymentauthorizations/${admin}`,
      payload: { order_id: order.id, amount_cents: 250_00, currency: 'USD', card_token: await tokenize(VISA) },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(auth.statusCode, auth.body).toBe(200);
    expect(auth.json().info.status).toBe('authorized');

    // A card update (the declining card first, then the good one as default) and a charge of the open invoice.
    for (const pan of [DECLINE, VISA]) {
      const res = await addInstrument(us.customerId, {
        kind: 'card',
        card_token: await tokenize(pan),
        name_on_account: 'Pat Merchant',
        store_id: us.store.id,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const charged = await chargeInvoice(t.app.ctx, {
      invoiceId: us.invoice.id,
      attempt: 'autopay',
      source: 'autopay',
      actor: SYSTEM,
      requestId: randomUUID(),
    });
    expect(charged).toMatchObject({ status: 'S' });

    // The merchant payment page: a failed invoice paid with a new card.
    const failed = await storeWithInvoice(t);
    const declining = await addInstrument(failed.customerId, {
      kind: 'card',
      card_token: await tokenize(DECLINE),
      name_on_account: 'Pat Merchant',
      store_id: failed.store.id,
    });
    expect(declining.statusCode, declining.body).toBe(201);
    const first = await chargeInvoice(t.app.ctx, {
      invoiceId: failed.invoice.id,
      attempt: 'autopay',
      source: 'autopay',
      actor: SYSTEM,
      requestId: randomUUID(),
    });
    expect(first).toMatchObject({ status: 'F' });
    const link = await liveLink(t, failed.store.id, 'payment_update');
    const paid = await t.request({
      method: 'POST',
      url: `/api/public/payment/${link.token}`,
      payload: { kind: 'card', card_token: await tokenize(VISA), name_on_account: 'Pat Merchant' },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().info.paid_cents).toBe(100_00);

    // Bank accounts: an ACH account by staff, a Canadian (PAD) account by staff, one on the merchant's page.
    const ach = await addInstrument(us.customerId, {
      kind: 'bank',
      name_on_account: 'Pat Merchant LLC',
      routing_number: '021000021',
      account_number: ACH_ACCOUNT,
      account_type: 'checking',
      bank_name: 'Chase',
      make_default: false,
    });
    expect(ach.statusCode, ach.body).toBe(201);
    const ca = await storeWithInvoice(t, 'CA');
    const pad = await addInstrument(ca.customerId, {
      kind: 'bank',
      name_on_account: 'Érable Inc',
      routing_number: '00012',
      institution_number: '003',
      account_number: PAD_ACCOUNT,
      account_type: 'checking',
      bank_name: 'Royal Bank of Canada',
    });
    expect(pad.statusCode, pad.body).toBe(201);
    const pageStore = await storeWithInvoice(t);
    const instrumentLink = await liveLink(t, pageStore.store.id, 'payment_instrument');
    const page = await t.request({
      method: 'POST',
      url: `/api/public/payment/instrument/${instrumentLink.token}`,
      payload: {
        kind: 'bank',
        name_on_account: 'Pat Merchant',
        routing_number: '021000021',
        account_number: PAGE_ACCOUNT,
        account_type: 'checking',
        bank_name: 'Chase',
      },
      headers: { 'idempotency-key': randomUUID() },
    });
    expect(page.statusCode, page.body).toBe(200);

    // What is stored of the bank accounts: cipher text and the last four digits.
    const banks = await db.select().from(paymentInstruments).where(eq(paymentInstruments.kind, 'bank'));
    for (const account of [ACH_ACCOUNT, PAD_ACCOUNT, PAGE_ACCOUNT]) {
      const row = banks.find((b) => b.accountLast4 === account.slice(-4));
      expect(row, account).toBeDefined();
      expect(row!.accountNumberEncrypted).toMatch(/^v1:/);
    }

    // The search: every text-like column of every table, and every log line.
    expect(await searchedColumnCount(t.database)).toBeGreaterThan(100);
    const needles = [...panForms(VISA), ...panForms(DECLINE), ACH_ACCOUNT, PAD_ACCOUNT, PAGE_ACCOUNT];
    expect(await findInDatabase(t.database, needles)).toEqual([]);
    const logText = JSON.stringify(t.logs);
    expect(t.logs.length).toBeGreaterThan(10);
    for (const needle of needles) expect(logText).not.toContain(needle);
    // The search finds what is there (the scanner is not blind): the last four digits are stored.
    expect((await findInDatabase(t.database, [ACH_ACCOUNT.slice(-4)])).length).toBeGreaterThan(0);
  });
});
