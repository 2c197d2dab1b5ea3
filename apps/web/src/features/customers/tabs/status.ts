import type { MantineColor } from '@mantine/core';
import {
  assertNever,
  INVOICE_STATUS_LABELS,
  INVOICE_TYPE_LABELS,
  isTransactionStatus,
  TRANSACTION_STATUS_LABELS,
  type InvoiceStatus,
  type InvoiceType,
  type TransactionStatus,
} from '@pos/domain';

/** How a code is shown: the domain's word and a colour (a badge never relies on colour alone — the word is there). */
export interface StatusLook {
  readonly label: string;
  readonly color: MantineColor;
}

function transactionColor(status: TransactionStatus): MantineColor {
  switch (status) {
    case 'S':
      return 'green';
    case 'P':
      return 'yellow';
    case 'F':
      return 'red';
    case 'R':
      return 'teal';
    case 'V':
      return 'gray';
    case 'B':
      return 'grape';
    case 'C':
      return 'orange';
    default:
      return assertNever(status);
  }
}

/**
 * A transaction status letter (spec §4) as a word and a colour: success green, pending yellow, failed red,
 * reprocessed teal, void grey, chargeback grape, reversed/refunded orange. An unknown letter shows as itself.
 */
export function transactionStatusLook(status: string): StatusLook {
  if (!isTransactionStatus(status)) return { label: `Unknown (${status})`, color: 'dark' };
  return { label: TRANSACTION_STATUS_LABELS[status], color: transactionColor(status) };
}

function isInvoiceStatus(value: string): value is InvoiceStatus {
  return Object.hasOwn(INVOICE_STATUS_LABELS, value);
}

function isInvoiceType(value: string): value is InvoiceType {
  return Object.hasOwn(INVOICE_TYPE_LABELS, value);
}

function invoiceColor(status: InvoiceStatus): MantineColor {
  switch (status) {
    case 'N':
      return 'yellow';
    case 'P':
      return 'green';
    case 'R':
      return 'gray';
    default:
      return assertNever(status);
  }
}

/** Invoice status (N pending, P paid, R reversed) as a word and a colour. */
export function invoiceStatusLook(status: string): StatusLook {
  if (!isInvoiceStatus(status)) return { label: `Unknown (${status})`, color: 'dark' };
  return { label: INVOICE_STATUS_LABELS[status], color: invoiceColor(status) };
}

/** Invoice type letter (R, M, B, I, S) as the domain's word. */
export function invoiceTypeLabel(type: string): string {
  return isInvoiceType(type) ? INVOICE_TYPE_LABELS[type] : `Unknown (${type})`;
}
