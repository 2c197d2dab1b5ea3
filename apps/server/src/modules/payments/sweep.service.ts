import { randomUUID } from 'node:crypto';
import { JOB_QUEUE } from '@pos/domain';
import type { AppContext } from '../../context';
import { billableStoreSql } from '../../db/billable-stores.sql';
import type { AuditActor } from '../../http/audit';
import type { JobRequest } from '../../jobs/context';
import { QUEUE_DEFINITIONS } from '../../jobs/definitions';
import { billingToday } from '../billing';
import { reconcileOne } from './charge.service';
import { settleHolds } from './holds.service';
import { reconcileMovements } from './money.service';
import { replayDeferredRequests } from './replay.service';

/*
 * The payments sweep (decision 116), a scheduled job every 10 minutes and the end of every billing run:
 *   1. reconcile: P charges older than PAYMENT_RECONCILE_AFTER_SECONDS are asked about at the gateway, and P money
 *      movements (refunds, voids, captures, authorizations: money.service.ts) are sent again with their key;
 *   2. returns: bank debits settled in the last 5 days are asked whether they came back;
 *   3. retries: invoices whose dunning retry day has come get a charge job;
 *   4. holds: the card holds of completed orders are captured (paying their sale invoices, decision 148), those of
 *      rejected or canceled orders released;
 *   5. auto-pay: open invoices due in the last 7 days that were never charged (older ones are collection's), of customers with a card or bank
 *      account on file, get a charge job.
 * Invoices of test and demo stores (decision 149) get no retry and no auto-pay job: they are never charged or dunned.
 * Charge jobs are singletons per invoice (queue 'invoice-charge'), and the attempt name is part of the charge's
 * idempotency key: a job sent twice charges once.
 */

const SYSTEM: AuditActor = { actorType: 'system', actorId: 'payments-sweep' };
/** At most this many invoices get a charge job per sweep and kind (the next sweep takes the rest). */
export const SWEEP_BATCH = 5000;

export interface SweepResult {
  holds_settled: number;
  deferred_replayed: number;
  deferred_failed: number;
  reconciled: number;
  /** Refunds, voids, captures and authorizations P whose answer was recorded by this sweep. */
  movements_reconciled: number;
  returns_checked: number;
  retries_enqueued: number;
  autopay_enqueued: number;
}

/** A charge job for an invoice (singleton per invoice); the queue is defined first, outside any transaction. */
export async function enqueueCharge(
  app: AppContext,
  invoiceId: number,
  attempt: string,
  source: 'autopay' | 'retry' | 'collection' | 'instrument_added',
  actor: AuditActor = SYSTEM,
  requestId: string | null = null,
): Promise<string | null> {
  await app.queue.ensure(QUEUE_DEFINITIONS[JOB_QUEUE.invoiceCharge]);
  const request: JobRequest<typeof JOB_QUEUE.invoiceCharge> = {
    input: { invoice_id: invoiceId, attempt, source },
    requestedBy: actor,
    requestId,
  };
  const id = await app.queue.send(JOB_QUEUE.invoiceCharge, request, { singletonKey: `invoice:${invoiceId}` });
  app.queue.wake(JOB_QUEUE.invoiceCharge);
  return id;
}

/** `requestId` (a UUID) files the sweep's audit entries together; default a new one. */
export async function sweepPayments(app: AppContext, requestId: string = randomUUID()): Promise<SweepResult> {
  const now = app.clock.now();
  const today = billingToday(app);
  const cutoff = new Date(now.getTime() - app.config.payments.reconcileAfterSeconds * 1000);
  const q = app.database.query.bind(app.database);

  const pending = await q<{ id: number }>(
    `select id from transactions t where status = 'P' and kind = 'charge' and idempotency_key is not null and attempted_at <= $1
       and not exists (select 1 from money_movements m where m.transaction_id = t.id and m.operation = 'void' and m.status <> 'F')
     order by attempted_at, id limit ${SWEEP_BATCH}`,
    [cutoff],
  );
  for (const p of pending) await reconcileOne(app, p.id, SYSTEM, requestId);
  // Refunds, voids, captures and authorizations whose answer was lost: the same call again, same key (decision 144).
  const movements = await reconcileMovements(app, cutoff, SWEEP_BATCH);

  const settled = await q<{ id: number }>(
    `select t.id from transactions t join payment_instruments pi on pi.id = t.payment_instrument_id
     where t.status = 'S' and t.kind = 'charge' and pi.kind = 'bank' and t.attempted_at >= $1
     order by t.id limit ${SWEEP_BATCH}`,
    [new Date(now.getTime() - 6 * 24 * 3600_000)],
  );
  for (const s of settled) await reconcileOne(app, s.id, SYSTEM, requestId);

  const retries = await q<{ invoice_id: number; failed_attempts: number }>(
    `select invoice_id, failed_attempts from invoice_dunning
     where state = 'retrying' and next_retry_on <= $1::date and ${billableStoreSql('invoice_dunning.store_id')}
     order by next_retry_on, invoice_id limit ${SWEEP_BATCH}`,
    [today],
  );
  let retriesEnqueued = 0;
  for (const r of retries) {
    if (await enqueueCharge(app, r.invoice_id, `retry-${r.failed_attempts}`, 'retry', SYSTEM, requestId))
      retriesEnqueued++;
  }

  // Holds first (decision 148): a sale invoice its order's hold pays is captured before auto-pay would charge it.
  const holds = await settleHolds(app, SYSTEM, requestId);

  const autopay = await q<{ id: number }>(
    `select i.id from invoices i
     where i.status = 'N' and i.due_on <= $1::date and i.due_on >= $1::date - 7 and i.reversed_at is null and i.total_cents > 0
       and not exists (select 1 from transactions t where t.invoice_id = i.id)
       and not exists (select 1 from invoice_dunning d where d.invoice_id = i.id)
       and not exists (select 1 from authorization_settlements s where s.invoice_id = i.id and s.status = 'pending')
       and ${billableStoreSql('i.store_id')}
       and exists (select 1 from payment_instruments pi where pi.customer_id = i.customer_id
                   and pi.status = 'active' and pi.kind in ('card', 'bank'))
     order by i.due_on, i.id limit ${SWEEP_BATCH}`,
    [today],
  );
  let autopayEnqueued = 0;
  for (const a of autopay) {
    if (await enqueueCharge(app, a.id, 'autopay', 'autopay', SYSTEM, requestId)) autopayEnqueued++;
  }
  // Once: the requests recorded as deferred before these queues were real (a no-op once all are answered).
  const deferred = await replayDeferredRequests(app);
  return {
    holds_settled: holds,
    deferred_replayed: deferred.replayed,
    deferred_failed: deferred.failed,
    reconciled: pending.length,
    movements_reconciled: movements,
    returns_checked: settled.length,
    retries_enqueued: retriesEnqueued,
    autopay_enqueued: autopayEnqueued,
  };
}
