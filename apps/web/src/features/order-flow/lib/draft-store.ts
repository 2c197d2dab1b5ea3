/*
 * The order flow's local copies (decision 090). A save that fails for want of a connection or a server problem is
 * "treated as success" (spec §7): the flow moves on, and the document waits here until the server has it.
 * localStorage (it survives a closed tab); one entry per order. Whether the flow started on the new-order page
 * (its first milestone is then labelled ORDER) is kept for the tab in sessionStorage.
 */

export interface PendingDraft {
  readonly orderId: number;
  readonly json: Record<string, unknown>;
  /** The version the draft was based on. */
  readonly version: number;
  readonly savedAt: number;
}

const DRAFT_PREFIX = 'orderDraft:';
const FROM_NEW_ORDER_PREFIX = 'orderFromNewOrder:';

export function keepDraft(draft: PendingDraft): void {
  try {
    localStorage.setItem(`${DRAFT_PREFIX}${draft.orderId}`, JSON.stringify(draft));
  } catch {
    // A full or disabled storage: nothing more can be done here.
  }
}

export function pendingDraft(orderId: number): PendingDraft | null {
  try {
    const raw = localStorage.getItem(`${DRAFT_PREFIX}${orderId}`);
    return raw ? (JSON.parse(raw) as PendingDraft) : null;
  } catch {
    return null;
  }
}

export function dropDraft(orderId: number): void {
  localStorage.removeItem(`${DRAFT_PREFIX}${orderId}`);
}

export function markFromNewOrder(orderId: number): void {
  sessionStorage.setItem(`${FROM_NEW_ORDER_PREFIX}${orderId}`, 'true');
}

export function isFromNewOrder(orderId: number): boolean {
  return sessionStorage.getItem(`${FROM_NEW_ORDER_PREFIX}${orderId}`) === 'true';
}
