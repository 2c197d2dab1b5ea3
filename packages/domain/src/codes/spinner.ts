import { SPINNER_DEBOUNCE_MS, SPINNER_MIN_DISPLAY_MS } from '../limits';

/** Spinner look and timing (§9): red, chasing dots, debounce 50 ms, minimum display 300 ms. */
export const SPINNER = {
  color: 'red',
  type: 'chasing-dots',
  debounceMs: SPINNER_DEBOUNCE_MS,
  minimumDisplayMs: SPINNER_MIN_DISPLAY_MS,
} as const;
