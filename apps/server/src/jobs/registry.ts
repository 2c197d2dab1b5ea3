import { JOB_QUEUE, JOB_QUEUE_NAMES, type JobQueueName } from '@pos/domain';
import type { Db } from '../db/client';
import type { AppConfig } from '../config';
import type { AppContext } from '../context';
import type { JobRequest, WorkerDefinition } from './context';
import { QUEUE_DEFINITIONS, SCHEDULED_DEFINITIONS, SCHEDULED_QUEUE, type ScheduledQueueName } from './definitions';
import type { JobQueue, QueueDefinition } from './queue';
import { agentSwitchWorker } from './workers/agent-switch';
import { crmAccessoriesOrderWorker } from './workers/crm-accessories-order';
import { crmStoreMidValidateWorker } from './workers/crm-store-mid-validate';
import { distributorPasswordResetWorker } from './workers/distributor-password-reset';
import { featureChangeEmailWorker } from './workers/feature-change-email';
import { billingRunWorker } from './workers/billing-run';
import { gatewayReconciliationWorker } from './workers/gateway-reconciliation';
import { idempotencyKeysExpireWorker } from './workers/idempotency-keys-expire';
import { reportFactsCompactWorker } from './workers/report-facts-compact';
import { invoiceChargeWorker } from './workers/invoice-charge';
import { invoicesCollectDueWorker } from './workers/invoices-collect-due';
import { orderStatusWorker } from './workers/order-status';
import { paymentCollectionWorker } from './workers/payment-collection';
import { paymentInstrumentAddWorker } from './workers/payment-instrument-add';
import { paymentPlansWorker } from './workers/payment-plans';
import { paymentsSweepWorker } from './workers/payments-sweep';
import { recurringPlansWorker } from './workers/payment-plans-recurring';
import { pushLicenseWorker } from './workers/push-license';
import { retireTerminalsWorker } from './workers/retire-terminals';
import { storeInfoWorker } from './workers/store-info';
import { transactionsWorker } from './workers/transactions';
import { updatePaymentNotificationWorker } from './workers/update-payment-notification';

/** The worker of every queue (a new queue in the domain's JOB_QUEUE breaks the build until it has one). */
export const WORKERS: { readonly [Q in JobQueueName]: WorkerDefinition<Q> } = {
  [JOB_QUEUE.transactions]: transactionsWorker,
  [JOB_QUEUE.retireTerminals]: retireTerminalsWorker,
  [JOB_QUEUE.paymentPlans]: paymentPlansWorker,
  [JOB_QUEUE.recurringPlans]: recurringPlansWorker,
  [JOB_QUEUE.invoicesCollectDue]: invoicesCollectDueWorker,
  [JOB_QUEUE.paymentCollection]: paymentCollectionWorker,
  [JOB_QUEUE.storeInfo]: storeInfoWorker,
  [JOB_QUEUE.updatePaymentNotification]: updatePaymentNotificationWorker,
  [JOB_QUEUE.paymentInstrumentAdd]: paymentInstrumentAddWorker,
  [JOB_QUEUE.featureChangeEmail]: featureChangeEmailWorker,
  [JOB_QUEUE.pushLicense]: pushLicenseWorker,
  [JOB_QUEUE.orderStatus]: orderStatusWorker,
  [JOB_QUEUE.agentSwitch]: agentSwitchWorker,
  [JOB_QUEUE.crmAccessoriesOrder]: crmAccessoriesOrderWorker,
  [JOB_QUEUE.crmStoreMidValidate]: crmStoreMidValidateWorker,
  [JOB_QUEUE.invoiceCharge]: invoiceChargeWorker,
  [JOB_QUEUE.distributorPasswordReset]: distributorPasswordResetWorker,
};

/** A scheduled queue's worker: the schedule sends a job without input. */
export interface ScheduledWorker<Q extends ScheduledQueueName = ScheduledQueueName> {
  queue: Q;
  /** `data`: what the job was sent with — {} from the schedule; a billing run started by staff names its run. */
  run(ctx: AppContext, data: Record<string, unknown>): Promise<object>;
}

