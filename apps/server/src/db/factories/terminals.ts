import { and, eq } from 'drizzle-orm';
import type { Db } from '../client';
import { domainData, stores, terminals } from '../schema';
import { createStore } from './merchants';
import { uniqueDigits } from './sequence';

export type TerminalRow = typeof terminals.$inferSelect;
export type NewTerminal = typeof terminals.$inferInsert;
export type DomainDataRow = typeof domainData.$inferSelect;

/** A typed look-up entry (default a retire reason); an existing (type, code) is returned as is. */
export async function createDomainData(
  db: Db,
  overrides: Partial<typeof domainData.$inferInsert> = {},
): Promise<DomainDataRow> {
  const type = overrides.type ?? 'retire_reason';
  const code = overrides.code ?? `reason_${uniqueDigits(6)}`;
  await db
    .insert(domainData)
    .values({ label: code.replace(/_/g, ' '), ...overrides, type, code })
    .onConflictDoNothing();
  const [row] = await db
    .select()
    .from(domainData)
    .where(and(eq(domainData.type, type), eq(domainData.code, code)));
  return row!;
}

/**
 * A terminal at a store (created unless storeId is given; the customer follows the store). A terminal created
 * with status 'retired' gets retiredAt and a retire reason unless given.
 */
export async function createTerminal(db: Db, overrides: Partial<NewTerminal> = {}): Promise<TerminalRow> {
  let { storeId, customerId } = overrides;
  if (storeId === undefined) {
    const store = await createStore(db, customerId === undefined ? {} : { customerId });
    storeId = store.id;
    customerId = store.customerId;
  } else if (customerId === undefined) {
    const [store] = await db.select({ customerId: stores.customerId }).from(stores).where(eq(stores.id, storeId));
    customerId = store?.customerId ?? 0;
  }
  const retired = overrides.status === 'retired';
  const retireReasonId =
    overrides.retireReasonId ??
    (retired
      ? (await createDomainData(db, { type: 'retire_reason', code: 'store_closed', label: 'Store closed' })).id
      : null);
  const elmerId = uniqueDigits(8);
  const [row] = await db
    .insert(terminals)
    .values({
      elmerId,
      serialNumber: `NRS${elmerId}`,
      posCcProcessorSerialNumber: null,
      status: 'active',
      installedAt: new Date(),
      retiredAt: retired ? new Date() : null,
      ...overrides,
      retireReasonId,
      storeId,
      customerId,
    })
    .returning();
  return row!;
}
