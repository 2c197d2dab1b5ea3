import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  pgView,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  BILLING_RUN_STATUSES,
  CREDIT_MEMO_STATUSES,
  CREDIT_MEMO_TYPES,
  CURRENCY_CODES,
  INVOICE_STATUSES,
  INVOICE_TYPES,
  RECONCILIATION_DIFFERENCE_KINDS,
  RECONCILIATION_ENTRY_KINDS,
  RECONCILIATION_SOURCES,
  RECONCILIATION_STATUSES,
  TAX_CERTIFICATE_KINDS,
  TRANSACTION_STATUSES,
  WRITE_OFF_TYPES,
} from '@pos/domain';
import { bundlePriceOptions, bundles, billingItems, promotions } from './catalogue';
import { inList, nonNegative, timestamps, version } from './columns';
import { customers, stores } from './merchants';
import { orders, uploads } from './orders';

export const PLAN_KINDS = ['hardware_sale', 'monthly', 'yearly', 'credit_memo', 'due_amount'] as const;
export const PLAN_STATUSES = ['active', 'canceled', 'completed'] as const;

/**
 * A customer's payment plan for a store: the hardware sale plan (upfront or installments) and the monthly or
 * yearly service plan. paymentPlanTypeId keeps §9's ids (1 upfront, 4 monthly, 5 yearly, 30 credit memo, 40 due amount).
 */
export const customerPaymentPlans = pgTable(
  'customer_payment_plans',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer().references(() => stores.id),
    orderId: integer().references(() => orders.id),
    kind: text().notNull(),
    paymentPlanTypeId: integer().notNull(),
    planName: text().notNull(),
    term: integer().notNull().default(0),
    interval: integer().notNull().default(0),
    initialAmountCents: bigint({ mode: 'number' }).notNull().default(0),
    recurringAmountCents: bigint({ mode: 'number' }).notNull().default(0),
    currency: text().notNull(),
    startsOn: date({ mode: 'string' }).notNull(),
    licenseExpiresOn: date({ mode: 'string' }),
    nextBillingOn: date({ mode: 'string' }),
    /** Periods the billing run has invoiced (an installment plan completes at its term; decision 113). */
    billedPeriods: integer().notNull().default(0),
    /** Installment plans: the hardware amount financed (interest is 5 % of it, spread over the term; 113). */
    financedCents: bigint({ mode: 'number' }),
    status: text().notNull().default('active'),
    ...timestamps,
    ...version,
  },
  (t) => [
    index('customer_payment_plans_customer_idx').on(t.customerId),
    index('customer_payment_plans_store_idx').on(t.storeId),
    index('customer_payment_plans_order_idx').on(t.orderId),
    // The billing run's due plans: active, by next billing date (decision 113).
    index('customer_payment_plans_due_idx')
      .on(t.nextBillingOn, t.id)
      .where(sql`${t.status} = 'active'`),
    index('customer_payment_plans_license_idx').on(t.licenseExpiresOn),
    // The win-back list's canceled service plans (decision 131).
    index('customer_payment_plans_canceled_idx')
      .on(t.storeId, t.updatedAt)
      .where(sql`${t.status} = 'canceled' and ${t.kind} in ('monthly', 'yearly')`),
    check('customer_payment_plans_kind_check', inList(t.kind, PLAN_KINDS)),
    check('customer_payment_plans_status_check', inList(t.status, PLAN_STATUSES)),
    check('customer_payment_plans_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('customer_payment_plans_amounts_check', sql`${t.initialAmountCents} >= 0 and ${t.recurringAmountCents} >= 0`),
    check('customer_payment_plans_term_check', sql`${t.term} >= 0 and ${t.interval} >= 0`),
    check('customer_payment_plans_billed_check', sql`${t.billedPeriods} >= 0`),
    check('customer_payment_plans_financed_check', sql`${t.financedCents} is null or ${t.financedCents} >= 0`),
  ],
);

export const CUSTOMER_BILLING_ITEM_STATUSES = ['A', 'I', 'C'] as const; // active, inactive, canceled

export const customerBillingItems = pgTable(
  'customer_billing_items',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer().references(() => stores.id),
    planId: integer().references(() => customerPaymentPlans.id),
    billingItemId: integer()
      .notNull()
      .references(() => billingItems.id),
    quantity: integer().notNull().default(1),
    unitPriceCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    status: text().notNull().default('A'),
    startsOn: date({ mode: 'string' }).notNull(),
    endsOn: date({ mode: 'string' }),
    ...timestamps,
    ...version,
  },
  (t) => [
    index('customer_billing_items_customer_idx').on(t.customerId, t.storeId),
    index('customer_billing_items_plan_idx').on(t.planId),
    index('customer_billing_items_store_idx').on(t.storeId),
    index('customer_billing_items_item_idx').on(t.billingItemId, t.status),
    check('customer_billing_items_status_check', inList(t.status, CUSTOMER_BILLING_ITEM_STATUSES)),
    check('customer_billing_items_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('customer_billing_items_quantity_check', sql`${t.quantity} > 0`),
  ],
);

