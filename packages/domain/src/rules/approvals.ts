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
