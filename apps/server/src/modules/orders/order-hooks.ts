import type { OrderStatusCode } from '@pos/domain';
import type { AnyServiceCtx, ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import type { orders } from '../../db/schema';

/*
 * What other modules do when an order moves or its document is saved, inside the same transaction (so it happens
 * exactly when the change does). Orders declares the hooks and knows none of the listeners: contracts (a contract
 * made and sent on Pending Contract Sign, remade on AR Contract Regenerated or when a waiting order's document
 * changes) and onboarding (on Complete) register theirs at start (listeners.ts), so orders imports neither.
 */

type OrderRow = typeof orders.$inferSelect;

export interface StatusChange {
  /** The order as it is after the move (status = to, version bumped). */
  order: OrderRow;
  from: OrderStatusCode | null;
  to: OrderStatusCode;
  now: Date;
}

export interface DocumentSave {
  /** The order before and after the save of its document (same status; version bumped). */
  before: OrderRow;
  after: OrderRow;
}

/** A listener gets the context of whoever made the change (a session, the merchant of a link, a job: `ctx.actor`). */
export type OrderListener<E> = (ctx: AnyServiceCtx, tx: Db, event: E) => Promise<void>;

/** Listeners by name (registering a name again replaces its listener, so a second app in one process adds none). */
const statusListeners = new Map<string, OrderListener<StatusChange>>();
const saveListeners = new Map<string, OrderListener<DocumentSave>>();
const savedListeners = new Map<string, (ctx: ServiceCtx, orderId: number) => Promise<void>>();

/** Run `listener` on every status change of an order (the submit, PUT ordernotes, the order-status worker, a signature). */
export function onOrderStatusChange(name: string, listener: OrderListener<StatusChange>): void {
  statusListeners.set(name, listener);
}

/** Run `listener` after every save of an order's document (POST orderinfo on an existing order). */
export function onOrderDocumentSave(name: string, listener: OrderListener<DocumentSave>): void {
  saveListeners.set(name, listener);
}

/**
 * Run `listener` after a save of an order's document has committed (new orders and updates, a submit included):
 * for work that must not hold the transaction — the payment step's card hold is placed at the gateway here
 * (issue 29 item 1, decision 151). A listener's failure is its own: the save has happened and answers as saved.
 */
export function onOrderSaved(name: string, listener: (ctx: ServiceCtx, orderId: number) => Promise<void>): void {
  savedListeners.set(name, listener);
}

/** saveOrderInfo calls this after its transaction committed; a listener that throws is logged, not rethrown. */
export async function applyOrderSavedEffects(ctx: ServiceCtx, orderId: number): Promise<void> {
  for (const [name, listener] of savedListeners) {
    try {
      await listener(ctx, orderId);
    } catch (err) {
      console.warn(`order ${orderId}: the after-save effect '${name}' failed: ${(err as Error).message}`);
    }
  }
}

/** Every place that moves an order calls this in the transaction of the move, after the history row. */
export async function applyStatusEffects(ctx: AnyServiceCtx, tx: Db, change: StatusChange): Promise<void> {
  for (const listener of statusListeners.values()) await listener(ctx, tx, change);
}

/** The document save calls this in its transaction, after the update and its audit entry. */
export async function applyDocumentSaveEffects(ctx: AnyServiceCtx, tx: Db, save: DocumentSave): Promise<void> {
  for (const listener of saveListeners.values()) await listener(ctx, tx, save);
}