export const customerBundles = pgTable(
  'customer_bundles',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer()
      .notNull()
      .references(() => stores.id),
    bundleId: integer()
      .notNull()
      .references(() => bundles.id),
    planId: integer().references(() => customerPaymentPlans.id),
    status: text().notNull().default('A'),
    startsOn: date({ mode: 'string' }).notNull(),
    ...timestamps,
  },
  (t) => [
    index('customer_bundles_customer_idx').on(t.customerId, t.storeId),
    index('customer_bundles_store_idx').on(t.storeId),
    index('customer_bundles_bundle_idx').on(t.bundleId),
    index('customer_bundles_plan_idx').on(t.planId),
    check('customer_bundles_status_check', inList(t.status, CUSTOMER_BILLING_ITEM_STATUSES)),
  ],
);

/**
 * The price of a customer's bundle frozen when it is sold (issue 17 point 4, decision 126): one row per monthly
 * price option (`term = 1`) of the bundle in the plan's currency, copied from `bundle_price_options`. The billing run
 * bills these rows; a later change of the bundle's price options reaches only bundles sold after it.
 */
export const customerBundlePrices = pgTable(
  'customer_bundle_prices',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerBundleId: integer()
      .notNull()
      .references(() => customerBundles.id, { onDelete: 'cascade' }),
    priceOptionId: integer().references(() => bundlePriceOptions.id, { onDelete: 'set null' }),
    billingItemId: integer()
      .notNull()
      .references(() => billingItems.id),
    label: text().notNull(),
    currency: text().notNull(),
    unitPriceCents: bigint({ mode: 'number' }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customer_bundle_prices_bundle_idx').on(t.customerBundleId, t.currency),
    index('customer_bundle_prices_option_idx').on(t.priceOptionId),
    index('customer_bundle_prices_item_idx').on(t.billingItemId),
    check('customer_bundle_prices_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('customer_bundle_prices_price_check', nonNegative(t.unitPriceCents)),
  ],
);

export const orderPromotions = pgTable(
  'order_promotions',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer().references(() => orders.id),
    /** Null while a new merchant's order has no customer yet; filled when the order completes (decision 125). */
    customerId: integer().references(() => customers.id),
    storeId: integer().references(() => stores.id),
    promotionId: integer()
      .notNull()
      .references(() => promotions.id),
    amountCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    appliedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_promotions_order_idx').on(t.orderId),
    index('order_promotions_customer_idx').on(t.customerId, t.storeId),
    index('order_promotions_store_idx').on(t.storeId),
    index('order_promotions_promotion_idx').on(t.promotionId),
    check('order_promotions_amount_check', nonNegative(t.amountCents)),
    check('order_promotions_currency_check', inList(t.currency, CURRENCY_CODES)),
  ],
);

export const PAYMENT_INSTRUMENT_KINDS = ['card', 'bank', 'cash'] as const;

/**
 * How a customer pays. Cards: the gateway tokenizes; we keep brand, last4, expiry and the processor reference —
 * never the number. Bank accounts: the number is stored encrypted (AES-GCM, key from config) with its last4.
 */
