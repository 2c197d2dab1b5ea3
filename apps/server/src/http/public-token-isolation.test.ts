import { randomUUID } from 'node:crypto';
import type { OrderDocument } from '@pos/domain';
import { and, desc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import type { HTTPMethods, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCatalogue,
  createCustomerBillingItem,
  createPaymentPlan,
  createStore,
  setTaxRate,
} from '../db/factories';
import { contracts, featureChanges, linkTokens, mailLog, paymentInstruments, uploads } from '../db/schema';
import { issueLinkToken, PAYMENT_UPDATE_LINK_TTL_MS } from '../lib/link-tokens';
import { hashToken } from '../lib/tokens';
import { completeOrder } from '../test/orders';
import { signInStaff } from '../test/sign-in';
import { createTestApp, type TestApp } from '../test/test-app';
import { insertUpload } from '../test/uploads';

/*
 * Public token pages reach only their own record (issue 19 part 1, decision 132). Two merchants, A ("Alpha") and B
 * ("Bravo"), each get every kind of link: contract signing, payment re-authorization, payment update, payment method
 * and feature change. Every public page × every token: a page reads its own record only with a token of its own
 * purpose (another purpose's token, or the other merchant's, never shows the other record); a write with a token
 * of another purpose changes nothing; a write naming the other merchant's ids lands on the token's own record; a
 * used, replaced (revoked) or expired token is refused and changes nothing.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Side = 'A' | 'B';
const SIDES: readonly Side[] = ['A', 'B'];
const MARK: Record<Side, string> = { A: 'Alpha', B: 'Bravo' };
const other = (s: Side): Side => (s === 'A' ? 'B' : 'A');

const PURPOSES = ['contract_sign', 'contract_reauthorize', 'payment_update', 'payment_instrument', 'features'] as const;
type Purpose = (typeof PURPOSES)[number];

const PNG_DOT =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

interface Merchant {
  orderId: number;
  customerId: number;
  storeId: number;
  featureChangeId: number;
  featureChangeVersion: number;
  tokens: Record<Purpose, string>;
}

let t: TestApp;
const merchants = {} as Record<Side, Merchant>;
const publicRoutes: string[] = [];

interface Page {
  /** `METHOD /url` as registered. */
  readonly route: string;
  readonly purpose: Purpose;
  /** A valid body (so that only the token decides), naming the other merchant's ids where the body takes ids. */
  readonly body?: (self: Side) => Promise<Json> | Json;
  readonly headers?: () => Record<string, string>;
}

async function cardToken(): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/gateway-local/v1/tokens',
    payload: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2030, cvc: '123', name: 'Pat' },
  });
  return (res.json() as Json).token as string;
}

const PAGES: readonly Page[] = [
  { route: 'GET /api/public/contracts/:tok', purpose: 'contract_sign' },
  { route: 'GET /api/public/contracts/:tok/pdf', purpose: 'contract_sign' },
  {
    route: 'POST /api/public/contracts/:tok/sign',
    purpose: 'contract_sign',
    body: () => ({ signer_name: 'Pat Merchant', signature_png: PNG_DOT, consent: true }),
  },
  { route: 'GET /api/public/contracts/reauthorize/:tok', purpose: 'contract_reauthorize' },
  {
    route: 'POST /api/public/contracts/reauthorize/:tok',
    purpose: 'contract_reauthorize',
    body: async () => ({ kind: 'card', card_token: await cardToken(), name_on_account: 'Pat Merchant', consent: true }),
  },
  { route: 'GET /api/public/payment/:tok', purpose: 'payment_update' },
  {
    route: 'POST /api/public/payment/:tok',
    purpose: 'payment_update',
    body: async (self) => ({
      kind: 'card',
      card_token: await cardToken(),
      name_on_account: 'Pat Merchant',
      store_id: merchants[other(self)].storeId,
    }),
    headers: () => ({ 'idempotency-key': randomUUID() }),
  },
  {
    route: 'POST /api/public/payment/:tok/method',
    purpose: 'payment_update',
    body: async (self) => ({
      kind: 'card',
      card_token: await cardToken(),
      name_on_account: 'Pat Merchant',
      store_id: merchants[other(self)].storeId,
    }),
    headers: () => ({ 'idempotency-key': randomUUID() }),
  },
  { route: 'GET /api/public/payment/instrument/:tok', purpose: 'payment_instrument' },
  {
    route: 'POST /api/public/payment/instrument/:tok',
    purpose: 'payment_instrument',
    body: async (self) => ({
      kind: 'card',
      card_token: await cardToken(),
      name_on_account: 'Pat Merchant',
      store_id: merchants[other(self)].storeId,
    }),
    headers: () => ({ 'idempotency-key': randomUUID() }),
  },
  { route: 'GET /api/public/features/:tok', purpose: 'features' },
  {
    route: 'POST /api/public/features/:tok',
    purpose: 'features',
    body: (self) => ({ decision: 'decline', version: merchants[other(self)].featureChangeVersion }),
  },
];

