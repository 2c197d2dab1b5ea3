import { JOB_QUEUE_LABELS, SCHEDULED_JOB_QUEUE_LABELS, type JobQueueName } from '@pos/domain';

/** pg-boss names the dead-letter queue of `q` `q__dead`. */
const DEAD_LETTER_SUFFIX = '__dead';

/** A queue's name for people: the domain's label, '(dead letter)' for a dead-letter queue, else the raw name. */
export function queueLabel(queue: string): string {
  const dead = queue.endsWith(DEAD_LETTER_SUFFIX);
  const base = dead ? queue.slice(0, -DEAD_LETTER_SUFFIX.length) : queue;
  const labels: Readonly<Record<string, string>> = { ...JOB_QUEUE_LABELS, ...SCHEDULED_JOB_QUEUE_LABELS };
  const label = labels[base] ?? base;
  return dead ? `${label} (dead letter)` : label;
}

export function isKnownQueue(queue: string): queue is JobQueueName {
  return Object.hasOwn(JOB_QUEUE_LABELS, queue);
}

/**
 * The error pg-boss recorded for a failed attempt: `output` is the serialized Error ({name, message, stack,
 * code?}); shown as 'code: message', never the stack. Null when `output` holds no message.
 */
export function jobErrorMessage(output: unknown): string | null {
  if (typeof output !== 'object' || output === null) return typeof output === 'string' && output ? output : null;
  const record = output as Record<string, unknown>;
  if (typeof record.message !== 'string' || !record.message) return null;
  return typeof record.code === 'string' && record.code ? `${record.code}: ${record.message}` : record.message;
}
