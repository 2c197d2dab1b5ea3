import {
  JOB_QUEUE,
  type AgentSwitchSnsRequest,
  type CrmAccessoriesOrderRequest,
  type CrmStoreMidValidateRequest,
  type FeatureChangeEmailRequest,
  type InvoicesCollectDueSnsRequest,
  type JobAcceptedInfo,
  type JobQueueName,
  type OrderStatusSnsRequest,
  type PaymentCollectionSnsRequest,
  type PaymentInstrumentAddRequest,
  type PaymentPlansSnsRequest,
  type RecurringPlansSnsRequest,
  type RetireTerminalsSnsRequest,
  type StoreInfoSnsRequest,
  type TransactionsSnsRequest,
  type UpdatePaymentNotificationRequest,
} from '@pos/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import {
  agents,
  billingItems,
  customerPaymentPlans,
  customers,
  domainData,
  invoices,
  orders,
  paymentInstruments,
  statusReasons,
  stores,
  terminals,
  transactions,
} from '../../db/schema';
import { loadAttachableUpload } from '../../access';
import { writeAudit } from '../../http/audit';
import { runIdempotent } from '../../http/idempotency';
import { AppError } from '../../http/errors';
import type { JobInputs } from '../../jobs/context';
import { soleCustomer } from '../../jobs/effect';
import { defineQueues, enqueueJob } from '../../jobs/registry';
import {
  isAgentVisible,
  viewerOf,
  visibleCustomersWhere,
  visibleOrdersWhere,
  visibleRecordsWhere,
  visibleStoresWhere,
  type Viewer,
} from '../../access';

/**
 * What a call's check answers: the singleton key of the job when its queue needs one, and the customer the
 * request is about when it concerns one customer (the enqueue entry is filed under it, for their Activity).
 */
interface Checked {
  singletonKey?: string;
  customerId?: number | null;
}

/**
 * Record and enqueue a call: the references are checked (404) on the transaction that then writes the audit
 * entry (action 'enqueue', entity = the queue, entity id = the job id, after = the body) and the job — all commit
 * together or not at all. Then this process's workers of the queue are woken.
 */
async function acceptJob<Q extends JobQueueName>(
  ctx: ServiceCtx,
  queue: Q,
  input: JobInputs[Q],
  check: (tx: Db) => Promise<Checked>,
  idempotency?: { route: string; key: string | undefined },
): Promise<JobAcceptedInfo> {
  const { app, actor, requestId } = ctx;
  // Outside the transaction: creating a queue runs on the pool (PGlite has one connection).
  await defineQueues(app.queue, { queues: [queue] });
  const accept = async (tx: Db) => {
    const { singletonKey, customerId } = await check(tx);
    const id = await enqueueJob(
      app.queue,
      queue,
      { input, requestedBy: actor, requestId },
      tx,
      singletonKey ? { singletonKey } : {},
    );
    if (!id) throw new AppError('conflict', 'The same request is already waiting to run.');
    await writeAudit(tx, {
      ...actor,
      at: app.clock.now(),
      action: 'enqueue',
      entity: queue,
      entityId: id,
      after: input,
      requestId,
      customerId: customerId ?? null,
    });
    return id;
  };
  // A money call with an Idempotency-Key (decision 118): the same key answers the same job, nothing is queued twice.
  const jobId = idempotency
    ? (
        await runIdempotent(
          ctx,
          { route: idempotency.route, key: idempotency.key, request: { params: {}, body: input }, status: 202 },
          async (tx) => ({ jobId: await accept(tx) }),
        )
      ).jobId
    : await withTx(ctx, accept);
  app.queue.wake(queue);
  return { jobId };
}

// ── Reference checks ──────────────────────────────────────────────────────────────────────────────

function notFoundList(what: string, ids: ReadonlyArray<string | number>, field: string): AppError {
  const list = ids.join(', ');
  return new AppError('not_found', `${what} ${list} ${ids.length === 1 ? 'was' : 'were'} not found.`, {
    [field]: `Not found: ${list}.`,
  });
}

function missingOf<T extends string | number>(wanted: readonly T[], found: readonly T[]): T[] {
  const have = new Set<T>(found);
  return wanted.filter((id) => !have.has(id));
}

// Every id a body names is read through the owner rules (decision 140): another agent's record is "not found".

async function requireCustomer(tx: Db, viewer: Viewer, customerId: number, field = 'customer_id'): Promise<void> {
  const [row] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.id, customerId), visibleCustomersWhere(viewer)));
  if (!row) throw notFoundList('Customer', [customerId], field);
}

