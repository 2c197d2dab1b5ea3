import type { InvoiceType } from './invoices';

/**
 * The chart of accounts of the journal (issue 28, decisions 143 and 145). Codes are the provider's defaults; the
 * general-ledger export maps them to the provider's own chart by configuration. Two accounts are kept per
 * customer (and, for receivables, per invoice) through the journal line's customer_id / invoice_id: 1100 and 2100.
 */
export const ACCOUNT = {
  BANK: '1000',
  CASH_IN_TRANSIT: '1010',
  RECEIVABLE: '1100',
  UNAPPLIED_CASH: '2100',
  SALES_TAX_PAYABLE: '2200',
  REFUNDS_PAYABLE: '2300',
  REVENUE_HARDWARE: '4000',
  REVENUE_SERVICE: '4100',
  REVENUE_FEES: '4200',
  REVENUE_OTHER: '4300',
  CREDITS_ALLOWED: '4900',
  REVERSALS: '4950',
  WRITE_OFF_EXPENSE: '6100',
} as const;
export type AccountCode = (typeof ACCOUNT)[keyof typeof ACCOUNT];
export const ACCOUNT_CODES: readonly AccountCode[] = Object.values(ACCOUNT);

export type AccountType = 'asset' | 'liability' | 'revenue' | 'contra_revenue' | 'expense';

export interface AccountDefinition {
  readonly code: AccountCode;
  readonly name: string;
  readonly type: AccountType;
  /** Debit-normal accounts (assets, expenses, contra revenue) grow with debits; the others with credits. */
  readonly normal: 'debit' | 'credit';
  /** The sub-ledger a line of this account names: its customer (and invoice), or none. */
  readonly per: 'invoice' | 'customer' | null;
}

export const ACCOUNTS: Readonly<Record<AccountCode, AccountDefinition>> = {
  '1000': { code: '1000', name: 'Bank', type: 'asset', normal: 'debit', per: null },
  '1010': { code: '1010', name: 'Cash in transit at the gateway', type: 'asset', normal: 'debit', per: null },
  '1100': { code: '1100', name: 'Accounts receivable', type: 'asset', normal: 'debit', per: 'invoice' },
  '2100': {
    code: '2100',
    name: 'Unapplied cash (credit on account)',
    type: 'liability',
    normal: 'credit',
    per: 'customer',
  },
  '2200': { code: '2200', name: 'Sales tax payable', type: 'liability', normal: 'credit', per: null },
  '2300': { code: '2300', name: 'Refunds payable', type: 'liability', normal: 'credit', per: null },
  '4000': { code: '4000', name: 'Revenue: hardware', type: 'revenue', normal: 'credit', per: null },
  '4100': { code: '4100', name: 'Revenue: service', type: 'revenue', normal: 'credit', per: null },
  '4200': { code: '4200', name: 'Revenue: fees', type: 'revenue', normal: 'credit', per: null },
  '4300': { code: '4300', name: 'Revenue: other', type: 'revenue', normal: 'credit', per: null },
  '4900': { code: '4900', name: 'Credits allowed', type: 'contra_revenue', normal: 'debit', per: null },
  '4950': { code: '4950', name: 'Reversals', type: 'contra_revenue', normal: 'debit', per: null },
  '6100': { code: '6100', name: 'Write-off expense', type: 'expense', normal: 'debit', per: null },
};

/**
 * The revenue account an invoice's amount before tax is credited to, by invoice type: a sale or installment is
 * hardware, a monthly recurring charge is service, rewards and anything else other. (The SQL twin is in migration
 * 0029, journal_expected_invoice.)
 */
export const REVENUE_ACCOUNT_BY_INVOICE_TYPE: Readonly<Record<InvoiceType, AccountCode>> = {
  S: ACCOUNT.REVENUE_HARDWARE,
  I: ACCOUNT.REVENUE_HARDWARE,
  M: ACCOUNT.REVENUE_SERVICE,
  B: ACCOUNT.REVENUE_OTHER,
  R: ACCOUNT.REVENUE_OTHER,
};

/** The kinds of journal entries: the first posting of a source row, and the corrections posted later. */
export const JOURNAL_ENTRY_KINDS = [
  'invoice_issued',
  'invoice_settled',
  'invoice_reversed',
  'charge_captured',
  'refund',
  'chargeback',
  'bank_return',
  'fee',
  'receipt_received',
  'receipt_applied',
  'receipt_unapplied',
  'credit',
  'adjustment',
  'debit_adjustment',
  'refund_memo',
  'write_off',
  'correction',
] as const;
export type JournalEntryKind = (typeof JOURNAL_ENTRY_KINDS)[number];

/** What AR reads for an entry's kind (the invoice panel's journal; issue 29). */
export const JOURNAL_ENTRY_KIND_LABELS: Readonly<Record<JournalEntryKind, string>> = {
  invoice_issued: 'Invoice issued',
  invoice_settled: 'Invoice settled',
  invoice_reversed: 'Invoice reversed',
  charge_captured: 'Charge captured',
  refund: 'Refund',
  chargeback: 'Chargeback',
  bank_return: 'Bank return',
  fee: 'Fee',
  receipt_received: 'Receipt received',
  receipt_applied: 'Receipt applied',
  receipt_unapplied: 'Receipt unapplied',
  credit: 'Credit',
  adjustment: 'Adjustment',
  debit_adjustment: 'Debit adjustment',
  refund_memo: 'Refund memo',
  write_off: 'Write-off',
  correction: 'Correction',
};

/** The rows an entry is posted for (journal_entries.source, with source_id the row's id). */
export const JOURNAL_SOURCES = [
  'invoice',
  'settle',
  'transaction',
  'receipt',
  'allocation',
  'memo',
  'write_off',
] as const;
export type JournalSource = (typeof JOURNAL_SOURCES)[number];
