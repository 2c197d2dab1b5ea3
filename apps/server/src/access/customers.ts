import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, stores } from '../db/schema';
import { AppError } from '../http/errors';
import { visibleCustomersWhere, visibleStoresWhere } from './stores';
import type { Viewer } from './viewer';

/*
 * The customer and the store a "…/customers/{id}/…" request names: 404 when they do not exist, when the store is another
 * customer's, or when the viewer may not see them (the owner rule, access/stores.ts; decision 140) — the same answer in
 * every case, so every service refuses a wrong path the same way and nothing tells a caller that a record exists.
 */

export interface CustomerRef {
  id: number;
  legalName: string;
  email: string;
  country: string;
  currency: string;
}

/** The customer of a "…/customers/{id}/…" path, or 404. */
export async function requireCustomer(db: Db, viewer: Viewer, customerId: number): Promise<CustomerRef> {
  const [row] = await db
    .select({
      id: customers.id,
      legalName: customers.legalName,
      email: customers.email,
      country: customers.country,
      currency: customers.currency,
    })
    .from(customers)
    .where(and(eq(customers.id, customerId), visibleCustomersWhere(viewer)));
  if (!row) throw new AppError('not_found', `Customer ${customerId} was not found.`);
  return row;
}

export interface StoreRef {
  id: number;
  customerId: number;
  currency: string;
  country: string;
  doingBusinessAs: string;
  licenseExpiresOn: string | null;
  version: number;
}

/** A store of this customer, or 404 naming the field it came from. `lock` takes a row lock (FOR UPDATE). */
export async function requireStoreOf(
  db: Db,
  viewer: Viewer,
  customerId: number,
  storeId: number,
  field: string,
  lock = false,
): Promise<StoreRef> {
  const q = db
    .select({
      id: stores.id,
      customerId: stores.customerId,
      currency: stores.currency,
      country: stores.country,
      doingBusinessAs: stores.doingBusinessAs,
      licenseExpiresOn: stores.licenseExpiresOn,
      version: stores.version,
    })
    .from(stores)
    .where(and(eq(stores.id, storeId), eq(stores.customerId, customerId), visibleStoresWhere(viewer)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) {
    const message = `Store ${storeId} is not a store of customer ${customerId}.`;
    throw new AppError('not_found', message, { [field]: message });
  }
  return row;
}
