import { z } from 'zod';
import { BILLING_TERM, NRS_PAY_SOFTWARE_FEATURES, OTHER_IDS, type NrsPaySoftwareFeature } from '../codes/billing';
import { CURRENCY_CODES } from '../codes/currencies';
import { CARD_BRANDS, PAYMENT_METHOD_KINDS, type CardBrand } from '../codes/payment-methods';
import {
  INVOICE_STATUSES,
  INVOICE_TYPES,
  CREDIT_MEMO_STATUSES,
  CREDIT_MEMO_TYPES,
  type InvoiceStatus,
} from '../codes/invoices';
import { TRANSACTION_STATUSES, type TransactionStatus } from '../codes/transactions';
import { cappedPagedList, paginationQuerySchema } from './common';
import { PAYMENT_PLAN_STATUSES } from './jobs';
import { uploadPublicId } from './uploads';

/*
 * Customers back office, accounts (issue 6): terminals, payment plans, billing items, features, bundles,
 * promotions, transactions, invoices, payment instruments, and the payment gateway's tokenization.
 * Owned by apps/server/src/modules/customer-accounts. Decisions 055–059.
 *
 * "…" below is /api/customers/{id}/{token} with id = the customer id. Every answer is { info: … } or
 * { error: { code, message, fields? } }. Reads need customer_details_view or customer_details_edit; writes need
 * customer_details_edit (features: customer_features_edit or customer_features_limited).
 *
 * Writes that name a `version` are optimistic: a stale version → 409 { error: { code: 'version_conflict',
 * message, current: <the current record, same schema as the read> } }. Money POSTs (marked $) accept an
 * `Idempotency-Key` header: the same key with the same body answers the first answer again with no second
 * effect; the same key with another body → 409 { error: { code: 'conflict' } }.
 *
 * Terminals
 *   GET    …/customerterminals?custorderid|customerplanid|storeid|elmer_id (exactly one) → terminalList
 *   PUT    …/customerterminals/{terminalId}  terminalUpdateRequest                    → terminal
 *   DELETE /api/customers/{token}/customerterminals/{terminalId}  retireTerminalRequest (body or query) → terminal
 *   GET    /api/customers/{token}/terminals/validate/{elmer_id}/{serial_number}      → terminalValidation
 * Payment plans
 *   GET    …/customerpaymentplans?storeid&status                                       → paymentPlanList
 *   GET    …/customerpaymentplans/{planId}                                             → paymentPlanDetail
 *   POST $ …/customerpaymentplans            paymentPlanCreateRequest                → 201 paymentPlan
 *   POST   …/customerpaymentplans/{planId}   licenseExpiryUpdateRequest              → paymentPlan
 *   PUT    …/customerpaymentplans/{planId}   paymentPlanUpdateRequest                → paymentPlan
 * Billing items
 *   GET    …/customerbillingitems?customerplanid&custstoreid&status&billingitemid&checkForPreviousRecords
 *                                                                                      → customerBillingItemList
 *   POST $ …/customerbillingitems            customerBillingItemCreateRequest        → 201 customerBillingItem
 * Features (/editplan; guard customer_features_edit or customer_features_limited for the PUT)
 *   GET    …/features?custstoreid                                                      → storeFeatures
 *   PUT    …/features                        featuresUpdateRequest                   → featuresUpdateResult
 * Bundles and promotions
 *   GET    /api/customers/{id}/customerbundles/{token}?custstoreid                     → customerBundleList
 *   GET    …/orderpromotions?custstoreid                                               → orderPromotionList
 * Transactions
 *   GET    …/transactions?storeid&status&invoiceid                                     → transactionList
 *   GET    /api/customers/1/{token}/transactions?fetch=true&status=F   (all customers; id is ignored)
 *   POST $ …/transactions/{txId}             transactionActionRequest                → transactionActionResult
 * Invoices
 *   GET    …/customerinvoices?storeid&status&type                                      → invoiceList
 *   GET    …/customerinvoices/{invoiceId}                                              → invoiceDetail
 *   POST $ …/customerinvoices/{invoiceId}/reverse  invoiceReverseRequest             → invoiceReverseResult
 *   GET    …/creditinvoices?storeid                                                    → creditInvoiceList
 * Payment instruments (/editpayment)
 *   GET    …/paymentinstruments?storeid&status                                         → paymentInstrumentList
 *   GET    …/paymentinstruments/{instrumentId}                                         → paymentInstrument
 *   POST $ …/paymentinstruments              paymentInstrumentCreateRequest          → 201 paymentInstrument
 *   GET    /api/customers/paymentinstruments/gateway/{token}                           → gatewayConfig
 * Payment instruments (#/payment/instruments; decision 115)
 *   PUT    …/paymentinstruments/{instrumentId}  paymentInstrumentUpdateRequest {is_default: true, version}
 *                                                                                      → paymentInstrument
 *   DELETE …/paymentinstruments/{instrumentId}?version=N  (paymentInstrumentRemoveQuery; soft: status inactive)
 *                                                                                      → paymentInstrument
 *   GET    /api/customers/paymentinstruments/expiring/{token}?days&limit&offset  (expiringCardsQuery)
 *                                                                                      → expiringCardList
 * The local payment gateway (only when no PAYMENT_GATEWAY_URL is configured; not under /api, no session —
 * it stands in for the gateway's own host, which the browser library calls directly):
 *   POST   /gateway-local/v1/tokens          gatewayTokenRequest                     → gatewayToken (no envelope)
 */

// ── Shared field schemas ──────────────────────────────────────────────────────────────────────────

const MAX_ID = 2_147_483_647;

/** An id in a path or query string (coerced from text). */
function idParam(what: string) {
  return z.coerce
    .number({ message: `Enter the ${what} (a number).` })
    .int({ message: `The ${what} is a whole number.` })
    .positive({ message: `The ${what} is a positive number.` })
    .max(MAX_ID, { message: `The ${what} is too large.` });
}
/** An id in a JSON body. */
function idField(what: string) {
  return z
    .number({ message: `Enter the ${what} (a number).` })
    .int({ message: `The ${what} is a whole number.` })
    .positive({ message: `The ${what} is a positive number.` })
    .max(MAX_ID, { message: `The ${what} is too large.` });
}

/** The record version an edit was made against (optimistic concurrency). */
export const recordVersionSchema = z
  .number({ message: 'Send the version of the record you edited.' })
  .int({ message: 'The version is a whole number.' })
  .min(1, { message: 'The version is a positive number.' });

