import { FEES } from '../codes/billing';

/**
 * The billing engine's calendar and installment arithmetic (issue 14, decision 113). Pure; the billing run's SQL
 * has the same rules (`billing_add_months` in migration 0012, the installment split in billing-run.sql.ts), and
 * tests compare the two.
 */

/** `YYYY-MM-DD` → [year, month (1–12), day]. */
function parts(iso: string): [number, number, number] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) throw new Error(`not a date: ${iso}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Days in a month (month 1–12). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * `date` moved by `months` months onto the plan's anchor day (the day of the month it started on), clamped to the
 * month's last day: a plan started on Jan 31 bills Feb 28 (29), Mar 31, Apr 30… — never drifting to the 28th.
 */
export function addMonthsAnchored(date: string, months: number, anchorDay: number): string {
  const [y, m] = parts(date);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const day = Math.min(anchorDay, daysInMonth(year, month));
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** The anchor day of a plan: the day of the month of its start date. */
export function anchorDayOf(startsOn: string): number {
  return parts(startsOn)[2];
}

/** The periods a plan is due for on `asOf`, oldest first: [start, end) pairs from its next billing date. */
export function duePeriods(
  plan: { nextBillingOn: string | null; intervalMonths: number; startsOn: string; periodsLeft?: number | null },
  asOf: string,
): Array<{ start: string; end: string }> {
  const out: Array<{ start: string; end: string }> = [];
  if (!plan.nextBillingOn || plan.intervalMonths <= 0) return out;
  const anchor = anchorDayOf(plan.startsOn);
  let start = plan.nextBillingOn;
  while (start <= asOf && (plan.periodsLeft == null || out.length < plan.periodsLeft)) {
    const end = addMonthsAnchored(start, plan.intervalMonths, anchor);
    out.push({ start, end });
    start = end;
  }
  return out;
}

/** The interest on a financed amount: the spec's 5 %, rounded half up to the cent. */
export function installmentInterestCents(financedCents: number, percent: number = FEES.INSTALLMENT_INTEREST_PERCENT) {
  return Math.floor((financedCents * percent + 50) / 100);
}

/**
 * The k-th installment (1-based) of `term`: principal and interest each spread evenly in whole cents, the last
 * installment taking both remainders — so the installments sum exactly to financed + interest.
 */
export function installmentParts(
  financedCents: number,
  term: number,
  k: number,
  percent: number = FEES.INSTALLMENT_INTEREST_PERCENT,
): { principalCents: number; interestCents: number } {
  if (term <= 0 || k < 1 || k > term) throw new Error(`installment ${k} of ${term} does not exist`);
  const interest = installmentInterestCents(financedCents, percent);
  const principalEach = Math.floor(financedCents / term);
  const interestEach = Math.floor(interest / term);
  if (k < term) return { principalCents: principalEach, interestCents: interestEach };
  return {
    principalCents: financedCents - principalEach * (term - 1),
    interestCents: interest - interestEach * (term - 1),
  };
}

/** Invoice numbers: `INV-<year>-<7-digit sequence>`, the sequence gap-free per year (decision 113). */
export function billingInvoiceNumber(year: number, sequence: number): string {
  return `INV-${year}-${pad(sequence, 7)}`;
}
