import {
  NOTE_TYPE,
  ORDER_STATUS,
  ORDER_STATUS_CODES,
  ORDER_STATUS_LABELS,
  allowedNextStatuses,
  canTransition,
  describeTransitionRule,
  isOrderStatusCode,
  mayTransition,
  transitionRequiresReason,
  type OrderNoteItem,
  type OrderStatusChangeInfo,
  type OrderStatusChangeRequest,
  type OrderStatusCode,
  type OrderStatusReasonsInfo,
  type OrderDocument,
  type OrderStatusSummary,
  type TransitionRequester,
} from '@pos/domain';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { orderNotes, orders, orderStatusHistory, statusReasons } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, versionConflict } from '../../http/errors';
import { serialHolder, viewerOf } from '../../access';
import { applyStatusEffects, loadVisibleOrder } from '../orders';
import { settleOrderHolds } from '../payments';

type OrderRow = typeof orders.$inferSelect;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** GET /api/customers/orderstatus/{token}: status reasons grouped by status (statuses with reasons only). */
export async function listStatusReasons(ctx: ServiceCtx, status?: OrderStatusCode): Promise<OrderStatusReasonsInfo> {
  const rows = await ctx.app.database.db
    .select()
    .from(statusReasons)
    .where(status ? eq(statusReasons.status, status) : undefined)
    .orderBy(asc(statusReasons.sortOrder), asc(statusReasons.reason), asc(statusReasons.id));
  const statuses: OrderStatusReasonsInfo['statuses'] = [];
  for (const code of ORDER_STATUS_CODES) {
    const reasons = rows
      .filter((r) => r.status === code)
      .map((r) => ({ id: r.id, reason: r.reason, sort_order: r.sortOrder }));
    if (reasons.length) statuses.push({ status: code, label: ORDER_STATUS_LABELS[code], reasons });
  }
  return { statuses };
}

function noteItem(row: typeof orderNotes.$inferSelect, reason: string | null): OrderNoteItem {
  return {
    id: row.id,
    order_id: row.orderId,
    note_type: row.noteType as OrderNoteItem['note_type'],
    status_reason_id: row.statusReasonId,
    reason,
    body: row.body,
    created_by_email: row.createdByEmail,
    created_at: row.createdAt.toISOString(),
  };
}

/** GET /api/customers/ordernotes/{orderId}/{token}: the order's notes, newest first. */
export async function listOrderNotes(ctx: ServiceCtx, orderId: number): Promise<{ notes: OrderNoteItem[] }> {
  const db = ctx.app.database.db;
  await loadVisibleOrder(db, ctx.session, { id: orderId });
  const rows = await db
    .select({ note: orderNotes, reason: statusReasons.reason })
    .from(orderNotes)
    .leftJoin(statusReasons, eq(statusReasons.id, orderNotes.statusReasonId))
    .where(eq(orderNotes.orderId, orderId))
    .orderBy(desc(orderNotes.createdAt), desc(orderNotes.id));
  return { notes: rows.map((r) => noteItem(r.note, r.reason)) };
}

/** POST /api/customers/ordernotes/{orderId}/{token}: add an order_note (audited). */
export async function addOrderNote(ctx: ServiceCtx, orderId: number, body: string): Promise<{ note: OrderNoteItem }> {
  return withTx(ctx, async (db) => {
    const order = await loadVisibleOrder(db, ctx.session, { id: orderId });
    const now = ctx.app.clock.now();
    const [row] = await db
      .insert(orderNotes)
      .values({ orderId, noteType: NOTE_TYPE.ORDER_NOTE, body, createdByEmail: ctx.session.email, createdAt: now })
      .returning();
    await writeAudit(db, {
      ...ctx.actor,
      at: now,
      action: 'create',
      entity: 'order_note',
      entityId: row!.id,
      customerId: order.customerId,
      after: {
        ...(order.customerId != null && { customer_id: order.customerId }),
        order_id: orderId,
        note_type: NOTE_TYPE.ORDER_NOTE,
        body,
      },
      requestId: ctx.requestId,
    });
    return { note: noteItem(row!, null) };
  });
}

type HistoryItem = OrderStatusChangeInfo['history'];

function historyItem(row: typeof orderStatusHistory.$inferSelect, reason: string | null): HistoryItem {
  return {
    id: row.id,
    order_id: row.orderId,
    from_status: row.fromStatus != null && isOrderStatusCode(row.fromStatus) ? row.fromStatus : null,
    to_status: row.toStatus as OrderStatusCode,
    status_reason_id: row.statusReasonId,
    reason,
    note: row.note,
    changed_by_email: row.changedByEmail,
    changed_at: row.changedAt.toISOString(),
  };
}