async function call(page: Page, tok: string, self: Side) {
  const [method, url] = page.route.split(' ') as [HTTPMethods, string];
  const res = await t.request({
    method,
    url: url.replace(':tok', tok),
    ...(page.body ? { payload: await page.body(self) } : {}),
    ...(page.headers ? { headers: page.headers() } : {}),
  });
  return res;
}

/** The shared submittable order (test/orders.ts) as merchant A's or B's: their own names, tax id and e-mail. */
function orderOf(side: Side): OrderDocument {
  const o = completeOrder();
  o.CustomerInfo = {
    ...o.CustomerInfo,
    firstName: 'Pat',
    lastName: MARK[side],
    email: `${MARK[side].toLowerCase()}@merchant.example`,
    federalTaxId: side === 'A' ? '41-7100011' : '41-7100022',
    legalName: `${MARK[side]} Holdings LLC`,
  };
  o.StoreInfo = { ...o.StoreInfo, doingBusinessAs: `${MARK[side]} Mart`, storeName: `${MARK[side]} Mart Elm` };
  o.totalSalePrice = '1499.00';
  o.BillingItemInfo = [{ billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 1, unitPrice: '1499.00' }];
  o.PaymentPlanInfo = o.PaymentPlanInfo!.map((p, i) => ({
    ...p,
    paymentPlanId: i === 0 ? 1 : 4,
    recurringAmount: i === 0 ? '0.00' : '59.00',
  }));
  o.PaymentInstrumentInfo = o.PaymentInstrumentInfo!.map((p) => ({ ...p, creditCardNumber: '4242', issuer: 'visa' }));
  return o;
}

async function mailedToken(orderId: number, template: string): Promise<string> {
  const [mail] = await t.database.db
    .select()
    .from(mailLog)
    .where(
      and(eq(mailLog.relatedType, 'order'), eq(mailLog.relatedId, String(orderId)), eq(mailLog.template, template)),
    )
    .orderBy(desc(mailLog.id))
    .limit(1);
  const link = mail?.links?.[0] ?? '';
  return link.slice(link.lastIndexOf('/') + 1);
}

const ok = (status: number) => status >= 200 && status < 300;
/** What the merchant's pages answer for a link they will not act on: unknown 404, used/expired/replaced 410. */
const REFUSED = [404, 409, 410];

/** Everything a write through a public page could have changed, per merchant. */
async function effects(side: Side) {
  const m = merchants[side];
  const db = t.database.db;
  const instruments = await db
    .select({ id: paymentInstruments.id })
    .from(paymentInstruments)
    .where(eq(paymentInstruments.customerId, m.customerId));
  const [change] = await db.select().from(featureChanges).where(eq(featureChanges.id, m.featureChangeId));
  const signed = await db
    .select({ id: contracts.id })
    .from(contracts)
    .where(and(eq(contracts.orderId, m.orderId), isNotNull(contracts.signedAt)));
  const used = await db
    .select({ id: linkTokens.id })
    .from(linkTokens)
    .where(and(inArray(linkTokens.tokenHash, Object.values(m.tokens).map(hashToken)), isNotNull(linkTokens.usedAt)));
  return {
    instruments: instruments.length,
    featureChange: `${change!.status} v${change!.version}`,
    signedContracts: signed.length,
    usedLinks: used.length,
  };
}

