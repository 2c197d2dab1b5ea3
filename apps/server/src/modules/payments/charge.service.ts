import {
  DECLINE_LABELS,
  declineKindOf,
  failedPaymentFeeApplies,
  FEES,
  formatMoney,
  goesToCollection,
  nextRetryOn,
  type CurrencyCode,
  type DeclineCode,
  type TransactionStatus,
} from '@pos/domain';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import {
  authorizationSettlements,
  invoiceDunning,
  invoices,
  paymentInstruments,
  stores,
  transactions,
  writeOffs,
} from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { AppError } from '../../http/errors';
import type { ChargeLookup } from '../../integrations/gateway';
import { paymentFailedEmail } from '../../integrations/mail/templates';
import { mailPaymentUpdateLink, merchantContact } from '../../jobs/merchant-contact';
import { billingToday, prepareLicenseJobs } from '../billing';
import { balancesOf } from '../ledger';
import { answerLost, voidRecordedFor } from './money.service';
import { afterPosting } from './posting.service';

/*
 * Charging (issue 15, decision 116). A charge is never made inside a database transaction and never twice:
 *   1. record a P (pending) transaction with its idempotency key, and commit;
 *   2. call the gateway with that key (no transaction open);
 *   3. record S or F (or keep P for a bank debit until it settles) in a second transaction.
 * A crash between 1 and 3 leaves the P row; the reconciler (reconcilePayments) asks the gateway by the key and
 * records what it says — or, if the gateway never received the call, sends it again with the same key. The key is
 * unique in transactions, so one attempt is one row, and at the gateway one charge.
 */

export type ChargeSource = 'autopay' | 'retry' | 'staff' | 'collection' | 'merchant' | 'instrument_added' | 'reconcile';

export interface ChargeRequest {
  /** The invoice whose open balance is charged; null only with `supersedes` (a charge of no invoice: its amount). */
  invoiceId: number | null;
  /** Names this attempt: the same attempt never charges twice (part of the idempotency key). */
  attempt: string;
  source: ChargeSource;
  /** Charge this instrument (else the store's default, else the customer's). */
  instrumentId?: number;
  /** A failed transaction this attempt reprocesses: it must still be F at `version`; it becomes R. */
  supersedes?: { transactionId: number; version: number };
  actor: AuditActor;
  requestId: string;
  /** Refuse (409) rather than skip when nothing is owed or no instrument is on file (a person asked). */
  strict?: boolean;
}

export type ChargeOutcome =
  | { kind: 'skipped'; reason: 'paid' | 'pending' | 'no_instrument' | 'not_found'; transactionId: number | null }
  | { kind: 'charged'; transactionId: number; status: TransactionStatus };

export function chargeKey(invoiceId: number | null, attempt: string): string {
  return invoiceId === null ? `charge:${attempt}` : `charge:inv${invoiceId}:${attempt}`;
}

type InstrumentRow = typeof paymentInstruments.$inferSelect;

/** 'bank_12_4444' for a bank account (the local gateway decides by the last four digits); the card's processor reference. */
export function paymentReferenceOf(pi: InstrumentRow): string {
  return pi.kind === 'card' ? pi.processorReference! : `bank_${pi.id}_${pi.accountLast4 ?? ''}`;
}

/** The instrument a charge uses: the named one, else a default one (the store's first), else the newest active card or bank account. */
async function chargeableInstrument(
  db: Db,
  customerId: number,
  storeId: number | null,
  instrumentId?: number,
  /** Among equals, prefer this one (the instrument of the failed charge being retried). */
  preferId: number | null = null,
): Promise<InstrumentRow | null> {
  const [row] = await db
    .select()
    .from(paymentInstruments)
    .where(
      and(
        eq(paymentInstruments.customerId, customerId),
        eq(paymentInstruments.status, 'active'),
        inArray(paymentInstruments.kind, ['card', 'bank']),
        instrumentId === undefined ? undefined : eq(paymentInstruments.id, instrumentId),
      ),
    )
    .orderBy(
      desc(paymentInstruments.isDefault),
      desc(sql`${paymentInstruments.storeId} is not distinct from ${storeId}`),
      desc(sql`${paymentInstruments.id} = ${preferId ?? 0}`),
      desc(paymentInstruments.id),
    )
    .limit(1);
  return row ?? null;
}