const isoDateSchema = z.iso.date({ message: 'Enter a date as YYYY-MM-DD.' });

/** Non-negative integer cents. */
export const centsSchema = z
  .number({ message: 'Enter an amount in cents (a whole number).' })
  .int({ message: 'Amounts are whole cents.' })
  .min(0, { message: 'The amount cannot be negative.' })
  .max(Number.MAX_SAFE_INTEGER, { message: 'The amount is out of range.' });

const currencySchema = z.enum(CURRENCY_CODES);
const timestampSchema = z.string(); // ISO-8601 date-time

/** A boolean in a query string: true/false, 1/0, Y/N, yes/no (any case). */
export const queryBooleanSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['true', 'false', '1', '0', 'y', 'n', 'yes', 'no'], { message: 'Use true or false.' }))
  .transform((v) => v === 'true' || v === '1' || v === 'y' || v === 'yes');

/** A terminal id (§3 elmer_id). */
export const terminalElmerIdSchema = z
  .string({ message: 'Enter the terminal id (elmer_id).' })
  .trim()
  .min(1, { message: 'Enter the terminal id (elmer_id).' })
  .max(40, { message: 'A terminal id has at most 40 characters.' });

/** A device serial number: 3–40 letters, digits and dashes. */
export const SERIAL_NUMBER_MESSAGE = 'A serial number has 3–40 letters, digits or dashes.';
export const serialNumberSchema = z
  .string({ message: SERIAL_NUMBER_MESSAGE })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9-]{3,40}$/, { message: SERIAL_NUMBER_MESSAGE });

/** `Idempotency-Key` request header (1–200 visible ASCII characters), optional. Fastify lower-cases header names. */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .trim()
    .regex(/^[\x21-\x7e]{1,200}$/, { message: 'An Idempotency-Key is 1–200 visible ASCII characters.' })
    .optional(),
});
export type IdempotencyHeaders = z.infer<typeof idempotencyHeaders>;

/** `sort` of a list: a whitelisted field, '-field' for descending. */
function sortSchema<const T extends readonly [string, ...string[]]>(fields: T) {
  const values = fields.flatMap((f) => [f, `-${f}`]) as [string, ...string[]];
  return z.enum(values, { message: `Sort by one of: ${fields.join(', ')} (prefix - for descending).` }).optional();
}

/** A list page: `{ items, total }`. */
function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int().min(0) });
}

/** `{ id, token }`: the customer id and the session token of "…" paths. */
export const accountParams = z.object({ id: idParam('customer id'), token: z.string() });
export type AccountParams = z.infer<typeof accountParams>;

/** Exactly one of `keys` is present (a message on '_' otherwise). */
function exactlyOne(keys: readonly string[]) {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const present = keys.filter((k) => value[k] !== undefined);
    if (present.length !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: present.length === 0 ? [] : [present[1]!],
        message:
          present.length === 0
            ? `Filter by exactly one of: ${keys.join(', ')}.`
            : `Filter by one of ${keys.join(', ')} at a time (got ${present.join(' and ')}).`,
      });
    }
  };
}

// ── Terminals ─────────────────────────────────────────────────────────────────────────────────────

export const TERMINAL_STATUSES = ['active', 'pending', 'retired'] as const;
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];
export const TERMINAL_STATUS_LABELS: Readonly<Record<TerminalStatus, string>> = {
  active: 'Active',
  pending: 'Pending installation',
  retired: 'Retired',
};

/** The query kinds of GET …/customerterminals (exactly one). `elmer_id` is the "by terminal id" form. */
export const TERMINAL_QUERY_KINDS = ['custorderid', 'customerplanid', 'storeid', 'elmer_id'] as const;

export const terminalListQuery = paginationQuerySchema
  .extend({
    custorderid: idParam('order id').optional(),
    customerplanid: idParam('plan id').optional(),
    storeid: idParam('store id').optional(),
    elmer_id: terminalElmerIdSchema.optional(),
    sort: sortSchema(['elmer_id', 'installed_at', 'status', 'serial_number']),
  })
  .superRefine(exactlyOne(TERMINAL_QUERY_KINDS));
export type TerminalListQuery = z.infer<typeof terminalListQuery>;

export const retireReasonSchema = z.object({ id: z.number().int(), code: z.string(), label: z.string() });

export const terminal = z.object({
  id: z.number().int(),
  elmer_id: z.string(),
  serial_number: z.string(),
  pos_cc_processor_serial_number: z.string().nullable(),
  customer_id: z.number().int(),
  store_id: z.number().int(),
  product: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  order_id: z.number().int().nullable(),
  plan_id: z.number().int().nullable(),
  under_transfer: z.boolean(),
  status: z.enum(TERMINAL_STATUSES),
  status_label: z.string(),
  installed_at: timestampSchema.nullable(),
  retired_at: timestampSchema.nullable(),
  retire_reason: retireReasonSchema.nullable(),
  version: z.number().int(),
});
export type Terminal = z.infer<typeof terminal>;
export const terminalList = page(terminal);
export type TerminalList = z.infer<typeof terminalList>;

export const accountTerminalParams = accountParams.extend({ terminalId: idParam('terminal id') });

/**
 * PUT …/customerterminals/{terminalId}: exactly one shape —
 *   { elmer_id, under_transfer, version }          mark / unmark under transfer (elmer_id must be the terminal's), or
 *   { pos_cc_processor_serial_number, version }    set the processor serial (null clears it).
 */
export const terminalUpdateRequest = z
  .object({
    elmer_id: terminalElmerIdSchema.optional(),
    under_transfer: z.boolean({ message: 'under_transfer is true or false.' }).optional(),
    pos_cc_processor_serial_number: serialNumberSchema.nullable().optional(),
    version: recordVersionSchema,
  })
  .superRefine((body, ctx) => {
    const transfer = body.elmer_id !== undefined || body.under_transfer !== undefined;
    const serial = body.pos_cc_processor_serial_number !== undefined;
    if (transfer && serial) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'Send either {elmer_id, under_transfer} or {pos_cc_processor_serial_number}, not both.',
      });
    } else if (!transfer && !serial) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'Say what changes: {elmer_id, under_transfer} or {pos_cc_processor_serial_number}.',
      });
    } else if (transfer) {
      if (body.elmer_id === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['elmer_id'],
          message: 'Send the terminal id (elmer_id) with under_transfer.',
        });
      if (body.under_transfer === undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['under_transfer'],
          message: 'Send under_transfer (true or false) with elmer_id.',
        });
    }
  });
