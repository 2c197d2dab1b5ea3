import { describe, expect, it } from 'vitest';
import { DECLINE_CODES, DECLINE_KIND, declineKindOf } from '../codes/declines';
import { failedPaymentFeeApplies, goesToCollection, nextRetryOn, parseRetryDays } from './dunning';

describe('decline codes', () => {
  it('the issue names five soft and six hard codes', () => {
    const soft = DECLINE_CODES.filter((c) => DECLINE_KIND[c] === 'soft');
    expect(soft).toEqual(['insufficient_funds', 'do_not_honor', 'processing_error', 'issuer_unavailable', 'timeout']);
    expect(DECLINE_CODES.filter((c) => DECLINE_KIND[c] === 'hard')).toEqual([
      'stolen_card',
      'lost_card',
      'invalid_account',
      'account_closed',
      'expired_card',
      'fraud',
    ]);
    expect(declineKindOf('something_new')).toBe('soft');
    expect(declineKindOf(null)).toBe('soft');
  });
});

describe('dunning schedule', () => {
  const first = '2026-03-01';
  it('retries a soft decline 3, 7 and 14 days after the first failure, then collection', () => {
    expect(nextRetryOn({ firstFailedOn: first, failedAttempts: 1, lastKind: 'soft' })).toBe('2026-03-04');
    expect(nextRetryOn({ firstFailedOn: first, failedAttempts: 2, lastKind: 'soft' })).toBe('2026-03-08');
    expect(nextRetryOn({ firstFailedOn: first, failedAttempts: 3, lastKind: 'soft' })).toBe('2026-03-15');
    expect(nextRetryOn({ firstFailedOn: first, failedAttempts: 4, lastKind: 'soft' })).toBeNull();
    expect(goesToCollection({ firstFailedOn: first, failedAttempts: 4, lastKind: 'soft' })).toBe(true);
    expect(goesToCollection({ firstFailedOn: first, failedAttempts: 3, lastKind: 'soft' })).toBe(false);
  });
  it('never retries a hard decline', () => {
    expect(nextRetryOn({ firstFailedOn: first, failedAttempts: 1, lastKind: 'hard' })).toBeNull();
    expect(goesToCollection({ firstFailedOn: first, failedAttempts: 1, lastKind: 'hard' })).toBe(true);
  });
  it('follows a configured schedule', () => {
    expect(nextRetryOn({ firstFailedOn: first, failedAttempts: 1, lastKind: 'soft' }, [1, 2])).toBe('2026-03-02');
    expect(nextRetryOn({ firstFailedOn: first, failedAttempts: 3, lastKind: 'soft' }, [1, 2])).toBeNull();
  });
  it('parses the configured days and says what is wrong', () => {
    expect(parseRetryDays('3, 7,14')).toEqual([3, 7, 14]);
    expect(parseRetryDays('7,3')).toMatch(/increase/);
    expect(parseRetryDays('0')).toMatch(/1–365/);
    expect(parseRetryDays('')).toMatch(/at least one/);
  });
  it('charges the failed-payment fee to US stores only', () => {
    expect(failedPaymentFeeApplies('US')).toBe(true);
    expect(failedPaymentFeeApplies('CA')).toBe(false);
  });
});
