import { JOB_QUEUE, SCHEDULED_JOB_QUEUE, type JobQueueName, type ScheduledJobQueueName } from '@pos/domain';
import type { QueueDefinition } from './queue';

/**
 * One definition per queue. Retries back off exponentially (pg-boss: about delay × 2^n, with jitter), a job
 * still active after expireInSeconds is taken to have died with its worker and is tried again, and a job out
 * of retries is copied to `<queue>__dead` (the dead letter staff see).
 *
 * 'singleton' (at most one active job per singletonKey) where two jobs for the same record must not run at
 * once; every job of a singleton queue is sent with its key (see SINGLETON_KEYS in registry.ts):
 *   push-license per store, retire-terminals per customer (a request retires terminals of one customer),
 *   store-info per store, order-status per order.
 */
const standard = { retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: 300 } as const;
/** Mail and CRM calls wait on someone else's server: more, slower retries, a shorter run time. */
const remote = { retryLimit: 6, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 } as const;
/** Billing work (transactions, collection) must not be hammered: few retries, far apart. */
const billing = { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 600 } as const;

export const QUEUE_DEFINITIONS: Readonly<Record<JobQueueName, QueueDefinition>> = {
  [JOB_QUEUE.transactions]: { name: JOB_QUEUE.transactions, ...billing },
  [JOB_QUEUE.retireTerminals]: { name: JOB_QUEUE.retireTerminals, ...standard, policy: 'singleton' },
  [JOB_QUEUE.paymentPlans]: { name: JOB_QUEUE.paymentPlans, ...standard },
  [JOB_QUEUE.recurringPlans]: { name: JOB_QUEUE.recurringPlans, ...standard },
  [JOB_QUEUE.invoicesCollectDue]: { name: JOB_QUEUE.invoicesCollectDue, ...billing },
  [JOB_QUEUE.paymentCollection]: { name: JOB_QUEUE.paymentCollection, ...billing },
  [JOB_QUEUE.storeInfo]: { name: JOB_QUEUE.storeInfo, ...standard, policy: 'singleton' },
  [JOB_QUEUE.updatePaymentNotification]: { name: JOB_QUEUE.updatePaymentNotification, ...remote },
  [JOB_QUEUE.paymentInstrumentAdd]: { name: JOB_QUEUE.paymentInstrumentAdd, ...billing },
  [JOB_QUEUE.featureChangeEmail]: { name: JOB_QUEUE.featureChangeEmail, ...remote },
  [JOB_QUEUE.pushLicense]: { name: JOB_QUEUE.pushLicense, ...standard, policy: 'singleton' },
  [JOB_QUEUE.orderStatus]: { name: JOB_QUEUE.orderStatus, ...standard, policy: 'singleton' },
  [JOB_QUEUE.agentSwitch]: { name: JOB_QUEUE.agentSwitch, ...standard },
  [JOB_QUEUE.crmAccessoriesOrder]: { name: JOB_QUEUE.crmAccessoriesOrder, ...remote },
  [JOB_QUEUE.crmStoreMidValidate]: { name: JOB_QUEUE.crmStoreMidValidate, ...remote, retryLimit: 3, retryDelay: 10 },
  // A charge's own idempotency key keeps a retried job from charging twice; the singleton keeps two attempts on one
  // invoice from running at once.
  [JOB_QUEUE.invoiceCharge]: { name: JOB_QUEUE.invoiceCharge, ...billing, policy: 'singleton' },
  [JOB_QUEUE.distributorPasswordReset]: { name: JOB_QUEUE.distributorPasswordReset, ...remote },
};

export function queueDefinition(name: JobQueueName): QueueDefinition {
  return QUEUE_DEFINITIONS[name];
}

/** Housekeeping the server runs on a schedule (pg-boss cron, UTC): the domain's SCHEDULED_JOB_QUEUE. */
export const SCHEDULED_QUEUE = SCHEDULED_JOB_QUEUE;
export type ScheduledQueueName = ScheduledJobQueueName;

export interface ScheduledQueueDefinition extends QueueDefinition {
  /** When it runs (cron, in `tz`). */
  cron: string;
  /** The time zone of the cron (default UTC); the billing run's comes from the configuration. */
  tz?: string;
}

export const SCHEDULED_DEFINITIONS: Readonly<Record<ScheduledQueueName, ScheduledQueueDefinition>> = {
  // Hourly: a key lives 24 h; an hour more before it is deleted costs nothing (an expired key is ignored anyway).
  [SCHEDULED_QUEUE.idempotencyKeysExpire]: {
    name: SCHEDULED_QUEUE.idempotencyKeysExpire,
    ...standard,
    retryLimit: 2,
    cron: '17 * * * *',
  },
  // Daily at BILLING_RUN_CRON in BILLING_TIME_ZONE (defineSchedules puts the configured ones in). A run takes
  // minutes at volume; one that dies is retried and goes on from where it stopped (every batch commits).
  [SCHEDULED_QUEUE.billingRun]: {
    name: SCHEDULED_QUEUE.billingRun,
    ...billing,
    expireInSeconds: 3600,
    cron: '0 2 * * *',
    tz: 'America/New_York',
  },
  [SCHEDULED_QUEUE.paymentsSweep]: {
    name: SCHEDULED_QUEUE.paymentsSweep,
    ...billing,
    retryLimit: 1,
    expireInSeconds: 1800,
    cron: '*/10 * * * *',
  },
  // Every 15 minutes: a report sums a key's rows whether folded or not, so a late or lost run costs only speed.
  [SCHEDULED_QUEUE.reportFactsCompact]: {
    name: SCHEDULED_QUEUE.reportFactsCompact,
    ...standard,
    retryLimit: 1,
    cron: '4,19,34,49 * * * *',
  },
  // Daily at 01:30 UTC: yesterday's gateway books beside ours (decision 146); a retry redoes only what failed.
  [SCHEDULED_QUEUE.gatewayReconciliation]: {
    name: SCHEDULED_QUEUE.gatewayReconciliation,
    ...billing,
    retryLimit: 3,
    expireInSeconds: 1800,
    cron: '30 1 * * *',
  },
};