/** Step 1: the P row (committed), or why no charge is made. */
async function recordPending(
  app: AppContext,
  req: ChargeRequest,
): Promise<
  | { kind: 'skipped'; reason: 'paid' | 'pending' | 'no_instrument' | 'not_found'; transactionId: number | null }
  | { kind: 'existing'; transaction: typeof transactions.$inferSelect }
  | { kind: 'new'; transaction: typeof transactions.$inferSelect; instrument: InstrumentRow; description: string }
> {
  const key = chargeKey(req.invoiceId, req.attempt);
  const now = app.clock.now();
  return app.database.db.transaction(async (tx) => {
    const [same] = await tx.select().from(transactions).where(eq(transactions.idempotencyKey, key));
    if (same) return { kind: 'existing' as const, transaction: same };
    const [inv] =
      req.invoiceId === null
        ? []
        : await tx.select().from(invoices).where(eq(invoices.id, req.invoiceId)).for('update');
    if (req.invoiceId !== null && !inv) {
      if (req.strict) throw new AppError('not_found', `Invoice ${req.invoiceId} was not found.`);
      return { kind: 'skipped' as const, reason: 'not_found' as const, transactionId: null };
    }
    const superseded = req.supersedes
      ? (await tx.select().from(transactions).where(eq(transactions.id, req.supersedes.transactionId)).for('update'))[0]
      : undefined;
    if (req.supersedes && (!superseded || superseded.version !== req.supersedes.version || superseded.status !== 'F'))
      throw new AppError(
        'conflict',
        `Transaction ${req.supersedes.transactionId} changed meanwhile (it is no longer the failed charge you saw). Reload and try again.`,
      );
    let amountCents: number;
    if (inv) {
      const balance = (await balancesOf(tx, [inv.id])).get(inv.id)!;
      // An invoice with an approved write-off is never charged again (issue 16, decision 120), even if a later
      // refund reopened part of it.
      const [writtenOff] = await tx
        .select({ id: writeOffs.id })
        .from(writeOffs)
        .where(and(eq(writeOffs.invoiceId, inv.id), eq(writeOffs.status, 'A')))
        .limit(1);
      if (balance.open_cents <= 0 || inv.reversedAt !== null || writtenOff) {
        if (req.strict)
          throw new AppError(
            'conflict',
            `Invoice ${inv.invoiceNumber} has nothing left to pay (it is ${balance.status === 'R' ? 'reversed' : writtenOff ? 'written off' : 'paid'}).`,
          );
        return { kind: 'skipped' as const, reason: 'paid' as const, transactionId: null };
      }
      amountCents = balance.open_cents;
      const [pending] = await tx
        .select({ id: transactions.id })
        .from(transactions)
        .where(and(eq(transactions.invoiceId, inv.id), eq(transactions.status, 'P'), eq(transactions.kind, 'charge')));
      if (pending) {
        if (req.strict)
          throw new AppError(
            'conflict',
            `A payment of invoice ${inv.invoiceNumber} is already in progress (transaction ${pending.id}); wait for its result.`,
          );
        return { kind: 'skipped' as const, reason: 'pending' as const, transactionId: pending.id };
      }
      // The order's card hold is being captured for this sale invoice (decision 148): no second payment meanwhile.
      const [capturing] = await tx
        .select({ id: authorizationSettlements.id })
        .from(authorizationSettlements)
        .where(and(eq(authorizationSettlements.invoiceId, inv.id), eq(authorizationSettlements.status, 'pending')))
        .limit(1);
      if (capturing) {
        if (req.strict)
          throw new AppError(
            'conflict',
            `Invoice ${inv.invoiceNumber} is being paid by the order's card hold; wait for the capture's result.`,
          );
        return { kind: 'skipped' as const, reason: 'pending' as const, transactionId: null };
      }
    } else {
      if (!superseded) throw new Error('a charge without an invoice needs the transaction it retries');
      amountCents = superseded.amountCents;
    }
    const owner = inv
      ? { customerId: inv.customerId, storeId: inv.storeId, currency: inv.currency }
      : { customerId: superseded!.customerId, storeId: superseded!.storeId, currency: superseded!.currency };
    const instrument = await chargeableInstrument(
      tx,
      owner.customerId,
      owner.storeId,
      req.instrumentId,
      superseded?.paymentInstrumentId ?? null,
    );
    if (!instrument) {
      if (req.strict)
        throw new AppError(
          'conflict',
          req.instrumentId === undefined
            ? `Customer ${owner.customerId} has no card or bank account on file to charge. Add a payment method first.`
            : `Payment method ${req.instrumentId} is not an active card or bank account of customer ${owner.customerId}.`,
        );
      return { kind: 'skipped' as const, reason: 'no_instrument' as const, transactionId: null };
    }
    if (superseded) {
      await tx
        .update(transactions)
        .set({ status: 'R', updatedAt: now, version: sql`${transactions.version} + 1` })
        .where(eq(transactions.id, superseded.id));
    }
    const [row] = await tx
      .insert(transactions)
      .values({
        customerId: owner.customerId,
        storeId: owner.storeId,
        invoiceId: inv?.id ?? null,
        paymentInstrumentId: instrument.id,
        kind: 'charge',
        status: 'P',
        amountCents,
        currency: owner.currency,
        idempotencyKey: key,
        attemptedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const base = {
      transaction_id: row!.id,
      invoice_id: inv?.id ?? null,
      invoice_number: inv?.invoiceNumber ?? null,
      store_id: owner.storeId,
      amount_cents: row!.amountCents,
      currency: owner.currency,
    };
    if (superseded)
      await writeAudit(tx, {
        ...req.actor,
        at: now,
        action: 'retry',
        entity: 'transaction',
        entityId: superseded.id,
        before: { ...base, transaction_id: superseded.id, status: 'F' },
        after: { ...base, transaction_id: superseded.id, status: 'R', retried_by_transaction_id: row!.id },
        requestId: req.requestId,
        customerId: owner.customerId,
      });
    await writeAudit(tx, {
      ...req.actor,
      at: now,
      action: 'charge_started',
      entity: 'transaction',
      entityId: row!.id,
      after: { ...base, status: 'P', source: req.source, attempt: req.attempt, payment_instrument_id: instrument.id },
      requestId: req.requestId,
      customerId: owner.customerId,
    });
    return {
      kind: 'new' as const,
      transaction: row!,
      instrument,
      description: inv ? `Invoice ${inv.invoiceNumber}` : `Retry of transaction ${superseded!.id}`,
    };
  });
}

/**
 * Charge what is open on an invoice (steps 1–3 above). Answers what happened; a charge whose gateway answer was lost
 * stays P (kind 'charged', status 'P') for the reconciler.
 */
export async function chargeInvoice(app: AppContext, req: ChargeRequest): Promise<ChargeOutcome> {
  await prepareLicenseJobs(app);
  const step1 = await recordPending(app, req);
  if (step1.kind === 'skipped') return step1;
  if (step1.kind === 'existing') {
    const t = step1.transaction;
    // The same attempt again (a job retried after a crash): finish it through the gateway's memory.
    if (t.status === 'P') await reconcileOne(app, t.id, req.actor, req.requestId);
    const [now] = await app.database.db.select().from(transactions).where(eq(transactions.id, t.id));
    return { kind: 'charged', transactionId: t.id, status: now!.status as TransactionStatus };
  }
  const { transaction: t, instrument, description } = step1;
  let answer: ChargeLookup;
  try {
    answer = await app.gateway.charge({
      customerId: t.customerId,
      amountCents: t.amountCents,
      currency: t.currency as CurrencyCode,
      paymentReference: paymentReferenceOf(instrument),
      instrumentKind: instrument.kind as 'card' | 'bank',
      idempotencyKey: t.idempotencyKey!,
      description,
    });
  } catch (err) {
    if (answerLost(err)) return { kind: 'charged', transactionId: t.id, status: 'P' };
    throw err;
  }
  const status = await recordOutcome(app, t.id, answer, req.actor, req.requestId);
  return { kind: 'charged', transactionId: t.id, status };
}

/** Ask the gateway about one P charge and record the answer; a charge it never received is sent again (same key). */
export async function reconcileOne(
  app: AppContext,
  transactionId: number,
  actor: AuditActor,
  requestId: string,
): Promise<TransactionStatus> {
  const [t] = await app.database.db.select().from(transactions).where(eq(transactions.id, transactionId));
  if (!t || !t.idempotencyKey) return (t?.status ?? 'P') as TransactionStatus;
  // A pending charge someone voided is the void's to finish (money_movements): its lookup would read "failed".
  if (t.status === 'P' && (await voidRecordedFor(app.database.db, t.id))) return 'P';
  let answer = await app.gateway.lookupCharge(t.idempotencyKey);
  if (!answer && t.status === 'P') {
    const [pi] = t.paymentInstrumentId
      ? await app.database.db.select().from(paymentInstruments).where(eq(paymentInstruments.id, t.paymentInstrumentId))
      : [];
    if (!pi) return 'P';
    try {
      answer = await app.gateway.charge({
        customerId: t.customerId,
        amountCents: t.amountCents,
        currency: t.currency as CurrencyCode,
        paymentReference: paymentReferenceOf(pi),
        instrumentKind: pi.kind as 'card' | 'bank',
        idempotencyKey: t.idempotencyKey,
        description: `Transaction ${t.id}`,
      });
    } catch (err) {
      if (answerLost(err)) return 'P';
      throw err;
    }
  }
  if (!answer) return t.status as TransactionStatus;
  return recordOutcome(app, t.id, answer, actor, requestId);
}

/**
 * Step 3: record what the gateway said about a charge, in one transaction. P → S (the invoice is paid through the
 * ledger, its license moves on, dunning ends), P → F (dunning: see recordFailure), P stays P (a bank debit not yet
 * settled), S → B (a settled bank debit came back: the invoice reopens, dunning as for a failure). A transaction
 * already past that point is left alone (the answer was recorded before).
 */
export async function recordOutcome(
  app: AppContext,
  transactionId: number,
  answer: ChargeLookup,
  actor: AuditActor,
  requestId: string,
): Promise<TransactionStatus> {
  return app.database.db.transaction(async (tx) => {
    const [t] = await tx.select().from(transactions).where(eq(transactions.id, transactionId)).for('update');
    if (!t) throw new Error(`transaction ${transactionId} is gone`);
    const now = app.clock.now();
    const status = t.status as TransactionStatus;
    const base = {
      transaction_id: t.id,
      invoice_id: t.invoiceId,
      store_id: t.storeId,
      amount_cents: t.amountCents,
      currency: t.currency,
      gateway_reference: answer.reference,
    };
    const audit = (action: string, before: object, after: object) =>
      writeAudit(tx, {
        ...actor,
        at: now,
        action,
        entity: 'transaction',
        entityId: t.id,
        before,
        after,
        requestId,
        customerId: t.customerId,
      });

    if (status === 'P' && answer.status === 'pending') {
      if (t.gatewayReference !== answer.reference)
        await tx
          .update(transactions)
          .set({ gatewayReference: answer.reference, updatedAt: now })
          .where(eq(transactions.id, t.id));
      return 'P';
    }
    if (status === 'P' && (answer.status === 'succeeded' || answer.status === 'returned')) {
      await tx
        .update(transactions)
        .set({
          status: 'S',
          gatewayReference: answer.reference,
          settledAt: now,
          updatedAt: now,
          version: sql`${transactions.version} + 1`,
        })
        .where(eq(transactions.id, t.id));
      await audit('charge_succeeded', { ...base, status: 'P' }, { ...base, status: 'S' });
      await paymentApplied(tx, app, t, now, actor, requestId);
      if (answer.status === 'returned') return recordReturn(tx, app, t.id, answer, now, actor, requestId);
      return 'S';
    }
    if (status === 'S' && answer.status === 'returned')
      return recordReturn(tx, app, t.id, answer, now, actor, requestId);
    if (status === 'P' && answer.status === 'failed') {
      const code = answer.declineCode;
      const reason = answer.failureReason ?? (code ? DECLINE_LABELS[code] : 'Declined');
      await tx
        .update(transactions)
        .set({
          status: 'F',
          gatewayReference: answer.reference,
          failureReason: reason,
          declineCode: code,
          updatedAt: now,
          version: sql`${transactions.version} + 1`,
        })
        .where(eq(transactions.id, t.id));
      await audit(
        'charge_failed',
        { ...base, status: 'P' },
        { ...base, status: 'F', decline_code: code, decline_kind: declineKindOf(code), failure_reason: reason },
      );
      if (t.invoiceId !== null) await recordFailure(tx, app, t, code, reason, now, actor, requestId);
      return 'F';
    }
    return status;
  });
}

/** A settled charge came back (bank return / chargeback): B; the invoice reopens and dunning starts as for a failure. */
async function recordReturn(
  tx: Db,
  app: AppContext,
  transactionId: number,
  answer: ChargeLookup,
  now: Date,
  actor: AuditActor,
  requestId: string,
): Promise<'B'> {
  const [t] = await tx.select().from(transactions).where(eq(transactions.id, transactionId));
  const reason = answer.failureReason ?? 'Returned by the bank';
  await tx
    .update(transactions)
    .set({ status: 'B', failureReason: reason, updatedAt: now, version: sql`${transactions.version} + 1` })
    .where(eq(transactions.id, transactionId));
  await writeAudit(tx, {
    ...actor,
    at: now,
    action: 'charge_returned',
    entity: 'transaction',
    entityId: transactionId,
    before: { transaction_id: transactionId, status: 'S' },
    after: { transaction_id: transactionId, status: 'B', failure_reason: reason },
    requestId,
    customerId: t!.customerId,
  });
  if (t!.invoiceId !== null) {
    await afterPosting(tx, app, [t!.invoiceId], now, actor, requestId);
    await recordFailure(tx, app, t!, answer.declineCode, reason, now, actor, requestId);
  }
  return 'B';
}

/** A settled charge of an invoice: its figures follow the ledger (afterPosting) and the payment is audited on it. */
export async function paymentApplied(
  tx: Db,
  app: AppContext,
  t: typeof transactions.$inferSelect,
  now: Date,
  actor: AuditActor,
  requestId: string,
) {
  if (t.invoiceId === null) return;
  const { before, derived } = (await afterPosting(tx, app, [t.invoiceId], now, actor, requestId)).get(t.invoiceId)!;
  await writeAudit(tx, {
    ...actor,
    at: now,
    action: 'payment_applied',
    entity: 'invoice',
    entityId: t.invoiceId,
    before: {
      invoice_id: t.invoiceId,
      invoice_number: before.invoiceNumber,
      status: before.status,
      paid_cents: before.paidCents,
    },
    after: {
      customer_id: t.customerId,
      invoice_id: t.invoiceId,
      invoice_number: before.invoiceNumber,
      status: derived.status,
      paid_cents: derived.paid_cents,
      transaction_id: t.id,
    },
    requestId,
    customerId: t.customerId,
  });
}

/**
 * Dunning after a failed charge of an invoice (decision 116): the invoice's dunning row counts the attempt and sets
 * the next retry day (soft: the schedule; hard: none); the US failed-payment fee becomes owed once; with nothing
 * left to try the invoice goes to collection and the store is flagged past due. The merchant gets an e-mail with
 * a link to pay (soft) or the update-payment e-mail (hard).
 */
export async function recordFailure(
  tx: Db,
  app: AppContext,
  t: typeof transactions.$inferSelect,
  code: DeclineCode | null,
  reason: string,
  now: Date,
  actor: AuditActor,
  requestId: string,
) {
  const invoiceId = t.invoiceId!;
  const today = billingToday(app);
  const kind = declineKindOf(code);
  const [inv] = await tx.select().from(invoices).where(eq(invoices.id, invoiceId));
  const [store] = t.storeId === null ? [] : await tx.select().from(stores).where(eq(stores.id, t.storeId));
  const [prior] = await tx.select().from(invoiceDunning).where(eq(invoiceDunning.invoiceId, invoiceId)).for('update');
  const restart = !prior || prior.state === 'recovered';
  const state = {
    firstFailedOn: restart ? today : prior.firstFailedOn,
    failedAttempts: restart ? 1 : prior.failedAttempts + 1,
    lastKind: kind,
  };
  const schedule = app.config.payments.retryDays;
  const stopped = prior?.state === 'stopped';
  const next = stopped ? null : nextRetryOn(state, schedule);
  const collection = !stopped && goesToCollection(state, schedule);
  const feeOwed = !prior?.feeState && store !== undefined && failedPaymentFeeApplies(store.country);
  const values = {
    state: stopped ? 'stopped' : collection ? 'collection' : 'retrying',
    firstFailedOn: state.firstFailedOn,
    failedAttempts: state.failedAttempts,
    lastTransactionId: t.id,
    lastDeclineCode: code,
    lastDeclineKind: kind,
    nextRetryOn: next,
    ...(feeOwed ? { feeState: 'pending', feeCents: FEES.US_FAILED_PAYMENT_FEE_CENTS } : {}),
    updatedAt: now,
  };
  if (prior)
    await tx
      .update(invoiceDunning)
      .set({ ...values, version: sql`${invoiceDunning.version} + 1` })
      .where(eq(invoiceDunning.invoiceId, invoiceId));
  else
    await tx.insert(invoiceDunning).values({
      invoiceId,
      customerId: t.customerId,
      storeId: t.storeId,
      ...values,
      createdAt: now,
    });
  await writeAudit(tx, {
    ...actor,
    at: now,
    action: 'dunning',
    entity: 'invoice',
    entityId: invoiceId,
    before: prior
      ? { state: prior.state, failed_attempts: prior.failedAttempts, next_retry_on: prior.nextRetryOn }
      : null,
    after: {
      invoice_id: invoiceId,
      invoice_number: inv!.invoiceNumber,
      state: values.state,
      failed_attempts: values.failedAttempts,
      decline_code: code,
      decline_kind: kind,
      next_retry_on: next,
      ...(feeOwed ? { fee_cents: FEES.US_FAILED_PAYMENT_FEE_CENTS } : {}),
    },
    requestId,
    customerId: t.customerId,
  });
  if (collection && store && store.pastDueSince === null) {
    await tx.update(stores).set({ pastDueSince: today }).where(eq(stores.id, store.id));
    await writeAudit(tx, {
      ...actor,
      at: now,
      action: 'past_due',
      entity: 'store',
      entityId: store.id,
      before: { past_due_since: null },
      after: { past_due_since: today, invoice_id: invoiceId, invoice_number: inv!.invoiceNumber },
      requestId,
      customerId: t.customerId,
    });
  }
  // A decline the merchant caused on their payment page (actor 'merchant'): the page shows it, and the link in their
  // hand stays usable for another try (issue 27) — a new link by e-mail would replace it. Any other failure (a
  // charge of theirs reconciled later included) e-mails the pay link.
  if (t.storeId !== null && actor.actorType !== 'merchant')
    await mailMerchant(tx, app, t, inv!.invoiceNumber, kind, reason, next, now, actor, requestId);
}

/** The failure e-mail with a pay link (soft), or the update-payment e-mail (hard): one 'payment_update' link of the store. */
async function mailMerchant(
  tx: Db,
  app: AppContext,
  t: typeof transactions.$inferSelect,
  invoiceNumber: string,
  kind: 'soft' | 'hard',
  reason: string,
  next: string | null,
  now: Date,
  actor: AuditActor,
  requestId: string,
) {
  const contact = await merchantContact(tx, t.storeId!, ['billing', 'owner', 'general']);
  if (!contact) return;
  // Soft: the failure e-mail around the pay link; hard: the update-payment e-mail itself.
  const mail = await mailPaymentUpdateLink(tx, app, contact, now, {
    ...(kind === 'soft'
      ? {
          render: (link: { url: string; expiresAt: Date }) =>
            paymentFailedEmail({
              recipientName: contact.name,
              storeName: contact.store.doingBusinessAs,
              invoiceNumber,
              amount: formatMoney(t.amountCents, t.currency as CurrencyCode),
              reason,
              nextRetryOn: next,
              link: link.url,
              expiresAt: link.expiresAt,
            }),
        }
      : {}),
  });
  await writeAudit(tx, {
    ...actor,
    at: now,
    action: kind === 'hard' ? 'payment_update_link_sent' : 'payment_failed_mail_sent',
    entity: 'store',
    entityId: contact.store.id,
    customerId: contact.store.customerId,
    after: {
      transaction_id: t.id,
      invoice_number: invoiceNumber,
      to: contact.email,
      link_token_id: mail.linkTokenId,
      expires_at: mail.expiresAt.toISOString(),
      mail_id: mail.mailId,
    },
    requestId,
  });
}