beforeAll(async () => {
  t = await createTestApp({
    onRoute(route: RouteOptions) {
      for (const method of ([] as string[]).concat(route.method))
        if (method !== 'HEAD' && route.url.startsWith('/api/public/')) publicRoutes.push(`${method} ${route.url}`);
    },
  });
  const db = t.database.db;
  await setTaxRate(db, { country: 'US', state: 'IL', rateBasisPoints: 625, label: 'Illinois sales tax' });
  await createCatalogue(db);
  const staff = await signInStaff(t, { sales: 'RAM', ramSupport: 'RAM Support', support: 'Customer Support' });

  for (const side of SIDES) {
    // The contract links: a submitted order (its contract and signing link), then a re-authorization link.
    const created = await t.request({
      method: 'POST',
      url: `/api/customers/orderinfo/new/${staff.sales}`,
      payload: { json: orderOf(side) },
    });
    const orderId = (created.json() as Json).info.orderInfoId as number;
    const submitted = await t.request({
      method: 'POST',
      url: `/api/customers/orderinfo/${orderId}/${staff.sales}`,
      payload: { json: orderOf(side), version: 1, submit: true },
    });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const reauth = await t.request({
      method: 'POST',
      url: `/api/customers/contracts/${orderId}/send/${staff.ramSupport}`,
      payload: { kind: 'reauthorize' },
    });
    expect(reauth.statusCode, reauth.body).toBe(200);

    // The store links: a store on a monthly plan with a feature on; a feature change prepared by staff.
    const store = await createStore(db, { doingBusinessAs: `${MARK[side]} Deli`, country: 'US' });
    const plan = await createPaymentPlan(db, {
      storeId: store.id,
      kind: 'monthly',
      recurringAmountCents: 79_00,
      nextBillingOn: '2026-12-01',
    });
    await createCustomerBillingItem(db, {
      storeId: store.id,
      planId: plan.id,
      billingItemId: 207,
      unitPriceCents: 9_00,
      startsOn: '2025-01-01',
    });
    const featuresUrl = `/api/customers/${store.customerId}/${staff.support}`;
    const current = await t.request({ method: 'GET', url: `${featuresUrl}/features?custstoreid=${store.id}` });
    expect(current.statusCode, current.body).toBe(200);
    const prepared = await t.request({
      method: 'POST',
      url: `${featuresUrl}/featurechanges`,
      payload: {
        custstoreid: store.id,
        features: [],
        features_version: (current.json() as Json).info.features_version,
      },
    });
    expect(prepared.statusCode, prepared.body).toBe(201);
    const change = (prepared.json() as Json).info;

    const issue = (purpose: Purpose, subjectType: string, subjectId: number) =>
      db.transaction((tx) =>
        issueLinkToken(tx, { purpose, subjectType, subjectId, now: t.clock.now(), ttlMs: PAYMENT_UPDATE_LINK_TTL_MS }),
      );
    merchants[side] = {
      orderId,
      customerId: store.customerId,
      storeId: store.id,
      featureChangeId: change.feature_change_id as number,
      featureChangeVersion: change.version as number,
      tokens: {
        contract_sign: await mailedToken(orderId, 'contract_signing_link'),
        contract_reauthorize: await mailedToken(orderId, 'contract_reauthorize_link'),
        payment_update: (await issue('payment_update', 'store', store.id)).token,
        payment_instrument: (await issue('payment_instrument', 'store', store.id)).token,
        features: (await issue('features', 'feature_change', change.feature_change_id as number)).token,
      },
    };
    for (const [purpose, tok] of Object.entries(merchants[side].tokens)) expect(tok, purpose).toMatch(/^[\w-]{40,}$/);
  }
}, 120_000);
afterAll(() => t.close());

