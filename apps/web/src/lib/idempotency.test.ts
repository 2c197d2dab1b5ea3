import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { useIdempotencyKeys } from './idempotency';

const apiError = (status: number, code: string) => new ApiError({ status, code, message: code });

describe('useIdempotencyKeys (decisions 066, 104)', () => {
  it('keeps the key while the outcome is unknown: no answer, a 5xx, or the first request still in flight', () => {
    const { result } = renderHook(() => useIdempotencyKeys());
    const keys = result.current;
    const first = keys.keyFor('void:1');
    expect(keys.settle('void:1', new TypeError('Failed to fetch'))).toBe(true);
    expect(keys.settle('void:1', apiError(503, 'unavailable'))).toBe(true);
    expect(keys.settle('void:1', apiError(409, 'idempotency_key_in_flight'))).toBe(true);
    expect(keys.keyFor('void:1')).toBe(first);
  });

  it('forgets the key after a success or a definite refusal', () => {
    const { result } = renderHook(() => useIdempotencyKeys());
    const keys = result.current;
    const first = keys.keyFor('void:1');
    expect(keys.settle('void:1', apiError(409, 'conflict'))).toBe(false);
    const second = keys.keyFor('void:1');
    expect(second).not.toBe(first);
    expect(keys.settle('void:1')).toBe(false);
    expect(keys.keyFor('void:1')).not.toBe(second);
  });
});
