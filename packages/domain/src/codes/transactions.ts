/** Transaction status letters (spec §4). */
export const TRANSACTION_STATUS = {
  VOID: 'V',
  SUCCESS: 'S',
  PENDING: 'P',
  REPROCESSED: 'R',
  FAILED: 'F',
  CHARGEBACK: 'B',
  REVERSED: 'C',
} as const;
export type TransactionStatus = (typeof TRANSACTION_STATUS)[keyof typeof TRANSACTION_STATUS];
export const TRANSACTION_STATUSES: readonly TransactionStatus[] = Object.values(TRANSACTION_STATUS);
export const TRANSACTION_STATUS_LABELS: Readonly<Record<TransactionStatus, string>> = {
  V: 'Void',
  S: 'Success',
  P: 'Pending',
  R: 'Reprocessed',
  F: 'Failed',
  B: 'Chargeback',
  C: 'Reversed/Refunded',
};
export function isTransactionStatus(value: unknown): value is TransactionStatus {
  return typeof value === 'string' && (TRANSACTION_STATUSES as readonly string[]).includes(value);
}
