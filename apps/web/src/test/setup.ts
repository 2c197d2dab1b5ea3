import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { setCountry, setMilestone } from '../lib/header-state';
import { resetSessionMemoryForTests } from '../lib/session';

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
  window.location.hash = '';
});
