import { z } from 'zod';
import { CURRENCY_CODES, type CurrencyCode } from '../codes/currencies';
import {
  CUSTOMER_TYPE,
  CUSTOMER_TYPES,
  isSaleKind,
  SALE_KIND,
  type CustomerType,
  type OrderCustomerType,
} from '../codes/sales';
import { assertNever } from '../util/assert-never';
import { cappedPagedList, paginationQuerySchema } from './common';
import { sortSchema } from './customers';

/*
 * Promotions (#/promotions: promotions_view reads, promotions_edit writes; issue 17 point 3, decision 125):
 *   GET  /api/promotions/{token}?q&state&currency&customer_type&sort&limit&offset[&format=csv] → promotionSearchResult
 *   POST /api/promotions/{token}                 promotionCreateRequest → promotionRecord (201)
 *   PUT  /api/promotions/{id}/{token}            promotionUpdateRequest → promotionRecord (stale version → 409)
 *   POST /api/promotions/{id}/expire/{token}     promotionExpireRequest → promotionRecord (stale version → 409)
 *   GET  /api/promotions/{id}/orders/{token}     → promotionOrderList (the orders that used it)
 * The order flow looks codes up with GET /api/customers/promotions/{code}/{token}?expired=Y&promo_id= (catalogue.ts);
 * the server checks a promotion again when an order is submitted (promotionRefusal below).
 */

export const PROMOTION_TYPES = ['H', 'S', 'R'] as const;
export type PromotionType = (typeof PROMOTION_TYPES)[number];
export const PROMOTION_TYPE_LABELS: Readonly<Record<PromotionType, string>> = {
  H: 'Hardware',
  S: 'Software',
  R: 'Recurring',
};
export const PROMOTION_METHODS = ['A', 'P'] as const;
export type PromotionMethod = (typeof PROMOTION_METHODS)[number];
export const PROMOTION_METHOD_LABELS: Readonly<Record<PromotionMethod, string>> = { A: 'Amount', P: 'Percent' };

/** Codes are stored upper-case: 3–30 letters, digits, - or _, starting with a letter or digit. */
export const PROMOTION_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{2,29}$/;
export const PROMOTION_CODE_MESSAGE =
  'A promotion code is 3 to 30 letters, digits, - or _ (no spaces), starting with a letter or digit.';
export const PROMOTION_MAX_BILLING_ITEMS = 20;

/** Where a promotion stands today (decision 125). */
export const PROMOTION_STATES = ['scheduled', 'current', 'used_up', 'expired', 'inactive'] as const;
export type PromotionState = (typeof PROMOTION_STATES)[number];
export const PROMOTION_STATE_LABELS: Readonly<Record<PromotionState, string>> = {
  scheduled: 'Not started',
  current: 'Current',
  used_up: 'Used up',
  expired: 'Expired',
  inactive: 'Inactive',
};