describe('public token pages reach only their own record', () => {
  it('every public route is one of the pages checked here', () => {
    expect(publicRoutes.filter((r) => !PAGES.some((p) => p.route === r))).toEqual([]);
    expect(publicRoutes.length).toBe(PAGES.length);
  });

  it("a page shows its own record to its own token; another purpose's token or the other merchant's never shows it", async () => {
    const failures: string[] = [];
    for (const page of PAGES.filter((p) => p.route.startsWith('GET '))) {
      for (const side of SIDES) {
        for (const purpose of PURPOSES) {
          const res = await call(page, merchants[side].tokens[purpose], side);
          const label = `${page.route} with ${side}'s ${purpose} token`;
          if (purpose === page.purpose) {
            if (res.statusCode !== 200) failures.push(`${label} → ${res.statusCode}, expected 200`);
            const text = res.headers['content-type']?.toString().includes('json') ? res.body : '';
            if (text && !text.includes(MARK[side])) failures.push(`${label} does not show ${MARK[side]}`);
            if (text.includes(MARK[other(side)])) failures.push(`${label} shows ${MARK[other(side)]}`);
            if (text.includes(String(merchants[other(side)].orderId)) && page.purpose.startsWith('contract'))
              failures.push(`${label} names the other order`);
          } else if (!REFUSED.includes(res.statusCode)) {
            failures.push(`${label} → ${res.statusCode}, expected refused (${REFUSED.join('/')})`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("a write with another purpose's token (either merchant's) is refused and changes nothing", async () => {
    const before = { A: await effects('A'), B: await effects('B') };
    const failures: string[] = [];
    for (const page of PAGES.filter((p) => p.route.startsWith('POST '))) {
      for (const side of SIDES) {
        for (const purpose of PURPOSES.filter((p) => p !== page.purpose)) {
          const res = await call(page, merchants[side].tokens[purpose], side);
          if (ok(res.statusCode) || res.statusCode >= 500)
            failures.push(`${page.route} with ${side}'s ${purpose} token → ${res.statusCode} ${res.body}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect({ A: await effects('A'), B: await effects('B') }).toEqual(before);
  });

  it("a write with A's own token that names B's store lands on A only", async () => {
    const beforeB = await effects('B');
    const beforeA = await effects('A');
    const page = PAGES.find((p) => p.route === 'POST /api/public/payment/instrument/:tok')!;
    const res = await call(page, merchants.A.tokens.payment_instrument, 'A');
    expect(res.statusCode, res.body).toBe(200);
    const [added] = await t.database.db
      .select()
      .from(paymentInstruments)
      .where(eq(paymentInstruments.customerId, merchants.A.customerId))
      .orderBy(desc(paymentInstruments.id))
      .limit(1);
    expect(added).toMatchObject({ customerId: merchants.A.customerId, storeId: merchants.A.storeId });
    expect((await effects('A')).instruments).toBe(beforeA.instruments + 1);
    expect(await effects('B')).toEqual(beforeB);

    // The feature decision carries only a version: A's token decides A's change, never B's.
    const decided = await call(
      {
        route: 'POST /api/public/features/:tok',
        purpose: 'features',
        body: () => ({ decision: 'decline', version: merchants.A.featureChangeVersion }),
      },
      merchants.A.tokens.features,
      'A',
    );
    expect(decided.statusCode, decided.body).toBe(200);
    expect((await effects('A')).featureChange).toMatch(/^declined/);
    expect((await effects('B')).featureChange).toBe(beforeB.featureChange);
  });

  it("a payment page cannot attach a staff upload (another record's check image) by its id", async () => {
    const upload = await insertUpload(t.database.db, {
      originalName: 'bravo-check.png',
      sha256: '1'.repeat(64),
      storageKey: `isolation/${randomUUID()}.png`,
      createdByEmail: 'support@example.com',
    });
    const res = await t.request({
      method: 'POST',
      url: `/api/public/payment/${merchants.A.tokens.payment_update}`,
      headers: { 'idempotency-key': randomUUID() },
      payload: {
        kind: 'bank',
        name_on_account: 'Pat Alpha',
        routing_number: '011000015',
        account_number: '123456789',
        account_type: 'checking',
        bank_name: 'First Bank',
        check_image_upload_id: upload.publicId,
      },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect((res.json() as Json).error.fields).toHaveProperty('check_image_upload_id');
    const [after] = await t.database.db.select().from(uploads).where(eq(uploads.id, upload.id));
    expect(after!.ownerType).toBeNull();
  });

  it('a used, replaced (revoked) or expired token is refused on every page of its purpose, and changes nothing', async () => {
    const db = t.database.db;
    const before = await effects('B');
    const failures: string[] = [];
    const future = new Date(t.clock.now().getTime() + 86_400_000);
    const past = new Date(t.clock.now().getTime() - 1000);
    const states = {
      used: { usedAt: past, revokedAt: null, expiresAt: future },
      revoked: { usedAt: null, revokedAt: past, expiresAt: future },
      expired: { usedAt: null, revokedAt: null, expiresAt: past },
    };
    for (const purpose of PURPOSES) {
      const hash = hashToken(merchants.B.tokens[purpose]);
      const [row] = await db.select().from(linkTokens).where(eq(linkTokens.tokenHash, hash));
      for (const [state, values] of Object.entries(states)) {
        await db.update(linkTokens).set(values).where(eq(linkTokens.id, row!.id));
        for (const page of PAGES.filter((p) => p.purpose === purpose)) {
          const res = await call(page, merchants.B.tokens[purpose], 'B');
          if (!REFUSED.includes(res.statusCode))
            failures.push(`${page.route} with a ${state} ${purpose} token → ${res.statusCode}`);
        }
      }
      // Back as it was (live, unused), so that "changes nothing" compares like with like.
      await db
        .update(linkTokens)
        .set({ usedAt: row!.usedAt, revokedAt: row!.revokedAt, expiresAt: row!.expiresAt })
        .where(eq(linkTokens.id, row!.id));
    }
    expect(failures).toEqual([]);
    expect(await effects('B')).toEqual(before);
    // Still live: B's own tokens work after all of the above (the refusals were the states', not B's).
    const live = await db
      .select({ id: linkTokens.id })
      .from(linkTokens)
      .where(
        and(
          inArray(linkTokens.tokenHash, Object.values(merchants.B.tokens).map(hashToken)),
          isNull(linkTokens.usedAt),
          isNull(linkTokens.revokedAt),
        ),
      );
    expect(live.length).toBe(PURPOSES.length);
  });
});
