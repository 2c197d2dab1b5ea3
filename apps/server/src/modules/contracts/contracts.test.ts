import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blankOrder, CONTRACT_LINK_TTL_MS, type OrderDocument } from '@pos/domain';
import { and, desc, eq } from 'drizzle-orm';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore, setTaxRate } from '../../db/factories';
import { auditLog, contracts, mailLog, orderStatusHistory, orders, taxCertificates, uploads } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { multipartBody, sampleFile } from '../../test/uploads';
import { winAnsi } from '../../lib/pdf';

/*
 * Contracts (issue 7, decision 082): a submit makes the contract PDF and e-mails the merchant a single-use link; the
 * merchant reads and signs it (or re-authorizes the payment method) without a session; staff list, download, resend
 * and upload a signed paper contract.
 */

let t: TestApp;
let sales: string;
let ramSupport: string;
let marketing: string;
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PNG_DOT =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const address = {
  address1: '12 Elm St',
  address2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US' as const,
};

function completeOrder(over: Partial<OrderDocument> = {}): OrderDocument {
  const o = blankOrder();
  o.CustomerInfo = {
    ...o.CustomerInfo,
    firstName: 'Zoë',
    lastName: 'Łukasz',
    email: 'zoe@merchant.example',
    phone: '2175550100',
    federalTaxId: '41-7100001',
  };
  o.HomeAddress = { ...address };
  o.BillingAddress = { ...address };
  o.ShippingAddress = { ...address };
  o.StoreInfo = {
    ...o.StoreInfo,
    doingBusinessAs: 'Zoë Mart',
    storeName: 'Zoë Mart Elm',
    phone: '2175550101',
    StoreAddress: { ...address },
  };
  o.totalSalePrice = '2998.00';
  o.BillingItemInfo = [{ billingItemId: 1, productId: 1, name: 'POS terminal', quantity: 2, unitPrice: '1499.00' }];
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
  return { ...o, ...over };
}

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