export type TerminalUpdateRequest = z.infer<typeof terminalUpdateRequest>;

export const retireTerminalParams = z.object({ token: z.string(), terminalId: idParam('terminal id') });
/** DELETE …/customerterminals/{terminalId}: a retire reason (GET /api/domaindata?type=retire_reason) and the version. */
export const retireTerminalRequest = z.object({
  reason_id: idParam('retire reason'),
  version: z.coerce
    .number({ message: 'Send the version of the terminal you retire.' })
    .int({ message: 'The version is a whole number.' })
    .min(1, { message: 'The version is a positive number.' }),
});
export type RetireTerminalRequest = z.infer<typeof retireTerminalRequest>;
/** Query form of the same (both fields optional here; the merged body+query is checked with retireTerminalRequest). */
export const retireTerminalQuery = z.object({ reason_id: z.string().optional(), version: z.string().optional() });

/** GET /api/customers/{token}/terminals/validate/{a}/{b}: a = terminal id (elmer_id), b = serial number. */
export const terminalValidateParams = z.object({ token: z.string(), a: terminalElmerIdSchema, b: serialNumberSchema });
/**
 * May this terminal id and serial number be used together (e.g. before a swap)? valid when the terminal exists,
 * is not retired, and the serial is its own or not used by another terminal. `reasons` says why not.
 */
export const terminalValidation = z.object({
  elmer_id: z.string(),
  serial_number: z.string(),
  valid: z.boolean(),
  /** The serial number is this terminal's current one. */
  serial_matches: z.boolean(),
  /** The terminal id of another terminal that has this serial number, if any. */
  serial_in_use_by: z.string().nullable(),
  reasons: z.array(z.string()),
  terminal: z
    .object({
      id: z.number().int(),
      customer_id: z.number().int(),
      store_id: z.number().int(),
      status: z.enum(TERMINAL_STATUSES),
    })
    .nullable(),
});
export type TerminalValidation = z.infer<typeof terminalValidation>;

// ── Payment plans ─────────────────────────────────────────────────────────────────────────────────

/** customer_payment_plans.kind; each has a §9 payment plan type id. */
export const PAYMENT_PLAN_KIND_CODES = ['hardware_sale', 'monthly', 'yearly', 'credit_memo', 'due_amount'] as const;
export type PaymentPlanKindCode = (typeof PAYMENT_PLAN_KIND_CODES)[number];
export const PAYMENT_PLAN_KIND_LABELS: Readonly<Record<PaymentPlanKindCode, string>> = {
  hardware_sale: 'Hardware sale plan',
  monthly: 'Monthly plan',
  yearly: 'Yearly plan',
  credit_memo: 'Credit memo plan',
  due_amount: 'Due amount plan',
};
/** §9 ids: upfront 1, monthly 4, yearly 5, credit memo 30, due amount 40. */
export const PAYMENT_PLAN_TYPE_IDS: Readonly<Record<PaymentPlanKindCode, number>> = {
  hardware_sale: OTHER_IDS.UPFRONT_PAYMENT_PLAN_ID,
  monthly: OTHER_IDS.MONTHLY_PLAN_ID,
  yearly: OTHER_IDS.YEARLY_PLAN_ID,
  credit_memo: OTHER_IDS.CREDIT_MEMO_PAYMENT_PLAN_ID,
  due_amount: OTHER_IDS.DUE_AMOUNT_PAYMENT_PLAN_ID,
};
/** Kinds whose term, interval and amounts are all zero (§9). */
export const ZERO_AMOUNT_PLAN_KINDS: readonly PaymentPlanKindCode[] = ['credit_memo', 'due_amount'];
/** Kinds that carry a license (their expiry is also the store's). */
export const LICENSED_PLAN_KINDS: readonly PaymentPlanKindCode[] = ['monthly', 'yearly'];
/** Default term / interval (months) per kind. */
export const PAYMENT_PLAN_KIND_TERMS: Readonly<Record<PaymentPlanKindCode, { term: number; interval: number }>> = {
  hardware_sale: { term: 0, interval: 0 },
  monthly: { term: BILLING_TERM.MONTHLY, interval: BILLING_TERM.MONTHLY },
  yearly: { term: BILLING_TERM.YEARLY, interval: BILLING_TERM.YEARLY },
  credit_memo: { term: 0, interval: 0 },
  due_amount: { term: 0, interval: 0 },
};

export const paymentPlan = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  store_id: z.number().int().nullable(),
  order_id: z.number().int().nullable(),
  kind: z.enum(PAYMENT_PLAN_KIND_CODES),
  kind_label: z.string(),
  /** §3 paymentPlanId: the §9 type id (1, 4, 5, 30, 40). */
  payment_plan_type_id: z.number().int(),
  plan_name: z.string(),
  term: z.number().int(),
  interval: z.number().int(),
  initial_amount_cents: z.number().int(),
  recurring_amount_cents: z.number().int(),
  currency: currencySchema,
  starts_on: z.string(),
  license_expires_on: z.string().nullable(),
  next_billing_on: z.string().nullable(),
  status: z.enum(PAYMENT_PLAN_STATUSES),
  version: z.number().int(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type PaymentPlan = z.infer<typeof paymentPlan>;
export const paymentPlanList = page(paymentPlan);
export type PaymentPlanList = z.infer<typeof paymentPlanList>;

export const paymentPlanListQuery = paginationQuerySchema.extend({
  storeid: idParam('store id').optional(),
  status: z
    .enum(PAYMENT_PLAN_STATUSES, { message: `Status is one of ${PAYMENT_PLAN_STATUSES.join(', ')}.` })
    .optional(),
  sort: sortSchema(['starts_on', 'kind', 'status', 'id']),
});
export type PaymentPlanListQuery = z.infer<typeof paymentPlanListQuery>;

export const accountPlanParams = accountParams.extend({ planId: idParam('plan id') });

/**
 * POST …/customerpaymentplans (add a plan). Amounts in cents of the store's (or customer's) currency. Term and
 * interval default by kind (monthly 1/1, yearly 12/12, others 0/0); credit memo and due amount plans are all
 * zeros (§9). store_id is required except for credit memo and due amount plans.
 */
export const paymentPlanCreateRequest = z
  .object({
    kind: z.enum(PAYMENT_PLAN_KIND_CODES, { message: `Kind is one of ${PAYMENT_PLAN_KIND_CODES.join(', ')}.` }),
    store_id: idField('store id').nullable().optional(),
    plan_name: z.string().trim().min(1, { message: 'Enter a plan name.' }).max(200).optional(),
    initial_amount_cents: centsSchema.default(0),
    recurring_amount_cents: centsSchema.default(0),
    term: z.number().int().min(0).max(120, { message: 'A term is at most 120 months.' }).optional(),
    interval: z.number().int().min(0).max(120, { message: 'An interval is at most 120 months.' }).optional(),
    starts_on: isoDateSchema,
    license_expires_on: isoDateSchema.optional(),
  })
  .superRefine((body, ctx) => {
    const zero = ZERO_AMOUNT_PLAN_KINDS.includes(body.kind);
    if (!zero && body.store_id == null)
      ctx.addIssue({ code: 'custom', path: ['store_id'], message: 'Choose the store this plan is for.' });
    if (zero) {
      for (const key of ['initial_amount_cents', 'recurring_amount_cents', 'term', 'interval'] as const) {
        if ((body[key] ?? 0) !== 0)
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `A ${PAYMENT_PLAN_KIND_LABELS[body.kind].toLowerCase()} has zero ${key.replace(/_/g, ' ')}.`,
          });
      }
    }
    if (body.license_expires_on !== undefined && !LICENSED_PLAN_KINDS.includes(body.kind)) {
      ctx.addIssue({
        code: 'custom',
        path: ['license_expires_on'],
        message: 'Only monthly and yearly plans carry a license.',
      });
    }
    if (body.license_expires_on !== undefined && body.license_expires_on < body.starts_on) {
      ctx.addIssue({
        code: 'custom',
        path: ['license_expires_on'],
        message: 'The license cannot expire before the plan starts.',
      });
    }
  });
