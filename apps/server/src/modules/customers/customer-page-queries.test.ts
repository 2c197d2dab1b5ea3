import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createStore, createTerminal } from '../../db/factories';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * The customer page's queries do not grow with the customer's stores (issue 13: no N+1). What the web asks for
 * when it opens a customer (apps/web/src/features/customers): the record with its stores, then the first tab
 * (Terminals, DEFAULT_STORE_TAB) of the first store, 25 to a page sorted by terminal id. Every statement the
 * database runs during those two calls is counted, the session check included.
 */

/**
 * The most statements the two calls may run, whatever the number of stores. Today 10: per call the session look-up
 * (its last-seen touch is rare, at most one more); the record: the customer with its sales person, what it owes
 * (the open balances of its pending invoices by store and currency, one grouped query — issue 14 point 5), its
 * stores, the terminal counts of all its stores in one grouped query; the tab: the customer, the store, the page of
 * terminals, their total. One per store would be 30 more.
 */
const CUSTOMER_PAGE_MAX_QUERIES = 10;
const MANY_STORES = 30;

describe('the customer page (record + stores, first tab) runs a fixed number of queries', () => {
  let t: TestApp;
  let token: string;
  const statements: string[] = [];
  let counting = false;

  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: (sqlText) => counting && statements.push(sqlText) });
    t = await createTestApp({ database });
    ({ viewer: token } = await signInStaff(t, { viewer: 'Customer Support' }));
  });
  afterAll(async () => {
    await t.close();
    await t.database.close();
  });

  /** A customer with `n` stores, two terminals each. */
  async function customerWithStores(n: number): Promise<{ customerId: number; firstStoreId: number }> {
    const db = t.database.db;
    const customer = await createCustomer(db);
    const storeIds: number[] = [];
    for (let i = 0; i < n; i++) {
      const store = await createStore(db, { customerId: customer.id });
      storeIds.push(store.id);
      for (let k = 0; k < 2; k++) await createTerminal(db, { storeId: store.id });
    }
    return { customerId: customer.id, firstStoreId: storeIds[0]! };
  }

  /** Opens the customer page as the web does; answers what it saw and the statements run meanwhile. */
  async function openCustomerPage(customerId: number, firstStoreId: number) {
    statements.length = 0;
    counting = true;
    try {
      const record = await t.request({ method: 'GET', url: `/api/customers/${customerId}/${token}` });
      const tab = await t.request({
        method: 'GET',
        url: `/api/customers/${customerId}/${token}/customerterminals?storeid=${firstStoreId}&limit=25&offset=0&sort=elmer_id`,
      });
      return { record, tab, queries: [...statements] };
    } finally {
      counting = false;
    }
  }

  it(`one store or ${MANY_STORES}: the same number of queries, at most ${CUSTOMER_PAGE_MAX_QUERIES}`, async () => {
    const one = await customerWithStores(1);
    const many = await customerWithStores(MANY_STORES);

    const small = await openCustomerPage(one.customerId, one.firstStoreId);
    const large = await openCustomerPage(many.customerId, many.firstStoreId);

    // The calls answered what the page shows: every store with its terminal count, the first store's terminals.
    expect(large.record.statusCode).toBe(200);
    const stores = (large.record.json() as { info: { stores: Array<{ terminals: number }> } }).info.stores;
    expect(stores).toHaveLength(MANY_STORES);
    expect(stores.every((s) => s.terminals === 2)).toBe(true);
    expect(large.tab.statusCode).toBe(200);
    expect(JSON.stringify(large.tab.json())).toContain(`"store_id":${many.firstStoreId}`);

    expect(large.queries.length, large.queries.join('\n')).toBeLessThanOrEqual(CUSTOMER_PAGE_MAX_QUERIES);
    expect(large.queries.length, large.queries.join('\n')).toBe(small.queries.length);
  });
});