export const paymentInstruments = pgTable(
  'payment_instruments',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer().references(() => stores.id),
    kind: text().notNull(),
    nameOnAccount: text(),
    cardBrand: text(),
    cardLast4: text(),
    cardExpMonth: integer(),
    cardExpYear: integer(),
    processorReference: text(),
    bankName: text(),
    routingNumber: text(),
    institutionNumber: text(),
    accountNumberEncrypted: text(),
    accountLast4: text(),
    accountType: text(),
    isDefault: boolean().notNull().default(false),
    status: text().notNull().default('active'),
    ...timestamps,
    ...version,
  },
  (t) => [
    index('payment_instruments_customer_idx').on(t.customerId),
    index('payment_instruments_store_idx').on(t.storeId),
    check('payment_instruments_kind_check', inList(t.kind, PAYMENT_INSTRUMENT_KINDS)),
    check('payment_instruments_status_check', inList(t.status, ['active', 'inactive'])),
    check('payment_instruments_last4_check', sql`${t.cardLast4} is null or ${t.cardLast4} ~ '^[0-9]{4}$'`),
    check(
      'payment_instruments_card_check',
      sql`${t.kind} <> 'card' or (${t.cardLast4} is not null and ${t.processorReference} is not null and ${t.cardExpMonth} between 1 and 12)`,
    ),
    check(
      'payment_instruments_bank_check',
      sql`${t.kind} <> 'bank' or (${t.accountNumberEncrypted} is not null and ${t.accountLast4} is not null)`,
    ),
    check(
      'payment_instruments_account_type_check',
      sql`${t.accountType} is null or ${t.accountType} in ('checking', 'savings')`,
    ),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    invoiceNumber: text().notNull(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer().references(() => stores.id),
    planId: integer().references(() => customerPaymentPlans.id),
    status: text().notNull().default('N'),
    type: text().notNull(),
    periodStart: date({ mode: 'string' }),
    periodEnd: date({ mode: 'string' }),
    issuedOn: date({ mode: 'string' }).notNull(),
    dueOn: date({ mode: 'string' }).notNull(),
    totalCents: bigint({ mode: 'number' }).notNull(),
    taxCents: bigint({ mode: 'number' }).notNull().default(0),
    paidCents: bigint({ mode: 'number' }).notNull().default(0),
    currency: text().notNull(),
    reversedAt: timestamp({ withTimezone: true }),
    /**
     * The ledger's open balance and approved write-offs, stored beside paid_cents and status (decision 137): kept
     * by ledger.syncInvoice, compared with invoice_balances by the ledger check, read by the reports and the
     * customer listing through covering indexes (migration 0024) instead of the view's per-invoice sums.
     * A new invoice owes its total (open_cents = total_cents).
     */
    openCents: bigint({ mode: 'number' }).notNull().default(0),
    writtenOffCents: bigint({ mode: 'number' }).notNull().default(0),
    /** Debit adjustments and money sent back beyond what came in: they raise what the invoice owes (issue 28). */
    debitedCents: bigint({ mode: 'number' }).notNull().default(0),
    /** When a charge for it first failed (null: never): the failed-payment report's cohort (decision 137). */
    firstFailedAt: timestamp({ withTimezone: true }),
    /** The order a sale invoice (type S) bills (decision 148): one S invoice per order. */
    orderId: integer().references(() => orders.id),
    /** The order whose cancellation a cancellation fee invoice bills (decision 158): once per order. */
    canceledOrderId: integer().references(() => orders.id),
    ...timestamps,
    ...version,
  },
  (t) => [
    uniqueIndex('invoices_number_uq').on(t.invoiceNumber),
    index('invoices_customer_idx').on(t.customerId, t.issuedOn, t.id),
    index('invoices_store_idx').on(t.storeId, t.issuedOn, t.id),
    index('invoices_plan_idx').on(t.planId),
    // Exactly one invoice per plan and period: a re-run, two runs at once or a run restarted midway add none twice.
    uniqueIndex('invoices_plan_period_uq')
      .on(t.planId, t.periodStart)
      .where(sql`${t.planId} is not null and ${t.periodStart} is not null`),
    // At most one sale invoice per order: completing an order twice never bills it twice (decision 148).
    uniqueIndex('invoices_order_sale_uq')
      .on(t.orderId)
      .where(sql`${t.orderId} is not null and ${t.type} = 'S'`),
    // At most one cancellation fee per order (decision 158).
    uniqueIndex('invoices_canceled_order_uq')
      .on(t.canceledOrderId)
      .where(sql`${t.canceledOrderId} is not null`),
    index('invoices_status_due_idx').on(t.status, t.dueOn),
    /** The invoices screen's default order, newest first (decision 114): a backward walk that stops at the page. */
    index('invoices_issued_idx').on(t.issuedOn, t.id),
    check('invoices_status_check', inList(t.status, INVOICE_STATUSES)),
    check('invoices_type_check', inList(t.type, INVOICE_TYPES)),
    check('invoices_currency_check', inList(t.currency, CURRENCY_CODES)),
    check(
      'invoices_amounts_check',
      sql`${t.totalCents} >= 0 and ${t.taxCents} >= 0 and ${t.paidCents} >= 0 and ${t.debitedCents} >= 0 and ${t.paidCents} <= ${t.totalCents} + ${t.debitedCents}`,
    ),
    check('invoices_due_check', sql`${t.dueOn} >= ${t.issuedOn}`),
    check('invoices_ledger_check', sql`${t.openCents} >= 0 and ${t.writtenOffCents} >= 0`),
  ],
);

/**
 * Credit invoices (issue 29 item 7, decision 152): documents that credit a merchant — type R, written when an invoice
 * is reversed (its lines the original's, negated; the original keeps status R), and type B, the promotion rewards of a
 * completed order (credit lines; the money moves by its credit memo once AR approves it). Documents only: a reversal's
 * money is posted once, on the original (reversed_at → the journal's invoice_reversed entry, the ledger's open balance
 * 0), a reward's by its memo, so no balance, journal entry, limit or report reads this table. Numbered from the same
 * yearly counter as invoices.
 */
export const creditInvoices = pgTable(
  'credit_invoices',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    invoiceNumber: text().notNull(),
    type: text().notNull(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer().references(() => stores.id),
    /** The invoice it nets (type R). */
    reversesInvoiceId: integer().references(() => invoices.id),
    /** The order whose promotion rewards it credits (type B). */
    orderId: integer().references(() => orders.id),
    /** The credit memo that moves a reward's money once AR approves it (type B). */
    creditMemoId: integer().references(() => creditMemos.id),
    /** The return whose credit it documents (type R: the terminals credited, the restocking fee kept; 158). */
    returnId: integer().references((): AnyPgColumn => returns.id),
    issuedOn: date({ mode: 'string' }).notNull(),
    /** Negative: what it credits (the original's total and tax, negated). */
    totalCents: bigint({ mode: 'number' }).notNull(),
    taxCents: bigint({ mode: 'number' }).notNull().default(0),
    currency: text().notNull(),
    reason: text().notNull(),
    createdByEmail: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('credit_invoices_number_uq').on(t.invoiceNumber),
    // One credit invoice per reversed invoice: a reversal repeated never nets it twice.
    uniqueIndex('credit_invoices_reverses_uq')
      .on(t.reversesInvoiceId)
      .where(sql`${t.reversesInvoiceId} is not null`),
    index('credit_invoices_customer_idx').on(t.customerId, t.issuedOn, t.id),
    check('credit_invoices_type_check', sql`${t.type} in ('R', 'B')`),
    check('credit_invoices_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('credit_invoices_amounts_check', sql`${t.totalCents} <= 0 and ${t.taxCents} <= 0`),
    check(
      'credit_invoices_reverses_check',
      sql`${t.type} <> 'R' or ${t.reversesInvoiceId} is not null or ${t.returnId} is not null`,
    ),
    // One credit invoice per return (decision 158).
    uniqueIndex('credit_invoices_return_uq')
      .on(t.returnId)
      .where(sql`${t.returnId} is not null`),
    check('credit_invoices_rewards_check', sql`${t.type} <> 'B' or ${t.creditMemoId} is not null`),
    // One rewards credit invoice per order: completing an order twice never credits twice.
    uniqueIndex('credit_invoices_order_rewards_uq')
      .on(t.orderId)
      .where(sql`${t.type} = 'B' and ${t.orderId} is not null`),
  ],
);

export const creditInvoiceLines = pgTable(
  'credit_invoice_lines',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    creditInvoiceId: integer()
      .notNull()
      .references(() => creditInvoices.id, { onDelete: 'cascade' }),
    billingItemId: integer()
      .notNull()
      .references(() => billingItems.id),
    description: text().notNull(),
    quantity: integer().notNull().default(1),
    unitCents: bigint({ mode: 'number' }).notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    index('credit_invoice_lines_invoice_idx').on(t.creditInvoiceId),
    check('credit_invoice_lines_quantity_check', sql`${t.quantity} > 0`),
  ],
);

