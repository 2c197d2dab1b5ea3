import {
  CREDIT_MEMO_TYPE_LABELS,
  ORDER_STATUS,
  ORDER_STATUS_LABELS,
  REFUND_METHOD_LABELS,
  WRITE_OFF_TYPE_LABELS,
  FOUR_EYES_WINDOW_DAYS,
  needsSecondApprover,
  type ApprovalDecisionOutcome,
  type ApprovalDecisionsRequest,
  type ApprovalDecisionsResult,
  type ApprovalItem,
  type ApprovalKind,
  type ApprovalList,
  type ApprovalListQuery,
  type CreditMemoType,
  type CurrencyCode,
  type RefundMethod,
  type WriteOffType,
} from '@pos/domain';
import { eq, sql } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { orders } from '../../db/schema';
import { AppError } from '../../http/errors';
import { runIdempotent } from '../../http/idempotency';
import { escapeLike } from '../../lib/sql-like';
import { memoDecisionWork, runDecision, writeOffDecisionWork } from '../memos';
import { changeOrderStatus } from '../order-status';
import { visibleOrdersWhere } from '../orders';

/*
 * The approvals queue (issue 16 point 2, decision 121): one list of what waits for a second person — pending memos,
 * pending write-offs, orders in Pending AR Approval (121) — oldest first; and decisions one by one or in bulk, each
 * item by the same service as its own call (memos module; the order status change and its transition table).
 */

interface Row {
  kind: ApprovalKind;
  id: number;
  version: number;
  sub: string | null;
  refund_method: string | null;
  customer_id: number | null;
  customer_name: string | null;
  invoice_id: number | null;
  invoice_number: string | null;
  amount_cents: string | number;
  currency: string;
  reason: string | null;
  note: string | null;
  requested_by: string | null;
  requested_at: Date | string;
  total: string | number;
  /** The requester's credits, refunds and write-offs on the invoice / on the customer in the window (issue 28). */
  invoice_sum?: string | number;
  customer_sum?: string | number;
}

const DAY_MS = 86_400_000;

function titleOf(r: Row): string {
  switch (r.kind) {
    case 'memo': {
      const base = `${CREDIT_MEMO_TYPE_LABELS[r.sub as CreditMemoType] ?? r.sub} memo`;
      return r.refund_method
        ? `${base} (${REFUND_METHOD_LABELS[r.refund_method as RefundMethod].toLowerCase()})`
        : base;
    }
    case 'write_off':
      return WRITE_OFF_TYPE_LABELS[Number(r.sub) as WriteOffType] ?? `Write-off ${r.sub}`;
    case 'order':
      return `Order ${r.sub} (${ORDER_STATUS_LABELS[ORDER_STATUS.PENDING_AR_APPROVAL]})`;
  }
}

/** GET /api/approvals/{token}: the queue, oldest request first; filters by kind, size, age, requester. */
export async function listApprovals(ctx: ServiceCtx, q: ApprovalListQuery): Promise<ApprovalList> {
  const now = ctx.app.clock.now();
  const visible = visibleOrdersWhere(ctx.session) ?? sql`true`;
  const filters = [sql`true`];
  if (q.kind) filters.push(sql`kind = ${q.kind}`);
  if (q.amount_min !== undefined) filters.push(sql`abs(amount_cents) >= ${q.amount_min}`);
  if (q.amount_max !== undefined) filters.push(sql`abs(amount_cents) <= ${q.amount_max}`);
  if (q.older_than_days !== undefined)
    filters.push(
      sql`requested_at <= ${new Date(now.getTime() - q.older_than_days * DAY_MS).toISOString()}::timestamptz`,
    );
  if (q.requester) filters.push(sql`requested_by ilike ${`%${escapeLike(q.requester)}%`}`);
  const windowStart = new Date(now.getTime() - FOUR_EYES_WINDOW_DAYS * DAY_MS).toISOString();
  const res = (await ctx.app.database.db.execute(sql`
    with queue as (
      select 'memo' as kind, m.id, m.version, m.type as sub, m.refund_method, m.customer_id, c.legal_name as customer_name,
        m.invoice_id, i.invoice_number, m.amount_cents, m.currency, m.reason, m.note,
        m.created_by_email as requested_by, m.created_at as requested_at
      from credit_memos m join customers c on c.id = m.customer_id left join invoices i on i.id = m.invoice_id
      where m.status = 'P'
      union all
      select 'write_off', w.id, w.version, w.type::text, null, w.customer_id, c.legal_name,
        w.invoice_id, i.invoice_number, w.amount_cents, w.currency, w.reason, w.note, w.created_by_email, w.created_at
      from write_offs w join customers c on c.id = w.customer_id join invoices i on i.id = w.invoice_id
      where w.status = 'P'
      union all
      select 'order', orders.id, orders.version, orders.unified_order_id, null, orders.customer_id,
        coalesce(orders.legal_name, orders.dba_name), null, null, orders.total_sale_cents, orders.currency,
        h.note, null, h.changed_by_email, coalesce(h.changed_at, orders.updated_at)
      from orders
      left join lateral (
        select note, changed_by_email, changed_at from order_status_history
        where order_id = orders.id and to_status = ${ORDER_STATUS.PENDING_AR_APPROVAL}
        order by changed_at desc, id desc limit 1
      ) h on true
      where orders.status = ${ORDER_STATUS.PENDING_AR_APPROVAL} and ${visible}
    )
    , page as (
      select *, count(*) over () as total from queue
      where ${sql.join(filters, sql` and `)}
      order by requested_at, kind, id
      limit ${q.limit} offset ${q.offset}
    )
    -- The four-eyes rule counts sums (issue 28, decision 143): the requester's pending and approved credits, refunds
    -- and write-offs on the invoice, and on the customer in the window, this one included.
    select p.*,
      case when p.kind = 'order' then 0 else
        coalesce((select sum(abs(m.amount_cents)) from credit_memos m where m.invoice_id = p.invoice_id
                  and m.status in ('P', 'A') and lower(m.created_by_email) = lower(p.requested_by)), 0)
        + coalesce((select sum(w.amount_cents) from write_offs w where w.invoice_id = p.invoice_id
                  and w.status in ('P', 'A') and lower(w.created_by_email) = lower(p.requested_by)), 0) end as invoice_sum,
      case when p.kind = 'order' then 0 else
        coalesce((select sum(abs(m.amount_cents)) from credit_memos m where m.customer_id = p.customer_id
                  and m.status in ('P', 'A') and lower(m.created_by_email) = lower(p.requested_by)
                  and m.created_at >= ${windowStart}::timestamptz), 0)
        + coalesce((select sum(w.amount_cents) from write_offs w where w.customer_id = p.customer_id
                  and w.status in ('P', 'A') and lower(w.created_by_email) = lower(p.requested_by)
                  and w.created_at >= ${windowStart}::timestamptz), 0) end as customer_sum
    from page p
    order by p.requested_at, p.kind, p.id`)) as unknown as { rows: Row[] };
  const me = ctx.session.email.toLowerCase();
  const items = res.rows.map((r): ApprovalItem => {
    const amount = Number(r.amount_cents);
    const requestedAt = new Date(r.requested_at);
    const sum = Math.max(Math.abs(amount), Number(r.invoice_sum ?? 0), Number(r.customer_sum ?? 0));
    const needs = r.kind !== 'order' && needsSecondApprover(sum);
    return {
      kind: r.kind,
      id: r.id,
      version: r.version,
      title: titleOf(r),
      customer_id: r.customer_id,
      customer_name: r.customer_name,
      invoice_id: r.invoice_id,
      invoice_number: r.invoice_number,
      amount_cents: amount,
      currency: r.currency as CurrencyCode,
      reason: r.reason,
      note: r.note,
      requested_by: r.requested_by,
      requested_at: requestedAt.toISOString(),
      age_days: Math.max(0, Math.floor((now.getTime() - requestedAt.getTime()) / DAY_MS)),
      needs_second_approver: needs,
      can_decide: !(needs && r.requested_by?.toLowerCase() === me),
    };
  });
  const total = res.rows[0] ? Number(res.rows[0].total) : 0;
  // A page past the end still answers the total.
  if (items.length === 0 && q.offset > 0) return { items, total: await countOnly(ctx, q) };
  return { items, total };
}