async function requireStore(tx: Db, viewer: Viewer, storeId: number, field = 'storeid') {
  const [row] = await tx
    .select({ id: stores.id, customerId: stores.customerId, version: stores.version, country: stores.country })
    .from(stores)
    .where(and(eq(stores.id, storeId), visibleStoresWhere(viewer)));
  if (!row) throw notFoundList('Store', [storeId], field);
  return row;
}

async function requireInvoicesOf(tx: Db, customerId: number, ids: readonly number[]): Promise<void> {
  const rows = await tx
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.customerId, customerId), inArray(invoices.id, [...ids])));
  const missing = missingOf(
    ids,
    rows.map((r) => r.id),
  );
  if (missing.length > 0) throw notFoundList(`Invoice(s) of customer ${customerId}:`, missing, 'invoice_ids');
}

// ── Customers ─────────────────────────────────────────────────────────────────────────────────────

export function retireTerminals(ctx: ServiceCtx, input: RetireTerminalsSnsRequest) {
  return acceptJob(ctx, JOB_QUEUE.retireTerminals, input, async (tx) => {
    const [reason] = await tx
      .select({ id: domainData.id, active: domainData.active })
      .from(domainData)
      .where(and(eq(domainData.id, input.reason_id), eq(domainData.type, 'retire_reason')));
    if (!reason) throw notFoundList('Retire reason', [input.reason_id], 'reason_id');
    if (!reason.active)
      throw new AppError('validation_failed', 'This retire reason is no longer used; choose another.', {
        reason_id: 'This retire reason is no longer used.',
      });
    const rows = await tx
      .select({ elmerId: terminals.elmerId, customerId: terminals.customerId })
      .from(terminals)
      .where(and(inArray(terminals.elmerId, input.elmer_ids), visibleRecordsWhere(viewerOf(ctx), terminals.storeId)));
    const missing = missingOf(
      input.elmer_ids,
      rows.map((r) => r.elmerId),
    );
    if (missing.length > 0) throw notFoundList('Terminal(s)', missing, 'elmer_ids');
    const owners = new Set(rows.map((r) => r.customerId));
    if (owners.size > 1) {
      const message = 'Retire the terminals of one customer at a time.';
      throw new AppError('validation_failed', message, { elmer_ids: message });
    }
    return { singletonKey: `customer:${rows[0]!.customerId}`, customerId: rows[0]!.customerId };
  });
}

async function requirePlans(tx: Db, viewer: Viewer, ids: readonly number[]) {
  const rows = await tx
    .select({
      id: customerPaymentPlans.id,
      customerId: customerPaymentPlans.customerId,
      currency: customerPaymentPlans.currency,
    })
    .from(customerPaymentPlans)
    .where(
      and(
        inArray(customerPaymentPlans.id, [...ids]),
        visibleCustomersWhere(viewer, customerPaymentPlans.customerId),
        visibleRecordsWhere(viewer, customerPaymentPlans.storeId),
      ),
    );
  const missing = missingOf(
    ids,
    rows.map((r) => r.id),
  );
  if (missing.length > 0) throw notFoundList('Payment plan(s)', missing, 'plans');
  return rows;
}

export function applyPaymentPlanChanges(ctx: ServiceCtx, input: PaymentPlansSnsRequest) {
  return acceptJob(ctx, JOB_QUEUE.paymentPlans, input, async (tx) => {
    const plans = await requirePlans(
      tx,
      viewerOf(ctx),
      input.plans.map((p) => p.customerplanid),
    );
    return { customerId: soleCustomer(plans.map((p) => p.customerId)) };
  });
}

export function changeRecurringAmounts(ctx: ServiceCtx, input: RecurringPlansSnsRequest) {
  return acceptJob(ctx, JOB_QUEUE.recurringPlans, input, async (tx) => {
    const plans = await requirePlans(
      tx,
      viewerOf(ctx),
      input.plans.map((p) => p.customerplanid),
    );
    const fields: Record<string, string> = {};
    input.plans.forEach((change, i) => {
      const plan = plans.find((p) => p.id === change.customerplanid)!;
      if (plan.currency !== change.recurringAmount.currency)
        fields[`plans.${i}.recurringAmount.currency`] = `Plan ${plan.id} is billed in ${plan.currency}.`;
    });
    if (Object.keys(fields).length > 0)
      throw new AppError('validation_failed', 'A recurring amount must be in the plan’s own currency.', fields);
    return { customerId: soleCustomer(plans.map((p) => p.customerId)) };
  });
}