export const invoiceLines = pgTable(
  'invoice_lines',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    billingItemId: integer()
      .notNull()
      .references(() => billingItems.id),
    description: text().notNull(),
    quantity: integer().notNull().default(1),
    unitCents: bigint({ mode: 'number' }).notNull(),
    /** Discounts and promotions are negative lines; the invoice total may not be. */
    amountCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [
    index('invoice_lines_invoice_idx').on(t.invoiceId),
    index('invoice_lines_item_idx').on(t.billingItemId),
    check('invoice_lines_quantity_check', sql`${t.quantity} > 0`),
  ],
);

export const TRANSACTION_KINDS = ['charge', 'refund', 'reversal', 'chargeback', 'fee'] as const;

export const transactions = pgTable(
  'transactions',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer().references(() => stores.id),
    invoiceId: integer().references(() => invoices.id),
    paymentInstrumentId: integer().references(() => paymentInstruments.id),
    kind: text().notNull().default('charge'),
    status: text().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    gatewayReference: text(),
    failureReason: text(),
    /** The gateway's decline code of a failed charge (domain DECLINE_CODES; decision 116). */
    declineCode: text(),
    idempotencyKey: text(),
    attemptedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    settledAt: timestamp({ withTimezone: true }),
    ...timestamps,
    ...version,
  },
  (t) => [
    index('transactions_customer_idx').on(t.customerId, t.attemptedAt, t.id),
    index('transactions_store_idx').on(t.storeId, t.attemptedAt, t.id),
    index('transactions_invoice_idx').on(t.invoiceId),
    index('transactions_instrument_idx').on(t.paymentInstrumentId),
    index('transactions_status_idx').on(t.status, t.attemptedAt, t.id),
    /** The reconciler's walk: pending charges by age (decision 116). */
    index('transactions_pending_idx')
      .on(t.attemptedAt, t.id)
      .where(sql`${t.status} = 'P'`),
    uniqueIndex('transactions_idempotency_uq').on(t.idempotencyKey),
    check('transactions_status_check', inList(t.status, TRANSACTION_STATUSES)),
    check('transactions_kind_check', inList(t.kind, TRANSACTION_KINDS)),
    check('transactions_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('transactions_amount_check', sql`${t.amountCents} > 0`),
    check('transactions_failure_check', sql`${t.status} <> 'F' or ${t.failureReason} is not null`),
  ],
);

export const creditMemos = pgTable(
  'credit_memos',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer().references(() => stores.id),
    invoiceId: integer().references(() => invoices.id),
    type: text().notNull(),
    status: text().notNull().default('P'),
    amountCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    reason: text().notNull(),
    /** Issue 16: the AR note required beside the reason. */
    note: text(),
    /** A refund memo's way back to the merchant: 'gateway' (refund of the original charge) or 'check'. */
    refundMethod: text(),
    /** The gateway refund transaction of an approved refund memo (its invoice_id is null: the memo counts). */
    transactionId: integer().references(() => transactions.id),
    /** The return whose refund this memo is (returns and refunds, issue 16). */
    returnId: integer().references((): AnyPgColumn => returns.id),
    createdByEmail: text().notNull(),
    approvedByEmail: text(),
    decidedAt: timestamp({ withTimezone: true }),
    /** Why it was approved or rejected. */
    decisionReason: text(),
    ...timestamps,
    ...version,
  },
  (t) => [
    index('credit_memos_customer_idx').on(t.customerId),
    index('credit_memos_return_idx').on(t.returnId),
    check(
      'credit_memos_refund_method_check',
      sql`${t.refundMethod} is null or ${t.refundMethod} in ('gateway', 'check')`,
    ),
    index('credit_memos_store_idx').on(t.storeId),
    index('credit_memos_invoice_idx').on(t.invoiceId),
    index('credit_memos_status_idx').on(t.status, t.createdAt),
    check('credit_memos_type_check', inList(t.type, CREDIT_MEMO_TYPES)),
    check('credit_memos_status_check', inList(t.status, CREDIT_MEMO_STATUSES)),
    check('credit_memos_currency_check', inList(t.currency, CURRENCY_CODES)),
    /** An adjustment may raise (negative) or lower (positive) a balance; credits and refunds are positive. */
    check(
      'credit_memos_amount_check',
      sql`(${t.type} = 'A' and ${t.amountCents} <> 0) or (${t.type} <> 'A' and ${t.amountCents} > 0)`,
    ),
    check('credit_memos_decision_check', sql`(${t.status} = 'P') = (${t.decidedAt} is null)`),
  ],
);

