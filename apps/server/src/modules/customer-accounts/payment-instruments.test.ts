import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentInstrument, createStore } from '../../db/factories';
import { auditLog, idempotencyKeys, paymentInstruments, uploads } from '../../db/schema';
import { accountsFixture, auditOf, failAuditOf, UNKNOWN_TOKEN, type AccountsFixture } from './test-support';
import { dataEncryptionKey, decryptAccountNumber } from '../../lib/account-number-cipher';
import { insertUpload } from '../../test/uploads';

describe('payment instruments (/editpayment) and the local gateway', () => {
  let f: AccountsFixture;
  let customerId: number;
  let storeId: number;
  let caCustomerId: number;
  let oldCardId: number;
  let foreignId: number;

  const url = (suffix = '', token = f.editor, id = customerId) =>
    `/api/customers/${id}/${token}/paymentinstruments${suffix}`;
  const add = (payload: unknown, opts: { token?: string; key?: string; id?: number } = {}) =>
    f.t.request({
      method: 'POST',
      url: url('', opts.token ?? f.editor, opts.id ?? customerId),
      payload: payload as object,
      headers: opts.key ? { 'idempotency-key': opts.key } : {},
    });
  const tokenize = (card: Record<string, unknown>) =>
    f.t.request({ method: 'POST', url: '/gateway-local/v1/tokens', payload: card });
  const instrumentsOf = async (id: number) =>
    f.t.database.db
      .select()
      .from(paymentInstruments)
      .where(eq(paymentInstruments.customerId, id))
      .orderBy(paymentInstruments.id);
  const VISA = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2029, cvc: '123', name: 'Pat Merchant' };

  beforeAll(async () => {
    f = await accountsFixture();
    const db = f.t.database.db;
    const store = await createStore(db, { country: 'US' });
    storeId = store.id;
    customerId = store.customerId;
    oldCardId = (
      await createPaymentInstrument(db, {
        customerId,
        kind: 'card',
        cardBrand: 'mastercard',
        cardLast4: '5454',
        cardExpMonth: 1,
        cardExpYear: 2026,
      })
    ).id;
    caCustomerId = (await createStore(db, { country: 'CA' })).customerId;
    foreignId = (await createPaymentInstrument(db, { customerId: caCustomerId, kind: 'bank' })).id;
  });
  afterAll(() => f.t.close());

  describe('POST /gateway-local/v1/tokens', () => {
    it('tokenizes a valid card without a session and without touching our tables', async () => {
      const auditBefore = (await f.t.database.db.select().from(auditLog)).length;
      const res = await tokenize(VISA);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({
        token: expect.stringMatching(/^tok_local_/),
        brand: 'visa',
        last4: '4242',
        exp_month: 12,
        exp_year: 2029,
      });
      expect(res.body).not.toContain('4242424242424242');
      expect((await f.t.database.db.select().from(auditLog)).length).toBe(auditBefore);
      const logged = JSON.stringify(f.t.logs);
      expect(logged).not.toContain('4242 4242');
      expect(logged).not.toContain('4242424242424242');
    });

    it('refuses a number failing Luhn, an expired card, a bad security code (400 with fields)', async () => {
      const res = await tokenize({ ...VISA, number: '4242 4242 4242 4241', exp_month: 13, cvc: '12' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields).toEqual({
        number: 'Enter a valid card number.',
        exp_month: 'The month is 1–12.',
        cvc: 'The security code has 3 or 4 digits.',
      });
      const expired = await tokenize({ ...VISA, exp_month: 10, exp_year: 2026 });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().error.fields).toEqual({ exp_year: 'The card has expired.' });
    });

    it('GET …/paymentinstruments/gateway tells the browser where to tokenize', async () => {
      const res = await f.t.request({ method: 'GET', url: `/api/customers/paymentinstruments/gateway/${f.viewer}` });
      expect(res.json().info).toEqual({ provider: 'local', tokenize_url: '/gateway-local/v1/tokens', available: true });
    });
  });

  describe('POST …/paymentinstruments', () => {
    it('stores a tokenized card (brand, last4, expiry, processor reference), makes it the default, audited', async () => {
      const { token } = (await tokenize(VISA)).json();
      const res = await add({ kind: 'card', card_token: token, name_on_account: 'Pat Merchant', store_id: storeId });
      expect(res.statusCode, res.body).toBe(201);
      const card = res.json().info;
      expect(card).toMatchObject({
        kind: 'card',
        customer_id: customerId,
        store_id: storeId,
        name_on_account: 'Pat Merchant',
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2029, expired: false },
        bank: null,
        is_default: true,
        status: 'active',
      });
      const rows = await instrumentsOf(customerId);
      expect(rows.find((r) => r.id === oldCardId)).toMatchObject({ isDefault: false, version: 2 });
      expect(rows.find((r) => r.id === card.id)!.processorReference).toMatch(/^pm_local_.+_4242$/);
      const entries = await auditOf(f.t, 'payment_instrument');
      expect(entries.map((e) => [e.action, e.entityId, e.customerId])).toEqual([
        ['create', String(card.id), customerId],
        ['unset_default', String(oldCardId), customerId],
      ]);
      expect(JSON.stringify(entries)).not.toContain(token);
    });

    it('stores a US bank account encrypted (only last4 shown), with its check image', async () => {
      // A check image the editor uploaded, attached to nothing yet (the only kind of upload it may attach).
      const upload = await insertUpload(f.t.database.db, { createdByEmail: 'editor@example.com' });
      const res = await add({
        kind: 'bank',
        name_on_account: 'Pat Merchant LLC',
        routing_number: '021000021',
        account_number: '000123456789',
        account_type: 'checking',
        bank_name: 'Chase',
        check_image_upload_id: upload.publicId,
        make_default: false,
      });
      expect(res.statusCode, res.body).toBe(201);
      const bank = res.json().info;
      expect(bank).toMatchObject({
        kind: 'bank',
        card: null,
        is_default: false,
        bank: {
          bank_name: 'Chase',
          routing_number: '021000021',
          institution_number: null,
          account_last4: '6789',
          account_type: 'checking',
        },
      });
      expect(res.body).not.toContain('000123456789');
      const [row] = await f.t.database.db.select().from(paymentInstruments).where(eq(paymentInstruments.id, bank.id));
      expect(row!.accountNumberEncrypted).toMatch(/^v1:/);
      expect(row!.accountNumberEncrypted).not.toContain('123456789');
      expect(
        decryptAccountNumber(dataEncryptionKey(f.t.app.ctx.config), customerId, row!.accountNumberEncrypted!),
      ).toBe('000123456789');
      // Bound to the customer: another customer's id does not decrypt it.
      expect(() =>
        decryptAccountNumber(dataEncryptionKey(f.t.app.ctx.config), caCustomerId, row!.accountNumberEncrypted!),
      ).toThrow();
      const [claimed] = await f.t.database.db.select().from(uploads).where(eq(uploads.id, upload.id));
      expect(claimed).toMatchObject({ ownerType: 'payment_instrument', ownerId: String(bank.id) });
      expect(JSON.stringify(await auditOf(f.t, 'payment_instrument', bank.id))).not.toContain('000123456789');
    });

    it('Canadian accounts need transit + institution numbers; US accounts a valid ABA number (400)', async () => {
      const us = await add({
        kind: 'bank',
        name_on_account: 'X',
        routing_number: '123456789',
        account_number: '1234567',
        account_type: 'savings',
        bank_name: 'B',
      });
      expect(us.json().error.fields.routing_number).toBe('Enter a valid 9-digit ABA routing number.');
      const caMissing = await add(
        {
          kind: 'bank',
          name_on_account: 'X',
          routing_number: '021000021',
          account_number: '1234567',
          account_type: 'savings',
          bank_name: 'B',
        },
        { id: caCustomerId },
      );
      expect(caMissing.json().error.fields.institution_number).toMatch(
        /Canadian bank account needs the 3-digit institution number/,
      );
      const ca = await add(
        {
          kind: 'bank',
          name_on_account: 'Érable Inc',
          routing_number: '00012',
          institution_number: '003',
          account_number: '1234567',
          account_type: 'checking',
          bank_name: 'Royal Bank of Canada',
        },
        { id: caCustomerId },
      );
      expect(ca.statusCode, ca.body).toBe(201);
      expect(ca.json().info.bank).toMatchObject({
        routing_number: '00012',
        institution_number: '003',
        account_last4: '4567',
      });
      const usWithInstitution = await add({
        kind: 'bank',
        name_on_account: 'X',
        routing_number: '00012',
        institution_number: '003',
        account_number: '1234567',
        account_type: 'checking',
        bank_name: 'B',
      });
      expect(usWithInstitution.json().error.fields.institution_number).toMatch(
        /US bank accounts have no institution number/,
      );
    });

    it('400: a tampered token, an unknown kind, a card number sent to us; nothing stored', async () => {
      const before = (await instrumentsOf(customerId)).length;
      const { token } = (await tokenize(VISA)).json();
      const tampered = await add({ kind: 'card', card_token: `${token.slice(0, -3)}AAA`, name_on_account: 'Pat' });
      expect(tampered.statusCode).toBe(400);
      expect(tampered.json().error.fields.card_token).toMatch(/The card token is not valid/);
      expect((await add({ kind: 'cash', name_on_account: 'Pat' })).statusCode).toBe(400);
      const pan = await add({ kind: 'card', card_token: '4242424242424242', name_on_account: 'Pat' });
      expect(pan.statusCode).toBe(400);
      expect((await instrumentsOf(customerId)).length).toBe(before);
    });

    it('the same Idempotency-Key stores once; 403 view-only; nothing half-written', async () => {
      const before = (await instrumentsOf(customerId)).length;
      const body = {
        kind: 'bank',
        name_on_account: 'Pat',
        routing_number: '021000021',
        account_number: '55554444',
        account_type: 'checking',
        bank_name: 'Chase',
        make_default: false,
      };
      const first = await add(body, { key: 'pi-1' });
      const second = await add(body, { key: 'pi-1' });
      expect(first.statusCode, first.body).toBe(201);
      expect(second.json()).toEqual(first.json());
      expect((await instrumentsOf(customerId)).length).toBe(before + 1);
      const reused = await add({ ...body, account_number: '55554445' }, { key: 'pi-1' });
      expect(reused.statusCode).toBe(422);
      expect(reused.json().error.code).toBe('idempotency_key_reused');
      const [record] = await f.t.database.db.select().from(idempotencyKeys);
      expect(record).toMatchObject({ key: 'pi-1', responseStatus: 201 });
      expect(JSON.stringify(record)).not.toContain('55554444');
      expect((await add(body, { token: f.viewer })).statusCode).toBe(403);
      const undo = await failAuditOf(f.t, 'create');
      try {
        expect((await add(body)).statusCode).toBe(500);
      } finally {
        await undo();
      }
      expect((await instrumentsOf(customerId)).length).toBe(before + 1);
    });
  });

  describe('GET …/paymentinstruments', () => {
    it('lists masked instruments (default first) and shows one; the old card reads as expired', async () => {
      const res = await f.t.request({ method: 'GET', url: url('', f.viewer) });
      expect(res.statusCode, res.body).toBe(200);
      const items = res.json().info.items as Array<{
        id: number;
        is_default: boolean;
        card: { expired: boolean } | null;
      }>;
      expect(items[0]!.is_default).toBe(true);
      expect(items.find((i) => i.id === oldCardId)!.card!.expired).toBe(true);
      expect(res.body).not.toMatch(/account_number"|encrypted|processor/);
      const one = await f.t.request({ method: 'GET', url: url(`/${oldCardId}`, f.viewer) });
      expect(one.json().info).toMatchObject({ id: oldCardId, card: { brand: 'mastercard', last4: '5454' } });
      expect((await f.t.request({ method: 'GET', url: url('?status=inactive') })).json().info.items).toEqual([]);
    });

    it("404 for another customer's instrument, 400 for a bad id, 403 without a session", async () => {
      expect((await f.t.request({ method: 'GET', url: url(`/${foreignId}`) })).statusCode).toBe(404);
      expect((await f.t.request({ method: 'GET', url: url('/abc') })).json().error.fields.instrumentId).toMatch(
        /payment instrument id/,
      );
      expect((await f.t.request({ method: 'GET', url: url('', UNKNOWN_TOKEN) })).statusCode).toBe(403);
    });
  });
});
