import { SIGN_IN_THROTTLE } from '@pos/domain';

/*
 * The distributor sign-in throttle (decision 141): growing delays instead of a lock. Failures are counted in three
 * scopes — the (client address, account e-mail) pair, the client address, the account e-mail — keyed by the e-mail
 * as typed (normalized), never by whether an account has it, so a known and an unknown e-mail are throttled alike.
 * A scope that reached its count is blocked for a delay that doubles with every further failure, capped; an attempt
 * while any of the caller's scopes is blocked is refused without checking the password (and counts nothing).
 *
 * Kept in memory, per server process, like the per-address rate limits (@fastify/rate-limit): the server is one
 * process per database. Bounded: past MAX_ENTRIES the entries idle longest are dropped first.
 */

export interface SignInThrottleLimits {
  readonly pairFailures: number;
  readonly clientFailures: number;
  readonly accountFailures: number;
  readonly firstDelayMs: number;
  readonly maxDelayMs: number;
  readonly resetAfterMs: number;
}

interface Entry {
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

type Scope = 'pair' | 'client' | 'account';

/** At most this many counted keys (three per failing pair at most); the longest idle go first. */
const MAX_ENTRIES = 50_000;

export class SignInThrottle {
  /** Insertion order = last failure order (an entry is re-inserted on each failure): the oldest first. */
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limits: SignInThrottleLimits = SIGN_IN_THROTTLE,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  private scopes(client: string, account: string): Array<{ scope: Scope; key: string; failures: number }> {
    return [
      { scope: 'pair', key: `pair\n${client}\n${account}`, failures: this.limits.pairFailures },
      { scope: 'client', key: `client\n${client}`, failures: this.limits.clientFailures },
      { scope: 'account', key: `account\n${account}`, failures: this.limits.accountFailures },
    ];
  }

  /** How long (ms, rounded up to whole seconds) `client` must wait before trying `account` again; 0: it may now. */
  retryAfterMs(client: string, account: string, now: Date): number {
    let wait = 0;
    for (const { key } of this.scopes(client, account)) {
      const entry = this.entries.get(key);
      if (entry) wait = Math.max(wait, entry.blockedUntil - now.getTime());
    }
    return wait > 0 ? Math.ceil(wait / 1000) * 1000 : 0;
  }

  /** A failed attempt (wrong password, or an e-mail no account has): counted in every scope. */
  recordFailure(client: string, account: string, now: Date): void {
    const at = now.getTime();
    for (const { key, failures: allowed } of this.scopes(client, account)) {
      const previous = this.entries.get(key);
      const fresh = !previous || at - previous.lastFailureAt >= this.limits.resetAfterMs;
      const failures = fresh ? 1 : previous.failures + 1;
      const blockedUntil =
        failures >= allowed
          ? at + Math.min(this.limits.firstDelayMs * 2 ** Math.min(failures - allowed, 30), this.limits.maxDelayMs)
          : 0;
      this.entries.delete(key);
      this.entries.set(key, { failures, lastFailureAt: at, blockedUntil });
    }
    this.trim(at);
  }

  /** A successful sign-in: the pair's count is cleared (the client's and the account's run down by themselves). */
  recordSuccess(client: string, account: string): void {
    this.entries.delete(this.scopes(client, account)[0]!.key);
  }

  /** The account's password was reset through its e-mail: its own count and every pair's for it start again. */
  forgetAccount(account: string): void {
    for (const key of [...this.entries.keys()]) {
      if (key === `account\n${account}` || (key.startsWith('pair\n') && key.endsWith(`\n${account}`)))
        this.entries.delete(key);
    }
  }

  /** How many keys are counted (tests). */
  get size(): number {
    return this.entries.size;
  }

  /** Past the bound: the oldest entries that block nothing go first, then (only if still needed) the oldest at all. */
  private trim(at: number): void {
    for (const idleOnly of [true, false]) {
      for (const [key, entry] of this.entries) {
        if (this.entries.size <= this.maxEntries) return;
        if (!idleOnly || entry.blockedUntil <= at) this.entries.delete(key);
      }
    }
  }
}