/** A submitted order (status 11) through the API; returns its id and the link token from the Mailbox. */
async function submittedOrder(
  over: Partial<OrderDocument> = {},
): Promise<{ id: number; unified: string; token: string }> {
  const created = await req('POST', `/api/customers/orderinfo/new/${sales}`, { json: completeOrder(over) });
  const id = created.body.info.orderInfoId as number;
  const res = await req('POST', `/api/customers/orderinfo/${id}/${sales}`, {
    json: completeOrder(over),
    version: 1,
    submit: true,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return {
    id,
    unified: created.body.info.unifiedOrderId as string,
    token: await linkToken(id, 'contract_signing_link'),
  };
}

async function linkToken(orderId: number, template: string): Promise<string> {
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

const sign = (token: string, over: Json = {}) =>
  req('POST', `/api/public/contracts/${token}/sign`, {
    signer_name: 'Zoe Lukasz',
    signature_png: PNG_DOT,
    consent: true,
    ...over,
  });

beforeAll(async () => {
  t = await createTestApp({ config: { dataDir: mkdtempSync(path.join(os.tmpdir(), 'pos-contracts-')) } });
  const db = t.database.db;
  await setTaxRate(db, { country: 'US', state: 'IL', rateBasisPoints: 625, label: 'Illinois sales tax' });
  ({ sales, ramSupport, marketing } = await signInStaff(t, {
    sales: 'RAM',
    ramSupport: 'RAM Support',
    marketing: 'Marketing',
  }));
});
afterAll(() => t.close());

describe('submit → contract and signing link', () => {
  it('makes contract v1 (a real PDF) and e-mails the merchant a link to #/contract/{tok}', async () => {
    const { id, unified, token } = await submittedOrder();
    const rows = await t.database.db.select().from(contracts).where(eq(contracts.orderId, id));
    expect(rows.map((r) => [r.versionNo, r.status])).toEqual([[1, 'sent']]);
    const [mail] = await t.database.db
      .select()
      .from(mailLog)
      .where(and(eq(mailLog.relatedType, 'order'), eq(mailLog.relatedId, String(id))));
    expect(mail).toMatchObject({ to: 'zoe@merchant.example', template: 'contract_signing_link' });
    expect(mail!.links![0]).toMatch(/^http:\/\/localhost:\d+\/#\/contract\/[A-Za-z0-9_-]{43}$/);
    expect(mail!.subject).toContain('Zoë Mart');

    const view = await req('GET', `/api/public/contracts/${token}`);
    expect(view.status, JSON.stringify(view.body)).toBe(200);
    expect(view.body.info).toMatchObject({
      order_id: id,
      unified_order_id: unified,
      version_no: 1,
      status: 'sent',
      currency: 'USD',
      store_name: 'Zoë Mart',
      country: 'US',
    });
    // 2 × 1499.00 and Illinois tax (6.25 %, rounded half up) on it.
    expect(view.body.info.lines).toEqual([
      { section: 'hardware', description: 'POS terminal', quantity: 2, amount_cents: 299800 },
      { section: 'tax', description: 'Sales tax', quantity: 1, amount_cents: 18738 },
    ]);
    expect(view.body.info.total_cents).toBe(318538);

    const pdf = await req('GET', `/api/public/contracts/${token}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.res.headers['content-type']).toBe('application/pdf');
    const doc = await PDFDocument.load(pdf.res.rawPayload);
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(doc.getTitle()).toBe(`Contract ${unified} v1`);
  });

  it('draws only WinAnsi text (accents dropped, other letters replaced)', () => {
    expect(winAnsi('Zoë Łukasz – “Mart”')).toBe('Zoe ?ukasz - "Mart"');
  });

  it('an unknown, malformed or expired link answers 410/400 with what to do', async () => {
    const { token } = await submittedOrder();
    expect((await req('GET', `/api/public/contracts/${'A'.repeat(43)}`)).status).toBe(410);
    const bad = await req('GET', '/api/public/contracts/short');
    expect([bad.status, bad.body.error.code]).toEqual([400, 'validation_failed']);
    t.clock.advance(CONTRACT_LINK_TTL_MS + 1000);
    try {
      const expired = await req('GET', `/api/public/contracts/${token}`);
      expect([expired.status, expired.body.error.code]).toEqual([410, 'link_expired']);
      expect(expired.body.error.message).toContain('Ask your sales representative for a new link');
    } finally {
      t.clock.set('2026-11-22T12:00:00Z');
    }
  });
});

describe('POST /api/public/contracts/{tok}/sign', () => {
  it('records signer, time and IP, stores the signed PDF, uses the link up and moves the order to AR approval', async () => {
    const { id, token } = await submittedOrder();
    const res = await sign(token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.info).toMatchObject({
      order_id: id,
      signer_name: 'Zoe Lukasz',
      order_status: '121',
      signed_at: '2026-11-22T12:00:00.000Z',
    });
    const [contract] = await t.database.db.select().from(contracts).where(eq(contracts.orderId, id));
    expect(contract).toMatchObject({ status: 'signed', signedByName: 'Zoe Lukasz', signedFromIp: '127.0.0.1' });
    const [signedFile] = await t.database.db.select().from(uploads).where(eq(uploads.id, contract!.signedUploadId!));
    expect(signedFile!.originalName).toMatch(/-signed\.pdf$/);
    // The signed PDF belongs to its order (decision 140): read by its public id by whoever may read the order.
    expect(signedFile).toMatchObject({ ownerType: 'order', ownerId: String(id) });
    expect(signedFile!.publicId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const byPublicId = await req('GET', `/api/uploads/${signedFile!.publicId}/${sales}`);
    expect(byPublicId.status).toBe(200);
    expect(byPublicId.res.headers['content-type']).toBe('application/pdf');
    const [original] = await t.database.db.select().from(uploads).where(eq(uploads.id, contract!.uploadId!));
    expect(original).toMatchObject({ ownerType: 'order', ownerId: String(id) });
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    expect(order!.status).toBe('121');
    const history = await t.database.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, id));
    expect(history.at(-1)).toMatchObject({ fromStatus: '11', toStatus: '121', changedByEmail: 'zoe@merchant.example' });
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, String(id)), eq(auditLog.action, 'contract.sign')),
      );
    expect(audit[0]).toMatchObject({ actorType: 'merchant' });

    const again = await sign(token);
    expect([again.status, again.body.error.code]).toEqual([410, 'link_expired']);
    expect((await req('GET', `/api/public/contracts/${token}`)).status).toBe(410);

    const staffPdf = await req('GET', `/api/customers/contracts/${id}/${contract!.id}/pdf/${sales}`);
    expect(staffPdf.status).toBe(200);
    const signed = await PDFDocument.load(staffPdf.res.rawPayload);
    expect(signed.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(staffPdf.res.rawPayload.length).toBeGreaterThan(0);
  });

  it('an NRS Pay bundle sends the signed order to NRS Pay approval (111)', async () => {
    const { token } = await submittedOrder({
      BundleInfo: [{ bundleId: 9, name: 'NRS Pay', quantity: 1, unitPrice: '0.00' }],
    });
    expect((await sign(token)).body.info.order_status).toBe('111');
  });

  it('refuses a missing consent, a blank name or a non-PNG signature with field messages, and keeps the link', async () => {
    const { id, token } = await submittedOrder();
    const noConsent = await sign(token, { consent: false });
    expect([noConsent.status, noConsent.body.error.fields.consent]).toEqual([
      400,
      'Tick the box to agree to sign electronically.',
    ]);
    const noName = await sign(token, { signer_name: ' ' });
    expect(noName.body.error.fields.signer_name).toBe('Type your full name.');
    const notPng = await sign(token, { signature_png: 'data:image/jpeg;base64,AAAA' });
    expect(notPng.body.error.fields.signature_png).toBe('Draw your signature in the box.');
    const broken = await sign(token, { signature_png: 'data:image/png;base64,AAAA' });
    expect([broken.status, broken.body.error.code]).toEqual([400, 'validation_failed']);
    // Nothing was half-written: the link still works and the order still waits.
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    expect(order!.status).toBe('11');
    expect((await sign(token)).status).toBe(200);
  });
});

describe('contract regeneration', () => {
  it('a changed document while Pending Contract Sign → v2 (v1 superseded) and a new link; the old link stops working', async () => {
    const { id, token } = await submittedOrder();
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    const changed = { ...completeOrder(), noOfTerminals: 3 };
    const saved = await req('POST', `/api/customers/orderinfo/${id}/${ramSupport}`, {
      json: changed,
      version: row!.version,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const rows = await t.database.db
      .select()
      .from(contracts)
      .where(eq(contracts.orderId, id))
      .orderBy(contracts.versionNo);
    expect(rows.map((r) => [r.versionNo, r.status])).toEqual([
      [1, 'superseded'],
      [2, 'sent'],
    ]);
    expect((await req('GET', `/api/public/contracts/${token}`)).status).toBe(410);
    const fresh = await linkToken(id, 'contract_signing_link');
    expect((await req('GET', `/api/public/contracts/${fresh}`)).body.info.version_no).toBe(2);
  });

  it('skipContractRegeneration keeps the contract as it is', async () => {
    const { id, token } = await submittedOrder();
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    const saved = await req('POST', `/api/customers/orderinfo/${id}/${ramSupport}`, {
      json: { ...completeOrder(), noOfTerminals: 4, skipContractRegeneration: true },
      version: row!.version,
    });
    expect(saved.status).toBe(200);
    expect((await t.database.db.select().from(contracts).where(eq(contracts.orderId, id))).length).toBe(1);
    expect((await req('GET', `/api/public/contracts/${token}`)).status).toBe(200);
  });
});

describe('re-authorizing the payment method', () => {
  it('staff send the link; the merchant gives a new card (token) once; a bank account keeps only its last 4 in the order', async () => {
    const { id } = await submittedOrder();
    const sent = await req('POST', `/api/customers/contracts/${id}/send/${ramSupport}`, { kind: 'reauthorize' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.info).toMatchObject({ order_id: id, kind: 'reauthorize', sent_to: 'zoe@merchant.example' });
    const token = await linkToken(id, 'contract_reauthorize_link');
    const view = await req('GET', `/api/public/contracts/reauthorize/${token}`);
    expect(view.body.info).toMatchObject({
      order_id: id,
      current_method: 'Visa ending 4242',
      tokenize_url: '/gateway-local/v1/tokens',
    });

    const card = await t.request({
      method: 'POST',
      url: '/gateway-local/v1/tokens',
      payload: { number: '5555 5555 5555 4444', exp_month: 12, exp_year: 2030, cvc: '123', name: 'Zoe' },
    });
    const cardToken = (card.json() as Json).token as string;
    const badToken = await req('POST', `/api/public/contracts/reauthorize/${token}`, {
      kind: 'card',
      card_token: 'tok_not-a-real-token-xyz',
      name_on_account: 'Zoe',
      consent: true,
    });
    expect(badToken.status).toBe(400);
    const ok = await req('POST', `/api/public/contracts/reauthorize/${token}`, {
      kind: 'card',
      card_token: cardToken,
      name_on_account: 'Zoe Lukasz',
      consent: true,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.info.method).toBe('Mastercard ending 4444');
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    expect(JSON.stringify(order!.document)).not.toContain('5555555555554444');
    expect(
      (
        await req('POST', `/api/public/contracts/reauthorize/${token}`, {
          kind: 'card',
          card_token: cardToken,
          name_on_account: 'Zoe',
          consent: true,
        })
      ).status,
    ).toBe(410);

    await req('POST', `/api/customers/contracts/${id}/send/${ramSupport}`, { kind: 'reauthorize' });
    const token2 = await linkToken(id, 'contract_reauthorize_link');
    const badRouting = await req('POST', `/api/public/contracts/reauthorize/${token2}`, {
      kind: 'bank',
      name_on_account: 'Zoe',
      routing_number: '123456789',
      account_number: '000123456789',
      account_type: 'checking',
      bank_name: 'First',
      consent: true,
    });
    expect(badRouting.body.error.fields.routing_number).toBe('Enter a valid 9-digit ABA routing number.');
    const bank = await req('POST', `/api/public/contracts/reauthorize/${token2}`, {
      kind: 'bank',
      name_on_account: 'Zoe',
      routing_number: '011000015',
      account_number: '000123456789',
      account_type: 'checking',
      bank_name: 'First Bank',
      consent: true,
    });
    expect(bank.status, JSON.stringify(bank.body)).toBe(200);
    expect(bank.body.info.method).toBe('First Bank ending 6789');
    const [after] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    expect(JSON.stringify(after!.document)).not.toContain('000123456789');
  });
});

describe('staff calls', () => {
  it('list versions and refuse callers without the privilege (403) or a bad token (403), unknown orders 404', async () => {
    const { id } = await submittedOrder();
    const list = await req('GET', `/api/customers/contracts/${id}/${sales}`);
    expect(list.status).toBe(200);
    expect(list.body.info.contracts).toEqual([
      expect.objectContaining({
        order_id: id,
        version_no: 1,
        status: 'sent',
        pdf_url: expect.stringContaining(`/api/customers/contracts/${id}/`),
      }),
    ]);
    expect((await req('GET', `/api/customers/contracts/${id}/${marketing}`)).status).toBe(403);
    expect((await req('GET', `/api/customers/contracts/${id}/${'Q'.repeat(43)}`)).status).toBe(403);
    expect((await req('GET', `/api/customers/contracts/99999999/${sales}`)).status).toBe(404);
    expect((await req('POST', `/api/customers/contracts/${id}/send/${sales}`, { kind: 'later' })).status).toBe(400);
  });

  it('a signing link is only sent while the order waits for the signature', async () => {
    const { id, token } = await submittedOrder();
    await sign(token);
    const res = await req('POST', `/api/customers/contracts/${id}/send/${ramSupport}`, { kind: 'sign' });
    expect([res.status, res.body.error.code]).toEqual([409, 'conflict']);
  });

  it('uploading a signed paper contract (pdf) moves the order on and ends the merchant link; a wrong file is 415', async () => {
    const { id, token } = await submittedOrder();
    const wrong = multipartBody([
      { name: 'file', filename: 'contract.pdf', contentType: 'application/pdf', data: sampleFile('png') },
    ]);
    const refused = await req(
      'POST',
      `/api/customers/contracts/${id}/upload/${ramSupport}`,
      wrong.payload,
      wrong.headers,
    );
    expect(refused.status).toBe(415);
    const body = multipartBody([
      { name: 'file', filename: 'signed.pdf', contentType: 'application/pdf', data: sampleFile('pdf') },
    ]);
    const res = await req('POST', `/api/customers/contracts/${id}/upload/${ramSupport}`, body.payload, body.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.info).toMatchObject({ order_id: id, status: 'uploaded' });
    const [paper] = await t.database.db.select().from(contracts).where(eq(contracts.id, res.body.info.id));
    const [paperFile] = await t.database.db.select().from(uploads).where(eq(uploads.id, paper!.signedUploadId!));
    expect(paperFile).toMatchObject({ kind: 'contract', ownerType: 'order', ownerId: String(id) });
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    expect(order!.status).toBe('121');
    expect((await req('GET', `/api/public/contracts/${token}`)).status).toBe(410);
    const marketingTry = await req(
      'POST',
      `/api/customers/contracts/${id}/upload/${marketing}`,
      body.payload,
      body.headers,
    );
    expect(marketingTry.status).toBe(403);
  });
});

describe('the contract’s tax (issue 17, decision 127)', () => {
  it('an Arizona store with a valid certificate signs a contract without sales tax', async () => {
    const db = t.database.db;
    await setTaxRate(db, { country: 'US', state: 'AZ', rateBasisPoints: 560 });
    const store = await createStore(db, { country: 'US', state: 'AZ' });
    await db.insert(taxCertificates).values({
      customerId: store.customerId,
      storeId: store.id,
      state: 'AZ',
      certificateNumber: 'TPT-88',
      expiresOn: '2027-06-30',
    });
    const az = { ...address, city: 'Phoenix', state: 'AZ', zip: '85004' };
    const base = completeOrder();
    const withStore = (storeId: number | null): Partial<OrderDocument> => ({
      HomeAddress: az,
      BillingAddress: az,
      ShippingAddress: az,
      StoreInfo: { ...base.StoreInfo, StoreAddress: az, customerStoreId: storeId },
    });
    const linesOf = async (storeId: number | null) => {
      const { token } = await submittedOrder(withStore(storeId));
      const view = await req('GET', `/api/public/contracts/${token}`);
      expect(view.status, JSON.stringify(view.body)).toBe(200);
      return view.body.info as { lines: Json[]; total_cents: number };
    };
    // A new Arizona store (no certificate yet): taxed at 5.6 %.
    const taxed = await linesOf(null);
    expect(taxed.lines.find((l) => l.section === 'tax')?.amount_cents).toBe(16789);
    // The store holding the certificate: no tax line, the total is the hardware.
    const exempt = await linesOf(store.id);
    expect(exempt.lines.map((l) => l.section)).toEqual(['hardware']);
    expect(exempt.total_cents).toBe(299800);
  });
});
