import { FEES } from '../codes/billing';

/*
 * Who may decide a memo or a write-off (decision 120). Deciding needs the privilege `ar_approvals` (checked on the
 * server's route); on top of it, anything above the credit threshold (FEES.CREDIT_THRESHOLD_CENTS, $1,000 — an
 * adjustment counts by its size, whichever way it moves the balance) needs a second person: the decider must not
 * be the one who asked. At or below the threshold the requester may decide their own request.
 */

/** The size that counts against the threshold (an adjustment may be negative). */
export function approvalSizeCents(amountCents: number): number {
  return Math.abs(amountCents);
}

/** Whether a request of this amount needs someone other than its requester to decide it. */
export function needsSecondApprover(amountCents: number): boolean {
  return approvalSizeCents(amountCents) > FEES.CREDIT_THRESHOLD_CENTS;
}

/** Why `deciderEmail` may not decide a request by `requesterEmail` of `amountCents`, or null when they may. */
export function selfApprovalRefusal(input: {
  readonly amountCents: number;
  readonly requesterEmail: string;
  readonly deciderEmail: string;
}): string | null {
  if (!needsSecondApprover(input.amountCents)) return null;
  if (input.requesterEmail.trim().toLowerCase() !== input.deciderEmail.trim().toLowerCase()) return null;
  return 'Requests over $1,000.00 need a second person: another holder of AR approvals must decide this one, not the person who asked for it.';
}

/** How far back a requester's credits, refunds and write-offs on one customer add up for the four-eyes rule. */
export const FOUR_EYES_WINDOW_DAYS = 30;

/**
 * The four-eyes rule over sums (issue 28): a request cannot be split under the threshold. What counts is the sum of
 * the requester's pending and approved credits, refunds, adjustments and write-offs on the same invoice — and on the
 * same customer over the last FOUR_EYES_WINDOW_DAYS days — this request included. Above the threshold, someone other
 * than the requester decides. Returns why `deciderEmail` may not decide, or null.
 */
export function fourEyesRefusal(input: {
  /** This request's size, plus the requester's other pending and approved ones on the same invoice. */
  readonly invoiceSumCents: number;
  /** This request's size, plus the requester's other pending and approved ones on the customer in the window. */
  readonly customerSumCents: number;
  readonly requesterEmail: string;
  readonly deciderEmail: string;
}): string | null {
  const sum = Math.max(input.invoiceSumCents, input.customerSumCents);
  if (!needsSecondApprover(sum)) return null;
  if (input.requesterEmail.trim().toLowerCase() !== input.deciderEmail.trim().toLowerCase()) return null;
  const where =
    input.invoiceSumCents >= input.customerSumCents
      ? 'on this invoice'
      : `on this customer in ${FOUR_EYES_WINDOW_DAYS} days`;
  return `With this one, ${input.requesterEmail}'s credits, refunds and write-offs ${where} add up to more than $1,000.00: they need a second person — another holder of AR approvals must decide this one, not the person who asked for it.`;
}
