/*
 * Account test data for the tabs' and edit pages' component tests (not used by the app). Shapes follow
 * contracts/customer-accounts.ts.
 */
import type { Invoice, PaymentInstrument, PaymentPlan, StoreFeature, Terminal, Transaction } from '@pos/domain';
import { TRANSACTION_STATUS_LABELS, transactionActionsFor, type TransactionStatus } from '@pos/domain';

export function makeTerminal(overrides: Partial<Terminal> = {}): Terminal {
  return {
    id: 17,
    elmer_id: '3000120',
    serial_number: 'SN-000017',
    pos_cc_processor_serial_number: null,
    customer_id: 100001,
    store_id: 500002,
    product: { id: 1, name: 'POS terminal' },
    order_id: 9,
    plan_id: 30,
    under_transfer: false,
    status: 'active',
    status_label: 'Active',
    installed_at: '2025-02-03T10:00:00.000Z',
    retired_at: null,
    retire_reason: null,
    version: 2,
    ...overrides,
  };
}

export function makeTransaction(status: TransactionStatus, overrides: Partial<Transaction> = {}): Transaction {
  return {
    id: 700,
    customer_id: 100001,
    customer_name: 'Corner Deli LLC',
    store_id: 500002,
    invoice_id: 40,
    invoice_number: 'INV-000040',
    instrument: { id: 3, kind: 'card', label: 'Visa ending 4242' },
    kind: 'charge',
    status,
    status_label: TRANSACTION_STATUS_LABELS[status],
    amount_cents: 7900,
    currency: 'USD',
    gateway_reference: null,
    failure_reason: status === 'F' ? 'Insufficient funds' : null,
    attempted_at: '2026-03-01T10:00:00.000Z',
    settled_at: null,
    actions: transactionActionsFor(status),
    version: 1,
    ...overrides,
  };
}

export function makePlan(overrides: Partial<PaymentPlan> = {}): PaymentPlan {
  return {
    id: 30,
    customer_id: 100001,
    store_id: 500002,
    order_id: 9,
    kind: 'monthly',
    kind_label: 'Monthly plan',
    payment_plan_type_id: 4,
    plan_name: 'Monthly service',
    term: 1,
    interval: 1,
    initial_amount_cents: 0,
    recurring_amount_cents: 7900,
    currency: 'USD',
    starts_on: '2025-02-01',
    license_expires_on: '2026-03-31',
    next_billing_on: '2026-04-01',
    status: 'active',
    version: 4,
    created_at: '2025-02-01T10:00:00.000Z',
    updated_at: '2025-02-01T10:00:00.000Z',
    ...overrides,
  };
}

export function makeInvoice(overrides: Partial<Invoice> = {}): Invoice {
  return {
    id: 40,
    invoice_number: 'INV-000040',
    customer_id: 100001,
    store_id: 500002,
    plan_id: 30,
    status: 'N',
    status_label: 'Pending',
    type: 'M',
    type_label: 'Monthly recurring charge',
    period_start: '2026-03-01',
    period_end: '2026-03-31',
    issued_on: '2026-03-01',
    due_on: '2026-03-15',
    total_cents: 7900,
    tax_cents: 0,
    paid_cents: 0,
    balance_cents: 7900,
    currency: 'USD',
    reversed_at: null,
    can_reverse: true,
    version: 3,
    ...overrides,
  };
}

export function makeFeature(name: string, overrides: Partial<StoreFeature> = {}): StoreFeature {
  return {
    billing_item_id: 201,
    name,
    nrs_pay: true,
    limited: false,
    can_change: true,
    charge_at_level: 'S',
    price_cents: 1500,
    currency: 'USD',
    enabled: false,
    customer_billing_item_id: null,
    ...overrides,
  };
}

export function makeCardInstrument(overrides: Partial<PaymentInstrument> = {}): PaymentInstrument {
  return {
    id: 12,
    customer_id: 100001,
    store_id: 500002,
    kind: 'card',
    name_on_account: 'Pat Owner',
    card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030, expired: false },
    bank: null,
    is_default: true,
    status: 'active',
    created_at: '2026-03-04T10:00:00.000Z',
    version: 1,
    ...overrides,
  };
}

/** The Idempotency-Key header of a fetch call made by the app. */
export function idempotencyKeyOf(init: RequestInit | undefined): string | null {
  return new Headers(init?.headers).get('Idempotency-Key');
}
