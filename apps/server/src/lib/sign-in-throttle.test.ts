import { SIGN_IN_THROTTLE } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { SignInThrottle } from './sign-in-throttle';

const at = (ms: number) => new Date(Date.UTC(2026, 10, 22) + ms);

describe('SignInThrottle (decision 141)', () => {
  it('after the pair count every further failure doubles the delay, up to the cap', () => {
    const throttle = new SignInThrottle();
    let now = 0;
    const waits: number[] = [];
    for (let i = 1; i <= 12; i++) {
      throttle.recordFailure('10.0.0.1', 'a@example.com', at(now));
      const wait = throttle.retryAfterMs('10.0.0.1', 'a@example.com', at(now));
      waits.push(wait / 1000);
      now += wait;
    }
    expect(waits).toEqual([0, 0, 0, 0, 30, 60, 120, 240, 480, 900, 900, 900]);
    expect(SIGN_IN_THROTTLE.maxDelayMs).toBe(900_000);
  });

  it('another address is not the pair; the client and the account scopes count everything', () => {
    const throttle = new SignInThrottle({ ...SIGN_IN_THROTTLE, clientFailures: 3, accountFailures: 4 });
    for (const account of ['a@example.com', 'b@example.com', 'c@example.com'])
      throttle.recordFailure('10.0.0.1', account, at(0));
    expect(throttle.retryAfterMs('10.0.0.1', 'd@example.com', at(0))).toBe(30_000);
    expect(throttle.retryAfterMs('10.0.0.2', 'a@example.com', at(0))).toBe(0);
    for (const client of ['10.0.0.2', '10.0.0.3', '10.0.0.4']) throttle.recordFailure(client, 'z@example.com', at(0));
    expect(throttle.retryAfterMs('10.0.0.9', 'z@example.com', at(0))).toBe(0);
    throttle.recordFailure('10.0.0.5', 'z@example.com', at(0));
    expect(throttle.retryAfterMs('10.0.0.9', 'z@example.com', at(0))).toBe(30_000);
  });

  it('a count starts again after resetAfterMs without a failure; success clears the pair; a reset forgets the account', () => {
    const throttle = new SignInThrottle();
    for (let i = 0; i < 4; i++) throttle.recordFailure('10.0.0.1', 'a@example.com', at(0));
    throttle.recordFailure('10.0.0.1', 'a@example.com', at(SIGN_IN_THROTTLE.resetAfterMs));
    expect(throttle.retryAfterMs('10.0.0.1', 'a@example.com', at(SIGN_IN_THROTTLE.resetAfterMs))).toBe(0);

    for (let i = 0; i < 5; i++) throttle.recordFailure('10.0.0.2', 'b@example.com', at(0));
    throttle.recordSuccess('10.0.0.2', 'b@example.com');
    expect(throttle.retryAfterMs('10.0.0.2', 'b@example.com', at(0))).toBe(0);

    for (let i = 0; i < 5; i++) throttle.recordFailure('10.0.0.3', 'c@example.com', at(0));
    throttle.forgetAccount('c@example.com');
    expect(throttle.retryAfterMs('10.0.0.3', 'c@example.com', at(0))).toBe(0);
  });

  it('keeps at most its bound of keys, dropping those that block nothing first', () => {
    const throttle = new SignInThrottle(SIGN_IN_THROTTLE, 30);
    for (let i = 0; i < 5; i++) throttle.recordFailure('10.9.9.9', 'held@example.com', at(0));
    for (let i = 0; i < 40; i++) throttle.recordFailure(`10.0.1.${i}`, `x${i}@example.com`, at(1000));
    expect(throttle.size).toBeLessThanOrEqual(30);
    expect(throttle.retryAfterMs('10.9.9.9', 'held@example.com', at(1000))).toBeGreaterThan(0);
  });
});
