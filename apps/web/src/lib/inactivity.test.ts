import { HARD_LOGOUT_MS, INACTIVITY_TIMEOUT_MS } from '@pos/domain';
import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useInactivity } from './inactivity';
import { getLastActive, setLastActive } from './session';

const START = new Date('2030-01-01T08:00:00.000Z').getTime();

function setup(enabled = true) {
  const onTimeout = vi.fn();
  const view = renderHook(({ on }) => useInactivity({ enabled: on, onTimeout }), { initialProps: { on: enabled } });
  return { ...view, onTimeout };
}

function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

function activity(type: 'mousemove' | 'keydown' = 'mousemove') {
  act(() => {
    window.dispatchEvent(new Event(type));
  });
}

describe('inactivity timer (spec §4)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(START);
  });

  it('shows the overlay after 1 hour without activity, counting down from 50', () => {
    const { result } = setup();
    advance(INACTIVITY_TIMEOUT_MS - 1000);
    expect(result.current.secondsLeft).toBeNull();
    advance(1000);
    expect(result.current.secondsLeft).toBe(50);
    advance(1000);
    expect(result.current.secondsLeft).toBe(49);
    advance(10_000);
    expect(result.current.secondsLeft).toBe(39);
  });

  it('signs out when the countdown reaches 0, once', () => {
    const { result, onTimeout } = setup();
    advance(INACTIVITY_TIMEOUT_MS);
    advance(49_000);
    expect(result.current.secondsLeft).toBe(1);
    expect(onTimeout).not.toHaveBeenCalled();
    advance(1000);
    expect(onTimeout).toHaveBeenCalledTimes(1);
    expect(result.current.secondsLeft).toBeNull();
    advance(120_000);
    expect(onTimeout).toHaveBeenCalledTimes(1);
  });

  it('mouse or key activity restarts the hour', () => {
    const { result } = setup();
    advance(INACTIVITY_TIMEOUT_MS - 5000);
    activity('keydown');
    advance(10_000);
    expect(result.current.secondsLeft).toBeNull();
    advance(INACTIVITY_TIMEOUT_MS - 10_000);
    expect(result.current.secondsLeft).toBe(50);
  });

  it('activity while the overlay shows does not extend the session; the button does', () => {
    const { result, onTimeout } = setup();
    advance(INACTIVITY_TIMEOUT_MS);
    const storedBefore = getLastActive();
    activity();
    advance(1000);
    expect(result.current.secondsLeft).toBe(49);
    expect(getLastActive()).toBe(storedBefore);

    act(() => result.current.extend());
    expect(result.current.secondsLeft).toBeNull();
    expect(getLastActive()).toBe(Date.now());
    advance(INACTIVITY_TIMEOUT_MS - 1000);
    expect(result.current.secondsLeft).toBeNull();
    expect(onTimeout).not.toHaveBeenCalled();
  });

  it('writes lastactive at most every 10 seconds', () => {
    setup();
    expect(getLastActive()).toBe(START);
    advance(4000);
    activity();
    expect(getLastActive()).toBe(START);
    advance(6000);
    activity();
    expect(getLastActive()).toBe(START + 10_000);
    advance(9999);
    activity();
    expect(getLastActive()).toBe(START + 10_000);
    advance(1);
    activity();
    expect(getLastActive()).toBe(START + 20_000);
  });

  it('on a tick, signs out when now − lastactive ≥ 3,660,000 ms', () => {
    setLastActive(START - HARD_LOGOUT_MS + 1500);
    const { onTimeout } = setup();
    advance(1000);
    expect(onTimeout).not.toHaveBeenCalled();
    advance(1000);
    expect(onTimeout).toHaveBeenCalledTimes(1);
  });

  it('when the tab becomes visible, signs out if lastactive is too old', () => {
    const { onTimeout } = setup();
    // A hidden tab whose timers the browser stopped: time moves, no tick runs.
    vi.setSystemTime(START + HARD_LOGOUT_MS);
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(onTimeout).toHaveBeenCalledTimes(1);
  });

  it('when the tab becomes visible within the limit, nothing happens', () => {
    const { onTimeout } = setup();
    vi.setSystemTime(START + HARD_LOGOUT_MS - 1);
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(onTimeout).not.toHaveBeenCalled();
  });

  it('does nothing while disabled (no session, /login, /distributor)', () => {
    const { result, onTimeout, rerender } = setup(false);
    advance(2 * HARD_LOGOUT_MS);
    activity();
    expect(result.current.secondsLeft).toBeNull();
    expect(onTimeout).not.toHaveBeenCalled();
    expect(getLastActive()).toBeNull();

    rerender({ on: true });
    expect(getLastActive()).toBe(Date.now());
  });

  it('turning it off hides the overlay', () => {
    const { result, rerender } = setup();
    advance(INACTIVITY_TIMEOUT_MS);
    expect(result.current.secondsLeft).toBe(50);
    rerender({ on: false });
    expect(result.current.secondsLeft).toBeNull();
  });
});
