/** Limits and timings of spec §2, §4, §5 and §9 — one place for every number. */

/** Maximum upload size: 5 MB = 5,242,880 bytes. */
export const UPLOAD_MAX_BYTES = 5_242_880;

/** Inactivity before the 'Session Timeout' overlay shows: 1 hour. */
export const INACTIVITY_TIMEOUT_MS = 3_600_000;
/** The overlay's countdown starts at 50 seconds. */
export const INACTIVITY_WARNING_COUNTDOWN_S = 50;
/** Time since last recorded activity after which the user is logged out on visibility/tick. */
export const HARD_LOGOUT_MS = 3_660_000;
/** Last-active time is written to session storage at most every 10 s. */
export const LAST_ACTIVE_THROTTLE_MS = 10_000;
/** The 'New update is available.' banner counts down from 10 to 0 before reloading. */
export const UPDATE_RELOAD_COUNTDOWN_S = 10;
/** After a distributor signs out the page reloads after 10 ms. */
export const DISTRIBUTOR_SIGN_OUT_RELOAD_MS = 10;

/** Store search filter applies from 3 characters. */
export const STORE_FILTER_MIN_CHARS = 3;

/**
 * Searches count their matches exactly up to this many; beyond it they answer `total: 1000` with
 * `total_capped: true` (shown as "1,000+"), so a frequent term costs no more than a rare one (decision 107).
 */
export const SEARCH_TOTAL_CAP = 1000;

/** Spinner: debounce before showing, and minimum display time once shown. */
export const SPINNER_DEBOUNCE_MS = 50;
export const SPINNER_MIN_DISPLAY_MS = 300;
/** Smooth scroll duration. */
export const SMOOTH_SCROLL_MS = 500;
/** Service worker script whose update triggers the update banner. */
export const SERVICE_WORKER_SCRIPT = '/ngsw-worker.js';

/** E-mail: total length up to 254, local part up to 64. */
export const EMAIL_MAX_LENGTH = 254;
export const EMAIL_LOCAL_MAX_LENGTH = 64;

/** Percent inputs accept 0–100 inclusive. */
export const PERCENT_MIN = 0;
export const PERCENT_MAX = 100;

/** Searchable multi-select dropdown defaults (§2). `limitSelection: null` means no limit. */
export const MULTI_SELECT_DEFAULTS = {
  maxHeight: 197,
  enableSelectAll: true,
  allowSearchFilter: true,
  limitSelection: null,
  noResultsText: 'No results found',
  keys: ['Enter', 'ArrowDown', 'ArrowUp', 'Escape', 'Delete'],
} as const;

/** A receipt may be dated at most this many years before the billing day (and never after it; issue 27). */
export const RECEIPT_MAX_AGE_YEARS = 2;

/**
 * Live make-token sessions one integration key may hold at once: minting one more releases the key's oldest live
 * session (issue 27).
 */
export const MAKE_TOKEN_SESSIONS_PER_KEY = 20;

/**
 * Distributor sign-in throttle (decision 141). Failed sign-ins are counted per (client address, account e-mail), per
 * client address and per account e-mail — an unknown e-mail exactly like a known one. A scope that reaches its count
 * refuses the next attempts (429 rate_limited, Retry-After) for `firstDelayMs`; each further failure doubles the delay,
 * up to `maxDelayMs`. A count starts again after `resetAfterMs` without a failure. The account alone is throttled only
 * at a high count, so a stranger failing against it does not lock its owner out; the owner's own address is not the
 * stranger's pair.
 */
export const SIGN_IN_THROTTLE = {
  /** Failures by one client address against one account before its first delay. */
  pairFailures: 5,
  /** Failures by one client address, whatever the accounts. */
  clientFailures: 20,
  /** Failures against one account from every address together. */
  accountFailures: 100,
  firstDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  resetAfterMs: 60 * 60_000,
} as const;
/**
 * How much a card hold for an order may exceed the order's upfront total with its tax (decision 142): 0 — a hold is
 * never more than what the merchant pays when the order completes. The ceiling is upfront + ⌈upfront × this / 100⌉.
 */
export const AUTHORIZATION_TOLERANCE_PERCENT = 0;