async function countOnly(ctx: ServiceCtx, q: ApprovalListQuery): Promise<number> {
  const all = await listApprovals(ctx, { ...q, offset: 0, limit: 1 });
  return all.total;
}

async function decideOne(
  ctx: ServiceCtx,
  item: ApprovalDecisionsRequest['items'][number],
  body: ApprovalDecisionsRequest,
): Promise<ApprovalDecisionOutcome> {
  const decision = { decision: body.decision, reason: body.reason, version: item.version };
  const done = body.decision === 'approve' ? 'Approved' : 'Rejected';
  switch (item.kind) {
    case 'memo': {
      const r = await runDecision(ctx, memoDecisionWork(ctx, item.id, decision));
      return { ...item, ok: true, status: 200, message: r.memo.transaction_id ? `${done}: refunded` : done };
    }
    case 'write_off':
      await runDecision(ctx, writeOffDecisionWork(ctx, item.id, decision));
      return { ...item, ok: true, status: 200, message: done };
    case 'order': {
      const [order] = await ctx.app.database.db
        .select({ status: orders.status })
        .from(orders)
        .where(eq(orders.id, item.id));
      if (order && order.status !== ORDER_STATUS.PENDING_AR_APPROVAL)
        throw new AppError('conflict', `Order ${item.id} is no longer waiting for AR approval; reload the queue.`);
      if (body.decision === 'reject' && body.status_reason_id === undefined)
        throw new AppError('validation_failed', 'Rejecting an order needs a status reason: choose one.', {
          status_reason_id: 'Choose a reason for rejecting the order.',
        });
      await changeOrderStatus(ctx, {
        order_id: item.id,
        status: body.decision === 'approve' ? ORDER_STATUS.AR_SUBMITTED : ORDER_STATUS.REJECTED,
        ...(body.decision === 'reject' ? { status_reason_id: body.status_reason_id } : {}),
        note: body.reason,
        version: item.version,
      });
      return {
        ...item,
        ok: true,
        status: 200,
        message: body.decision === 'approve' ? `${done}: ${ORDER_STATUS_LABELS[ORDER_STATUS.AR_SUBMITTED]}` : done,
      };
    }
  }
}

/**
 * POST /api/approvals/decisions/{token}: decide each item on its own (one refused does not stop the others); the
 * answer says per item what happened. With an Idempotency-Key a repeat answers the same without deciding again.
 */
export function decideApprovals(
  ctx: ServiceCtx,
  body: ApprovalDecisionsRequest,
  idempotencyKey: string | undefined,
): Promise<ApprovalDecisionsResult> {
  return runIdempotent(
    ctx,
    { route: 'POST /approvals/decisions', key: idempotencyKey, request: { params: {}, body } },
    {
      outside: async () => {
        const results: ApprovalDecisionOutcome[] = [];
        for (const item of body.items) {
          try {
            results.push(await decideOne(ctx, item, body));
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            results.push({ ...item, ok: false, status: err.status, message: err.message });
          }
        }
        return results;
      },
      effect: async (_tx, _now, results) => ({ results }),
    },
  );
}
