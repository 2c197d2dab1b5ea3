import { invoiceReverseResult, type InvoiceReverseRequest, type InvoiceReverseResult } from '@pos/domain';
import { api } from '../lib/api';

/*
 * Invoice operations more than one screen calls (the customer page's Invoices tab, the invoices screen):
 *   POST $ /api/customers/{id}/{token}/customerinvoices/{invoiceId}/reverse  {reason, version} → invoiceReverseResult
 * $: sent with an Idempotency-Key (one per user action; the same key again when the action is repeated).
 */

export interface InvoiceReversal {
  readonly invoiceId: number;
  readonly body: InvoiceReverseRequest;
  readonly idempotencyKey: string;
}

export async function reverseInvoice(
  customerId: number,
  { invoiceId, body, idempotencyKey }: InvoiceReversal,
): Promise<InvoiceReverseResult> {
  return invoiceReverseResult.parse(
    await api.post<unknown>('/api/customers/{id}/{token}/customerinvoices/{invoiceId}/reverse', body, {
      params: { id: customerId, invoiceId },
      idempotencyKey,
    }),
  );
}
