import {
  documentCustomerId,
  isAgentScoped,
  type CustomerMatchDecisionRequest,
  type CustomerMatchInfo,
  type CustomerMatchRecord,
  type CustomerMatchStatus,
  type OrderDocument,
} from '@pos/domain';
import { eq } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import { isCustomerVisible, loadVisibleOrder, type Viewer } from '../../access';
import type { Db } from '../../db/client';
import { customers, orderCustomerMatches, type orders } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError } from '../../http/errors';

/*
 * The existing-customer match (issue 27 item 2, decision 142). Onboarding attaches a Complete order to the customer
 * whose federal tax id the order carries. When an agent-scoped session (a distributor) saves an order whose tax id is
 * an existing customer's that the session may not see, that merge is not silent: the order is flagged (a row in
 * order_customer_matches, pending) and the move to Complete waits until staff with customer_details_edit confirm the
 * match (onboarding attaches the order to that customer) or reject it (onboarding makes a new customer). Audited.
 */

type OrderRow = typeof orders.$inferSelect;
type MatchRow = typeof orderCustomerMatches.$inferSelect;

const taxIdOf = (doc: OrderDocument): string | null => {
  const v = doc.CustomerInfo?.federalTaxId;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
};

/** The customer with this federal tax id: the look-up onboarding attaches an order by (exact, as stored). */
export async function customerByFederalTaxId(db: Db, taxId: string) {
  const [row] = await db.select().from(customers).where(eq(customers.federalTaxId, taxId)).limit(1);
  return row ?? null;
}

/** The order's match row, if any (`lock`: for update). */
export async function customerMatchOf(db: Db, orderId: number, lock = false): Promise<MatchRow | null> {
  const q = db.select().from(orderCustomerMatches).where(eq(orderCustomerMatches.orderId, orderId));
  const [row] = lock ? await q.for('update') : await q;
  return row ?? null;
}

/**
 * The existing customer an agent-scoped viewer's order would be merged into without seeing it: the order names no
 * customer (neither the order row nor additionalInfo.customerID) and its federal tax id is a customer's the viewer
 * may not see. Null otherwise.
 */
async function hiddenMatchOf(db: Db, viewer: Viewer, order: OrderRow): Promise<{ id: number; taxId: string } | null> {
  const doc = order.document as OrderDocument;
  if (order.customerId !== null || documentCustomerId(doc) !== null) return null;
  const taxId = taxIdOf(doc);
  if (taxId === null) return null;
  const existing = await customerByFederalTaxId(db, taxId);
  if (!existing || (await isCustomerVisible(db, viewer, existing.id))) return null;
  return { id: existing.id, taxId };
}

/**
 * After an agent-scoped session saved an order (in the save's transaction): flag a new match (pending), keep the one
 * already flagged or decided for the same customer, withdraw one that no longer applies. Each change is audited.
 */
export async function refreshCustomerMatch(ctx: ServiceCtx, db: Db, order: OrderRow, now: Date): Promise<void> {
  const wanted = await hiddenMatchOf(db, ctx.session, order);
  const current = await customerMatchOf(db, order.id, true);
  if (wanted === null) {
    if (!current) return;
    await db.delete(orderCustomerMatches).where(eq(orderCustomerMatches.orderId, order.id));
    await writeAudit(db, {
      ...ctx.actor,
      at: now,
      action: 'order.customer_match_withdrawn',
      entity: 'order',
      entityId: order.id,
      customerId: current.customerId,
      before: { customer_id: current.customerId, status: current.status },
      requestId: ctx.requestId,
    });
    return;
  }
  if (current && current.customerId === wanted.id) return;
  const values = {
    orderId: order.id,
    customerId: wanted.id,
    federalTaxId: wanted.taxId,
    status: 'pending' as const,
    flaggedAt: now,
    flaggedByEmail: ctx.session.email,
    decidedAt: null,
    decidedByEmail: null,
  };
  await db
    .insert(orderCustomerMatches)
    .values(values)
    .onConflictDoUpdate({ target: orderCustomerMatches.orderId, set: values });
  await writeAudit(db, {
    ...ctx.actor,
    at: now,
    action: 'order.customer_match',
    entity: 'order',
    entityId: order.id,
    // Filed under the existing customer: its audit trail shows the order waiting to be attached to it.
    customerId: wanted.id,
    before: current ? { customer_id: current.customerId, status: current.status } : undefined,
    after: { customer_id: wanted.id, status: 'pending', federal_tax_id: wanted.taxId },
    requestId: ctx.requestId,
  });
}

