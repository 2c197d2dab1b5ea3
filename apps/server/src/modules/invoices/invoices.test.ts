import { BILLING_ITEM_IDS } from '@pos/domain';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCustomer,
  createInvoice,
  createPaymentPlan,
  createReceipt,
  createReceiptAllocation,
  createStore,
  createTransaction,
  createWriteOff,
} from '../../db/factories';
import { createTestDatabase } from '../../test/db-template';
import { pdfTextLines } from '../../test/pdf-text';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * The invoices screen's calls (issue 14 point 4, decision 114) through HTTP. Today is 2026-11-22 (the test clock).
 * Two merchants: a Canadian one (CAD) with an overdue invoice partly paid, a paid one and one not yet due; a US one
 * with an overdue invoice partly written off and partly paid by a receipt.
 */

let t: TestApp;
let tok: Record<'ar' | 'support' | 'marketing', string>;
const ids = { overdueCad: 0, paidCad: 0, futureCad: 0, overdueUsd: 0, mapleCustomer: 0, mapleStore: 0 };

type Item = {
  id: number;
  invoice_number: string;
  balance_cents: number;
  paid_cents: number;
  overdue: boolean;
  currency: string;
  legal_name: string;
  doing_business_as: string | null;
};

beforeAll(async () => {
  const database = await createTestDatabase();
  t = await createTestApp({ database });
  tok = await signInStaff(t, { ar: 'AR Team', support: 'Customer Support', marketing: 'Marketing' });
  const db = database.db;

  const maple = await createCustomer(db, {
    country: 'CA',
    legalName: 'Maple Leaf Hardware Ltd',
    email: 'billing@mapleleaf.example.com',
    firstName: 'Anne',
    lastName: 'Tremblay',
    billingAddress: {
      address1: '12 Rue Sainte-Catherine',
      city: 'Montréal',
      state: 'QC',
      zip: 'H2X 1Z4',
      country: 'CA',
    },
  });
  const mapleStore = await createStore(db, {
    customerId: maple.id,
    country: 'CA',
    doingBusinessAs: 'Maple Coffee Bar',
  });
  ids.mapleCustomer = maple.id;
  ids.mapleStore = mapleStore.id;
  const overdue = await createInvoice(db, {
    storeId: mapleStore.id,
    customerId: maple.id,
    currency: 'CAD',
    issuedOn: '2026-09-01',
    dueOn: '2026-09-15',
    taxCents: 5_00,
    paidCents: 30_00,
    lines: [
      { billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, description: 'September 2026', unitCents: 79_00 },
      { billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, description: 'Second terminal', unitCents: 21_00 },
    ],
  });
  await createTransaction(db, {
    invoiceId: overdue.id,
    kind: 'charge',
    status: 'S',
    amountCents: 30_00,
    currency: 'CAD',
  });
  ids.overdueCad = overdue.id;
  const paid = await createInvoice(db, {
    storeId: mapleStore.id,
    customerId: maple.id,
    currency: 'CAD',
    issuedOn: '2026-10-01',
    dueOn: '2026-10-15',
    status: 'P',
    paidCents: 79_00,
  });
  await createTransaction(db, { invoiceId: paid.id, kind: 'charge', status: 'S', amountCents: 79_00, currency: 'CAD' });
  ids.paidCad = paid.id;
  ids.futureCad = (
    await createInvoice(db, {
      storeId: mapleStore.id,
      customerId: maple.id,
      currency: 'CAD',
      issuedOn: '2026-11-20',
      dueOn: '2026-12-04',
    })
  ).id;

  const bluebird = await createCustomer(db, { country: 'US', legalName: 'Bluebird Diner LLC' });
  const bluebirdStore = await createStore(db, { customerId: bluebird.id, doingBusinessAs: 'Bluebird Diner' });
  const usd = await createInvoice(db, {
    storeId: bluebirdStore.id,
    customerId: bluebird.id,
    currency: 'USD',
    issuedOn: '2026-08-01',
    dueOn: '2026-08-15',
    paidCents: 10_00,
  });
  await createWriteOff(db, { invoiceId: usd.id, type: 142, amountCents: 20_00 });
  const receipt = await createReceipt(db, { customerId: bluebird.id, amountCents: 10_00 });
  await createReceiptAllocation(db, { receiptId: receipt.id, invoiceId: usd.id, amountCents: 10_00 });
  ids.overdueUsd = usd.id;
}, 120_000);