export type PaymentPlanCreateRequest = z.input<typeof paymentPlanCreateRequest>;
/** As the server sees it (defaults applied). */
export type PaymentPlanCreateBody = z.output<typeof paymentPlanCreateRequest>;

/** POST …/customerpaymentplans/{planId}: update the license expiry (monthly/yearly plans; the store's follows). */
export const licenseExpiryUpdateRequest = z.object({
  license_expires_on: isoDateSchema,
  version: recordVersionSchema,
});
export type LicenseExpiryUpdateRequest = z.infer<typeof licenseExpiryUpdateRequest>;

/** PUT …/customerpaymentplans/{planId} (/editpaymentplan): the §3 PaymentPlanInfo fields. At least one change. */
export const paymentPlanUpdateRequest = z
  .object({
    plan_name: z.string().trim().min(1, { message: 'Enter a plan name.' }).max(200).optional(),
    initial_amount_cents: centsSchema.optional(),
    recurring_amount_cents: centsSchema.optional(),
    term: z.number().int().min(0).max(120, { message: 'A term is at most 120 months.' }).optional(),
    interval: z.number().int().min(0).max(120, { message: 'An interval is at most 120 months.' }).optional(),
    version: recordVersionSchema,
  })
  .refine(
    (b) =>
      b.plan_name !== undefined ||
      b.initial_amount_cents !== undefined ||
      b.recurring_amount_cents !== undefined ||
      b.term !== undefined ||
      b.interval !== undefined,
    { message: 'Say what changes: plan_name, initial_amount_cents, recurring_amount_cents, term or interval.' },
  );
export type PaymentPlanUpdateRequest = z.infer<typeof paymentPlanUpdateRequest>;

// ── Billing items ─────────────────────────────────────────────────────────────────────────────────

/** customer_billing_items.status: A active, I inactive, C canceled. */
export const CUSTOMER_BILLING_ITEM_STATUS_CODES = ['A', 'I', 'C'] as const;
export type CustomerBillingItemStatus = (typeof CUSTOMER_BILLING_ITEM_STATUS_CODES)[number];
export const CUSTOMER_BILLING_ITEM_STATUS_LABELS: Readonly<Record<CustomerBillingItemStatus, string>> = {
  A: 'Active',
  I: 'Inactive',
  C: 'Canceled',
};
/** custstoreid default (§7): every row of the customer, store-level and customer-level (decision 056). */
export const ALL_STORES_CUST_STORE_ID = OTHER_IDS.ALL_STORES_CUST_STORE_ID;

/**
 * GET …/customerbillingitems. custstoreid 999999999 (default) = all the customer's rows; a store id = that store's.
 * status filters by letter. checkForPreviousRecords (default false): false lists current rows only (not canceled,
 * not ended before today); true adds canceled and ended rows (the history). A status filter wins over it.
 */
export const customerBillingItemListQuery = paginationQuerySchema.extend({
  customerplanid: idParam('plan id').optional(),
  custstoreid: idParam('store id').default(ALL_STORES_CUST_STORE_ID),
  status: z.enum(CUSTOMER_BILLING_ITEM_STATUS_CODES, { message: 'Status is A, I or C.' }).optional(),
  billingitemid: idParam('billing item id').optional(),
  checkForPreviousRecords: queryBooleanSchema.default(false),
  sort: sortSchema(['starts_on', 'billing_item_id', 'status', 'id']),
});
export type CustomerBillingItemListQuery = z.infer<typeof customerBillingItemListQuery>;

export const customerBillingItem = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  store_id: z.number().int().nullable(),
  plan_id: z.number().int().nullable(),
  billing_item_id: z.number().int(),
  name: z.string(),
  category: z.string().nullable(),
  /** §3: Y when the item is a software feature. */
  feature: z.enum(['Y', 'N']),
  /** §3: S per store, C per customer. */
  charge_at_level: z.enum(['S', 'C']),
  recurring: z.boolean(),
  quantity: z.number().int(),
  unit_price_cents: z.number().int(),
  amount_cents: z.number().int(),
  currency: currencySchema,
  status: z.enum(CUSTOMER_BILLING_ITEM_STATUS_CODES),
  status_label: z.string(),
  starts_on: z.string(),
  ends_on: z.string().nullable(),
  version: z.number().int(),
});
export type CustomerBillingItem = z.infer<typeof customerBillingItem>;
/** §3 "Customer billing items response: customer_billing_items". */
export const customerBillingItemList = z.object({
  customer_billing_items: z.array(customerBillingItem),
  total: z.number().int().min(0),
});
export type CustomerBillingItemList = z.infer<typeof customerBillingItemList>;

/** GET …/customerpaymentplans/{planId}: the plan, every billing item attached to it (history included), its terminals. */
export const paymentPlanDetail = paymentPlan.extend({
  billing_items: z.array(customerBillingItem),
  terminals_count: z.number().int(),
  /** Terminals of the plan that are not retired. */
  active_terminals_count: z.number().int(),
});
export type PaymentPlanDetail = z.infer<typeof paymentPlanDetail>;