export const receipts = pgTable(
  'receipts',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    amountCents: bigint({ mode: 'number' }).notNull(),
    unappliedCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    method: text().notNull(),
    reference: text(),
    receivedOn: date({ mode: 'string' }).notNull(),
    /** The store the money came for (optional; applications may go to any of the customer's invoices). */
    storeId: integer().references(() => stores.id),
    note: text(),
    /** The check image (upload field `checkimage`). */
    uploadId: integer().references(() => uploads.id),
    /** The cash/check fee invoice (billing item 53) raised with the receipt, when it applied. */
    feeInvoiceId: integer().references(() => invoices.id),
    createdByEmail: text().notNull(),
    ...timestamps,
    ...version,
  },
  (t) => [
    index('receipts_customer_idx').on(t.customerId, t.receivedOn),
    index('receipts_received_idx').on(t.receivedOn, t.id),
    index('receipts_upload_idx').on(t.uploadId),
    index('receipts_unapplied_idx')
      .on(t.receivedOn)
      .where(sql`${t.unappliedCents} > 0`),
    check('receipts_method_check', inList(t.method, ['check', 'cash', 'wire', 'ach', 'card'])),
    check('receipts_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('receipts_amount_check', sql`${t.amountCents} > 0 and ${t.unappliedCents} between 0 and ${t.amountCents}`),
  ],
);

export const receiptAllocations = pgTable(
  'receipt_allocations',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    receiptId: integer()
      .notNull()
      .references(() => receipts.id),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id),
    amountCents: bigint({ mode: 'number' }).notNull(),
    allocatedByEmail: text().notNull(),
    allocatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('receipt_allocations_receipt_idx').on(t.receiptId),
    index('receipt_allocations_invoice_idx').on(t.invoiceId),
    check('receipt_allocations_amount_check', sql`${t.amountCents} > 0`),
  ],
);

export const writeOffs = pgTable(
  'write_offs',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    invoiceId: integer()
      .notNull()
      .references(() => invoices.id),
    /** 142 Write_Off, 164 Write_Off Unrecoverable. */
    type: integer().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    reason: text().notNull(),
    note: text(),
    /** P waiting for approval, A approved (counts in the ledger), R rejected (issue 16). */
    status: text().notNull().default('A'),
    createdByEmail: text().notNull(),
    approvedByEmail: text(),
    decidedAt: timestamp({ withTimezone: true }),
    decisionReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ...version,
  },
  (t) => [
    index('write_offs_customer_idx').on(t.customerId),
    index('write_offs_status_idx').on(t.status, t.createdAt),
    check('write_offs_status_check', inList(t.status, CREDIT_MEMO_STATUSES)),
    index('write_offs_invoice_idx').on(t.invoiceId),
    check('write_offs_type_check', inList(t.type, WRITE_OFF_TYPES)),
    check('write_offs_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('write_offs_amount_check', sql`${t.amountCents} > 0`),
  ],
);

export const RETURN_STATUSES = ['requested', 'received', 'inspected', 'refunded', 'rejected'] as const;

export const returns = pgTable(
  'returns',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer().references(() => stores.id),
    orderId: integer().references(() => orders.id),
    terminalElmerId: text(),
    reason: text().notNull(),
    status: text().notNull().default('requested'),
    restockingFeeCents: bigint({ mode: 'number' }).notNull().default(0),
    /** Why the restocking fee was waived (required when it is). */
    feeWaivedReason: text(),
    refundCents: bigint({ mode: 'number' }).notNull().default(0),
    currency: text().notNull(),
    /** The hardware invoice the refund is computed from and paid against. */
    invoiceId: integer().references(() => invoices.id),
    /** 'gateway' (refund of the original charge) or 'check'. */
    refundMethod: text(),
    note: text(),
    decisionReason: text(),
    receivedAt: timestamp({ withTimezone: true }),
    inspectedAt: timestamp({ withTimezone: true }),
    decidedAt: timestamp({ withTimezone: true }),
    decidedByEmail: text(),
    createdByEmail: text().notNull(),
    ...timestamps,
    ...version,
  },
  (t) => [
    index('returns_customer_idx').on(t.customerId),
    index('returns_store_idx').on(t.storeId),
    index('returns_order_idx').on(t.orderId),
    index('returns_status_idx').on(t.status),
    index('returns_invoice_idx').on(t.invoiceId),
    check('returns_refund_method_check', sql`${t.refundMethod} is null or ${t.refundMethod} in ('gateway', 'check')`),
    check('returns_status_check', inList(t.status, RETURN_STATUSES)),
    check('returns_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('returns_amounts_check', sql`${t.restockingFeeCents} >= 0 and ${t.refundCents} >= 0`),
  ],
);

export const taxCertificates = pgTable(
  'tax_certificates',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer().references(() => stores.id),
    state: text().notNull(),
    certificateNumber: text().notNull(),
    expiresOn: date({ mode: 'string' }),
    uploadId: integer().references(() => uploads.id),
    /** Issue 17 (decision 127): TPT (Arizona transaction privilege tax) or RESALE certificate. */
    kind: text().notNull().default('TPT'),
    createdByEmail: text(),
    revokedAt: timestamp({ withTimezone: true }),
    revokedByEmail: text(),
    ...timestamps,
  },
  (t) => [
    check('tax_certificates_kind_check', inList(t.kind, TAX_CERTIFICATE_KINDS)),
    index('tax_certificates_expires_idx').on(t.expiresOn),
    index('tax_certificates_customer_idx').on(t.customerId),
    index('tax_certificates_store_idx').on(t.storeId),
    index('tax_certificates_upload_idx').on(t.uploadId),
  ],
);

