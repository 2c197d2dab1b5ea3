import { BILLING_ITEM_IDS, FEES, JOB_QUEUE } from '@pos/domain';
import type { AppContext } from '../../context';
import { billableStoreSql } from '../../db/billable-stores.sql';
import type { Db } from '../../db/client';
import { numberedSql } from '../../db/client';
import { writeAudit, type AuditActor } from '../../http/audit';
import { QUEUE_DEFINITIONS } from '../../jobs/definitions';
import { createSingleLineInvoice } from './single-invoice';

/**
 * Licenses and the billing engine (issue 14 point 3, decision 113).
 * - A paid service invoice (M) moves its plan's and its store's license expiry to the end of the paid period.
 * - The daily run lapses the stores whose license is past expiry + the §9 grace (37 days): `license_lapsed_on` is
 *   set and their terminals get a push-license job (they stop).
 * - Paying the overdue invoices moves the expiry forward again; a store that had lapsed is restored (its terminals
 *   get a push-license job), and a US store is charged the §9 reactivation fee (50.00, billing item 30 "other
 *   charges": the catalogue has no item of its own for it) on an invoice of its own.
 */

const GRACE = FEES.LICENSE_EXPIRY_GRACE_PERIOD_DAYS;

/** Call once before a transaction that may enqueue push-license jobs (a queue is made outside transactions). */
export function prepareLicenseJobs(app: Pick<AppContext, 'queue'>): Promise<void> {
  return app.queue.ensure(QUEUE_DEFINITIONS[JOB_QUEUE.pushLicense]);
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

async function pushLicenseJob(
  tx: Db,
  app: Pick<AppContext, 'queue'>,
  storeId: number,
  requestedBy: AuditActor,
  requestId: string,
): Promise<void> {
  // push-license is a singleton queue: one job per store at a time (its key).
  await app.queue.send(
    JOB_QUEUE.pushLicense,
    { input: { storeId }, requestedBy, requestId },
    { singletonKey: String(storeId) },
    tx,
  );
}

/**
 * Stores past expiry + grace on `asOf` and not lapsed yet: lapse them and tell their terminals. Returns how many. A
 * test or demo store is never billed, so its license never lapses for want of payment (decision 149).
 */
export async function lapseLicenses(
  tx: Db,
  app: Pick<AppContext, 'queue'>,
  asOf: string,
  now: Date,
  actor: AuditActor,
  requestId: string,
): Promise<number> {
  const lapsed = rowsOf<{ id: number; customer_id: number; license_expires_on: string }>(
    await tx.execute(
      numberedSql(
        `update stores s set license_lapsed_on = $1::date, updated_at = $2
         where s.license_expires_on < $1::date - ${GRACE} and s.license_lapsed_on is null and s.status = 'active'
           and ${billableStoreSql('s.id')}
         returning s.id, s.customer_id, s.license_expires_on::text`,
        [asOf, now],
      ),
    ),
  );
  for (const s of lapsed) {
    await pushLicenseJob(tx, app, s.id, actor, requestId);
    await writeAudit(tx, {
      ...actor,
      at: now,
      action: 'license_lapsed',
      entity: 'store',
      entityId: s.id,
      after: { store_id: s.id, license_expires_on: s.license_expires_on, lapsed_on: asOf },
      requestId,
      customerId: s.customer_id,
    });
  }
  return lapsed.length;
}

/**
 * After payments were applied (in the same transaction): the service invoices among `invoiceIds` that the ledger
 * now says are paid move their plan's and store's license expiry to the end of the period; a lapsed store whose
 * expiry is back within the grace is restored (push-license, US reactivation fee). Returns the restored store ids.
 * Call `prepareLicenseJobs` before the transaction.
 */
export async function applyPaidInvoices(
  tx: Db,
  app: Pick<AppContext, 'queue'>,
  invoiceIds: readonly number[],
  now: Date,
  actor: AuditActor,
  requestId: string,
): Promise<number[]> {
  if (invoiceIds.length === 0) return [];
  const today = now.toISOString().slice(0, 10);
  const moved = rowsOf<{
    store_id: number;
    customer_id: number;
    country: string;
    currency: string;
    expires_on: string;
    restored: boolean;
  }>(
    await tx.execute(
      numberedSql(
        `with paid as (
           select i.plan_id, max(i.period_end) as period_end
           from invoices i join invoice_balances b on b.invoice_id = i.id
           where i.id = any($1::int[]) and i.type = 'M' and b.status = 'P' and i.plan_id is not null
             and i.period_end is not null
           group by i.plan_id
         ),
         plans_moved as (
           update customer_payment_plans p
           set license_expires_on = greatest(coalesce(p.license_expires_on, x.period_end), x.period_end),
               updated_at = $2, version = p.version + 1
           from paid x where p.id = x.plan_id and p.store_id is not null
           returning p.store_id, p.license_expires_on
         ),
         before as (select s.id, s.license_lapsed_on from stores s where s.id in (select store_id from plans_moved)),
         stores_moved as (
           update stores s
           set license_expires_on = greatest(coalesce(s.license_expires_on, x.expires_on), x.expires_on),
               license_lapsed_on = case when greatest(coalesce(s.license_expires_on, x.expires_on), x.expires_on) + ${GRACE} >= $3::date
                                        then null else s.license_lapsed_on end,
               updated_at = $2, version = s.version + 1
           from (select store_id, max(license_expires_on) as expires_on from plans_moved group by store_id) x
           where s.id = x.store_id
           returning s.id, s.customer_id, s.country, s.currency, s.license_expires_on, s.license_lapsed_on
         )
         select m.id as store_id, m.customer_id, m.country, m.currency, m.license_expires_on::text as expires_on,
                (b.license_lapsed_on is not null and m.license_lapsed_on is null) as restored
         from stores_moved m join before b on b.id = m.id`,
        // An array parameter as PostgreSQL's array text: drizzle would spread a JS array into a list.
        [`{${invoiceIds.join(',')}}`, now, today],
      ),
    ),
  );
  const restored: number[] = [];
  for (const s of moved) {
    await writeAudit(tx, {
      ...actor,
      at: now,
      action: s.restored ? 'license_restored' : 'license_extended',
      entity: 'store',
      entityId: s.store_id,
      after: { store_id: s.store_id, license_expires_on: s.expires_on },
      requestId,
      customerId: s.customer_id,
    });
    if (!s.restored) continue;
    restored.push(s.store_id);
    await pushLicenseJob(tx, app, s.store_id, actor, requestId);
    if (s.country === 'US') await reactivationFeeInvoice(tx, s, now, actor, requestId);
  }
  return restored;
}

/**
 * A win-back reactivation (decision 131), on the caller's transaction: the store's latest canceled service plan
 * (monthly/yearly) is active again and billed from today by the next run; the store's and the plan's license run to
 * today (so the store has the §9 grace to pay before the run lapses it again), the lapse is cleared and a suspended
 * or closed store is active again; its terminals get a push-license job; a US store is charged the reactivation fee
 * unless `waiveFee`. Returns the fee invoice (null: waived or Canada). Call `prepareLicenseJobs` before the
 * transaction.
 */
export async function reactivateStore(
  tx: Db,
  app: Pick<AppContext, 'queue'>,
  store: { store_id: number; customer_id: number; country: string; currency: string },
  options: { waiveFee: boolean },
  now: Date,
  actor: AuditActor,
  requestId: string,
): Promise<{ feeInvoice: { id: number; invoiceNumber: string } | null; planId: number | null }> {
  const today = now.toISOString().slice(0, 10);
  const [plan] = rowsOf<{ id: number; status: string }>(
    await tx.execute(
      numberedSql(
        `select p.id, p.status from customer_payment_plans p
         where p.store_id = $1 and p.kind in ('monthly', 'yearly') and p.status in ('active', 'canceled')
         order by (p.status = 'active') desc, p.updated_at desc, p.id desc limit 1 for update`,
        [store.store_id],
      ),
    ),
  );
  if (plan) {
    await tx.execute(
      numberedSql(
        `update customer_payment_plans
         set status = 'active', license_expires_on = greatest(coalesce(license_expires_on, $2::date), $2::date),
             next_billing_on = case when status = 'canceled' or next_billing_on is null then $2::date
                                    else next_billing_on end,
             updated_at = $3, version = version + 1
         where id = $1`,
        [plan.id, today, now],
      ),
    );
  }
  await tx.execute(
    numberedSql(
      `update stores set license_lapsed_on = null,
              license_expires_on = greatest(coalesce(license_expires_on, $2::date), $2::date),
              status = case when status in ('suspended', 'closed') then 'active' else status end,
              updated_at = $3, version = version + 1
       where id = $1`,
      [store.store_id, today, now],
    ),
  );
  await writeAudit(tx, {
    ...actor,
    at: now,
    action: 'license_restored',
    entity: 'store',
    entityId: store.store_id,
    after: {
      store_id: store.store_id,
      license_expires_on: today,
      plan_id: plan?.id ?? null,
      plan_reopened: plan?.status === 'canceled',
      reactivation_fee_waived: options.waiveFee,
      via: 'breath_of_life',
    },
    requestId,
    customerId: store.customer_id,
  });
  await pushLicenseJob(tx, app, store.store_id, actor, requestId);
  const feeInvoice =
    store.country === 'US' && !options.waiveFee ? await reactivationFeeInvoice(tx, store, now, actor, requestId) : null;
  return { feeInvoice, planId: plan?.id ?? null };
}

/** The §9 reactivation fee on an invoice of its own, numbered from the year's counter like the run's. */
async function reactivationFeeInvoice(
  tx: Db,
  store: { store_id: number; customer_id: number; currency: string },
  now: Date,
  actor: AuditActor,
  requestId: string,
): Promise<{ id: number; invoiceNumber: string }> {
  return createSingleLineInvoice(
    tx,
    {
      customerId: store.customer_id,
      storeId: store.store_id,
      currency: store.currency,
      billingItemId: BILLING_ITEM_IDS.OTHER_CHARGES,
      description: 'Reactivation fee',
      amountCents: FEES.US_REACTIVATION_FEE_CENTS,
      reason: 'reactivation_fee',
    },
    now,
    actor,
    requestId,
  );
}
