import {
  memoItem,
  writeOffItem,
  type MemoCreateRequest,
  type MemoItem,
  type WriteOffCreateRequest,
  type WriteOffItem,
} from '@pos/domain';
import { api } from '../lib/api';

/*
 * Asking for a memo or a write-off (issue 16, decision 120) — from the invoices screen's panel and the customer
 * page's Invoices tab, through the one dialog (components/memo-dialog.tsx):
 *   POST $ /api/memos/{token}      memoCreateRequest → memoItem (pending)
 *   POST $ /api/writeoffs/{token}  writeOffCreateRequest → writeOffItem (pending)
 * $: sent with an Idempotency-Key (one per user action). Deciding is the approvals screen's (features/approvals).
 */

export async function createMemo(body: MemoCreateRequest, idempotencyKey: string): Promise<MemoItem> {
  return memoItem.parse(await api.post<unknown>('/api/memos/{token}', body, { idempotencyKey }));
}

export async function createWriteOff(body: WriteOffCreateRequest, idempotencyKey: string): Promise<WriteOffItem> {
  return writeOffItem.parse(await api.post<unknown>('/api/writeoffs/{token}', body, { idempotencyKey }));
}
