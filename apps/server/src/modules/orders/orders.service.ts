import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  ORDER_STATUS,
  isAgentScoped,
  canTransition,
  fieldsFromZodError,
  isOrderStatusCode,
  mayTransition,
  orderDraft,
  orderForSubmit,
  startStatusForRole,
  centsToDecimal,
  toCents,
  type OrderDocument,
  type OrderInfoRecord,
  type OrderInfoSaveRequest,
  type OrderStatusCode,
} from '@pos/domain';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { orderStatusHistory, orders } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { faultPoint } from '../../lib/fault-point';
import { AppError, versionConflict } from '../../http/errors';
import { loadVisibleOrder, orderNotFound, viewerOf, visibleOrdersWhere } from '../../access';
import { refreshCustomerMatch } from './customer-match.service';
import { applyDocumentSaveEffects, applyOrderSavedEffects, applyStatusEffects } from './order-hooks';
import { foreignReferences, foreignReferencesError } from './order-references';
import { withCrmOrderMark } from './crm-order';
import { dataEncryptionKey, encryptAccountNumber } from '../../lib/account-number-cipher';
import { canonicalJson } from '../../lib/canonical-json';
import { redeemCardToken } from '../payments';

type OrderRow = typeof orders.$inferSelect;

/** Statuses of the pending lists (decision 078): AR approvals vs the RAM (contract sign) queue. */
export const PENDING_STATUSES: Readonly<Record<'ar' | 'ram', readonly OrderStatusCode[]>> = {
  ar: [ORDER_STATUS.PENDING_AR_APPROVAL, ORDER_STATUS.AR_CONTRACT_REGENERATED, ORDER_STATUS.AR_SUBMITTED],
  ram: [ORDER_STATUS.PENDING_CONTRACT_SIGN],
};

/** Statuses in which an order's document can no longer be saved. */
const CLOSED: readonly string[] = [ORDER_STATUS.REJECTED, ORDER_STATUS.POS_CANCELED, ORDER_STATUS.COMPLETE];
/** Statuses in which an agent (distributor) may still change its order. */
const AGENT_EDITABLE: readonly string[] = [ORDER_STATUS.DRAFT, ORDER_STATUS.INCOMPLETE];

function record(row: OrderRow): OrderInfoRecord {
  return {
    orderInfoId: row.id,
    unifiedOrderId: row.unifiedOrderId,
    status: row.status as OrderStatusCode,
    flow: row.flow,
    order_type: row.orderType,
    sales_rep: row.salesRep,
    agent_id: row.agentId,
    customer_id: row.customerId,
    version: row.version,
    updated_at: row.updatedAt.toISOString(),
    json: row.document,
  };
}

// ── Reads ───────────────────────────────────────────────────────────────────────────────────────────

export async function getOrderInfo(ctx: ServiceCtx, key: { id?: number; unifiedid?: string }) {
  const { session } = ctx;
  const db = ctx.app.database.db;
  const row = await loadVisibleOrder(
    db,
    session,
    key.id !== undefined ? { id: key.id } : { unifiedId: key.unifiedid! },
  );
  return { order: record(row) };
}

/** The caller's queue: orders in the status its role starts from (newest change first). */
export async function getOrderQueue(ctx: ServiceCtx, page: { limit: number; offset: number }) {
  const { session } = ctx;
  const db = ctx.app.database.db;
  const status = startStatusForRole(session.role);
  const where = and(eq(orders.status, status), visibleOrdersWhere(session));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.updatedAt), desc(orders.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return {
    queue: {
      status,
      total: total?.n ?? 0,
      items: rows.map((r) => {
        const { json: _json, ...rest } = record(r);
        return {
          ...rest,
          legal_name: r.legalName,
          dba_name: r.dbaName,
          total_sale_price: centsToDecimal(r.totalSaleCents),
          order_date: r.orderDate.toISOString(),
        };
      }),
    },
  };
}

/** Orders awaiting AR approval (121/125/126) or RAM (11), optionally one of them; `data` is the document as JSON text. */
export async function listPendingOrders(ctx: ServiceCtx, q: { type: 'ar' | 'ram'; id?: number }) {
  const { session } = ctx;
  const db = ctx.app.database.db;
  const where = and(
    inArray(orders.status, [...PENDING_STATUSES[q.type]]),
    q.id !== undefined ? eq(orders.id, q.id) : undefined,
    visibleOrdersWhere(session),
  );
  const rows = await db.select().from(orders).where(where).orderBy(orders.updatedAt, orders.id).limit(500);
  return {
    orders: rows.map((r) => ({
      id: r.id,
      unified_order_id: r.unifiedOrderId,
      status: r.status as OrderStatusCode,
      sales_rep: r.salesRep,
      version: r.version,
      data: JSON.stringify(r.document),
    })),
  };
}