export function updateStoreInfo(ctx: ServiceCtx, input: StoreInfoSnsRequest) {
  return acceptJob(ctx, JOB_QUEUE.storeInfo, input, async (tx) => {
    const store = await requireStore(tx, viewerOf(ctx), input.storeid);
    if (store.version !== input.version) {
      throw new AppError(
        'version_conflict',
        `Store ${store.id} was changed by someone else since you opened it. Reload it and make your change again.`,
        undefined,
        {
          current_version: store.version,
        },
      );
    }
    const country = input.changes.StoreAddress?.country;
    if (country && country !== store.country) {
      const message = `This store is in ${store.country}; a store cannot move to another country.`;
      throw new AppError('validation_failed', message, { 'changes.StoreAddress.country': message });
    }
    return { singletonKey: `store:${store.id}`, customerId: store.customerId };
  });
}

export function pushLicense(ctx: ServiceCtx, storeId: number) {
  return acceptJob(ctx, JOB_QUEUE.pushLicense, { storeId }, async (tx) => {
    const store = await requireStore(tx, viewerOf(ctx), storeId, 'storeId');
    return { singletonKey: `store:${storeId}`, customerId: store.customerId };
  });
}

// ── Notifications ─────────────────────────────────────────────────────────────────────────────────

export function sendPaymentUpdateLink(ctx: ServiceCtx, input: UpdatePaymentNotificationRequest) {
  return acceptJob(ctx, JOB_QUEUE.updatePaymentNotification, input, async (tx) => {
    const [terminal] = await tx
      .select({ id: terminals.id, customerId: terminals.customerId })
      .from(terminals)
      .where(and(eq(terminals.elmerId, input.elmer_id), visibleRecordsWhere(viewerOf(ctx), terminals.storeId)));
    if (!terminal) throw notFoundList('Terminal', [input.elmer_id], 'elmer_id');
    return { customerId: terminal.customerId };
  });
}

export function sendFeatureChangeEmail(ctx: ServiceCtx, input: FeatureChangeEmailRequest) {
  return acceptJob(ctx, JOB_QUEUE.featureChangeEmail, input, async (tx) => {
    const store = await requireStore(tx, viewerOf(ctx), input.storeid);
    const ids = input.features.map((f) => f.billingitemid);
    const items = await tx
      .select({ id: billingItems.id, feature: billingItems.feature })
      .from(billingItems)
      .where(inArray(billingItems.id, ids));
    const missing = missingOf(
      ids,
      items.map((i) => i.id),
    );
    if (missing.length > 0) throw notFoundList('Billing item(s)', missing, 'features');
    const notFeatures = items.filter((i) => i.feature !== 'Y').map((i) => i.id);
    if (notFeatures.length > 0) {
      const message = `Billing item(s) ${notFeatures.join(', ')} are not software features.`;
      throw new AppError('validation_failed', message, { features: message });
    }
    return { customerId: store.customerId };
  });
}

// ── Orders ────────────────────────────────────────────────────────────────────────────────────────

export function changeOrderStatus(ctx: ServiceCtx, input: OrderStatusSnsRequest) {
  return acceptJob(ctx, JOB_QUEUE.orderStatus, input, async (tx) => {
    // Decision 102: an order the session may not see is missing, as if it did not exist.
    const [order] = await tx
      .select({ id: orders.id, customerId: orders.customerId })
      .from(orders)
      .where(and(eq(orders.id, input.orderInfoId), visibleOrdersWhere(ctx.session)));
    if (!order) throw notFoundList('Order', [input.orderInfoId], 'orderInfoId');
    if (input.statusReasonId !== undefined) {
      const [reason] = await tx
        .select({ status: statusReasons.status })
        .from(statusReasons)
        .where(eq(statusReasons.id, input.statusReasonId));
      if (!reason) throw notFoundList('Status reason', [input.statusReasonId], 'statusReasonId');
      if (reason.status !== input.status) {
        const message = `This reason belongs to status ${reason.status}, not ${input.status}.`;
        throw new AppError('validation_failed', message, { statusReasonId: message });
      }
    }
    return { singletonKey: `order:${order.id}`, customerId: order.customerId };
  });
}

/** A bulk move from the order list (issue 31): with an Idempotency-Key, pressing again answers the same job. */
export function switchOrderAgent(ctx: ServiceCtx, input: AgentSwitchSnsRequest, idempotencyKey?: string) {
  const idempotency = { route: 'POST /orderinfo/agentswitch/sns', key: idempotencyKey };
  return acceptJob(
    ctx,
    JOB_QUEUE.agentSwitch,
    input,
    async (tx) => {
      const [agent] = await tx
        .select({ id: agents.id, active: agents.active })
        .from(agents)
        .where(eq(agents.id, input.agent_id));
      if (!agent || !(await isAgentVisible(tx, viewerOf(ctx), agent.id)))
        throw notFoundList('Agent', [input.agent_id], 'agent_id');
      if (!agent.active)
        throw new AppError('validation_failed', `Agent ${agent.id} is not active.`, {
          agent_id: 'This agent is not active.',
        });
      const rows = await tx
        .select({ id: orders.id, customerId: orders.customerId })
        .from(orders)
        .where(and(inArray(orders.id, input.orderInfoIds), visibleOrdersWhere(ctx.session)));
      const missing = missingOf(
        input.orderInfoIds,
        rows.map((r) => r.id),
      );
      if (missing.length > 0) throw notFoundList('Order(s)', missing, 'orderInfoIds');
      return { customerId: soleCustomer(rows.map((r) => r.customerId)) };
    },
    idempotency,
  );
}