/** The worker of every scheduled queue (definitions.ts SCHEDULED_QUEUE). */
export const SCHEDULED_WORKERS: { readonly [Q in ScheduledQueueName]: ScheduledWorker<Q> } = {
  [SCHEDULED_QUEUE.idempotencyKeysExpire]: idempotencyKeysExpireWorker,
  [SCHEDULED_QUEUE.billingRun]: billingRunWorker,
  [SCHEDULED_QUEUE.paymentsSweep]: paymentsSweepWorker,
  [SCHEDULED_QUEUE.reportFactsCompact]: reportFactsCompactWorker,
  [SCHEDULED_QUEUE.gatewayReconciliation]: gatewayReconciliationWorker,
};

/** Define the scheduled queues and write their schedules (an existing schedule is replaced: a new cron applies). */
export async function defineSchedules(queue: JobQueue, config?: Pick<AppConfig, 'billing'>): Promise<void> {
  for (const { cron, tz, ...definition } of Object.values(SCHEDULED_DEFINITIONS)) {
    await queue.ensure(definition);
    if (definition.name === SCHEDULED_QUEUE.billingRun && config) {
      await queue.schedule(definition.name, config.billing.cron, config.billing.timeZone);
    } else await queue.schedule(definition.name, cron, tz);
  }
}

export type QueueOverrides = Partial<Record<JobQueueName, Partial<Omit<QueueDefinition, 'name'>>>>;

/** Start the queue and create (or update) the given queues and their dead-letter queues (all: and the schedules). */
export async function defineQueues(
  queue: JobQueue,
  options: { queues?: readonly JobQueueName[]; overrides?: QueueOverrides; config?: Pick<AppConfig, 'billing'> } = {},
): Promise<void> {
  for (const name of options.queues ?? JOB_QUEUE_NAMES) {
    await queue.ensure({ ...QUEUE_DEFINITIONS[name], ...options.overrides?.[name] });
  }
  // All queues (the server and the worker process, not a test naming its queues): the schedules too.
  if (!options.queues) await defineSchedules(queue, options.config);
}

export interface StartWorkersOptions {
  /** Only these queues (default all, and the scheduled ones). */
  queues?: readonly JobQueueName[];
  /** Seconds between polls when idle (≥ 0.5; default the queue's, 2 s). A job sent from this process wakes its worker at once. */
  pollingIntervalSeconds?: number;
  /** Workers per queue in this process (each runs one job at a time); default 1. */
  concurrency?: number;
  /** Retry settings for tests (e.g. a short retry delay). Applied only when this process defines the queue first. */
  overrides?: QueueOverrides;
}

/** Define the queues and start their workers in this process. Returns how many workers started. */
export async function startWorkers(
  queue: JobQueue,
  ctx: AppContext,
  options: StartWorkersOptions = {},
): Promise<number> {
  const names = options.queues ?? JOB_QUEUE_NAMES;
  await defineQueues(queue, { queues: names, ...(options.overrides ? { overrides: options.overrides } : {}) });
  let started = 0;
  for (const name of names) {
    const worker = WORKERS[name] as WorkerDefinition<JobQueueName>;
    for (let i = 0; i < (options.concurrency ?? 1); i++) {
      await queue.work<JobRequest>(name, (data, job) => worker.run(ctx, data, { id: job.id, queue: name }), {
        ...(options.pollingIntervalSeconds === undefined
          ? {}
          : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
      });
      started++;
    }
  }
  if (!options.queues) {
    await defineSchedules(queue, ctx.config);
    for (const worker of Object.values(SCHEDULED_WORKERS)) {
      await queue.work<Record<string, unknown>>(worker.queue, (data) => worker.run(ctx, data ?? {}), {
        ...(options.pollingIntervalSeconds === undefined
          ? {}
          : { pollingIntervalSeconds: options.pollingIntervalSeconds }),
      });
      started++;
    }
  }
  return started;
}

/**
 * Enqueue a job on the open transaction `tx` (it exists only if the transaction commits). The queue must have
 * been defined first (`defineQueues`), outside the transaction. Singleton queues need the job's key.
 */
export async function enqueueJob<Q extends JobQueueName>(
  queue: JobQueue,
  name: Q,
  request: JobRequest<Q>,
  tx: Db,
  options: { singletonKey?: string } = {},
): Promise<string | null> {
  if (QUEUE_DEFINITIONS[name].policy === 'singleton' && !options.singletonKey) {
    throw new Error(`queue "${name}" is a singleton queue: send its jobs with a singletonKey`);
  }
  return queue.send(name, request, options.singletonKey ? { singletonKey: options.singletonKey } : {}, tx);
}
