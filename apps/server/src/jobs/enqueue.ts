import { JOB_QUEUE_NAMES, type JobQueueName } from '@pos/domain';
import type { Db } from '../db/client';
import type { JobRequest } from './context';
import { QUEUE_DEFINITIONS } from './definitions';
import type { JobQueue, QueueDefinition } from './queue';

/*
 * What a module needs to send jobs: define the queues and enqueue on the open transaction. The workers (registry.ts)
 * are not imported from here, so a module that sends jobs does not depend on every module a worker uses.
 */

export type QueueOverrides = Partial<Record<JobQueueName, Partial<Omit<QueueDefinition, 'name'>>>>;

/** Start the queue and create (or update) the given queues and their dead-letter queues. */
export async function defineQueues(
  queue: JobQueue,
  options: { queues?: readonly JobQueueName[]; overrides?: QueueOverrides } = {},
): Promise<void> {
  for (const name of options.queues ?? JOB_QUEUE_NAMES) {
    await queue.ensure({ ...QUEUE_DEFINITIONS[name], ...options.overrides?.[name] });
  }
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