// ── Save ────────────────────────────────────────────────────────────────────────────────────────────

function invalid(error: Parameters<typeof fieldsFromZodError>[0], what: string): AppError {
  const fields = fieldsFromZodError(error);
  const [path, message] = Object.entries(fields)[0] ?? ['_', 'invalid'];
  return new AppError('validation_failed', `Please correct the ${what} (${path}: ${message}).`, fields);
}

const blankToNull = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** The indexed columns kept in step with the document (decision 014), written in the same statement. */
function indexedColumns(doc: OrderDocument) {
  const c = doc.CustomerInfo ?? {};
  const store = doc.StoreInfo ?? {};
  const country = store.StoreAddress?.country || doc.HomeAddress?.country || 'US';
  const legal = blankToNull((c as Record<string, unknown>).legalName) ?? blankToNull(doc.orgName);
  return {
    flow: doc.flow ?? 'AR',
    orderType: doc.orderType ?? 'P',
    salesRep: blankToNull(doc.salesRep),
    fedTaxId: blankToNull(c.federalTaxId),
    legalName: legal,
    dbaName: blankToNull(store.doingBusinessAs),
    country,
    currency: country === 'CA' ? 'CAD' : 'USD',
    totalSaleCents: doc.totalSalePrice && doc.totalSalePrice.trim() !== '' ? toCents(doc.totalSalePrice) : 0,
  };
}

function orderVersionConflict(current: OrderInfoRecord): AppError {
  return versionConflict(`Order ${current.orderInfoId}`, current);
}

/** Sections of the document whose value changed (for the audit entry); canonical JSON, as jsonb keeps no key order. */
function changedSections(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => canonicalJson(before[k]) !== canonicalJson(after[k])).sort();
}

/**
 * A card entered in the order flow arrives as the gateway's token in `processorSetupIntent` (the number never reaches
 * us). Tokens are short-lived, so the save redeems them at once: the entry keeps the gateway reference, brand, last 4
 * and expiry (decision 083), which onboarding turns into the customer's payment instrument. Outside the transaction.
 */