/** One billing run (issue 14, decision 113): what it bills as of a day, its progress and outcome. */
export const billingRuns = pgTable(
  'billing_runs',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    asOf: date({ mode: 'string' }).notNull(),
    status: text().notNull().default('queued'),
    /** 'schedule' (the daily job) or the staff member's e-mail ("run now"). */
    requestedBy: text().notNull(),
    jobId: text(),
    plansDue: integer().notNull().default(0),
    plansDone: integer().notNull().default(0),
    invoicesCreated: integer().notNull().default(0),
    skipped: integer().notNull().default(0),
    /** Stores the run found past expiry + grace and lapsed (their terminals told to stop). */
    licensesLapsed: integer().notNull().default(0),
    error: text(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    index('billing_runs_created_idx').on(t.createdAt, t.id),
    check('billing_runs_status_check', inList(t.status, BILLING_RUN_STATUSES)),
  ],
);

/** The last invoice number given per year: numbers are gap-free because the counter moves in the invoices' transaction. */
export const invoiceNumberCounters = pgTable('invoice_number_counters', {
  year: integer().primaryKey(),
  lastNumber: integer().notNull().default(0),
});

/**
 * The ledger of every invoice (decision 112), a view made by migration 0011 (drizzle-kit leaves it alone): the SQL
 * twin of the domain's invoiceBalance. Read it filtered by invoice or customer; modules/ledger owns it.
 */
export const invoiceBalances = pgView('invoice_balances', {
  invoiceId: integer().notNull(),
  customerId: integer().notNull(),
  totalCents: bigint({ mode: 'number' }).notNull(),
  paidCents: bigint({ mode: 'number' }).notNull(),
  creditedCents: bigint({ mode: 'number' }).notNull(),
  writtenOffCents: bigint({ mode: 'number' }).notNull(),
  reversedCents: bigint({ mode: 'number' }).notNull(),
  debitedCents: bigint({ mode: 'number' }).notNull(),
  overpaidCents: bigint({ mode: 'number' }).notNull(),
  openCents: bigint({ mode: 'number' }).notNull(),
  status: text().notNull(),
  storedPaidCents: bigint({ mode: 'number' }).notNull(),
  storedStatus: text().notNull(),
}).existing();

export const DUNNING_STATES = ['retrying', 'collection', 'stopped', 'recovered'] as const;
export const DUNNING_FEE_STATES = ['pending', 'invoiced', 'waived'] as const;

/**
 * Dunning of one invoice (issue 15, decision 116): created by its first failed charge, moved by every later
 * attempt. `next_retry_on` is the day the sweep charges it again (null: no automatic retry — hard decline,
 * schedule used up, or stopped by staff). The failed-payment fee (US stores) is owed once per invoice: 'pending'
 * until the store's next invoice carries it ('invoiced', fee_invoice_id), or 'waived' by staff.
 */
export const invoiceDunning = pgTable(
  'invoice_dunning',
  {
    invoiceId: integer()
      .primaryKey()
      .references(() => invoices.id),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer().references(() => stores.id),
    state: text().notNull(),
    firstFailedOn: date({ mode: 'string' }).notNull(),
    failedAttempts: integer().notNull(),
    lastTransactionId: integer().references(() => transactions.id),
    lastDeclineCode: text(),
    lastDeclineKind: text().notNull(),
    nextRetryOn: date({ mode: 'string' }),
    feeState: text(),
    feeCents: bigint({ mode: 'number' }),
    feeInvoiceId: integer().references(() => invoices.id),
    ...timestamps,
    ...version,
  },
  (t) => [
    index('invoice_dunning_due_idx')
      .on(t.nextRetryOn)
      .where(sql`${t.state} = 'retrying'`),
    index('invoice_dunning_customer_idx').on(t.customerId),
    index('invoice_dunning_fee_idx')
      .on(t.storeId)
      .where(sql`${t.feeState} = 'pending'`),
    check('invoice_dunning_state_check', inList(t.state, DUNNING_STATES)),
    check('invoice_dunning_kind_check', inList(t.lastDeclineKind, ['soft', 'hard'])),
    check(
      'invoice_dunning_fee_check',
      sql`${t.feeState} is null or ${t.feeState} in ('pending', 'invoiced', 'waived')`,
    ),
  ],
);

/**
 * The local payment gateway's own memory (decision 116): every charge, authorization, capture, void and refund it
 * answered, by idempotency key — so a repeated key answers the first result, and the reconciler can ask what
 * happened to a charge after a crash or a restart. Not ours in production (PAYMENT_GATEWAY_URL set: unused).
 */
export const localGatewayOperations = pgTable(
  'local_gateway_operations',
  {
    idempotencyKey: text().primaryKey(),
    operation: text().notNull(),
    reference: text().notNull(),
    /** The charge or authorization an operation acts on (capture, void, refund). */
    parentReference: text(),
    amountCents: bigint({ mode: 'number' }).notNull().default(0),
    currency: text(),
    paymentReference: text(),
    instrumentKind: text(),
    status: text().notNull(),
    declineCode: text(),
    failureReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('local_gateway_operations_reference_uq').on(t.reference),
    index('local_gateway_operations_parent_idx').on(t.parentReference),
  ],
);

