import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/db-template';
import type { Database } from './client';
import { createCustomer, createInvoice, createOrder, createStore, createTransaction } from './factories';
import { customers, invoices, orders, stores, transactions } from './schema';

/** Drizzle wraps the driver error; the constraint name is on the cause (PGlite) or the error (pg). */
async function violation(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    const e = err as { message?: string; cause?: { message?: string; constraint?: string }; constraint?: string };
    return [e.constraint, e.cause?.constraint, e.message, e.cause?.message].filter(Boolean).join(' | ');
  }
  throw new Error('expected the database to refuse the row');
}

describe('constraints refuse bad data', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('refuses a negative invoice amount', async () => {
    await expect(violation(createInvoice(database.db, { totalCents: -100 }))).resolves.toMatch(
      /invoices_amounts_check/,
    );
  });

  it('refuses an invoice paid above its total', async () => {
    await expect(violation(createInvoice(database.db, { totalCents: 79_00, paidCents: 80_00 }))).resolves.toMatch(
      /invoices_amounts_check/,
    );
    const ok = await createInvoice(database.db, { paidCents: 79_00, status: 'P' });
    expect(ok.paidCents).toBe(ok.totalCents);
  });

  it('refuses an unknown invoice status or type', async () => {
    await expect(violation(createInvoice(database.db, { status: 'X' }))).resolves.toMatch(/invoices_status_check/);
    await expect(violation(createInvoice(database.db, { type: 'Q' }))).resolves.toMatch(/invoices_type_check/);
  });

  it('refuses an unknown order status code', async () => {
    await expect(violation(createOrder(database.db, { status: '999' }))).resolves.toMatch(/orders_status_check/);
    const order = await createOrder(database.db, { status: '121' });
    await expect(
      violation(database.db.update(orders).set({ status: '4' }).where(eq(orders.id, order.id))),
    ).resolves.toMatch(/orders_status_check/);
  });

  it('refuses an orphan store (its customer does not exist)', async () => {
    await expect(violation(createStore(database.db, { customerId: 99_999_999 }))).resolves.toMatch(
      /stores_customer_fk/,
    );
  });

  it('refuses deleting a customer that still has stores', async () => {
    const store = await createStore(database.db);
    await expect(violation(database.db.delete(customers).where(eq(customers.id, store.customerId)))).resolves.toMatch(
      /stores_customer_fk/,
    );
  });

  it('refuses an unknown transaction status letter, and a failure without a reason', async () => {
    await expect(violation(createTransaction(database.db, { status: 'X' }))).resolves.toMatch(
      /transactions_status_check/,
    );
    await expect(violation(createTransaction(database.db, { status: 'F', failureReason: null }))).resolves.toMatch(
      /transactions_failure_check/,
    );
    await expect(violation(createTransaction(database.db, { amountCents: 0 }))).resolves.toMatch(
      /transactions_amount_check/,
    );
  });

  it('refuses an unknown currency and a country outside US/CA', async () => {
    await expect(violation(createCustomer(database.db, { currency: 'EUR' }))).resolves.toMatch(
      /customers_currency_check/,
    );
    await expect(violation(createCustomer(database.db, { country: 'MEX', currency: 'USD' }))).resolves.toMatch(
      /customers_country_check/,
    );
  });

  it('ids start in their ranges: customers 100001+, stores 500001+, orders 700001+', async () => {
    const store = await createStore(database.db);
    const order = await createOrder(database.db, { storeId: store.id });
    expect(store.customerId).toBeGreaterThanOrEqual(100_001);
    expect(store.id).toBeGreaterThanOrEqual(500_001);
    expect(order.id).toBeGreaterThanOrEqual(700_001);
    // The document carries the id the row got.
    expect((order.document as { orderInfoId: number }).orderInfoId).toBe(order.id);
  });

  it('keeps money as integers in cents', async () => {
    const inv = await createInvoice(database.db, { lines: [{ billingItemId: 8, unitCents: 79_99 }], taxCents: 6_40 });
    const [row] = await database.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(row!.totalCents).toBe(86_39);
    const tx = await createTransaction(database.db, { invoiceId: inv.id });
    const [t] = await database.db.select().from(transactions).where(eq(transactions.id, tx.id));
    expect(t!.amountCents).toBe(86_39);
    expect(t!.currency).toBe('USD');
  });
});

describe('br_acct sync trigger', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it("a new store gets its customer's br_acct, whatever the insert says", async () => {
    const customer = await createCustomer(database.db, { brAcct: 'BR7700001' });
    const store = await createStore(database.db, { customerId: customer.id, brAcct: 'SOMETHING-ELSE' });
    expect(store.brAcct).toBe('BR7700001');
  });

  it("changing the customer's br_acct updates every store of that customer and no other", async () => {
    const customer = await createCustomer(database.db, { brAcct: 'BR7700002' });
    const other = await createStore(database.db);
    const a = await createStore(database.db, { customerId: customer.id });
    const b = await createStore(database.db, { customerId: customer.id });
    await database.db.update(customers).set({ brAcct: 'BR7799999' }).where(eq(customers.id, customer.id));
    const rows = await database.db
      .select({ id: stores.id, brAcct: stores.brAcct })
      .from(stores)
      .where(eq(stores.customerId, customer.id));
    expect(rows.map((r) => r.brAcct)).toEqual(['BR7799999', 'BR7799999']);
    expect(rows.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    const [untouched] = await database.db.select({ brAcct: stores.brAcct }).from(stores).where(eq(stores.id, other.id));
    expect(untouched!.brAcct).toBe(other.brAcct);
  });

  it('moving a store to another customer takes the new br_acct; a direct edit is put back', async () => {
    const from = await createCustomer(database.db, { brAcct: 'BR7700003' });
    const to = await createCustomer(database.db, { brAcct: 'BR7700004' });
    const store = await createStore(database.db, { customerId: from.id });
    const [moved] = await database.db
      .update(stores)
      .set({ customerId: to.id })
      .where(eq(stores.id, store.id))
      .returning();
    expect(moved!.brAcct).toBe('BR7700004');
    const [edited] = await database.db
      .update(stores)
      .set({ brAcct: 'HAND-EDIT' })
      .where(eq(stores.id, store.id))
      .returning();
    expect(edited!.brAcct).toBe('BR7700004');
  });
});