afterAll(async () => {
  await t.close();
  await t.database.close();
});

const get = (url: string, token = tok.ar) => t.request({ method: 'GET', url: url.replace('{t}', token) });
async function list(query = '', token = tok.ar) {
  const res = await get(`/api/invoices/{t}${query ? `?${query}` : ''}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info as { items: Item[]; total: number; total_capped: boolean };
}

/** The ledger's balance of an invoice (the view of decision 112), read directly. */
async function ledgerOpen(id: number): Promise<number> {
  const [row] = await t.database.query<{ open_cents: string }>(
    'select open_cents from invoice_balances where invoice_id = $1',
    [id],
  );
  return Number(row!.open_cents);
}

describe('GET /api/invoices/{token}', () => {
  it('lists every invoice newest first, each balance the ledger’s, with an exact total', async () => {
    const info = await list();
    expect(info.items.map((i) => i.id)).toEqual([ids.futureCad, ids.paidCad, ids.overdueCad, ids.overdueUsd]);
    expect([info.total, info.total_capped]).toEqual([4, false]);
    for (const item of info.items) expect(item.balance_cents, item.invoice_number).toBe(await ledgerOpen(item.id));
    const byId = new Map(info.items.map((i) => [i.id, i]));
    // 79 + 21 + 5 tax − 30 paid; 79 − 10 receipt − 20 written off.
    expect(byId.get(ids.overdueCad)).toMatchObject({
      balance_cents: 75_00,
      paid_cents: 30_00,
      overdue: true,
      legal_name: 'Maple Leaf Hardware Ltd',
      doing_business_as: 'Maple Coffee Bar',
    });
    expect(byId.get(ids.overdueUsd)).toMatchObject({ balance_cents: 49_00, paid_cents: 10_00, overdue: true });
    expect(byId.get(ids.paidCad)).toMatchObject({ balance_cents: 0, overdue: false });
    expect(byId.get(ids.futureCad)).toMatchObject({ balance_cents: 79_00, overdue: false });
  });

  it('filters: overdue CAD, status, type, customer, store, dates, text on legal name or DBA', async () => {
    const only = async (query: string) => (await list(query)).items.map((i) => i.id);
    expect(await only('overdue=true&currency=CAD')).toEqual([ids.overdueCad]);
    expect(await only('overdue=true')).toEqual([ids.overdueCad, ids.overdueUsd]);
    expect(await only('status=P')).toEqual([ids.paidCad]);
    expect(await only('type=I')).toEqual([]);
    // Several values of one field (the multi-select dropdown): a comma list, repeats and blanks ignored.
    const pendingOrPaid = await only('status=N,P,,N&sort=issued_on');
    expect(pendingOrPaid.sort()).toEqual([ids.overdueCad, ids.overdueUsd, ids.paidCad, ids.futureCad].sort());
    expect(await only('status=P,R')).toEqual([ids.paidCad]);
    expect((await list('type=R,M,B,I,S')).total).toBe(4);
    expect(await only('type=I,B')).toEqual([]);
    expect(await only(`customer_id=${ids.mapleCustomer}&sort=issued_on`)).toEqual([
      ids.overdueCad,
      ids.paidCad,
      ids.futureCad,
    ]);
    expect(await only(`store_id=${ids.mapleStore}&due_from=2026-10-01&due_to=2026-10-31`)).toEqual([ids.paidCad]);
    expect(await only('issued_from=2026-08-01&issued_to=2026-09-01')).toEqual([ids.overdueCad, ids.overdueUsd]);
    expect(await only('q=maple leaf')).toEqual([ids.futureCad, ids.paidCad, ids.overdueCad]);
    expect(await only('q=bluebird')).toEqual([ids.overdueUsd]);
    expect(await only('q=COFFEE BAR')).toEqual([ids.futureCad, ids.paidCad, ids.overdueCad]);
  });

  it('sorts on the server and pages, the total counting every match', async () => {
    const page = await list('sort=-total_cents&limit=2&offset=1');
    // 105.00 first, then the three 79.00 ones newest id first (ties follow the sort's direction).
    expect(page.items.map((i) => i.id)).toEqual([ids.overdueUsd, ids.futureCad]);
    expect([page.total, page.total_capped]).toEqual([4, false]);
    const byDue = await list('sort=due_on');
    expect(byDue.items.map((i) => i.id)).toEqual([ids.overdueUsd, ids.overdueCad, ids.paidCad, ids.futureCad]);
  });

  it('refuses bad filters with 400 and a message per field', async () => {
    const res = await get('/api/invoices/{t}?status=X&currency=EUR&q=a&sort=balance&overdue=maybe');
    expect(res.statusCode).toBe(400);
    const { error } = res.json();
    expect(error.code).toBe('validation_failed');
    expect(Object.keys(error.fields).sort()).toEqual(['currency', 'overdue', 'q', 'sort', 'status']);
    expect(error.fields.status).toBe('Status is N (pending), P (paid) or R (reversed).');
    const order = await get(
      '/api/invoices/{t}?issued_from=2026-10-01&issued_to=2026-09-01&due_from=2026-10-02&due_to=2026-10-01',
    );
    expect([order.statusCode, order.json().error.fields]).toEqual([
      400,
      { issued_to: 'The last issue date is before the first.', due_to: 'The last due date is before the first.' },
    ]);
    const list2 = await get('/api/invoices/{t}?status=N,X');
    expect([list2.statusCode, list2.json().error.fields]).toEqual([
      400,
      { status: 'Status is N (pending), P (paid) or R (reversed).' },
    ]);
    const dates = await get('/api/invoices/{t}?due_from=2026-13-01');
    expect([dates.statusCode, dates.json().error.fields]).toEqual([
      400,
      { due_from: 'Enter the first due date as YYYY-MM-DD.' },
    ]);
  });

  it('format=csv streams every matching row with its ledger balance', async () => {
    const res = await get('/api/invoices/{t}?format=csv&currency=CAD&limit=1');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('invoices-2026-11-22.csv');
    const rows = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows[0]).toBe(
      'id,invoice_number,customer_id,legal_name,store_id,doing_business_as,status,type,issued_on,due_on,currency,total_cents,tax_cents,paid_cents,balance_cents,overdue',
    );
    // Not the page (limit=1): all three CAD invoices.
    expect(rows.slice(1).map((r) => Number(r.split(',')[0]))).toEqual([ids.futureCad, ids.paidCad, ids.overdueCad]);
    expect(rows[3]).toMatch(/,10500,500,3000,7500,true$/);
  });
});

describe('who may', () => {
  it('needs the invoices privilege on every call (403), and a live session', async () => {
    const calls = [
      ['GET', '/api/invoices/{t}'],
      ['GET', `/api/invoices/${ids.overdueCad}/{t}`],
      ['GET', `/api/invoices/${ids.overdueCad}/pdf/{t}`],
      ['POST', `/api/invoices/${ids.overdueCad}/email/{t}`],
    ] as const;
    for (const [method, url] of calls) {
      const res = await t.request({ method, url: url.replace('{t}', tok.marketing) });
      expect([res.statusCode, res.json().error.message], url).toEqual([
        403,
        'This needs one of these privileges: invoices.',
      ]);
      const stranger = await t.request({ method, url: url.replace('{t}', 'x'.repeat(43)) });
      expect(stranger.json().error.code, url).toBe('session_invalid');
    }
  });
});

describe('GET /api/invoices/{invoiceId}/{token}', () => {
  it('shows lines with billing-item names, payments, write-offs, receipts applied and the ledger', async () => {
    const res = await get(`/api/invoices/${ids.overdueUsd}/{t}`);
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info).toMatchObject({
      id: ids.overdueUsd,
      legal_name: 'Bluebird Diner LLC',
      balance_cents: 49_00,
      overdue: true,
      ledger: { open_cents: 49_00, paid_cents: 10_00, written_off_cents: 20_00, credited_cents: 0 },
    });
    expect(info.lines).toEqual([
      expect.objectContaining({ billing_item_id: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, amount_cents: 79_00 }),
    ]);
    expect(info.lines[0].billing_item_name).toMatch(/\S/);
    expect(info.write_offs).toEqual([expect.objectContaining({ type: 142, amount_cents: 20_00 })]);
    expect(info.receipts).toEqual([expect.objectContaining({ amount_cents: 10_00 })]);
    expect(info.transactions).toEqual([]);
    const cad = (await get(`/api/invoices/${ids.overdueCad}/{t}`)).json().info;
    expect(cad.transactions).toEqual([expect.objectContaining({ kind: 'charge', status: 'S', amount_cents: 30_00 })]);
    expect(cad.merchant_email).toBe('billing@mapleleaf.example.com');
  });

  it('names the billing run that created an invoice of a plan, and none for the others', async () => {
    const db = t.database.db;
    const plan = await createPaymentPlan(db, { storeId: ids.mapleStore, customerId: ids.mapleCustomer });
    const [run] = await t.database.query<{ id: number }>(
      `insert into billing_runs (as_of, status, requested_by, started_at, finished_at, created_at, updated_at)
       values ('2026-11-01', 'done', 'schedule', '2026-11-01T05:00:00Z', '2026-11-01T05:01:00Z', now(), now())
       returning id`,
    );
    // A run of another day, and one of the same day that started after the invoice was made: neither made it.
    await t.database.query(
      `insert into billing_runs (as_of, status, requested_by, started_at, finished_at, created_at, updated_at)
       values ('2026-10-01', 'done', 'schedule', '2026-11-01T04:00:00Z', '2026-11-01T06:00:00Z', now(), now()),
              ('2026-11-01', 'done', 'admin@example.com', '2026-11-01T07:00:00Z', '2026-11-01T07:01:00Z', now(), now())`,
    );
    const billed = await createInvoice(db, {
      storeId: ids.mapleStore,
      customerId: ids.mapleCustomer,
      planId: plan.id,
      currency: 'CAD',
      issuedOn: '2026-11-01',
      dueOn: '2026-11-01',
      createdAt: new Date('2026-11-01T05:00:30Z'),
    });
    try {
      const info = (await get(`/api/invoices/${billed.id}/{t}`)).json().info;
      expect(info.billing_run).toEqual({ run_id: run!.id, as_of: '2026-11-01', requested_by: 'schedule' });
      expect((await get(`/api/invoices/${ids.overdueCad}/{t}`)).json().info.billing_run).toBeNull();
    } finally {
      await t.database.query('delete from invoice_lines where invoice_id = $1', [billed.id]);
      await t.database.query('delete from invoices where id = $1', [billed.id]);
    }
  });

  it('answers 404 for an unknown invoice and 400 for an id that is not one', async () => {
    const missing = await get('/api/invoices/999999/{t}');
    expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'not_found']);
    expect((await get('/api/invoices/999999/pdf/{t}')).statusCode).toBe(404);
    const bad = await get('/api/invoices/abc/{t}');
    expect([bad.statusCode, Object.keys(bad.json().error.fields)]).toEqual([400, ['invoiceId']]);
  });
});

describe('the invoice PDF', () => {
  it('is a PDF with the provider’s and merchant’s addresses, lines, tax, total, paid and balance in C$', async () => {
    const res = await get(`/api/invoices/${ids.overdueCad}/pdf/{t}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const [inv] = await t.database.query<{ invoice_number: string }>(
      'select invoice_number from invoices where id = $1',
      [ids.overdueCad],
    );
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="invoice-${inv!.invoice_number}.pdf"; filename*=UTF-8''invoice-${inv!.invoice_number}.pdf`,
    );
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getTitle()).toBe(`Invoice ${inv!.invoice_number}`);
    const text = pdfTextLines(res.rawPayload);
    const itemName = (await get(`/api/invoices/${ids.overdueCad}/{t}`)).json().info.lines[0].billing_item_name;
    expect(text).toEqual(
      expect.arrayContaining([
        `Invoice ${inv!.invoice_number}`,
        'POS Back Office Inc.',
        '100 Main Street, Suite 200, New York, NY 10001, US',
        'Maple Leaf Hardware Ltd',
        '12 Rue Sainte-Catherine, Montreal, QC H2X 1Z4, CA',
        `1 x ${itemName} - September 2026`,
        `1 x ${itemName} - Second terminal`,
        'C$79.00',
        'C$21.00',
        // No rate known for the store's province in this test: one line named for the country (decision 149).
        'GST/HST',
        'C$5.00',
        'Total (CAD)',
        'C$105.00',
        'Paid',
        'C$30.00',
        'Balance due',
        'C$75.00',
      ]),
    );
  });
});

describe('POST /api/invoices/{invoiceId}/email/{token}', () => {
  it('e-mails the merchant the invoice (PDF attached) into the Mailbox and writes the history', async () => {
    const res = await t.request({ method: 'POST', url: `/api/invoices/${ids.overdueCad}/email/${tok.ar}` });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info).toMatchObject({ to: 'billing@mapleleaf.example.com', sent_at: '2026-11-22T12:00:00.000Z' });
    const [mail] = await t.database.query<{
      to: string;
      subject: string;
      template: string;
      text: string;
      related_id: string;
    }>('select "to", subject, template, text, related_id from mail_log where id = $1', [info.mail_id]);
    expect(mail).toMatchObject({
      to: 'billing@mapleleaf.example.com',
      template: 'invoice',
      related_id: String(ids.overdueCad),
    });
    expect(mail!.subject).toMatch(/^Invoice INV-.+ for Maple Coffee Bar$/);
    expect(mail!.text).toContain('The balance due is C$75.00, due on Sep 15, 2026.');
    expect(mail!.text).toMatch(/Attachment: invoice-INV-.+\.pdf/);

    const history = (await get(`/api/invoices/${ids.overdueCad}/{t}`)).json().info.history;
    expect(history).toEqual([
      expect.objectContaining({
        action: 'email',
        entity: 'invoice',
        entity_id: String(ids.overdueCad),
        actor_email: 'ar@example.com',
        after: expect.objectContaining({ to: 'billing@mapleleaf.example.com', mail_id: info.mail_id }),
      }),
    ]);
  });

  it('answers 404 for an unknown invoice and sends nothing', async () => {
    const [before] = await t.database.query<{ n: number }>('select count(*)::int as n from mail_log');
    const res = await t.request({ method: 'POST', url: `/api/invoices/999999/email/${tok.support}` });
    expect([res.statusCode, res.json().error.code]).toEqual([404, 'not_found']);
    const [after] = await t.database.query<{ n: number }>('select count(*)::int as n from mail_log');
    expect(after!.n).toBe(before!.n);
  });
});

describe('the same balances on the customer page (issue 14 point 5)', () => {
  it('header: open balance and oldest overdue date; store: its open balance; Invoices tab: the list’s balances', async () => {
    const record = await get(`/api/customers/${ids.mapleCustomer}/{t}`);
    expect(record.statusCode, record.body).toBe(200);
    const info = record.json().info;
    // Pending and overdue 75.00 (due 2026-09-15) + pending, not yet due 79.00; the paid one owes nothing.
    expect(info.open_balances).toEqual([{ currency: 'CAD', open_cents: 154_00 }]);
    expect(info.oldest_overdue_on).toBe('2026-09-15');
    expect(
      info.stores.map((s: { store_id: number; open_balance_cents: number }) => [s.store_id, s.open_balance_cents]),
    ).toEqual([[ids.mapleStore, (await ledgerOpen(ids.overdueCad)) + (await ledgerOpen(ids.futureCad))]]);

    const tab = await get(`/api/customers/${ids.mapleCustomer}/{t}/customerinvoices?storeid=${ids.mapleStore}`);
    expect(tab.statusCode, tab.body).toBe(200);
    const screen = await list(`store_id=${ids.mapleStore}`);
    const balances = (items: { id: number; balance_cents: number }[]) =>
      Object.fromEntries(items.map((i) => [i.id, i.balance_cents]));
    expect(balances(tab.json().info.items)).toEqual(balances(screen.items));

    // Once paid, nothing is overdue.
    await t.database.query(
      `insert into transactions (customer_id, store_id, invoice_id, kind, status, amount_cents, currency)
       values ($1, $2, $3, 'charge', 'S', 7500, 'CAD')`,
      [ids.mapleCustomer, ids.mapleStore, ids.overdueCad],
    );
    await t.database.query(`update invoices set status = 'P', paid_cents = total_cents where id = $1`, [
      ids.overdueCad,
    ]);
    try {
      const after = (await get(`/api/customers/${ids.mapleCustomer}/{t}`)).json().info;
      expect([after.open_balances, after.oldest_overdue_on]).toEqual([[{ currency: 'CAD', open_cents: 79_00 }], null]);
    } finally {
      await t.database.query(`delete from transactions where invoice_id = $1 and amount_cents = 7500`, [
        ids.overdueCad,
      ]);
      await t.database.query(`update invoices set status = 'N', paid_cents = 3000 where id = $1`, [ids.overdueCad]);
    }
  });
});