/**
 * The local gateway's own books (decision 146): one line per charge it settled (a card charge when accepted, a
 * bank debit a day later, a captured hold), refund, charge voided before settlement, chargeback (a bank return).
 * Append-only (a trigger refuses updates and deletes). Its settlement report reads them; not ours in production.
 */
export const localGatewayBooks = pgTable(
  'local_gateway_books',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    gatewayTransactionId: text().notNull(),
    chargeReference: text().notNull(),
    ourReference: text(),
    kind: text().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('local_gateway_books_line_uq').on(t.gatewayTransactionId, t.kind),
    index('local_gateway_books_day_idx').on(t.currency, t.at),
    check('local_gateway_books_kind_check', inList(t.kind, ['charge', 'refund', 'void', 'chargeback'])),
    check('local_gateway_books_amount_check', sql`${t.amountCents} >= 0`),
    check('local_gateway_books_currency_check', inList(t.currency, CURRENCY_CODES)),
  ],
);

/**
 * A reconciliation of one UTC day and currency (decision 146): both sides' totals and how many lines differ; a run
 * is never changed (a new run of the same day is a new row).
 */
export const reconciliationRuns = pgTable(
  'reconciliation_runs',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    day: date({ mode: 'string' }).notNull(),
    currency: text().notNull(),
    status: text().notNull(),
    source: text().notNull(),
    gatewayChargedCents: bigint({ mode: 'number' }).notNull().default(0),
    gatewayRefundedCents: bigint({ mode: 'number' }).notNull().default(0),
    gatewayChargedBackCents: bigint({ mode: 'number' }).notNull().default(0),
    gatewayVoidedCents: bigint({ mode: 'number' }).notNull().default(0),
    gatewayEntries: integer().notNull().default(0),
    booksChargedCents: bigint({ mode: 'number' }).notNull().default(0),
    booksRefundedCents: bigint({ mode: 'number' }).notNull().default(0),
    booksChargedBackCents: bigint({ mode: 'number' }).notNull().default(0),
    booksVoidedCents: bigint({ mode: 'number' }).notNull().default(0),
    booksEntries: integer().notNull().default(0),
    differenceCount: integer().notNull().default(0),
    failureReason: text(),
    requestedByEmail: text(),
    finishedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('reconciliation_runs_day_idx').on(t.day, t.currency, t.id),
    index('reconciliation_runs_status_idx').on(t.status, t.day),
    check('reconciliation_runs_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('reconciliation_runs_status_check', inList(t.status, RECONCILIATION_STATUSES)),
    check('reconciliation_runs_source_check', inList(t.source, RECONCILIATION_SOURCES)),
    check('reconciliation_runs_failure_check', sql`(${t.status} = 'failed') = (${t.failureReason} is not null)`),
  ],
);

/** A line of a run that the two books do not agree on, with our transaction behind it when we know it. */
export const reconciliationDifferences = pgTable(
  'reconciliation_differences',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    runId: integer()
      .notNull()
      .references(() => reconciliationRuns.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    entryKind: text().notNull(),
    gatewayTransactionId: text(),
    chargeReference: text(),
    transactionId: integer().references(() => transactions.id),
    customerId: integer().references(() => customers.id),
    invoiceId: integer().references(() => invoices.id),
    gatewayAmountCents: bigint({ mode: 'number' }),
    booksAmountCents: bigint({ mode: 'number' }),
    currency: text().notNull(),
    at: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('reconciliation_differences_run_idx').on(t.runId),
    index('reconciliation_differences_transaction_idx').on(t.transactionId),
    index('reconciliation_differences_customer_idx').on(t.customerId),
    check('reconciliation_differences_kind_check', inList(t.kind, RECONCILIATION_DIFFERENCE_KINDS)),
    check('reconciliation_differences_entry_kind_check', inList(t.entryKind, RECONCILIATION_ENTRY_KINDS)),
  ],
);

/**
 * The order flow's card holds (authorizations) waiting to be captured or released (decision 116). An order that
 * reaches Complete captures its latest hold; a rejected or canceled order (and the older holds of a completed one)
 * releases them. Written by the order's status change, in its transaction; settled at the gateway by the payments
 * sweep, outside any transaction. One row per hold.
 */
export const authorizationSettlements = pgTable(
  'authorization_settlements',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => orders.id),
    customerId: integer().references(() => customers.id),
    authorizationReference: text().notNull(),
    action: text().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    status: text().notNull().default('pending'),
    resultReference: text(),
    failureReason: text(),
    receiptId: integer().references(() => receipts.id),
    /** The sale invoice a capture pays (decision 148): its answer posts a charge on it; null: an unapplied receipt. */
    invoiceId: integer().references(() => invoices.id),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    settledAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('authorization_settlements_reference_uq').on(t.authorizationReference),
    index('authorization_settlements_invoice_idx')
      .on(t.invoiceId)
      .where(sql`${t.invoiceId} is not null`),
    index('authorization_settlements_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    index('authorization_settlements_order_idx').on(t.orderId),
    check('authorization_settlements_action_check', inList(t.action, ['capture', 'release'])),
    check('authorization_settlements_status_check', inList(t.status, ['pending', 'done', 'failed'])),
  ],
);

export const MONEY_MOVEMENT_OPERATIONS = ['refund', 'void', 'capture', 'authorize'] as const;
export type MoneyMovementOperation = (typeof MONEY_MOVEMENT_OPERATIONS)[number];