/**
 * POST …/customerbillingitems. unit_price_cents defaults to the catalogue price in the customer's currency;
 * store_id is required for items charged per store (S); plan_id, when given, must be the customer's (and the store's).
 */
export const customerBillingItemCreateRequest = z
  .object({
    billing_item_id: idField('billing item id'),
    store_id: idField('store id').nullable().optional(),
    plan_id: idField('plan id').nullable().optional(),
    quantity: z
      .number()
      .int({ message: 'A quantity is a whole number.' })
      .min(1, { message: 'The quantity is at least 1.' })
      .max(10_000)
      .default(1),
    unit_price_cents: centsSchema.optional(),
    starts_on: isoDateSchema.optional(),
    ends_on: isoDateSchema.nullable().optional(),
  })
  .refine((b) => !b.ends_on || !b.starts_on || b.ends_on >= b.starts_on, {
    path: ['ends_on'],
    message: 'The end date cannot be before the start date.',
  });
export type CustomerBillingItemCreateRequest = z.input<typeof customerBillingItemCreateRequest>;
export type CustomerBillingItemCreateBody = z.output<typeof customerBillingItemCreateRequest>;

// ── Features (/editplan) ──────────────────────────────────────────────────────────────────────────

/**
 * The features holders of customer_features_limited may switch on or off (decision 057): the NRS Pay software
 * features that work inside the POS app alone — no third party, no extra hardware, no compliance check.
 * Everything else (E-commerce, eWIC, Unlimited EBT, tobacco scan data, camera integration, and the non-NRS-Pay
 * features such as extra register licenses) needs customer_features_edit.
 */
export const LIMITED_FEATURES = [
  'Advanced Data',
  'Customer Tabs',
  'Employee Time Clock',
  'Item Modifiers',
  'No Ads',
] as const satisfies readonly NrsPaySoftwareFeature[];
export type LimitedFeature = (typeof LIMITED_FEATURES)[number];

export function isLimitedFeature(featureName: string): featureName is LimitedFeature {
  return (LIMITED_FEATURES as readonly string[]).includes(featureName);
}
export function isNrsPaySoftwareFeature(featureName: string): featureName is NrsPaySoftwareFeature {
  return (NRS_PAY_SOFTWARE_FEATURES as readonly string[]).includes(featureName);
}

/** May a holder of these privileges switch this feature (by its name) on or off? */
export function canChangeFeature(privileges: Iterable<string>, feature: string | { readonly name: string }): boolean {
  const granted = new Set(privileges);
  if (granted.has('customer_features_edit')) return true;
  const name = typeof feature === 'string' ? feature : feature.name;
  return granted.has('customer_features_limited') && isLimitedFeature(name);
}

export const featuresQuery = z.object({ custstoreid: idParam('store id') });
export type FeaturesQuery = z.infer<typeof featuresQuery>;

export const storeFeature = z.object({
  billing_item_id: z.number().int(),
  name: z.string(),
  nrs_pay: z.boolean(),
  /** In LIMITED_FEATURES. */
  limited: z.boolean(),
  /** The caller may switch it (canChangeFeature). */
  can_change: z.boolean(),
  charge_at_level: z.enum(['S', 'C']),
  /** Catalogue price in the store's currency; null when the item has no price in it. */
  price_cents: z.number().int().nullable(),
  currency: currencySchema,
  enabled: z.boolean(),
  /** The active customer billing item that switches it on. */
  customer_billing_item_id: z.number().int().nullable(),
});
export type StoreFeature = z.infer<typeof storeFeature>;

export const storeFeatures = z.object({
  store_id: z.number().int(),
  customer_id: z.number().int(),
  currency: currencySchema,
  /** Opaque tag of the store's current feature rows; send it back with a change (stale → 409). */
  features_version: z.string(),
  features: z.array(storeFeature),
});
export type StoreFeatures = z.infer<typeof storeFeatures>;

/**
 * PUT …/features: the complete set of features that should be on for the store. Added features become active
 * billing items (catalogue price, attached to the store's active monthly/yearly plan); removed ones are canceled
 * (ends today). notify_merchant also e-mails the feature-change confirmation (queued in the same transaction).
 */
export const featuresUpdateRequest = z.object({
  custstoreid: idField('store id'),
  features: z
    .array(idField('billing item id'))
    .max(100, { message: 'At most 100 features.' })
    .refine((list) => new Set(list).size === list.length, { message: 'Each feature may appear once.' }),
  features_version: z
    .string({ message: 'Send the features_version you read.' })
    .min(1, { message: 'Send the features_version you read.' })
    .max(200),
  notify_merchant: z.boolean().default(false),
});
export type FeaturesUpdateRequest = z.input<typeof featuresUpdateRequest>;
export type FeaturesUpdateBody = z.output<typeof featuresUpdateRequest>;

export const featuresUpdateResult = storeFeatures.extend({
  added: z.array(z.number().int()),
  removed: z.array(z.number().int()),
  /** The feature-change e-mail job (GET /api/jobs/{jobId}) when notify_merchant was set and something changed. */
  email_job_id: z.string().nullable(),
});
export type FeaturesUpdateResult = z.infer<typeof featuresUpdateResult>;

// ── Bundles and promotions ────────────────────────────────────────────────────────────────────────

export const storeFilterQuery = paginationQuerySchema.extend({ custstoreid: idParam('store id').optional() });
export type StoreFilterQuery = z.infer<typeof storeFilterQuery>;

export const customerBundle = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  store_id: z.number().int(),
  bundle_id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  nrs_pay: z.boolean(),
  plan_id: z.number().int().nullable(),
  status: z.enum(CUSTOMER_BILLING_ITEM_STATUS_CODES),
  status_label: z.string(),
  starts_on: z.string(),
  currency: currencySchema,
  /** Sum of the bundle's monthly item prices in the store's currency. */
  monthly_price_cents: z.number().int(),
  items: z.array(z.object({ billing_item_id: z.number().int(), name: z.string(), price_cents: z.number().int() })),
});
export type CustomerBundle = z.infer<typeof customerBundle>;
export const customerBundleList = page(customerBundle);
export type CustomerBundleList = z.infer<typeof customerBundleList>;

