import { describe, expect, it } from 'vitest';
import { queueLabel } from './jobs';

describe('queueLabel', () => {
  it("names the spec's queues, the scheduled housekeeping and dead-letter queues for people", () => {
    expect(queueLabel('order-status')).toBe('Order status change');
    expect(queueLabel('idempotency-keys-expire')).toBe('Expired idempotency keys clean-up');
    expect(queueLabel('order-status__dead')).toBe('Order status change (dead letter)');
    expect(queueLabel('something-new')).toBe('something-new');
  });
});