async function redeemCardTokens(ctx: ServiceCtx, doc: OrderDocument, made: Set<string>): Promise<OrderDocument> {
  const list = doc.PaymentInstrumentInfo ?? [];
  if (!list.some((m) => typeof m.processorSetupIntent === 'string' && m.processorSetupIntent.trim() !== '')) return doc;
  const redeemed = [];
  for (const [i, m] of list.entries()) {
    const token = typeof m.processorSetupIntent === 'string' ? m.processorSetupIntent.trim() : '';
    if (!token) {
      redeemed.push(m);
      continue;
    }
    try {
      const card = await redeemCardToken(ctx.app, token);
      made.add(card.reference);
      redeemed.push({
        ...m,
        processorSetupIntent: null,
        paymentProcessorReference: card.reference,
        creditCardNumber: card.last4,
        issuer: card.brand,
        expirationDate: `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`,
        paymentMethodSet: true,
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const field = `PaymentInstrumentInfo.${i}.processorSetupIntent`;
      throw new AppError('validation_failed', 'The card could not be used: enter it again.', {
        [field]: err.fields?.card_token ?? err.message,
      });
    }
  }
  return { ...doc, PaymentInstrumentInfo: redeemed };
}

/**
 * A full bank account number typed in the order flow is never kept in the document: it is encrypted (AES-GCM, the
 * order as associated data, decision 083) next to a masked '****1234'. A new order has no id yet: the payment step
 * comes after the order exists, so a full number on 'new' is refused.
 */
function protectBankNumbers(
  ctx: ServiceCtx,
  orderId: number | 'new',
  doc: OrderDocument,
  made: Set<string>,
): OrderDocument {
  const list = doc.PaymentInstrumentInfo ?? [];
  if (!list.some((m) => /^\d{4,17}$/.test(String(m.achAccountNumber ?? '').trim()))) return doc;
  if (orderId === 'new') {
    const i = list.findIndex((m) => /^\d{4,17}$/.test(String(m.achAccountNumber ?? '').trim()));
    throw new AppError('validation_failed', 'Save the order before adding a bank account.', {
      [`PaymentInstrumentInfo.${i}.achAccountNumber`]: 'Add the bank account on the payment step.',
    });
  }
  const key = dataEncryptionKey(ctx.app.config);
  return {
    ...doc,
    PaymentInstrumentInfo: list.map((m) => {
      const n = String(m.achAccountNumber ?? '').trim();
      if (!/^\d{4,17}$/.test(n)) return m;
      const sealed = encryptAccountNumber(key, -orderId, n);
      made.add(sealed);
      return {
        ...m,
        achAccountNumber: `****${n.slice(-4)}`,
        achAccountNumberEncrypted: sealed,
        paymentMethodSet: true,
      };
    }),
  };
}

export interface SaveResult {
  orderInfoId: number;
  unifiedOrderId: string;
  status: OrderStatusCode;
  version: number;
}

/**
 * Create ('new') or update an order's document (decision 078). The document is checked with the draft rules,
 * or the submit rules when `submit`; a submit moves Draft/Incomplete → Pending Contract Sign (11) with a
 * status-history row. Updates need the `version` read; a stale one → 409 version_conflict with the current order.
 * An agent-scoped session's document may name only records it may see (customer, store of that customer, cards and
 * bank accounts of the order or its customer: 400 naming the field), and its tax id's hidden existing customer is a
 * match waiting for staff, never a silent merge (decision 142).
 */
export async function saveOrderInfo(
  ctx: ServiceCtx,
  input: { orderInfoId: number | 'new'; body: OrderInfoSaveRequest },
): Promise<SaveResult> {
  const { session, requestId } = ctx;
  const draft = orderDraft.safeParse(input.body.json);
  if (!draft.success) throw invalid(draft.error, 'order');
  if (input.body.submit) {
    const full = orderForSubmit.safeParse(input.body.json);
    if (!full.success) throw invalid(full.error, 'order before submitting it');
  }
  const made = { cards: new Set<string>(), bankAccounts: new Set<string>() };
  const doc = protectBankNumbers(
    ctx,
    input.orderInfoId,
    await redeemCardTokens(ctx, draft.data, made.cards),
    made.bankAccounts,
  );
  const now = ctx.app.clock.now();
  const audit = ctx.actor;
  const scoped = isAgentScoped(session);
  // Decision 142: the records the document names, checked for the session before anything is written.
  const checkReferences = async (db: Db, before: OrderRow | null) => {
    const fields = await foreignReferences(db, viewerOf(ctx), doc, before?.document ?? null, made);
    if (Object.keys(fields).length > 0) throw foreignReferencesError(fields);
  };

  const saved = await withTx(ctx, async (db) => {
    let row: OrderRow;

    if (input.orderInfoId === 'new') {
      if (input.body.version !== undefined)
        throw new AppError('bad_request', 'A new order has no version: leave version out.', {
          version: 'Not allowed for a new order.',
        });
      if (isAgentScoped(session) && session.agentId == null)
        throw new AppError('forbidden', 'Your session is not tied to an agent: you cannot create orders.');
      await checkReferences(db, null);
      const id = Number(
        (
          (await db.execute(sql`select nextval(pg_get_serial_sequence('orders', 'id')) as id`)) as unknown as {
            rows: { id: string }[];
          }
        ).rows[0]!.id,
      );
      const unifiedOrderId = `UO-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${id}`;
      // The sales rep is the one who creates the order unless the order names another (issue 29 item 4, 150).
      const salesRep = blankToNull(doc.salesRep) ?? (blankToNull(session.name) || session.email);
      // Terminal serials are entered by Operations at Installation (decision 150), never through the document.
      const document = {
        // A document naming a CRM lead is a CRM order (decision 159).
        ...withCrmOrderMark(doc, null, ctx.app.config.crmOrder),
        TerminalSerials: null,
        salesRep,
        orderInfoId: id,
        unifiedOrderId,
        orderDate: doc.orderDate ?? now.toISOString(),
      };
      [row] = (await db
        .insert(orders)
        .values({
          id,
          unifiedOrderId,
          document,
          status: ORDER_STATUS.DRAFT,
          agentId: isAgentScoped(session) ? session.agentId : null,
          createdByEmail: session.email,
          orderDate: now,
          createdAt: now,
          updatedAt: now,
          ...indexedColumns(document),
        })
        .returning()) as [OrderRow];
      await db.insert(orderStatusHistory).values({
        orderId: id,
        fromStatus: null,
        toStatus: ORDER_STATUS.DRAFT,
        changedByEmail: session.email,
        changedAt: now,
      });
      await writeAudit(db, {
        ...audit,
        at: now,
        action: 'order.create',
        entity: 'order',
        entityId: id,
        after: { unified_order_id: unifiedOrderId, status: row.status, sections: Object.keys(document).sort() },
        requestId,
      });
    } else {
      const id = input.orderInfoId;
      if (input.body.version === undefined)
        throw new AppError('validation_failed', 'Send the version of the order you read.', {
          version: 'Required to update an order.',
        });
      const before = await loadVisibleOrder(db, session, { id });
      if (CLOSED.includes(before.status)) {
        throw new AppError(
          'conflict',
          `Order ${id} is ${before.status === ORDER_STATUS.COMPLETE ? 'complete' : 'closed'}: its document can no longer change.`,
        );
      }
      if (isAgentScoped(session) && !AGENT_EDITABLE.includes(before.status)) {
        throw new AppError(
          'forbidden',
          `Order ${id} is past Draft/Incomplete: only the back office can change it now.`,
        );
      }
      await checkReferences(db, before);
      // The sales rep may be changed, not blanked: a save without one keeps the order's (decision 150).
      const salesRep = blankToNull(doc.salesRep) ?? before.salesRep ?? null;
      const document = {
        // A CRM order stays one, with its first mark (decision 159).
        ...withCrmOrderMark(doc, before.document as OrderDocument, ctx.app.config.crmOrder),
        // Terminal serials are entered by Operations at Installation (decision 150): the order's own are kept.
        TerminalSerials: (before.document as OrderDocument).TerminalSerials ?? null,
        salesRep,
        orderInfoId: id,
        unifiedOrderId: before.unifiedOrderId,
      };
      // One statement, guarded by the version: of two concurrent saves with the same version exactly one matches.
      const [updated] = await db
        .update(orders)
        .set({ document, ...indexedColumns(document), updatedAt: now, version: sql`${orders.version} + 1` })
        .where(and(eq(orders.id, id), eq(orders.version, input.body.version)))
        .returning();
      if (!updated) {
        const [current] = await db.select().from(orders).where(eq(orders.id, id));
        if (!current) throw orderNotFound({ id });
        throw orderVersionConflict(record(current));
      }
      row = updated;
      await writeAudit(db, {
        ...audit,
        at: now,
        action: 'order.update',
        entity: 'order',
        entityId: id,
        before: { customer_id: before.customerId, version: before.version },
        after: {
          customer_id: row.customerId,
          version: row.version,
          changed: changedSections(before.document, document),
        },
        requestId,
      });
      // E.g. a contract waiting for the merchant follows the document (decision 082).
      await applyDocumentSaveEffects(ctx, db, { before, after: row });
    }
    // Decision 142: a distributor's order for a tax id it may not see waits for staff instead of merging silently.
    if (scoped) await refreshCustomerMatch(ctx, db, row, now);

    if (input.body.submit) {
      const from = row.status;
      const to = ORDER_STATUS.PENDING_CONTRACT_SIGN;
      if (!isOrderStatusCode(from) || !AGENT_EDITABLE.includes(from) || !canTransition(from, to)) {
        throw new AppError(
          'conflict',
          `Order ${row.id} is not a draft: only a Draft or Incomplete order can be submitted.`,
        );
      }
      if (!mayTransition(from, to, { role: session.role, privileges: session.privileges })) {
        throw new AppError(
          'forbidden',
          'Submitting an order for contract signature is for the sales roles (create_distributor_orders).',
        );
      }
      const [moved] = await db
        .update(orders)
        .set({ status: to, submittedAt: now, updatedAt: now, version: sql`${orders.version} + 1` })
        .where(eq(orders.id, row.id))
        .returning();
      await db.insert(orderStatusHistory).values({
        orderId: row.id,
        fromStatus: from,
        toStatus: to,
        note: 'Submitted for contract signature.',
        changedByEmail: session.email,
        changedAt: now,
      });
      await writeAudit(db, {
        ...audit,
        at: now,
        action: 'order.status',
        entity: 'order',
        entityId: row.id,
        before: { customer_id: row.customerId, status: from },
        after: { customer_id: row.customerId, status: to },
        requestId,
      });
      row = moved!;
      await applyStatusEffects(ctx, db, { order: row, from, to, now });
      await faultPoint(ctx.app.config, 'order-submit:uncommitted');
    }
    return {
      orderInfoId: row.id,
      unifiedOrderId: row.unifiedOrderId,
      status: row.status as OrderStatusCode,
      version: row.version,
    };
  });
  // After the commit: e.g. the payment step's card hold placed or re-placed at the gateway (decision 151).
  await applyOrderSavedEffects(ctx, saved.orderInfoId);
  return saved;
}
