import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, storeEmails, stores } from '../db/schema';

export type StoreEmailKind = 'general' | 'billing' | 'owner' | 'support';

export interface MerchantContact {
  store: typeof stores.$inferSelect;
  customer: typeof customers.$inferSelect;
  /** Where the message goes. */
  email: string;
  /** Who it greets. */
  name: string;
}

/**
 * A store, its customer and the address to write to: the store's e-mails of the preferred kinds in that order
 * (the primary one first within a kind), else the customer's own e-mail. Null when the store does not exist.
 */
export async function merchantContact(
  db: Db,
  storeId: number,
  preferred: readonly StoreEmailKind[],
): Promise<MerchantContact | null> {
  const [row] = await db
    .select({ store: stores, customer: customers })
    .from(stores)
    .innerJoin(customers, eq(customers.id, stores.customerId))
    .where(eq(stores.id, storeId));
  if (!row) return null;
  const emails = await db.select().from(storeEmails).where(eq(storeEmails.storeId, storeId));
  const rank = (e: (typeof emails)[number]) => {
    const k = preferred.indexOf(e.kind as StoreEmailKind);
    return (k === -1 ? preferred.length : k) * 2 + (e.isPrimary ? 0 : 1);
  };
  const best = emails
    .filter((e) => preferred.includes(e.kind as StoreEmailKind))
    .sort((a, b) => rank(a) - rank(b) || a.id - b.id)[0];
  const name = [row.customer.firstName, row.customer.lastName].filter(Boolean).join(' ') || row.customer.legalName;
  return { ...row, email: best?.email ?? row.customer.email, name };
}