/** GET /api/customers/orderstatus/history/{orderId}/{token}: status changes, newest first. */
export async function listStatusHistory(ctx: ServiceCtx, orderId: number): Promise<{ history: HistoryItem[] }> {
  const db = ctx.app.database.db;
  await loadVisibleOrder(db, ctx.session, { id: orderId });
  const rows = await db
    .select({ h: orderStatusHistory, reason: statusReasons.reason })
    .from(orderStatusHistory)
    .leftJoin(statusReasons, eq(statusReasons.id, orderStatusHistory.statusReasonId))
    .where(eq(orderStatusHistory.orderId, orderId))
    .orderBy(desc(orderStatusHistory.changedAt), desc(orderStatusHistory.id));
  return { history: rows.map((r) => historyItem(r.h, r.reason)) };
}

function summary(row: OrderRow): OrderStatusSummary {
  return {
    id: row.id,
    status: row.status as OrderStatusCode,
    version: row.version,
    submitted_at: iso(row.submittedAt),
    completed_at: iso(row.completedAt),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Checks a move against the table and the requester (shared with the order-status worker): the move must
 * exist (409 invalid_transition otherwise), `who` must be allowed to make it (403 naming the rule; pass
 * null to skip — a system job), and a reason must be given where the table needs one (400). The reason must
 * exist and belong to the target status.
 */
export async function checkTransition(
  db: Db,
  input: { from: OrderStatusCode; to: OrderStatusCode; statusReasonId?: number; who: TransitionRequester | null },
): Promise<{ reason: string | null }> {
  const { from, to, who } = input;
  if (!canTransition(from, to)) {
    throw new AppError('conflict', describeTransitionRule(from, to), undefined, {
      reason: 'invalid_transition',
      from,
      to,
      allowed: who ? allowedNextStatuses(from, who) : [],
    });
  }
  if (who && !mayTransition(from, to, who)) throw new AppError('forbidden', describeTransitionRule(from, to));
  if (input.statusReasonId === undefined) {
    if (transitionRequiresReason(to)) {
      throw new AppError('validation_failed', `A move to ${ORDER_STATUS_LABELS[to]} needs a status reason.`, {
        status_reason_id: `Choose a reason for ${ORDER_STATUS_LABELS[to]}.`,
      });
    }
    return { reason: null };
  }
  const [reason] = await db
    .select()
    .from(statusReasons)
    .where(and(eq(statusReasons.id, input.statusReasonId), eq(statusReasons.status, to)));
  if (!reason) {
    throw new AppError('validation_failed', `Status reason ${input.statusReasonId} is not a reason for status ${to}.`, {
      status_reason_id: `Choose a reason listed for ${ORDER_STATUS_LABELS[to]}.`,
    });
  }
  return { reason: reason.reason };
}

/** The order columns a move to `to` sets besides the status. */
export function statusTimestamps(order: OrderRow, to: OrderStatusCode, now: Date): Partial<typeof orders.$inferInsert> {
  return {
    ...(to === ORDER_STATUS.COMPLETE && { completedAt: now }),
    ...(to === ORDER_STATUS.PENDING_CONTRACT_SIGN && !order.submittedAt && { submittedAt: now }),
    ...(to === ORDER_STATUS.SUBMITTED_TO_SUPPORT && !order.submittedAt && { submittedAt: now }),
  };
}

/**
 * PUT /api/customers/ordernotes/{token}: change an order's status (decision 073). One transaction: lock the
 * order, check version, table, requester and reason; update the order, write the history row, a
 * status_reason note when a reason is given, and the audit entry.
 */
export async function changeOrderStatus(
  ctx: ServiceCtx,
  body: OrderStatusChangeRequest,
): Promise<OrderStatusChangeInfo> {
  const { session } = ctx;
  const info = await withTx(ctx, async (db) => {
    // Decision 102: another agent's order is 404, as if it did not exist.
    const order = await loadVisibleOrder(db, session, { id: body.order_id }, { lock: true, field: 'order_id' });
    if (order.version !== body.version) {
      throw versionConflict(`Order ${order.id}`, summary(order));
    }
    const from = order.status as OrderStatusCode;
    const who: TransitionRequester = { role: session.role, privileges: session.privileges };
    const { reason } = await checkTransition(db, { from, to: body.status, statusReasonId: body.status_reason_id, who });
    const serials =
      body.terminal_serials === undefined
        ? undefined
        : await checkTerminalSerials(ctx, db, order, body.terminal_serials);
    const now = ctx.app.clock.now();
    const [updated] = await db
      .update(orders)
      .set({
        status: body.status,
        ...(serials === undefined
          ? {}
          : { document: { ...(order.document as OrderDocument), TerminalSerials: serials } }),
        updatedAt: now,
        version: sql`${orders.version} + 1`,
        ...statusTimestamps(order, body.status, now),
      })
      .where(eq(orders.id, order.id))
      .returning();
    const [history] = await db
      .insert(orderStatusHistory)
      .values({
        orderId: order.id,
        fromStatus: from,
        toStatus: body.status,
        statusReasonId: body.status_reason_id ?? null,
        note: body.note ?? null,
        changedByEmail: session.email,
        changedAt: now,
      })
      .returning();
    let noteId: number | null = null;
    if (body.status_reason_id !== undefined) {
      const [note] = await db
        .insert(orderNotes)
        .values({
          orderId: order.id,
          noteType: NOTE_TYPE.STATUS_REASON,
          statusReasonId: body.status_reason_id,
          body: body.note ? `${reason}: ${body.note}` : reason!,
          createdByEmail: session.email,
          createdAt: now,
        })
        .returning({ id: orderNotes.id });
      noteId = note!.id;
    }
    const cust = order.customerId != null ? { customer_id: order.customerId } : {};
    await writeAudit(db, {
      ...ctx.actor,
      at: now,
      action: 'status_change',
      entity: 'order',
      entityId: order.id,
      customerId: order.customerId,
      before: { ...cust, status: from, version: order.version },
      after: {
        ...cust,
        status: body.status,
        version: updated!.version,
        status_reason_id: body.status_reason_id ?? null,
        note: body.note ?? null,
        ...(serials === undefined ? {} : { terminal_serials: serials }),
        history_id: history!.id,
        note_id: noteId,
      },
      requestId: ctx.requestId,
    });
    await applyStatusEffects(ctx, db, { order: updated!, from, to: body.status, now });
    return { order: summary(updated!), history: historyItem(history!, reason) };
  });
  // After the commit (decision 148): the holds the move queued are captured (Complete: paying the sale invoice) or
  // released (Rejected, POS Canceled) now, outside any transaction; what does not settle now is the sweep's.
  if (SETTLES_HOLDS.has(body.status)) await settleOrderHolds(ctx.app, body.order_id, ctx.actor, ctx.requestId);
  return info;
}

/**
 * The serial numbers Operations enters at Installation (decision 150): only on a move from Installation, at most one
 * per terminal of the order, no two alike, none another terminal already has (the validate call's rule).
 */
async function checkTerminalSerials(
  ctx: ServiceCtx,
  db: Db,
  order: OrderRow,
  serials: readonly string[],
): Promise<string[]> {
  if (order.status !== ORDER_STATUS.INSTALLATION)
    throw new AppError(
      'conflict',
      `Order ${order.unifiedOrderId} is ${ORDER_STATUS_LABELS[order.status as OrderStatusCode] ?? order.status}: ` +
        'terminal serial numbers are entered at Installation.',
    );
  const count = Math.max(0, (order.document as OrderDocument).noOfTerminals ?? 0);
  if (serials.length > count)
    throw new AppError(
      'validation_failed',
      `Order ${order.unifiedOrderId} has ${count} terminal(s): enter at most ${count} serial number(s).`,
      { terminal_serials: `At most ${count}.` },
    );
  const fields: Record<string, string> = {};
  const seen = new Map<string, number>();
  for (const [i, serial] of serials.entries()) {
    const key = serial.toUpperCase();
    if (seen.has(key)) fields[`terminal_serials.${i}`] = `The same as terminal ${seen.get(key)! + 1}.`;
    seen.set(key, i);
    const held = await serialHolder(db, viewerOf(ctx), serial, null);
    if (held) fields[`terminal_serials.${i}`] = held.reason;
  }
  const first = Object.entries(fields)[0];
  if (first) throw new AppError('validation_failed', `Check the serial numbers: ${first[1]}`, fields);
  return [...serials];
}

/** The moves after which an order's card holds are captured or released. */
const SETTLES_HOLDS: ReadonlySet<OrderStatusCode> = new Set([
  ORDER_STATUS.COMPLETE,
  ORDER_STATUS.REJECTED,
  ORDER_STATUS.POS_CANCELED,
]);
