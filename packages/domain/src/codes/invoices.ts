/** Invoice, credit memo and write-off codes (spec §3, §4). */

export const INVOICE_STATUS = {
  PENDING: 'N',
  REVERSED: 'R',
  PAID: 'P',
} as const;
export type InvoiceStatus = (typeof INVOICE_STATUS)[keyof typeof INVOICE_STATUS];
export const INVOICE_STATUSES: readonly InvoiceStatus[] = Object.values(INVOICE_STATUS);
export const INVOICE_STATUS_LABELS: Readonly<Record<InvoiceStatus, string>> = {
  N: 'Pending',
  R: 'Reversed',
  P: 'Paid',
};

export const INVOICE_TYPE = {
  REVERSED: 'R',
  MONTHLY_RECURRING_CHARGE: 'M',
  REWARDS: 'B',
  INSTALLMENT: 'I',
  SALE: 'S',
} as const;
export type InvoiceType = (typeof INVOICE_TYPE)[keyof typeof INVOICE_TYPE];
export const INVOICE_TYPES: readonly InvoiceType[] = Object.values(INVOICE_TYPE);
export const INVOICE_TYPE_LABELS: Readonly<Record<InvoiceType, string>> = {
  R: 'Reversed',
  M: 'Monthly recurring charge',
  B: 'Rewards',
  I: 'Installment',
  S: 'Sale',
};

export const CREDIT_MEMO_STATUS = {
  APPROVED: 'A',
  PENDING: 'P',
  REJECTED: 'R',
} as const;
export type CreditMemoStatus = (typeof CREDIT_MEMO_STATUS)[keyof typeof CREDIT_MEMO_STATUS];
export const CREDIT_MEMO_STATUSES: readonly CreditMemoStatus[] = Object.values(CREDIT_MEMO_STATUS);
export const CREDIT_MEMO_STATUS_LABELS: Readonly<Record<CreditMemoStatus, string>> = {
  A: 'Approved',
  P: 'Pending',
  R: 'Rejected',
};

export const CREDIT_MEMO_TYPE = {
  CREDIT: 'C',
  REFUND: 'R',
  ADJUSTMENT: 'A',
} as const;
export type CreditMemoType = (typeof CREDIT_MEMO_TYPE)[keyof typeof CREDIT_MEMO_TYPE];
export const CREDIT_MEMO_TYPES: readonly CreditMemoType[] = Object.values(CREDIT_MEMO_TYPE);
export const CREDIT_MEMO_TYPE_LABELS: Readonly<Record<CreditMemoType, string>> = {
  C: 'Credit',
  R: 'Refund',
  A: 'Adjustment',
};

/** Write-off types (§3). Numeric ids, like the other domain-data ids; labels are the spec's names. */
export const WRITE_OFF_TYPE = {
  WRITE_OFF: 142,
  WRITE_OFF_UNRECOVERABLE: 164,
} as const;
export type WriteOffType = (typeof WRITE_OFF_TYPE)[keyof typeof WRITE_OFF_TYPE];
export const WRITE_OFF_TYPES: readonly WriteOffType[] = Object.values(WRITE_OFF_TYPE);
export const WRITE_OFF_TYPE_LABELS: Readonly<Record<WriteOffType, string>> = {
  142: 'Write_Off',
  164: 'Write_Off Unrecoverable',
};
