import { JOB_QUEUE, licenseStatus, type LicenseStatus } from '@pos/domain';
import { and, eq, ne } from 'drizzle-orm';
import { billingItems, customerBillingItems, stores, terminals } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, systemActor } from '../effect';
import { PermanentJobError } from '../queue';

export type { LicenseStatus } from '@pos/domain';

export interface LicenseState {
  storeId: number;
  status: LicenseStatus;
  /** YYYY-MM-DD or null (no expiry recorded). */
  expiresOn: string | null;
  /** expiresOn + the §9 grace period (37 days): terminals keep working until then. */
  graceUntil: string | null;
  /** Names of the store's active software features. */
  features: string[];
}

/**
 * Publish the store's license state to its terminals. There is no terminal channel in this product yet, so
 * "publish" is one audit entry per (non-retired) terminal with the state it was given (action 'license_push');
 * a terminal gateway would read the same state. Singleton per store.
 */
export const pushLicenseWorker: WorkerDefinition<typeof JOB_QUEUE.pushLicense> = {
  queue: JOB_QUEUE.pushLicense,
  async run(ctx, request, job) {
    const { storeId } = request.input;
    return applyOnce(ctx, job, async (tx, now, mark) => {
      const [store] = await tx
        .select({
          id: stores.id,
          customerId: stores.customerId,
          status: stores.status,
          licenseExpiresOn: stores.licenseExpiresOn,
        })
        .from(stores)
        .where(eq(stores.id, storeId));
      if (!store) throw new PermanentJobError(`Store ${storeId} does not exist.`, 'not_found');
      mark.customerId = store.customerId;
      const features = await tx
        .selectDistinct({ name: billingItems.name })
        .from(customerBillingItems)
        .innerJoin(billingItems, eq(billingItems.id, customerBillingItems.billingItemId))
        .where(
          and(
            eq(customerBillingItems.storeId, storeId),
            eq(customerBillingItems.status, 'A'),
            eq(billingItems.feature, 'Y'),
          ),
        )
        .orderBy(billingItems.name);
      const { status, graceUntil } = licenseStatus({
        storeStatus: store.status,
        expiresOn: store.licenseExpiresOn,
        today: now.toISOString().slice(0, 10),
      });
      const license: LicenseState = {
        storeId,
        status,
        expiresOn: store.licenseExpiresOn,
        graceUntil,
        features: features.map((f) => f.name),
      };

      const targets = await tx
        .select({ elmerId: terminals.elmerId })
        .from(terminals)
        .where(and(eq(terminals.storeId, storeId), ne(terminals.status, 'retired')))
        .orderBy(terminals.elmerId);
      for (const terminal of targets) {
        await writeAudit(tx, {
          ...systemActor(job),
          at: now,
          action: 'license_push',
          entity: 'terminal',
          entityId: terminal.elmerId,
          customerId: store.customerId,
          after: { ...license, requested_by: requesterEmail(request) },
        });
      }
      return { storeId, terminals: targets.map((t) => t.elmerId), license };
    });
  },
};
