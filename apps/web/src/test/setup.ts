import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { resetBusinessDayForTests } from '../lib/business-day';
import { setCountry, setMilestone } from '../lib/header-state';
import { resetSessionMemoryForTests } from '../lib/session';

// A first render loads its page on demand inside the app shell; on a busy two-core machine (npm test runs every
// project at once) that can take over the default second, so `findBy…` waits up to three.
configure({ asyncUtilTimeout: 3000 });

// Unit tests never reach a network: a call no test stubbed fails like a lost connection.
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(() => Promise.reject(new TypeError('no network in unit tests'))),
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.sessionStorage.clear();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  setCountry(null);
  setMilestone(null);
  resetSessionMemoryForTests();
  resetBusinessDayForTests();
  window.location.hash = '';
});