export const orderPromotion = z.object({
  id: z.number().int(),
  order_id: z.number().int().nullable(),
  customer_id: z.number().int(),
  store_id: z.number().int().nullable(),
  promotion_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  /** H hardware, S service, R referral. */
  type: z.string(),
  /** A amount, P percent. */
  method: z.string(),
  amount_cents: z.number().int(),
  currency: currencySchema,
  applied_at: timestampSchema,
});
export type OrderPromotion = z.infer<typeof orderPromotion>;
export const orderPromotionList = page(orderPromotion);
export type OrderPromotionList = z.infer<typeof orderPromotionList>;

// ── Transactions ──────────────────────────────────────────────────────────────────────────────────

export const TRANSACTION_ACTIONS = ['retry', 'void'] as const;
export type TransactionAction = (typeof TRANSACTION_ACTIONS)[number];

/** What may be done to a transaction in a status: retry a failed one, void a pending one. */
export function transactionActionsFor(status: TransactionStatus): TransactionAction[] {
  if (status === 'F') return ['retry'];
  if (status === 'P') return ['void'];
  return [];
}

export const transactionListQuery = paginationQuerySchema.extend({
  storeid: idParam('store id').optional(),
  invoiceid: idParam('invoice id').optional(),
  status: z
    .enum(TRANSACTION_STATUSES as [TransactionStatus, ...TransactionStatus[]], {
      message: `Status is one of ${TRANSACTION_STATUSES.join(', ')}.`,
    })
    .optional(),
  /** fetch=true: across all customers (the failed-payments list); the id in the path is ignored. */
  fetch: queryBooleanSchema.default(false),
  sort: sortSchema(['attempted_at', 'amount_cents', 'status', 'id']),
});
export type TransactionListQuery = z.infer<typeof transactionListQuery>;

export const transactionInstrument = z.object({
  id: z.number().int(),
  kind: z.enum(PAYMENT_METHOD_KINDS),
  /** 'Visa ending 4242' / 'Chase ending 6789' (domain describeCard / describeBankAccount). */
  label: z.string(),
});

export const transaction = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  store_id: z.number().int().nullable(),
  invoice_id: z.number().int().nullable(),
  invoice_number: z.string().nullable(),
  instrument: transactionInstrument.nullable(),
  kind: z.string(),
  status: z.enum(TRANSACTION_STATUSES as [TransactionStatus, ...TransactionStatus[]]),
  status_label: z.string(),
  amount_cents: z.number().int(),
  currency: currencySchema,
  gateway_reference: z.string().nullable(),
  failure_reason: z.string().nullable(),
  attempted_at: timestampSchema,
  settled_at: timestampSchema.nullable(),
  /** transactionActionsFor(status). */
  actions: z.array(z.enum(TRANSACTION_ACTIONS)),
  version: z.number().int(),
});
export type Transaction = z.infer<typeof transaction>;
/** `total` is exact up to SEARCH_TOTAL_CAP; `total_capped: true` → more ("1,000+"; decision 109). */
export const transactionList = cappedPagedList(transaction);
export type TransactionList = z.infer<typeof transactionList>;

export const accountTransactionParams = accountParams.extend({ txId: idParam('transaction id') });

/** POST …/transactions/{txId}: retry a failed (F) one (a new charge), or void a pending (P) one. $ */
export const transactionActionRequest = z.object({
  action: z.enum(TRANSACTION_ACTIONS, { message: 'Action is retry or void.' }),
  version: recordVersionSchema,
});
export type TransactionActionRequest = z.infer<typeof transactionActionRequest>;

/** The transaction acted on (retry: now R reprocessed; void: V) and, for a retry, the new charge (S or F). */
export const transactionActionResult = z.object({
  transaction,
  new_transaction: transaction.nullable(),
});
export type TransactionActionResult = z.infer<typeof transactionActionResult>;

// ── Invoices ──────────────────────────────────────────────────────────────────────────────────────

/** Only pending (N) and paid (P) invoices can be reversed (decision 058). */
export function canReverseInvoice(status: InvoiceStatus): boolean {
  return status === 'N' || status === 'P';
}

export const invoiceListQuery = paginationQuerySchema.extend({
  storeid: idParam('store id').optional(),
  status: z
    .enum(INVOICE_STATUSES as [InvoiceStatus, ...InvoiceStatus[]], { message: 'Status is N, R or P.' })
    .optional(),
  type: z
    .enum(INVOICE_TYPES as [string, ...string[]], { message: `Type is one of ${INVOICE_TYPES.join(', ')}.` })
    .optional(),
  sort: sortSchema(['issued_on', 'due_on', 'total_cents', 'status', 'invoice_number']),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

export const invoice = z.object({
  id: z.number().int(),
  invoice_number: z.string(),
  customer_id: z.number().int(),
  store_id: z.number().int().nullable(),
  plan_id: z.number().int().nullable(),
  status: z.enum(INVOICE_STATUSES as [InvoiceStatus, ...InvoiceStatus[]]),
  status_label: z.string(),
  type: z.string(),
  type_label: z.string(),
  period_start: z.string().nullable(),
  period_end: z.string().nullable(),
  issued_on: z.string(),
  due_on: z.string(),
  total_cents: z.number().int(),
  tax_cents: z.number().int(),
  paid_cents: z.number().int(),
  /** total − paid (0 for a reversed invoice). */
  balance_cents: z.number().int(),
  currency: currencySchema,
  reversed_at: timestampSchema.nullable(),
  can_reverse: z.boolean(),
  version: z.number().int(),
});
export type Invoice = z.infer<typeof invoice>;
/** `total` is exact up to SEARCH_TOTAL_CAP; `total_capped: true` → more ("1,000+"; decision 109). */
export const invoiceList = cappedPagedList(invoice);
export type InvoiceList = z.infer<typeof invoiceList>;

export const invoiceLine = z.object({
  id: z.number().int(),
  billing_item_id: z.number().int(),
  description: z.string(),
  quantity: z.number().int(),
  unit_cents: z.number().int(),
  amount_cents: z.number().int(),
});
export type InvoiceLine = z.infer<typeof invoiceLine>;

export const creditMemo = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  store_id: z.number().int().nullable(),
  invoice_id: z.number().int().nullable(),
  type: z.enum(CREDIT_MEMO_TYPES as [string, ...string[]]),
  status: z.enum(CREDIT_MEMO_STATUSES as [string, ...string[]]),
  amount_cents: z.number().int(),
  currency: currencySchema,
  reason: z.string(),
  created_by_email: z.string(),
  created_at: timestampSchema,
  /** Who approved or rejected it, when (issue 16; null while pending). */
  approved_by_email: z.string().nullable().optional(),
  decided_at: timestampSchema.nullable().optional(),
});
export type CreditMemo = z.infer<typeof creditMemo>;

