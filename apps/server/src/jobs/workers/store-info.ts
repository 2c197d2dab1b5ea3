import { JOB_QUEUE, type StoreInfoSnsRequest } from '@pos/domain';
import { eq, sql } from 'drizzle-orm';
import { stores, type AddressJson } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, systemActor } from '../effect';
import { PermanentJobError } from '../queue';

type StoreRow = typeof stores.$inferSelect;
type StoreChanges = StoreInfoSnsRequest['changes'];

const toAddress = (a: NonNullable<StoreChanges['StoreAddress']>): AddressJson => ({
  address1: a.address1,
  ...(a.address2 ? { address2: a.address2 } : {}),
  city: a.city,
  state: a.state,
  zip: a.zip,
  country: a.country,
});

/** The store columns a store-info change sets (§3 StoreInfo names → columns). */
export function storeColumnsFor(changes: StoreChanges): Partial<StoreRow> {
  const set: Partial<StoreRow> = {};
  if (changes.storeName !== undefined) set.storeName = changes.storeName;
  if (changes.doingBusinessAs !== undefined) set.doingBusinessAs = changes.doingBusinessAs;
  if (changes.phone !== undefined) set.phone = changes.phone;
  if (changes.mobilePhone !== undefined) set.mobilePhone = changes.mobilePhone || null;
  if (changes.kindOfBusiness !== undefined) set.kindOfBusiness = changes.kindOfBusiness || null;
  if (changes.salesRep !== undefined) set.salesRep = changes.salesRep || null;
  if (changes.StoreAddress !== undefined) {
    set.storeAddress = toAddress(changes.StoreAddress);
    set.state = changes.StoreAddress.state;
  }
  if (changes.DbaAddress !== undefined) set.dbaAddress = changes.DbaAddress ? toAddress(changes.DbaAddress) : null;
  return set;
}

/**
 * Store-info update with the store's version check: the change applies only to the version it was made
 * against; a store changed since then fails the job at once (no retries — trying again cannot help).
 */
export const storeInfoWorker: WorkerDefinition<typeof JOB_QUEUE.storeInfo> = {
  queue: JOB_QUEUE.storeInfo,
  async run(ctx, request, job) {
    const { storeid: storeId, version, changes } = request.input;
    return applyOnce(ctx, job, async (tx, now, mark) => {
      const [store] = await tx.select().from(stores).where(eq(stores.id, storeId)).for('update');
      if (!store) throw new PermanentJobError(`Store ${storeId} does not exist.`, 'not_found');
      mark.customerId = store.customerId;
      if (store.version !== version) {
        throw new PermanentJobError(
          `Store ${storeId} was changed by someone else (version ${store.version}, the change was made against ${version}).`,
          'version_conflict',
        );
      }
      if (changes.StoreAddress && changes.StoreAddress.country !== store.country) {
        throw new PermanentJobError(
          `Store ${storeId} is in ${store.country}; a store cannot move to another country.`,
          'validation_failed',
        );
      }
      const set = storeColumnsFor(changes);
      const [updated] = await tx
        .update(stores)
        .set({ ...set, updatedAt: now, version: sql`${stores.version} + 1` })
        .where(eq(stores.id, storeId))
        .returning({ version: stores.version });
      const before = Object.fromEntries(Object.keys(set).map((k) => [k, store[k as keyof StoreRow]]));
      await writeAudit(tx, {
        ...systemActor(job),
        at: now,
        action: 'update',
        entity: 'store',
        entityId: storeId,
        customerId: store.customerId,
        before: { ...before, version: store.version },
        after: { ...set, version: updated!.version, requested_by: requesterEmail(request) },
      });
      return { storeId, version: updated!.version, changed: Object.keys(set) };
    });
  },
};
