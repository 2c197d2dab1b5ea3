import { addDays } from './license';
import type { DeclineKind } from '../codes/declines';

/**
 * Dunning (issue 15, decision 116): what happens after a charge of an invoice fails.
 * - A soft decline is tried again on a schedule of days after the FIRST failure (default 3, 7, 14; the server's
 *   DUNNING_RETRY_DAYS changes it). A hard decline is not tried again.
 * - After the last scheduled retry fails (or at once on a hard decline when no retry is left to wait for), the invoice
 *   goes to collection: the store is flagged past due; its license then follows the billing engine's grace rule.
 * - US stores pay a failed-payment fee once per failed invoice (FEES.US_FAILED_PAYMENT_FEE_CENTS), on their next
 *   invoice.
 */
export const DEFAULT_RETRY_DAYS: readonly number[] = [3, 7, 14];

/** Parse "3,7,14" → [3, 7, 14] (strictly increasing positive whole days), or a sentence saying what is wrong. */
export function parseRetryDays(text: string): readonly number[] | string {
  const parts = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (parts.length === 0) return 'Name at least one day, e.g. "3,7,14".';
  const days = parts.map(Number);
  if (days.some((d) => !Number.isInteger(d) || d < 1 || d > 365)) return 'Each retry day is a whole number 1–365.';
  if (days.some((d, i) => i > 0 && d <= days[i - 1]!)) return 'Retry days must increase, e.g. "3,7,14".';
  return days;
}

export interface DunningState {
  /** The day (YYYY-MM-DD, billing time zone) of the invoice's first failed charge. */
  firstFailedOn: string;
  /** Failed attempts of the invoice so far (the first one included). */
  failedAttempts: number;
  /** The kind of the last decline. */
  lastKind: DeclineKind;
}

/**
 * The day the next automatic retry is due, or null when none is left (hard decline, or the schedule is used up).
 * Retry k (1-based) is due `schedule[k-1]` days after the first failure: after n failed attempts the next one is
 * retry n.
 */
export function nextRetryOn(state: DunningState, schedule: readonly number[] = DEFAULT_RETRY_DAYS): string | null {
  if (state.lastKind === 'hard') return null;
  const day = schedule[state.failedAttempts - 1];
  return day === undefined ? null : addDays(state.firstFailedOn, day);
}

/** True when the failure ends dunning: nothing is left to retry, so the invoice goes to collection. */
export function goesToCollection(state: DunningState, schedule: readonly number[] = DEFAULT_RETRY_DAYS): boolean {
  return nextRetryOn(state, schedule) === null;
}

/** The failed-payment fee applies to US stores only (once per failed invoice). */
export function failedPaymentFeeApplies(country: string): boolean {
  return country === 'US';
}
