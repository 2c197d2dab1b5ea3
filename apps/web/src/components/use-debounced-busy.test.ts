import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedBusy } from './use-debounced-busy';

const timing = { debounceMs: 50, minimumMs: 300 };

function setup(initialBusy: boolean) {
  return renderHook(({ busy }) => useDebouncedBusy(busy, timing), { initialProps: { busy: initialBusy } });
}

function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

describe('useDebouncedBusy', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  it('shows only after 50 ms of continuous activity', () => {
    const { result } = setup(true);
    expect(result.current).toBe(false);
    advance(49);
    expect(result.current).toBe(false);
    advance(1);
    expect(result.current).toBe(true);
  });

  it('never shows for activity shorter than the debounce', () => {
    const { result, rerender } = setup(true);
    advance(40);
    rerender({ busy: false });
    advance(1000);
    expect(result.current).toBe(false);
  });

  it('stays at least 300 ms once shown', () => {
    const { result, rerender } = setup(true);
    advance(50);
    expect(result.current).toBe(true);
    advance(10);
    rerender({ busy: false });
    advance(289);
    expect(result.current).toBe(true);
    advance(1);
    expect(result.current).toBe(false);
  });

  it('hides at once when activity outlasted the minimum', () => {
    const { result, rerender } = setup(true);
    advance(50 + 500);
    expect(result.current).toBe(true);
    rerender({ busy: false });
    advance(0);
    expect(result.current).toBe(false);
  });

  it('stays shown when activity resumes during the minimum display', () => {
    const { result, rerender } = setup(true);
    advance(50);
    rerender({ busy: false });
    advance(100);
    rerender({ busy: true });
    advance(1000);
    expect(result.current).toBe(true);
    rerender({ busy: false });
    advance(0);
    expect(result.current).toBe(false);
  });
});