/**
 * Every gateway call that moves or holds money other than a charge (decision 144): recorded P and committed before the
 * call, its answer (S / F) recorded after in a transaction of its own, a P left by a lost answer replayed by the
 * payments sweep with the same idempotency key. `purpose` names who asked ('memo', 'return', 'transaction', 'reverse',
 * 'hold', 'authorize', …) and `context` what its answer completes. Charges keep their own P rows in transactions.
 */
export const moneyMovements = pgTable(
  'money_movements',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    operation: text().$type<MoneyMovementOperation>().notNull(),
    idempotencyKey: text().notNull(),
    status: text().$type<'P' | 'S' | 'F'>().notNull().default('P'),
    customerId: integer().references(() => customers.id),
    /** The refund transaction (refund), or the pending charge voided (void). */
    transactionId: integer().references(() => transactions.id),
    /** What the call acts on: the charge refunded, the charge or hold voided, the hold captured, the card authorized. */
    targetReference: text().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull().default(0),
    currency: text(),
    purpose: text().notNull(),
    context: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    resultReference: text(),
    failureReason: text(),
    attempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    answeredAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('money_movements_key_uq').on(t.idempotencyKey),
    index('money_movements_pending_idx')
      .on(t.createdAt, t.id)
      .where(sql`${t.status} = 'P'`),
    index('money_movements_transaction_idx').on(t.transactionId),
    check('money_movements_operation_check', inList(t.operation, MONEY_MOVEMENT_OPERATIONS)),
    check('money_movements_status_check', inList(t.status, ['P', 'S', 'F'])),
    check('money_movements_amount_check', sql`${t.amountCents} >= 0`),
    check('money_movements_answered_check', sql`(${t.status} = 'P') = (${t.answeredAt} is null)`),
  ],
);

export const FEATURE_CHANGE_STATUSES = ['sent', 'accepted', 'declined', 'canceled'] as const;

/**
 * A feature change staff prepared for a merchant to accept from a link (`#/customer/features/{tok}`, issue 16):
 * the NRS Pay features added and removed, the new monthly amount and from when. Accepting applies it through the
 * feature and plan calls and stamps the time and IP.
 */
export const featureChanges = pgTable(
  'feature_changes',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer()
      .notNull()
      .references(() => stores.id),
    planId: integer().references(() => customerPaymentPlans.id),
    /** [{billingitemid, action: 'add'|'remove'}] as the staff prepared them. */
    changes: jsonb().notNull(),
    currentMonthlyCents: bigint({ mode: 'number' }).notNull(),
    newMonthlyCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
    effectiveOn: date({ mode: 'string' }).notNull(),
    status: text().notNull().default('sent'),
    linkTokenId: integer(),
    createdByEmail: text().notNull(),
    decidedAt: timestamp({ withTimezone: true }),
    decidedIp: text(),
    ...timestamps,
    ...version,
  },
  (t) => [
    index('feature_changes_store_idx').on(t.storeId, t.createdAt),
    index('feature_changes_customer_idx').on(t.customerId),
    index('feature_changes_plan_idx').on(t.planId),
    check('feature_changes_status_check', inList(t.status, FEATURE_CHANGE_STATUSES)),
    check('feature_changes_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('feature_changes_amounts_check', sql`${t.currentMonthlyCents} >= 0 and ${t.newMonthlyCents} >= 0`),
  ],
);

/*
 * Report facts (decision 137): running sums the 12-month reports read instead of 12M invoices or charges. Triggers
 * on invoices and transactions (migration 0024) append one signed row per statement and key — inserts only, so
 * writers never wait on each other; the report-facts-compact job folds a key's rows into one. A report sums the
 * rows of its range, so it is exact at once, compacted or not. report_facts_rebuild() recomputes both from scratch.
 */

/** Invoices by the month they were issued, type, currency and country (the store's, else the merchant's). */
export const reportInvoiceMonthFacts = pgTable(
  'report_invoice_month_facts',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    month: date({ mode: 'string' }).notNull(),
    type: text().notNull(),
    currency: text().notNull(),
    country: text().notNull(),
    invoiceCount: bigint({ mode: 'number' }).notNull(),
    invoicedCents: bigint({ mode: 'number' }).notNull(),
    reversedCents: bigint({ mode: 'number' }).notNull(),
    collectedCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [index('report_invoice_month_facts_month_idx').on(t.month)],
);

/** Charge attempts (not pending, not voided unsent) by 15-minute slot of attempted_at, currency and country. */
export const reportChargeFacts = pgTable(
  'report_charge_facts',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    slot: timestamp({ withTimezone: true }).notNull(),
    currency: text().notNull(),
    country: text().notNull(),
    attempts: bigint({ mode: 'number' }).notNull(),
    attemptedCents: bigint({ mode: 'number' }).notNull(),
    failedAttempts: bigint({ mode: 'number' }).notNull(),
    failedAttemptCents: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [index('report_charge_facts_slot_idx').on(t.slot)],
);

/**
 * Each store's open balance (decision 139): the sum of its invoices' stored open_cents, kept in place by the
 * invoice triggers of migration 0026 (one row per store, made by a trigger on stores) — the customer listing sorts and
 * filters 1M stores by it through store_balances_open_idx. report_facts_rebuild() recomputes it.
 */
export const storeBalances = pgTable(
  'store_balances',
  {
    storeId: integer()
      .primaryKey()
      .references(() => stores.id, { onDelete: 'cascade' }),
    openCents: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [index('store_balances_open_idx').on(t.openCents, t.storeId)],
);