async function recordOf(db: Db, row: MatchRow, showCustomer: boolean): Promise<CustomerMatchRecord> {
  const [customer] = showCustomer
    ? await db
        .select({
          customer_id: customers.id,
          legal_name: customers.legalName,
          email: customers.email,
          country: customers.country,
        })
        .from(customers)
        .where(eq(customers.id, row.customerId))
    : [];
  return {
    order_id: row.orderId,
    status: row.status as CustomerMatchStatus,
    federal_tax_id: row.federalTaxId,
    customer: customer ?? null,
    flagged_at: row.flaggedAt.toISOString(),
    flagged_by_email: row.flaggedByEmail,
    decided_at: row.decidedAt?.toISOString() ?? null,
    decided_by_email: row.decidedByEmail,
  };
}

/**
 * GET …/orderinfo/{orderId}/customermatch/{token}: the order's match, or null. An agent-scoped session (its own order)
 * learns that the order waits and on which tax id, never which customer it is.
 */
export async function getCustomerMatch(ctx: ServiceCtx, orderId: number): Promise<CustomerMatchInfo> {
  const db = ctx.app.database.db;
  await loadVisibleOrder(db, ctx.session, { id: orderId });
  const row = await customerMatchOf(db, orderId);
  return { match: row ? await recordOf(db, row, !isAgentScoped(ctx.session)) : null };
}

/**
 * POST …/orderinfo/{orderId}/customermatch/{token} {customer_id, decision}: staff with customer_details_edit confirm
 * the match (onboarding attaches the order to that customer) or reject it (onboarding makes a new customer) while the
 * order is not onboarded. Never an agent-scoped session's decision (403, whatever the order). Audited.
 */
export async function decideCustomerMatch(
  ctx: ServiceCtx,
  orderId: number,
  body: CustomerMatchDecisionRequest,
): Promise<CustomerMatchInfo> {
  if (isAgentScoped(ctx.session))
    throw new AppError(
      'forbidden',
      "Confirming an order's existing-customer match is for the back office: an agent's session cannot decide it.",
    );
  const now = ctx.app.clock.now();
  return withTx(ctx, async (db) => {
    const order = await loadVisibleOrder(db, ctx.session, { id: orderId }, { lock: true });
    if (order.onboardedAt)
      throw new AppError('conflict', `Order ${order.unifiedOrderId} is onboarded: its customer can no longer change.`);
    const row = await customerMatchOf(db, orderId, true);
    if (!row) throw new AppError('not_found', `Order ${orderId} has no existing-customer match.`);
    if (row.customerId !== body.customer_id) {
      const message = `Order ${orderId} now matches customer ${row.customerId}: reload it and decide again.`;
      throw new AppError('conflict', message, { customer_id: message });
    }
    const status: CustomerMatchStatus = body.decision === 'confirm' ? 'confirmed' : 'rejected';
    if (row.status === status) return { match: await recordOf(db, row, true) };
    const [updated] = await db
      .update(orderCustomerMatches)
      .set({ status, decidedAt: now, decidedByEmail: ctx.session.email })
      .where(eq(orderCustomerMatches.orderId, orderId))
      .returning();
    await writeAudit(db, {
      ...ctx.actor,
      at: now,
      action: 'order.customer_match_decision',
      entity: 'order',
      entityId: orderId,
      customerId: row.customerId,
      before: { customer_id: row.customerId, status: row.status },
      after: { customer_id: row.customerId, status, decision: body.decision },
      requestId: ctx.requestId,
    });
    return { match: await recordOf(db, updated!, true) };
  });
}

/**
 * How onboarding may use the customer its tax-id look-up found (`foundId`): 'attach' (no match waits for it, or
 * staff confirmed it), 'new' (staff rejected it: onboard as a new customer), 'wait' (pending: not before staff decide).
 */
export async function customerMatchVerdict(
  db: Db,
  orderId: number,
  foundId: number,
): Promise<'attach' | 'new' | 'wait'> {
  const row = await customerMatchOf(db, orderId);
  if (!row || row.customerId !== foundId || row.status === 'confirmed') return 'attach';
  return row.status === 'rejected' ? 'new' : 'wait';
}