// ── CRM ───────────────────────────────────────────────────────────────────────────────────────────

export function requestCrmFeatureChange(ctx: ServiceCtx, input: CrmAccessoriesOrderRequest) {
  return acceptJob(ctx, JOB_QUEUE.crmAccessoriesOrder, input, async (tx) => {
    const store = await requireStore(tx, viewerOf(ctx), input.storeid);
    return { customerId: store.customerId };
  });
}

export function validateStoreMid(ctx: ServiceCtx, input: CrmStoreMidValidateRequest) {
  return acceptJob(ctx, JOB_QUEUE.crmStoreMidValidate, input, async (tx) => {
    if (input.storeid === undefined) return {};
    const store = await requireStore(tx, viewerOf(ctx), input.storeid);
    return { customerId: store.customerId };
  });
}

// ── Billing (effects arrive with the billing issue) ───────────────────────────────────────────────

export function processTransactions(ctx: ServiceCtx, input: TransactionsSnsRequest) {
  return acceptJob(ctx, JOB_QUEUE.transactions, input, async (tx) => {
    await requireCustomer(tx, viewerOf(ctx), input.customer_id);
    const rows = await tx
      .select({ id: transactions.id })
      .from(transactions)
      .where(and(eq(transactions.customerId, input.customer_id), inArray(transactions.id, input.transaction_ids)));
    const missing = missingOf(
      input.transaction_ids,
      rows.map((r) => r.id),
    );
    if (missing.length > 0)
      throw notFoundList(`Transaction(s) of customer ${input.customer_id}:`, missing, 'transaction_ids');
    return { customerId: input.customer_id };
  });
}

export function collectDueInvoices(ctx: ServiceCtx, input: InvoicesCollectDueSnsRequest) {
  return acceptJob(ctx, JOB_QUEUE.invoicesCollectDue, input, async (tx) => {
    await requireCustomer(tx, viewerOf(ctx), input.customer_id);
    if (input.storeid !== undefined) {
      const store = await requireStore(tx, viewerOf(ctx), input.storeid);
      if (store.customerId !== input.customer_id)
        throw notFoundList(`Store of customer ${input.customer_id}:`, [input.storeid], 'storeid');
    }
    if (input.invoice_ids) await requireInvoicesOf(tx, input.customer_id, input.invoice_ids);
    return { customerId: input.customer_id };
  });
}

export function collectPayment(ctx: ServiceCtx, input: PaymentCollectionSnsRequest, idempotencyKey?: string) {
  const idempotency = { route: 'POST /customers/paymentcollection/sns', key: idempotencyKey };
  return acceptJob(
    ctx,
    JOB_QUEUE.paymentCollection,
    input,
    async (tx) => {
      await requireCustomer(tx, viewerOf(ctx), input.customer_id);
      await requireInvoicesOf(tx, input.customer_id, input.invoice_ids);
      if (input.payment_instrument_id !== undefined) {
        const [pi] = await tx
          .select({ id: paymentInstruments.id })
          .from(paymentInstruments)
          .where(
            and(
              eq(paymentInstruments.id, input.payment_instrument_id),
              eq(paymentInstruments.customerId, input.customer_id),
            ),
          );
        if (!pi)
          throw notFoundList(
            `Payment method of customer ${input.customer_id}:`,
            [input.payment_instrument_id],
            'payment_instrument_id',
          );
      }
      return { customerId: input.customer_id };
    },
    idempotency,
  );
}

export function addPaymentInstrument(ctx: ServiceCtx, input: PaymentInstrumentAddRequest) {
  return acceptJob(ctx, JOB_QUEUE.paymentInstrumentAdd, input, async (tx) => {
    await requireCustomer(tx, viewerOf(ctx), input.customer_id);
    if (input.storeid !== undefined) {
      const store = await requireStore(tx, viewerOf(ctx), input.storeid);
      if (store.customerId !== input.customer_id)
        throw notFoundList(`Store of customer ${input.customer_id}:`, [input.storeid], 'storeid');
    }
    // The check/ACH image: one this user uploaded and that is attached to nothing (else 404, like a missing one).
    if (input.upload_id !== undefined) await loadAttachableUpload(tx, ctx.session, input.upload_id, 'upload_id');
    return { customerId: input.customer_id };
  });
}
