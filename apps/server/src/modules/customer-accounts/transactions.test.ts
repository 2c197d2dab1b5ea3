import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCreditMemo,
  createInvoice,
  createPaymentInstrument,
  createStaffUser,
  createStore,
  createTransaction,
  createWriteOff,
} from '../../db/factories';
import { signIn } from '../../test/sign-in';
import { creditMemos, invoices, transactions } from '../../db/schema';
import { accountsFixture, auditOf, failAuditOf, UNKNOWN_TOKEN, type AccountsFixture } from './test-support';
import { signInStaff } from '../../test/sign-in';

describe('transactions and invoices: lists, retry, void, reverse', () => {
  let f: AccountsFixture;
  let customerId: number;
  let storeId: number;
  let otherCustomerId: number;
  let cardId: number;

  const txUrl = (suffix = '', token = f.editor, id = customerId) =>
    `/api/customers/${id}/${token}/transactions${suffix}`;
  const invUrl = (suffix = '', token = f.editor, id = customerId) =>
    `/api/customers/${id}/${token}/customerinvoices${suffix}`;
  const act = (txId: number, payload: unknown, opts: { token?: string; key?: string } = {}) =>
    f.t.request({
      method: 'POST',
      url: txUrl(`/${txId}`, opts.token ?? f.editor),
      payload: payload as object,
      headers: opts.key ? { 'idempotency-key': opts.key } : {},
    });
  const reverse = (invoiceId: number, payload: unknown, opts: { token?: string; key?: string } = {}) =>
    f.t.request({
      method: 'POST',
      url: invUrl(`/${invoiceId}/reverse`, opts.token ?? f.editor),
      payload: payload as object,
      headers: opts.key ? { 'idempotency-key': opts.key } : {},
    });
  const txRow = async (id: number) =>
    (await f.t.database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;
  const invRow = async (id: number) => (await f.t.database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
  const txCount = async () =>
    (await f.t.database.db.select().from(transactions).where(eq(transactions.customerId, customerId))).length;

  beforeAll(async () => {
    f = await accountsFixture();
    const db = f.t.database.db;
    const store = await createStore(db);
    storeId = store.id;
    customerId = store.customerId;
    cardId = (await createPaymentInstrument(db, { customerId, kind: 'card', cardBrand: 'visa', cardLast4: '4242' })).id;
    otherCustomerId = (await createStore(db)).customerId;
  });
  afterAll(() => f.t.close());

  describe('GET …/transactions', () => {
    it("lists a customer's transactions newest first with status words and allowed actions", async () => {
      const inv = await createInvoice(f.t.database.db, { storeId, issuedOn: '2026-09-01' });
      const ok = await createTransaction(f.t.database.db, {
        invoiceId: inv.id,
        paymentInstrumentId: cardId,
        status: 'S',
        attemptedAt: new Date('2026-09-02T10:00:00Z'),
      });
      const failed = await createTransaction(f.t.database.db, {
        invoiceId: inv.id,
        paymentInstrumentId: cardId,
        status: 'F',
        attemptedAt: new Date('2026-09-03T10:00:00Z'),
      });
      const res = await f.t.request({ method: 'GET', url: txUrl(`?invoiceid=${inv.id}`, f.viewer) });
      expect(res.statusCode, res.body).toBe(200);
      const info = res.json().info;
      expect(info.items.map((t: { id: number }) => t.id)).toEqual([failed.id, ok.id]);
      expect(info.items[0]).toMatchObject({
        id: failed.id,
        customer_id: customerId,
        store_id: storeId,
        invoice_id: inv.id,
        invoice_number: inv.invoiceNumber,
        instrument: { id: cardId, kind: 'card', label: 'Visa ending 4242' },
        status: 'F',
        status_label: 'Failed',
        failure_reason: 'Insufficient funds',
        actions: ['retry'],
        amount_cents: 7900,
        currency: 'USD',
      });
      expect(info.items[1]).toMatchObject({ status: 'S', status_label: 'Success', actions: [] });
    });

    it('fetch=true&status=F lists failed transactions of every customer (also for failed_payments_edit)', async () => {
      const foreignFailed = await createTransaction(f.t.database.db, { customerId: otherCustomerId, status: 'F' });
      const res = await f.t.request({
        method: 'GET',
        url: `/api/customers/1/${f.viewer}/transactions?fetch=true&status=F`,
      });
      expect(res.statusCode, res.body).toBe(200);
      const items = res.json().info.items as Array<{ id: number; status: string; customer_id: number }>;
      expect(items.every((t) => t.status === 'F')).toBe(true);
      expect(items.map((t) => t.customer_id)).toEqual(expect.arrayContaining([customerId, otherCustomerId]));
      expect(items.map((t) => t.id)).toContain(foreignFailed.id);
      // failed_payments_edit alone (the /payments screen) reads the all-customers form, not a customer's list.
      await createStaffUser(f.t.database.db, {
        email: 'payments@example.com',
        role: 'Marketing',
        additionalPrivileges: ['failed_payments_edit'],
      });
      const payments = await signIn(f.t, 'payments@example.com');
      expect(
        (await f.t.request({ method: 'GET', url: `/api/customers/1/${payments}/transactions?fetch=true&status=F` }))
          .statusCode,
      ).toBe(200);
      const own = await f.t.request({ method: 'GET', url: txUrl('', payments) });
      expect(own.statusCode).toBe(403);
      expect(own.json().error.message).toMatch(/customer_details_view, customer_details_edit/);
    });

    it('400 bad status, 404 unknown customer, 403 without session or privilege', async () => {
      expect((await f.t.request({ method: 'GET', url: txUrl('?status=Z') })).json().error.fields.status).toMatch(
        /Status is one of V, S, P, R, F, B, C/,
      );
      expect((await f.t.request({ method: 'GET', url: txUrl('', f.editor, 999_999) })).statusCode).toBe(404);
      expect((await f.t.request({ method: 'GET', url: txUrl('', UNKNOWN_TOKEN) })).statusCode).toBe(403);
      expect((await f.t.request({ method: 'GET', url: txUrl('', f.outsider) })).json().error.code).toBe('forbidden');
    });
  });

  describe('POST …/transactions/{txId}', () => {
    it('retry: a failed charge is charged again; the original becomes R, the invoice is paid, audited', async () => {
      const inv = await createInvoice(f.t.database.db, { storeId, lines: [{ billingItemId: 8, unitCents: 10_000 }] });
      const failed = await createTransaction(f.t.database.db, {
        invoiceId: inv.id,
        paymentInstrumentId: cardId,
        status: 'F',
      });
      const res = await act(failed.id, { action: 'retry', version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      const { transaction, new_transaction } = res.json().info;
      expect(transaction).toMatchObject({
        id: failed.id,
        status: 'R',
        status_label: 'Reprocessed',
        version: 2,
        actions: [],
      });
      expect(new_transaction).toMatchObject({
        status: 'S',
        amount_cents: 10_000,
        invoice_id: inv.id,
        instrument: { id: cardId },
        gateway_reference: expect.stringMatching(/^ch_local_/),
        failure_reason: null,
      });
      expect(await invRow(inv.id)).toMatchObject({ status: 'P', paidCents: 10_000 });
      expect((await auditOf(f.t, 'transaction', failed.id)).map((e) => [e.action, e.customerId])).toEqual([
        ['retry', customerId],
      ]);
      expect((await auditOf(f.t, 'invoice', inv.id))[0]).toMatchObject({
        action: 'payment_applied',
        after: { customer_id: customerId, status: 'P' },
      });
    });

    it('retry through the local gateway can be declined (amount ending in 51 cents): a new failed charge', async () => {
      const failed = await createTransaction(f.t.database.db, {
        customerId,
        storeId,
        paymentInstrumentId: cardId,
        status: 'F',
        amountCents: 12_351,
      });
      const res = await act(failed.id, { action: 'retry', version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info.new_transaction).toMatchObject({
        status: 'F',
        failure_reason: 'Insufficient funds',
        actions: ['retry'],
      });
    });

    it('the same Idempotency-Key charges once; another key after the retry → 409 (stale version)', async () => {
      const failed = await createTransaction(f.t.database.db, {
        customerId,
        storeId,
        paymentInstrumentId: cardId,
        status: 'F',
        amountCents: 4_200,
      });
      const before = await txCount();
      const first = await act(failed.id, { action: 'retry', version: 1 }, { key: 'retry-abc' });
      const second = await act(failed.id, { action: 'retry', version: 1 }, { key: 'retry-abc' });
      expect(first.statusCode, first.body).toBe(200);
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual(first.json());
      expect(await txCount()).toBe(before + 1);
      const other = await act(failed.id, { action: 'retry', version: 1 }, { key: 'retry-def' });
      expect(other.statusCode).toBe(409);
      expect(other.json().error).toMatchObject({
        code: 'version_conflict',
        current: { id: failed.id, status: 'R', version: 2 },
      });
      expect(await txCount()).toBe(before + 1);
    });

    it('void: a pending charge becomes V; retry of a success or void of a failure → 409 in words', async () => {
      const pending = await createTransaction(f.t.database.db, { customerId, storeId, status: 'P' });
      const res = await act(pending.id, { action: 'void', version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({
        transaction: { status: 'V', status_label: 'Void' },
        new_transaction: null,
      });
      const ok = await createTransaction(f.t.database.db, { customerId, storeId, status: 'S' });
      const retryOk = await act(ok.id, { action: 'retry', version: 1 });
      expect(retryOk.statusCode).toBe(409);
      expect(retryOk.json().error.message).toBe(
        `Only a failed (F) transaction can be retried; transaction ${ok.id} is Success (S).`,
      );
      const voidAgain = await act(pending.id, { action: 'void', version: 2 });
      expect(voidAgain.json().error.message).toBe(
        `Only a pending (P) transaction can be voided; transaction ${pending.id} is Void (V).`,
      );
    });

    it("400 bad action, 403 view-only, 404 another customer's transaction; nothing half-written", async () => {
      const failed = await createTransaction(f.t.database.db, {
        customerId,
        storeId,
        paymentInstrumentId: cardId,
        status: 'F',
      });
      expect((await act(failed.id, { action: 'refund', version: 1 })).json().error.fields.action).toBe(
        'Action is retry or void.',
      );
      expect((await act(failed.id, { action: 'retry' })).json().error.fields.version).toBe(
        'Send the version of the record you edited.',
      );
      expect((await act(failed.id, { action: 'retry', version: 1 }, { token: f.viewer })).statusCode).toBe(403);
      const foreign = await createTransaction(f.t.database.db, { customerId: otherCustomerId, status: 'F' });
      expect((await act(foreign.id, { action: 'retry', version: 1 })).statusCode).toBe(404);
      const before = await txCount();
      const undo = await failAuditOf(f.t, 'retry');
      try {
        expect((await act(failed.id, { action: 'retry', version: 1 })).statusCode).toBe(500);
      } finally {
        await undo();
      }
      expect(await txRow(failed.id)).toMatchObject({ status: 'F', version: 1 });
      expect(await txCount()).toBe(before);
    });
  });

  describe('invoices', () => {
    it('lists with status and type words; one invoice with lines, charges and memos', async () => {
      const inv = await createInvoice(f.t.database.db, {
        storeId,
        type: 'I',
        issuedOn: '2026-10-01',
        lines: [{ billingItemId: 10, description: 'Installment 1 of 12', unitCents: 12_500 }],
      });
      const res = await f.t.request({ method: 'GET', url: invUrl(`?storeid=${storeId}&type=I`, f.viewer) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info.items[0]).toMatchObject({
        id: inv.id,
        status: 'N',
        status_label: 'Pending',
        type: 'I',
        type_label: 'Installment',
        total_cents: 12_500,
        balance_cents: 12_500,
        can_reverse: true,
        currency: 'USD',
      });
      const detail = (await f.t.request({ method: 'GET', url: invUrl(`/${inv.id}`, f.viewer) })).json().info;
      expect(detail.lines).toEqual([
        {
          id: expect.any(Number),
          billing_item_id: 10,
          description: 'Installment 1 of 12',
          quantity: 1,
          unit_cents: 12_500,
          amount_cents: 12_500,
        },
      ]);
      expect(detail).toMatchObject({ transactions: [], credit_memos: [] });
      expect((await f.t.request({ method: 'GET', url: invUrl('?status=Q') })).statusCode).toBe(400);
      expect((await f.t.request({ method: 'GET', url: invUrl('/2000000000') })).statusCode).toBe(404);
      expect((await f.t.request({ method: 'GET', url: invUrl('', UNKNOWN_TOKEN) })).statusCode).toBe(403);
    });

    it("shows the ledger's paid and balance: payments, approved credits and write-offs (decision 112)", async () => {
      const db = f.t.database.db;
      const inv = await createInvoice(db, { storeId, issuedOn: '2026-08-01', totalCents: 100_00, paidCents: 30_00 });
      await createTransaction(db, { invoiceId: inv.id, status: 'S', amountCents: 30_00 });
      await createTransaction(db, { invoiceId: inv.id, status: 'F', amountCents: 70_00 });
      await createCreditMemo(db, { storeId, invoiceId: inv.id, type: 'C', status: 'A', amountCents: 20_00 });
      await createCreditMemo(db, { storeId, invoiceId: inv.id, type: 'C', status: 'P', amountCents: 5_00 });
      await createWriteOff(db, { invoiceId: inv.id, amountCents: 10_00 });
      const listed = (await f.t.request({ method: 'GET', url: invUrl(`?storeid=${storeId}`, f.viewer) }))
        .json()
        .info.items.find((i: { id: number }) => i.id === inv.id);
      expect(listed).toMatchObject({ total_cents: 100_00, paid_cents: 30_00, balance_cents: 40_00, status: 'N' });
      const detail = (await f.t.request({ method: 'GET', url: invUrl(`/${inv.id}`, f.viewer) })).json().info;
      expect(detail).toMatchObject({ paid_cents: 30_00, balance_cents: 40_00 });
    });

    it('a retry that pays the rest after an approved credit settles the invoice (P, balance 0)', async () => {
      const db = f.t.database.db;
      const inv = await createInvoice(db, { storeId, issuedOn: '2026-08-02', totalCents: 79_00 });
      await createCreditMemo(db, { storeId, invoiceId: inv.id, type: 'C', status: 'A', amountCents: 20_00 });
      const failed = await createTransaction(db, {
        invoiceId: inv.id,
        paymentInstrumentId: cardId,
        status: 'F',
        amountCents: 59_00,
      });
      const res = await act(failed.id, { action: 'retry', version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(await invRow(inv.id)).toMatchObject({ status: 'P', paidCents: 59_00 });
      const shown = (await f.t.request({ method: 'GET', url: invUrl(`/${inv.id}`, f.viewer) })).json().info;
      expect(shown).toMatchObject({ status: 'P', paid_cents: 59_00, balance_cents: 0 });
    });

    it('reverse a pending invoice: R with reversed_at, pending charges voided, no memo', async () => {
      const inv = await createInvoice(f.t.database.db, { storeId });
      const pending = await createTransaction(f.t.database.db, { invoiceId: inv.id, status: 'P' });
      const res = await reverse(inv.id, { reason: 'Billed twice', version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().info).toMatchObject({
        invoice: {
          status: 'R',
          status_label: 'Reversed',
          reversed_at: '2026-11-22T12:00:00.000Z',
          balance_cents: 0,
          can_reverse: false,
          version: 2,
        },
        credit_memo: null,
        voided_transaction_ids: [pending.id],
      });
      expect((await txRow(pending.id)).status).toBe('V');
      expect((await auditOf(f.t, 'invoice', inv.id))[0]).toMatchObject({
        action: 'reverse',
        customerId,
        after: { customer_id: customerId, status: 'R', reason: 'Billed twice' },
      });
      const again = await reverse(inv.id, { reason: 'Billed twice', version: 2 });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.message).toMatch(/is reversed; only pending or paid invoices can be reversed/);
    });

    it('reverse a paid invoice: a refund credit memo waits for approval; the same key reverses once', async () => {
      const inv = await createInvoice(f.t.database.db, { storeId, status: 'P', paidCents: 7900 });
      const first = await reverse(inv.id, { reason: 'Service never delivered', version: 1 }, { key: 'rev-1' });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().info.credit_memo).toMatchObject({
        invoice_id: inv.id,
        type: 'R',
        status: 'P',
        amount_cents: 7900,
        created_by_email: 'editor@example.com',
        reason: `Reversal of invoice ${inv.invoiceNumber}: Service never delivered`,
      });
      const second = await reverse(inv.id, { reason: 'Service never delivered', version: 1 }, { key: 'rev-1' });
      expect(second.json()).toEqual(first.json());
      expect(await f.t.database.db.select().from(creditMemos).where(eq(creditMemos.invoiceId, inv.id))).toHaveLength(1);
    });

    it('a reversal writes the type R credit invoice that nets it: numbered, the lines negated, shown with the invoice; the ledger check is clean (decision 152)', async () => {
      const inv = await createInvoice(f.t.database.db, { storeId, totalCents: 84_00, taxCents: 5_00 });
      const res = await reverse(inv.id, { reason: 'Plan canceled before the period', version: 1 });
      expect(res.statusCode, res.body).toBe(200);
      const credit = res.json().info.credit_invoice;
      expect(credit).toMatchObject({
        type: 'R',
        reverses_invoice_id: inv.id,
        reverses_invoice_number: inv.invoiceNumber,
        total_cents: -84_00,
        tax_cents: -5_00,
        issued_on: '2026-11-22',
        reason: `Reversal of invoice ${inv.invoiceNumber}: Plan canceled before the period`,
      });
      expect(credit.invoice_number).toMatch(/^INV-2026-\d{7}$/);
      expect(credit.invoice_number).not.toBe(inv.invoiceNumber);
      // The lines net the original's: with its tax they add up to the credit's total.
      expect(credit.lines.reduce((sum: number, l: { amount_cents: number }) => sum + l.amount_cents, 0)).toBe(-84_00);
      // The original keeps status R and owes nothing; the detail shows the credit invoice.
      const shown = (await f.t.request({ method: 'GET', url: invUrl(`/${inv.id}`, f.viewer) })).json().info;
      expect(shown).toMatchObject({
        status: 'R',
        balance_cents: 0,
        credit_invoice: { id: credit.id, total_cents: -84_00 },
      });
      // The money is posted once (the original's reversal): the ledger and the journal still agree.
      const { admin } = await signInStaff(f.t, { admin: 'Admin' });
      const check = await f.t.request({ method: 'GET', url: `/api/billing/ledger-check/${admin}` });
      expect(check.json().info).toMatchObject({ journal_mismatch_count: 0, unbalanced_entry_count: 0 });
      // A reversal is written once: the invoice is reversed, and a second credit invoice is refused by the database.
      expect((await reverse(inv.id, { reason: 'Again, twice', version: 2 })).statusCode).toBe(409);
    });

    it('400 short reason, 409 stale, 403 view-only, 404 foreign — nothing changed', async () => {
      const inv = await createInvoice(f.t.database.db, { storeId });
      expect((await reverse(inv.id, { reason: 'x', version: 1 })).json().error.fields.reason).toMatch(
        /at least 3 characters/,
      );
      const stale = await reverse(inv.id, { reason: 'Wrong amount', version: 7 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error).toMatchObject({
        code: 'version_conflict',
        current: { id: inv.id, status: 'N', version: 1 },
      });
      expect((await reverse(inv.id, { reason: 'Wrong amount', version: 1 }, { token: f.viewer })).statusCode).toBe(403);
      const foreign = await createInvoice(f.t.database.db, { customerId: otherCustomerId });
      expect((await reverse(foreign.id, { reason: 'Wrong amount', version: 1 })).statusCode).toBe(404);
      expect(await invRow(inv.id)).toMatchObject({ status: 'N', version: 1, reversedAt: null });
    });
  });
});
