/**
 * Why a gateway refused a payment (issue 15, decision 116). Every decline carries one code; the code says whether
 * the payment may be tried again on the same instrument (soft) or not (hard: the merchant must give another one).
 * - soft: the instrument is fine, the moment was not — retried on the dunning schedule (rules/dunning.ts);
 * - hard: the instrument will not work again — no retry; the merchant gets the update-payment e-mail at once.
 */
export const DECLINE_CODES = [
  'insufficient_funds',
  'do_not_honor',
  'processing_error',
  'issuer_unavailable',
  'timeout',
  'stolen_card',
  'lost_card',
  'invalid_account',
  'account_closed',
  'expired_card',
  'fraud',
] as const;
export type DeclineCode = (typeof DECLINE_CODES)[number];
export type DeclineKind = 'soft' | 'hard';
export const DECLINE_KINDS: readonly DeclineKind[] = ['soft', 'hard'];

export const DECLINE_KIND: Readonly<Record<DeclineCode, DeclineKind>> = {
  insufficient_funds: 'soft',
  do_not_honor: 'soft',
  processing_error: 'soft',
  issuer_unavailable: 'soft',
  timeout: 'soft',
  stolen_card: 'hard',
  lost_card: 'hard',
  invalid_account: 'hard',
  account_closed: 'hard',
  expired_card: 'hard',
  fraud: 'hard',
};

/** What staff read (and the merchant's e-mail says). */
export const DECLINE_LABELS: Readonly<Record<DeclineCode, string>> = {
  insufficient_funds: 'Insufficient funds',
  do_not_honor: 'Do not honor',
  processing_error: 'Processing error',
  issuer_unavailable: 'Issuer unavailable',
  timeout: 'Timed out',
  stolen_card: 'Stolen card',
  lost_card: 'Lost card',
  invalid_account: 'Invalid account',
  account_closed: 'Account closed',
  expired_card: 'Expired card',
  fraud: 'Suspected fraud',
};

export function isDeclineCode(value: unknown): value is DeclineCode {
  return typeof value === 'string' && (DECLINE_CODES as readonly string[]).includes(value);
}

/** Soft or hard; an unknown code (a gateway that says something new) counts as soft: one more try costs little. */
export function declineKindOf(code: string | null | undefined): DeclineKind {
  return isDeclineCode(code) ? DECLINE_KIND[code] : 'soft';
}