const isoDay = /^\d{4}-\d{2}-\d{2}$/;
const dayField = (what: string) =>
  z
    .string()
    .regex(isoDay, { message: `Enter the ${what} as YYYY-MM-DD.` })
    .refine(
      (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      {
        message: `The ${what} is not a real date.`,
      },
    )
    .nullable();

/** The fields of a promotion as staff enter them (create and edit). */
const promotionFields = z.object({
  code: z
    .string({ message: 'Enter a promotion code.' })
    .trim()
    .toUpperCase()
    .regex(PROMOTION_CODE_PATTERN, { message: PROMOTION_CODE_MESSAGE }),
  name: z
    .string({ message: 'Enter a name.' })
    .trim()
    .min(1, { message: 'Enter a name.' })
    .max(120, { message: 'A name has at most 120 characters.' }),
  type: z.enum(PROMOTION_TYPES, { message: 'Type is H (hardware), S (software) or R (recurring).' }).default('H'),
  method: z.enum(PROMOTION_METHODS, { message: 'Method is A (amount) or P (percent).' }).default('A'),
  amount_cents: z
    .number({ message: 'The amount is a number of cents.' })
    .int({ message: 'The amount is a whole number of cents.' })
    .min(0, { message: 'The amount is not negative.' })
    .max(100_000_000, { message: 'The amount is at most 1,000,000.00.' })
    .nullable()
    .default(null),
  percent: z
    .number({ message: 'Enter a percentage from 0 to 100.' })
    .min(0, { message: 'Enter a percentage from 0 to 100.' })
    .max(100, { message: 'Enter a percentage from 0 to 100.' })
    .refine((p) => Math.abs(Math.round(p * 100) - p * 100) < 1e-6, {
      message: 'A percentage has at most 2 decimals.',
    })
    .nullable()
    .default(null),
  customer_type: z
    .enum(CUSTOMER_TYPES as [CustomerType, ...CustomerType[]], {
      message: `Customer type is one of ${CUSTOMER_TYPES.join(', ')}.`,
    })
    .default('A'),
  currency: z.enum(CURRENCY_CODES as unknown as [CurrencyCode, ...CurrencyCode[]], { message: 'Choose USD or CAD.' }),
  billing_item_ids: z
    .array(z.number().int().positive().max(2_147_483_647), { message: 'Billing items are a list of ids.' })
    .max(PROMOTION_MAX_BILLING_ITEMS, { message: `At most ${PROMOTION_MAX_BILLING_ITEMS} billing items.` })
    .default([])
    .transform((ids) => [...new Set(ids)]),
  starts_on: dayField('start date').default(null),
  expires_on: dayField('expiry date').default(null),
  usage_limit: z
    .number({ message: 'The usage limit is a number of orders.' })
    .int({ message: 'The usage limit is a whole number of orders.' })
    .min(1, { message: 'The usage limit is at least 1 (leave it empty for no limit).' })
    .max(1_000_000, { message: 'The usage limit is at most 1,000,000.' })
    .nullable()
    .default(null),
});

type PromotionFields = z.output<typeof promotionFields>;

/** The cross-field rules: amount for method A, percent for P; starts on or before it expires. */
function promotionRules(p: PromotionFields, ctx: z.RefinementCtx): void {
  if (p.method === 'A' && p.amount_cents === null)
    ctx.addIssue({ code: 'custom', path: ['amount_cents'], message: 'Enter the amount of an amount promotion.' });
  if (p.method === 'A' && p.percent !== null)
    ctx.addIssue({ code: 'custom', path: ['percent'], message: 'An amount promotion has no percentage.' });
  if (p.method === 'P' && p.percent === null)
    ctx.addIssue({ code: 'custom', path: ['percent'], message: 'Enter the percentage of a percent promotion.' });
  if (p.method === 'P' && p.amount_cents !== null)
    ctx.addIssue({ code: 'custom', path: ['amount_cents'], message: 'A percent promotion has no amount.' });
  if (p.starts_on && p.expires_on && p.starts_on > p.expires_on)
    ctx.addIssue({ code: 'custom', path: ['expires_on'], message: 'The expiry date is before the start date.' });
}

export const promotionCreateRequest = promotionFields.superRefine(promotionRules);
export type PromotionCreateRequest = z.input<typeof promotionCreateRequest>;
export type PromotionCreate = z.output<typeof promotionCreateRequest>;

const versionField = z.number({ message: 'Send the version you edited (a whole number).' }).int().min(1);

export const promotionUpdateRequest = promotionFields.extend({ version: versionField }).superRefine(promotionRules);
export type PromotionUpdateRequest = z.input<typeof promotionUpdateRequest>;
export type PromotionUpdate = z.output<typeof promotionUpdateRequest>;

export const promotionExpireRequest = z.object({ version: versionField });
export type PromotionExpireRequest = z.infer<typeof promotionExpireRequest>;

export const promotionIdParams = z.object({
  id: z.coerce
    .number({ message: 'The promotion id is a number.' })
    .int({ message: 'The promotion id is a whole number.' })
    .positive({ message: 'The promotion id is a positive number.' })
    .max(2_147_483_647, { message: 'The promotion id is too large.' }),
  token: z.string(),
});

export const promotionRecord = z.object({
  promo_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  type: z.enum(PROMOTION_TYPES),
  method: z.enum(PROMOTION_METHODS),
  amount_cents: z.number().int().nullable(),
  percent: z.number().nullable(),
  customer_type: z.string(),
  currency: z.enum(CURRENCY_CODES),
  billing_items: z.array(z.object({ billing_item_id: z.number().int(), name: z.string() })),
  starts_on: z.string().nullable(),
  expires_on: z.string().nullable(),
  usage_limit: z.number().int().nullable(),
  /** Orders submitted with it (not rejected or canceled; decision 125). */
  usage_count: z.number().int(),
  active: z.boolean(),
  state: z.enum(PROMOTION_STATES),
  version: z.number().int(),
  updated_at: z.string(),
});
export type PromotionRecord = z.infer<typeof promotionRecord>;

export const PROMOTION_SORT_FIELDS = ['code', 'name', 'starts_on', 'expires_on', 'usage_count', 'updated_at'] as const;
export type PromotionSortField = (typeof PROMOTION_SORT_FIELDS)[number];
export const PROMOTION_DEFAULT_SORT = 'code';
/** The list's state filter: current (usable today), expired, scheduled (not started) or all (default). */
export const PROMOTION_STATE_FILTERS = ['all', 'current', 'expired', 'scheduled'] as const;
export type PromotionStateFilter = (typeof PROMOTION_STATE_FILTERS)[number];

const emptyAsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

export const promotionSearchQuery = paginationQuerySchema.extend({
  /** Text in the code or the name. */
  q: z.preprocess(
    emptyAsAbsent,
    z.string().trim().max(100, { message: 'Search text is at most 100 characters.' }).optional(),
  ),
  state: z.preprocess(
    emptyAsAbsent,
    z
      .enum(PROMOTION_STATE_FILTERS, { message: `State is one of ${PROMOTION_STATE_FILTERS.join(', ')}.` })
      .default('all'),
  ),
  currency: z.preprocess(
    emptyAsAbsent,
    z
      .enum(CURRENCY_CODES as unknown as [CurrencyCode, ...CurrencyCode[]], { message: 'Choose USD or CAD.' })
      .optional(),
  ),
  customer_type: z.preprocess(
    emptyAsAbsent,
    z
      .enum(CUSTOMER_TYPES as [CustomerType, ...CustomerType[]], {
        message: `Customer type is one of ${CUSTOMER_TYPES.join(', ')}.`,
      })
      .optional(),
  ),
  sort: sortSchema(PROMOTION_SORT_FIELDS),
  format: z.enum(['json', 'csv'], { message: 'Format is json or csv.' }).default('json'),
});
export type PromotionSearchQuery = z.output<typeof promotionSearchQuery>;
export const promotionSearchResult = cappedPagedList(promotionRecord);
export type PromotionSearchResult = z.infer<typeof promotionSearchResult>;

export const PROMOTION_CSV_COLUMNS = [
  'promo_id',
  'code',
  'name',
  'type',
  'method',
  'amount_cents',
  'percent',
  'customer_type',
  'currency',
  'starts_on',
  'expires_on',
  'usage_limit',
  'usage_count',
  'state',
] as const satisfies readonly (keyof PromotionRecord)[];

export const promotionOrder = z.object({
  order_id: z.number().int(),
  unified_order_id: z.string().nullable(),
  status: z.string(),
  customer_id: z.number().int().nullable(),
  legal_name: z.string().nullable(),
  doing_business_as: z.string().nullable(),
  amount_cents: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
  applied_at: z.string(),
  /** False when the order was rejected or canceled (it no longer counts against the limit). */
  counts: z.boolean(),
});
export type PromotionOrder = z.infer<typeof promotionOrder>;
export const promotionOrderList = z.object({ promo_id: z.number().int(), items: z.array(promotionOrder) });
export type PromotionOrderList = z.infer<typeof promotionOrderList>;

// ── Rules (one place: the list's state, and whether an order may use a promotion) ────────────────────────

export interface PromotionForRules {
  readonly active: boolean;
  readonly starts_on: string | null;
  readonly expires_on: string | null;
  readonly usage_limit: number | null;
  readonly usage_count: number;
}

/** A promotion's state on `today` (YYYY-MM-DD): it runs from starts_on to expires_on, both days included. */
export function promotionState(p: PromotionForRules, today: string): PromotionState {
  if (!p.active) return 'inactive';
  if (p.expires_on !== null && p.expires_on < today) return 'expired';
  if (p.starts_on !== null && p.starts_on > today) return 'scheduled';
  if (p.usage_limit !== null && p.usage_count >= p.usage_limit) return 'used_up';
  return 'current';
}

/**
 * Whether an order is an existing customer's: the order row's customer, else the customer the order flow started from
 * (`additionalInfo.customerID`, set by New order for a customer) — the same reading as onboarding's.
 */
export function orderHasCustomer(
  doc: { readonly additionalInfo?: { readonly customerID?: unknown } | null } | null | undefined,
  customerId: number | null = null,
): boolean {
  return customerId !== null || Number(doc?.additionalInfo?.customerID) > 0;
}

/**
 * An order's customer type (decision 163): N for a new merchant's order (no customer yet; whatever the document says
 * about the kind of sale), else the kind of sale the rep chose — `additionalInfo.saleKind` E add-on, T transfer,
 * U upgrade, R replacement; absent (orders before 163) or unknown reads as E.
 */
export function orderCustomerType(
  doc:
    | { readonly additionalInfo?: { readonly customerID?: unknown; readonly saleKind?: unknown } | null }
    | null
    | undefined,
  customerId: number | null = null,
): OrderCustomerType {
  if (!orderHasCustomer(doc, customerId)) return CUSTOMER_TYPE.NEW_STORE;
  const kind = doc?.additionalInfo?.saleKind;
  return isSaleKind(kind) ? kind : SALE_KIND.EXISTING_STORE;
}

const isCustomerType = (value: string): value is CustomerType => (CUSTOMER_TYPES as readonly string[]).includes(value);

/**
 * Whether a promotion of `customerType` fits an order of `orderType` (decision 163): A every order; N only a new
 * merchant's; E every existing customer's order (add-ons, transfers, upgrades and replacements are all existing
 * stores); T, U and R only an order of that kind. An unknown type fits nothing.
 */
export function promotionFitsCustomer(customerType: string, orderType: OrderCustomerType): boolean {
  if (!isCustomerType(customerType)) return false;
  switch (customerType) {
    case 'A':
      return true;
    case 'N':
      return orderType === 'N';
    case 'E':
      return orderType !== 'N';
    case 'T':
    case 'U':
    case 'R':
      return orderType === customerType;
    default:
      return assertNever(customerType);
  }
}

/** Whom a promotion of a customer type is for, in the refusal ("… is for transfers only"). */
const PROMOTION_AUDIENCE: Readonly<Record<CustomerType, string>> = {
  A: 'every order',
  N: 'new customers',
  E: 'existing customers',
  T: 'transfers',
  U: 'upgrades',
  R: 'replacements',
};
/** What an order is, in the refusal ("… this order is a transfer"). */
const ORDER_DESCRIPTION: Readonly<Record<OrderCustomerType, string>> = {
  N: 'for a new merchant',
  E: 'an add-on for an existing store',
  T: 'a transfer',
  U: 'an upgrade',
  R: 'a replacement',
};

/** Why an order may not use a promotion today, in words; null when it may. */
export function promotionRefusal(
  p: PromotionForRules & { code: string; currency: string; customer_type: string },
  order: { today: string; currency: string; customerType: OrderCustomerType },
): string | null {
  const state = promotionState(p, order.today);
  if (state === 'inactive') return `Promotion ${p.code} is no longer offered.`;
  if (state === 'expired') return `Promotion ${p.code} expired on ${p.expires_on}.`;
  if (state === 'scheduled') return `Promotion ${p.code} starts on ${p.starts_on}.`;
  if (state === 'used_up')
    return `Promotion ${p.code} has reached its limit of ${p.usage_limit} ${p.usage_limit === 1 ? 'order' : 'orders'}.`;
  if (p.currency !== order.currency)
    return `Promotion ${p.code} is for ${p.currency} orders; this order is in ${order.currency}.`;
  if (!promotionFitsCustomer(p.customer_type, order.customerType)) {
    const audience = isCustomerType(p.customer_type)
      ? PROMOTION_AUDIENCE[p.customer_type]
      : `customer type ${p.customer_type}`;
    return `Promotion ${p.code} is for ${audience} only; this order is ${ORDER_DESCRIPTION[order.customerType]}.`;
  }
  return null;
}
