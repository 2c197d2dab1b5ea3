import {
  memoCreateRequest,
  memoItem,
  writeOffCreateRequest,
  writeOffItem,
  type MemoCreateRequest,
  type MemoItem,
  type WriteOffCreateRequest,
  type WriteOffItem,
} from '@pos/domain';
import { api } from '../lib/api';
import { useMoneyMutation } from './money-views';

/*
 * Asking for a memo or a write-off (issue 16, decision 120) — from the invoices screen's panel and the customer
 * page's Invoices tab, through the one dialog (components/memo-dialog.tsx):
 *   POST $ /api/memos/{token}      memoCreateRequest → memoItem (pending)
 *   POST $ /api/writeoffs/{token}  writeOffCreateRequest → writeOffItem (pending)
 * $: sent with an Idempotency-Key (one per user action). Deciding is the approvals screen's (features/approvals).
 * The dialog asks through useRequestMemo / useRequestWriteOff, which refresh every money view (the invoice, the
 * customer's page, the approvals queue).
 */

export async function createMemo(body: MemoCreateRequest, idempotencyKey: string): Promise<MemoItem> {
  return memoItem.parse(await api.post<unknown>('/api/memos/{token}', body, { idempotencyKey }));
}

export async function createWriteOff(body: WriteOffCreateRequest, idempotencyKey: string): Promise<WriteOffItem> {
  return writeOffItem.parse(await api.post<unknown>('/api/writeoffs/{token}', body, { idempotencyKey }));
}

/** Ask for a memo on an invoice (or on account): it waits in Approvals; every money view refreshes. */
export function useRequestMemo() {
  return useMoneyMutation({
    mutationFn: ({ body, idempotencyKey }: { body: MemoCreateRequest; idempotencyKey: string }) =>
      createMemo(memoCreateRequest.parse(body), idempotencyKey),
    customerOf: ({ body }) => body.customer_id,
  });
}

/** A write-off as asked: its type as chosen (the request checks it is 142 or 164). */
export type WriteOffAsked = Omit<WriteOffCreateRequest, 'type'> & { readonly type: number };

/** Ask for an invoice's open balance to be written off: it waits in Approvals; every money view refreshes. */
export function useRequestWriteOff() {
  return useMoneyMutation({
    mutationFn: ({ body, idempotencyKey }: { customerId: number; body: WriteOffAsked; idempotencyKey: string }) =>
      createWriteOff(writeOffCreateRequest.parse(body), idempotencyKey),
    customerOf: ({ customerId }) => customerId,
  });
}