/**
 * A credit invoice (issue 29 item 7, decision 152): type R nets a reversed invoice — its lines the original's,
 * negated, so the two add up to zero. A document: the reversal's money is the original's (status R, owes nothing).
 */
export const creditInvoice = z.object({
  id: z.number().int(),
  invoice_number: z.string(),
  type: z.enum(['R', 'B']),
  type_label: z.string(),
  customer_id: z.number().int(),
  store_id: z.number().int().nullable(),
  reverses_invoice_id: z.number().int().nullable(),
  reverses_invoice_number: z.string().nullable(),
  /** A return's credit (type R without a reversed invoice): its terminals credited, the restocking fee kept (158). */
  return_id: z.number().int().nullable().optional(),
  /** A type B's order and the credit memo that moves its money once approved. */
  order_id: z.number().int().nullable(),
  credit_memo_id: z.number().int().nullable(),
  issued_on: z.string(),
  /** Negative: what it credits. */
  total_cents: z.number().int(),
  tax_cents: z.number().int(),
  currency: currencySchema,
  reason: z.string(),
  created_by_email: z.string().nullable(),
  created_at: timestampSchema,
  lines: z.array(invoiceLine),
});
export type CreditInvoice = z.infer<typeof creditInvoice>;

/** GET …/creditinvoices?storeid: a customer's credit invoices, newest first (few per customer: not paged). */
export const creditInvoiceListQuery = z.object({
  storeid: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
});
export const creditInvoiceList = z.object({ items: z.array(creditInvoice) });
export type CreditInvoiceList = z.infer<typeof creditInvoiceList>;

export const invoiceDetail = invoice.extend({
  lines: z.array(invoiceLine),
  transactions: z.array(transaction),
  credit_memos: z.array(creditMemo),
  /** The type R credit invoice that nets this one once it is reversed (decision 152); null otherwise. */
  credit_invoice: creditInvoice.nullable(),
});
export type InvoiceDetail = z.infer<typeof invoiceDetail>;

export const accountInvoiceParams = accountParams.extend({ invoiceId: idParam('invoice id') });

/** POST …/customerinvoices/{invoiceId}/reverse. $ */
export const invoiceReverseRequest = z.object({
  reason: z
    .string({ message: 'Say why the invoice is reversed.' })
    .trim()
    .min(3, { message: 'Say why the invoice is reversed (at least 3 characters).' })
    .max(500),
  version: recordVersionSchema,
});
export type InvoiceReverseRequest = z.infer<typeof invoiceReverseRequest>;

/**
 * The reversed invoice (status R); for money already paid, a refund credit memo pending AR approval (type R,
 * status P); pending charges of the invoice are voided.
 */
export const invoiceReverseResult = z.object({
  invoice,
  credit_memo: creditMemo.nullable(),
  /** The type R credit invoice that nets it (decision 152). */
  credit_invoice: creditInvoice,
  voided_transaction_ids: z.array(z.number().int()),
});
export type InvoiceReverseResult = z.infer<typeof invoiceReverseResult>;

// ── Payment instruments (/editpayment) ────────────────────────────────────────────────────────────

export const PAYMENT_INSTRUMENT_KIND_CODES = PAYMENT_METHOD_KINDS;
export const BANK_ACCOUNT_TYPES = ['checking', 'savings'] as const;

/** Masked: brand, last4, expiry; bank name, routing/institution number, account last4 — never a full number. */
export const paymentInstrument = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  store_id: z.number().int().nullable(),
  kind: z.enum(PAYMENT_INSTRUMENT_KIND_CODES),
  name_on_account: z.string().nullable(),
  card: z
    .object({
      brand: z.string(),
      last4: z.string(),
      exp_month: z.number().int(),
      exp_year: z.number().int(),
      expired: z.boolean(),
    })
    .nullable(),
  bank: z
    .object({
      bank_name: z.string().nullable(),
      routing_number: z.string().nullable(),
      institution_number: z.string().nullable(),
      account_last4: z.string(),
      account_type: z.enum(BANK_ACCOUNT_TYPES).nullable(),
    })
    .nullable(),
  is_default: z.boolean(),
  status: z.enum(['active', 'inactive']),
  created_at: timestampSchema,
  version: z.number().int(),
});
export type PaymentInstrument = z.infer<typeof paymentInstrument>;
export const paymentInstrumentList = page(paymentInstrument);
export type PaymentInstrumentList = z.infer<typeof paymentInstrumentList>;

export const paymentInstrumentListQuery = paginationQuerySchema.extend({
  storeid: idParam('store id').optional(),
  status: z.enum(['active', 'inactive'], { message: 'Status is active or inactive.' }).optional(),
});
export type PaymentInstrumentListQuery = z.infer<typeof paymentInstrumentListQuery>;

export const accountInstrumentParams = accountParams.extend({ instrumentId: idParam('payment instrument id') });

/** ABA routing number check (9 digits, weights 3-7-1). */
export function isValidAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const d = [...value].map(Number);
  const sum = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]! + d[8]!);
  return sum % 10 === 0;
}

const nameOnAccountSchema = z
  .string({ message: 'Enter the name on the account.' })
  .trim()
  .min(1, { message: 'Enter the name on the account.' })
  .max(100, { message: 'A name has at most 100 characters.' });

/** A card: the token the gateway's browser library (or /gateway-local/v1/tokens) returned — never the number. */
export const cardInstrumentRequest = z.object({
  kind: z.literal('card'),
  card_token: z
    .string({ message: 'Tokenize the card first.' })
    .trim()
    .min(10, { message: 'Tokenize the card first.' })
    .max(4000),
  name_on_account: nameOnAccountSchema,
  store_id: idField('store id').nullable().optional(),
  make_default: z.boolean().default(true),
});

/**
 * A bank account. US: routing_number = the 9-digit ABA number. Canada: routing_number = the 5-digit transit number
 * and institution_number = the 3-digit institution number. The account number (4–17 digits) is stored encrypted.
 * check_image_upload_id: the public id of an upload of kind checkImage or achCadImage the same user made (POST
 * …/paymentinstruments/check|achcad/addimage) and not yet attached to anything.
 */
