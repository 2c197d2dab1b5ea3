/**
 * Order status codes of spec §4. The codes are strings on the wire ('1', '150', …).
 * Labels follow the spec's wording where it gives one (101 'Petro Approval', 111 'Pending NRS Pay
 * Approval', 121 'Pending AR Approval', 140 'Installation'); the others are short names for the
 * spec's descriptions (10 'waiting on a third-party onboarding system' → 'Pending Onboarding', …).
 */
export const ORDER_STATUS = {
  DRAFT: '1',
  INCOMPLETE: '2',
  REJECTED: '3',
  PENDING_ONBOARDING: '10',
  PENDING_CONTRACT_SIGN: '11',
  SUBMITTED_TO_SUPPORT: '15',
  PETRO_APPROVAL: '101',
  PENDING_NRS_PAY_APPROVAL: '111',
  PENDING_AR_APPROVAL: '121',
  AR_CONTRACT_REGENERATED: '125',
  AR_SUBMITTED: '126',
  INSTALLATION: '140',
  POS_CANCELED: '141',
  POS_POSTPONED: '142',
  COMPLETE: '150',
} as const;

export type OrderStatusKey = keyof typeof ORDER_STATUS;
export type OrderStatusCode = (typeof ORDER_STATUS)[OrderStatusKey];

/** All codes in workflow order (ascending numeric value). */
export const ORDER_STATUS_CODES: readonly OrderStatusCode[] = Object.values(ORDER_STATUS);

export const ORDER_STATUS_LABELS: Readonly<Record<OrderStatusCode, string>> = {
  '1': 'Draft',
  '2': 'Incomplete',
  '3': 'Rejected',
  '10': 'Pending Onboarding',
  '11': 'Pending Contract Sign',
  '15': 'Submitted to Support',
  '101': 'Petro Approval',
  '111': 'Pending NRS Pay Approval',
  '121': 'Pending AR Approval',
  '125': 'AR Contract Regenerated',
  '126': 'AR Submitted',
  '140': 'Installation',
  '141': 'POS Canceled',
  '142': 'POS Postponed',
  '150': 'Complete',
};

export function isOrderStatusCode(value: unknown): value is OrderStatusCode {
  return typeof value === 'string' && (ORDER_STATUS_CODES as readonly string[]).includes(value);
}

/** Label for a status code; accepts numbers too (e.g. 121) since legacy payloads are not consistent. */
export function orderStatusLabel(code: OrderStatusCode | string | number): string | undefined {
  const key = String(code);
  return isOrderStatusCode(key) ? ORDER_STATUS_LABELS[key] : undefined;
}
