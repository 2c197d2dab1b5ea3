import { describe, expect, it } from 'vitest';
import * as L from './limits';

describe('limits (§2, §4, §5, §9)', () => {
  it('has the spec values', () => {
    expect(L.UPLOAD_MAX_BYTES).toBe(5_242_880);
    expect(L.UPLOAD_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(L.INACTIVITY_TIMEOUT_MS).toBe(3_600_000);
    expect(L.INACTIVITY_WARNING_COUNTDOWN_S).toBe(50);
    expect(L.HARD_LOGOUT_MS).toBe(3_660_000);
    expect(L.LAST_ACTIVE_THROTTLE_MS).toBe(10_000);
    expect(L.UPDATE_RELOAD_COUNTDOWN_S).toBe(10);
    expect(L.DISTRIBUTOR_SIGN_OUT_RELOAD_MS).toBe(10);
    expect(L.STORE_FILTER_MIN_CHARS).toBe(3);
    expect(L.SPINNER_DEBOUNCE_MS).toBe(50);
    expect(L.SPINNER_MIN_DISPLAY_MS).toBe(300);
    expect(L.SMOOTH_SCROLL_MS).toBe(500);
    expect(L.SERVICE_WORKER_SCRIPT).toBe('/ngsw-worker.js');
    expect(L.EMAIL_MAX_LENGTH).toBe(254);
    expect(L.EMAIL_LOCAL_MAX_LENGTH).toBe(64);
    expect([L.PERCENT_MIN, L.PERCENT_MAX]).toEqual([0, 100]);
  });

  it('hard logout is the inactivity timeout plus a minute (more than the 50 s warning)', () => {
    expect(L.HARD_LOGOUT_MS - L.INACTIVITY_TIMEOUT_MS).toBe(60_000);
    expect(L.HARD_LOGOUT_MS - L.INACTIVITY_TIMEOUT_MS).toBeGreaterThan(L.INACTIVITY_WARNING_COUNTDOWN_S * 1000);
  });

  it('multi-select defaults', () => {
    expect(L.MULTI_SELECT_DEFAULTS.maxHeight).toBe(197);
    expect(L.MULTI_SELECT_DEFAULTS.enableSelectAll).toBe(true);
    expect(L.MULTI_SELECT_DEFAULTS.limitSelection).toBeNull();
    expect(L.MULTI_SELECT_DEFAULTS.noResultsText).toBe('No results found');
    expect(L.MULTI_SELECT_DEFAULTS.keys).toEqual(['Enter', 'ArrowDown', 'ArrowUp', 'Escape', 'Delete']);
  });
});