export const bankInstrumentRequest = z
  .object({
    kind: z.literal('bank'),
    name_on_account: nameOnAccountSchema,
    routing_number: z.string({ message: 'Enter the routing number.' }).trim(),
    institution_number: z.string().trim().optional(),
    account_number: z
      .string({ message: 'Enter the account number.' })
      .trim()
      .regex(/^\d{4,17}$/, { message: 'An account number has 4–17 digits.' }),
    account_type: z.enum(BANK_ACCOUNT_TYPES, { message: 'Account type is checking or savings.' }),
    bank_name: z
      .string({ message: 'Enter the bank name.' })
      .trim()
      .min(1, { message: 'Enter the bank name.' })
      .max(100),
    store_id: idField('store id').nullable().optional(),
    check_image_upload_id: uploadPublicId.optional(),
    make_default: z.boolean().default(true),
  })
  .superRefine((b, ctx) => {
    if (b.institution_number !== undefined && b.institution_number !== '') {
      if (!/^\d{3}$/.test(b.institution_number))
        ctx.addIssue({ code: 'custom', path: ['institution_number'], message: 'An institution number has 3 digits.' });
      if (!/^\d{5}$/.test(b.routing_number))
        ctx.addIssue({ code: 'custom', path: ['routing_number'], message: 'A Canadian transit number has 5 digits.' });
    } else if (!isValidAbaRoutingNumber(b.routing_number)) {
      ctx.addIssue({ code: 'custom', path: ['routing_number'], message: 'Enter a valid 9-digit ABA routing number.' });
    }
  });

export const paymentInstrumentCreateRequest = z.discriminatedUnion(
  'kind',
  [cardInstrumentRequest, bankInstrumentRequest],
  {
    message: 'Kind is card or bank.',
  },
);
export type PaymentInstrumentCreateRequest = z.input<typeof paymentInstrumentCreateRequest>;
export type PaymentInstrumentCreateBody = z.output<typeof paymentInstrumentCreateRequest>;

/**
 * PUT …/paymentinstruments/{instrumentId}: make this (active) instrument the customer's default; the customer's other
 * default stops being one. `version` is the instrument's as read (stale → 409 version_conflict with the current one).
 */
export const paymentInstrumentUpdateRequest = z.object({
  is_default: z.literal(true, { message: 'Only making an instrument the default is supported (is_default: true).' }),
  version: recordVersionSchema,
});
export type PaymentInstrumentUpdateRequest = z.infer<typeof paymentInstrumentUpdateRequest>;

/** DELETE …/paymentinstruments/{instrumentId}?version=N: the version read (stale → 409 version_conflict). */
export const paymentInstrumentRemoveQuery = z.object({
  version: z.coerce
    .number({ message: 'Send the version of the instrument you remove.' })
    .int({ message: 'The version is a whole number.' })
    .min(1, { message: 'The version is a positive number.' }),
});
export type PaymentInstrumentRemoveQuery = z.infer<typeof paymentInstrumentRemoveQuery>;

/** The window of the expiring-cards list, in days (default 30). */
export const EXPIRING_CARDS_DEFAULT_DAYS = 30;
export const EXPIRING_CARDS_MAX_DAYS = 366;

/** GET /api/customers/paymentinstruments/expiring/{token}?days&limit&offset. */
export const expiringCardsQuery = paginationQuerySchema.extend({
  days: z.coerce
    .number({ message: 'Days is a number.' })
    .int({ message: 'Days is a whole number.' })
    .min(1, { message: 'Days is at least 1.' })
    .max(EXPIRING_CARDS_MAX_DAYS, { message: `Days is at most ${EXPIRING_CARDS_MAX_DAYS}.` })
    .default(EXPIRING_CARDS_DEFAULT_DAYS),
});
export type ExpiringCardsQuery = z.infer<typeof expiringCardsQuery>;

/**
 * An active card whose last valid day (the end of its expiry month) falls from today to today + days. `elmer_id`:
 * a terminal in use at the card's store (or, for a card of no store, at any store of the customer) — what the
 * payment-update link is sent for; null when there is none.
 */
export const expiringCard = z.object({
  instrument_id: z.number().int(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  store_id: z.number().int().nullable(),
  store_name: z.string().nullable(),
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
  /** YYYY-MM-DD: the last day of the expiry month. */
  expires_on: isoDateSchema,
  is_default: z.boolean(),
  elmer_id: z.string().nullable(),
});
export type ExpiringCard = z.infer<typeof expiringCard>;
export const expiringCardList = page(expiringCard);
export type ExpiringCardList = z.infer<typeof expiringCardList>;

/** GET /api/customers/paymentinstruments/gateway/{token}: where the browser tokenizes cards. */
export const gatewayConfig = z.object({
  provider: z.enum(['local', 'remote']),
  /** POST the card here (gatewayTokenRequest) from the browser; the answer's token goes to POST …/paymentinstruments. */
  tokenize_url: z.string(),
  /** False when no gateway can be used (e.g. the local gateway in production). */
  available: z.boolean(),
});
export type GatewayConfig = z.infer<typeof gatewayConfig>;

// ── Card rules and the local gateway's tokenization ───────────────────────────────────────────────

/** Luhn checksum of a digit string. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The brand of a card number by its prefix. */
export function cardBrandOf(digits: string): CardBrand {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  return 'unknown';
}

/** Has a card with this expiry expired by `today` (a card is good through the last day of its month)? */
export function isCardExpired(expMonth: number, expYear: number, today: Date): boolean {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth() + 1;
  return expYear < y || (expYear === y && expMonth < m);
}

/** POST /gateway-local/v1/tokens (what the browser sends the gateway; never sent to /api). */
export const gatewayTokenRequest = z.object({
  number: z
    .string({ message: 'Enter the card number.' })
    .transform((v) => v.replace(/[\s-]/g, ''))
    .pipe(z.string().refine(isLuhnValid, { message: 'Enter a valid card number.' })),
  exp_month: z.coerce
    .number({ message: 'Enter the expiry month.' })
    .int()
    .min(1, { message: 'The month is 1–12.' })
    .max(12, { message: 'The month is 1–12.' }),
  exp_year: z.coerce
    .number({ message: 'Enter the expiry year.' })
    .int()
    .min(2000, { message: 'Enter a 4-digit year.' })
    .max(2100, { message: 'Enter a 4-digit year.' }),
  cvc: z
    .string({ message: 'Enter the security code.' })
    .trim()
    .regex(/^\d{3,4}$/, { message: 'The security code has 3 or 4 digits.' }),
  name: z.string().trim().max(100).optional(),
});
export type GatewayTokenRequest = z.input<typeof gatewayTokenRequest>;

export const gatewayToken = z.object({
  token: z.string(),
  brand: z.enum(CARD_BRANDS),
  last4: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});
export type GatewayToken = z.infer<typeof gatewayToken>;
