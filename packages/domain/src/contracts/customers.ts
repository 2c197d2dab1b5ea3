import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { NOTE_TYPE, NOTE_TYPES, type NoteType } from '../codes/order';
import { ORDER_STATUS_CODES, type OrderStatusCode } from '../codes/order-status';
import { SALES_CHANNELS, TEST_STORE_TYPES } from '../codes/sales';
import { STORE_FILTER_MIN_CHARS } from '../limits';
import { normalizeFederalTaxId, resolveCustomerSearchQuery, type CustomerSearchKind } from '../rules/customer-search';
import { addressSchema, cappedPagedList, emailSchema, pagedList, paginationQuerySchema } from './common';

/*
 * Customers back office, core (issue 6): customer search, customer record and edits, stores, store
 * addresses and e-mails, notes, orders of a customer, sales person and sales history, the audit trail,
 * domain data (retire reasons…). Owned by the customers module (apps/server/src/modules/customers).
 *
 * Every path carries the session token. Reads need customer_details_view or customer_details_edit, writes
 * customer_details_edit (domain data: any session). Answers are `{ info: … }` or `{ error: { code, message,
 * fields? } }`; a stale `version` on an edit → 409 `version_conflict` with `error.current` = the current record.
 *
 *   GET  /api/customers/{token}/all?customerid|search|storeid|federaltaxid&limit&offset&sort[&format=csv]
 *                                                              → customerSearchResult (or text/csv of ALL rows)
 *   GET  /api/customers/{token}?fedtaxid=                      → { customer_id }
 *   GET  /api/customers/{id}/{token}                           → customerRecord (with its stores)
 *   GET  /api/customers/{id}/{token}/customerorders?storeid&limit&offset&sort → paged customerOrder
 *   GET  /api/customers/{id}/{token}/customernotes?customer_store_id&limit&offset → paged customerNote
 *   POST /api/customers/{id}/{token}/customernotes   createCustomerNoteRequest → customerNote
 *   GET  /api/customers/{id}/customerstores/{token}?cust_store_id=           → { stores: storeRecord[] }
 *   POST /api/customers/{id}/customerstores/address/{token}  storeAddressRequest → { customer_store_id, version }
 *   GET  /api/customers/stores/{storeId}/{token}/emails                    → storeEmailsInfo
 *   PUT  /api/storeinfo/{id}/{token}       updateStoreRequest    → storeRecord      (id = store id)
 *   PUT  /api/customerinfo/{id}/{token}    updateCustomerRequest → customerRecord   (id = customer id)
 *   GET  /api/salesperson/{id}/{token}                            → salesPersonInfo (id = sales person id)
 *   GET  /api/saleshistory/{id}/{token}?storeid=                  → salesHistoryInfo (id = customer id)
 *   GET  /api/customers/{id}/audit/{token}?limit&offset           → paged auditEntry
 *   GET  /api/domaindata/{token}?type=                            → domainDataInfo
 */

// ── Shared pieces ──────────────────────────────────────────────────────────────────────────────────

const INT_MAX = 2_147_483_647;

/** A positive database id in a path or query string (coerced; at most 2^31-1 so it fits the column). */
export const idParam = z.coerce
  .number({ message: 'Enter a number.' })
  .int({ message: 'Enter a whole number.' })
  .positive({ message: 'Enter a positive number.' })
  .max(INT_MAX, { message: 'This id is too large.' });

/** A customer id (path `{id}`). */
export const customerIdParam = idParam;

export const tokenParams = z.object({ token: z.string() });
/** `/…/{id}/…/{token}` where id is a customer, store or sales person id (see each route). */
export const idTokenParams = z.object({ id: idParam, token: z.string() });
export const storeIdTokenParams = z.object({ storeId: idParam, token: z.string() });

/**
 * `?sort=` over a whitelist: `field` ascending, `-field` descending (the paginationQuerySchema convention).
 */
export function sortSchema<const F extends readonly [string, ...string[]]>(fields: F) {
  const values = [...fields, ...fields.map((f) => `-${f}`)] as [string, ...string[]];
  return z
    .enum(values, { message: `Sort by one of ${fields.join(', ')} (prefix - for descending).` })
    .optional() as unknown as z.ZodOptional<z.ZodType<F[number] | `-${F[number]}`>>;
}

/** Split `-field` / `field` into the field and its direction. */
export function parseSort<F extends string>(sort: F | `-${F}` | undefined, fallback: F): { field: F; desc: boolean } {
  if (!sort) return { field: fallback, desc: false };
  return sort.startsWith('-') ? { field: sort.slice(1) as F, desc: true } : { field: sort as F, desc: false };
}

/** An address as stored and answered (no validation: old rows are shown as they are). */
export const addressRecord = z.object({
  address1: z.string(),
  address2: z.string().nullable().optional(),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country: z.string(),
});
export type AddressRecord = z.infer<typeof addressRecord>;

export const CUSTOMER_STATUS_VALUES = ['active', 'suspended', 'closed'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUS_VALUES)[number];
export const STORE_STATUS_VALUES = ['active', 'pending', 'suspended', 'closed'] as const;
export type StoreStatus = (typeof STORE_STATUS_VALUES)[number];
/** R regular, plus the spec's test (T) and demo (D) store types. */
export const STORE_TYPE_VALUES = ['R', ...TEST_STORE_TYPES] as const;
export type StoreType = (typeof STORE_TYPE_VALUES)[number];

const currency = z.enum(CURRENCY_CODES);
const isoDateTime = z.string();
/** A calendar date 'YYYY-MM-DD'. */
const isoDate = z.string();

/** Optional free text in an edit: trimmed; '' or null clears it. */
const clearableText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `At most ${max} characters.` })
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .optional();
/** A required name in an edit: trimmed, 1–max characters. */
const requiredText = (label: string, max = 255) =>
  z
    .string({ message: `${label} is required.` })
    .trim()
    .min(1, { message: `${label} is required.` })
    .max(max, { message: `At most ${max} characters.` });

const PHONE = /^\+?[0-9 ().-]{7,20}$/;
export const PHONE_MESSAGE = 'Enter a phone number (7–20 digits, spaces, dashes, dots or brackets; may start with +).';
const phone = z
  .string()
  .trim()
  .transform((v) => (v === '' ? null : v))
  .nullable()
  .refine((v) => v === null || (PHONE.test(v) && (v.match(/\d/g)?.length ?? 0) >= 7), { message: PHONE_MESSAGE })
  .optional();

/** The version the edit was based on (optimistic concurrency). */
const versionField = z.number({ message: 'Send the version you edited (a whole number).' }).int().min(1);

/** Body of a 409 `version_conflict`: the error envelope plus the record as it is now. */
export function versionConflictEnvelope<T extends z.ZodType>(current: T) {
  return z.object({
    error: z.object({ code: z.literal('version_conflict'), message: z.string(), current }),
  });
}

// ── GET /api/customers/{token}/all — the search ───────────────────────────────────────────────────

/** Columns a search can be sorted by (default `legal_name`, then customer id and store id). */
export const CUSTOMER_SEARCH_SORT_FIELDS = [
  'customer_id',
  'legal_name',
  'doing_business_as',
  'store_id',
  'store_name',
  'bracct',
  'sales_rep',
  'federal_tax_id',
  'country',
  'state',
  'city',
  'customer_status',
  'store_status',
  'account_manager',
] as const;
export type CustomerSearchSortField = (typeof CUSTOMER_SEARCH_SORT_FIELDS)[number];

export const CUSTOMER_SEARCH_TEXT_MAX = 100;

const searchKindValue = z.string().optional();

/**
 * The search query: exactly one of customerid | search | storeid | federaltaxid (any other key → 400),
 * plus limit/offset/sort, and `format=csv` for a CSV download of ALL matching rows (limit/offset ignored).
 * - customerid, storeid: a positive whole number;
 * - federaltaxid: 'NN-NNNNNNN' or 9 digits (a Canadian business number is stored as 9 digits; both match);
 * - search: free text of 3–100 characters, matched case-insensitively (substring) against the store's
 *   bracct, sales rep, store name and DBA and the customer's legal name, e-mail and federal tax id.
 * Output (what the server works with): `{ kind, value, limit, offset, sort, format }`.
 */
export const customerSearchQuery = z
  .looseObject({
    customerid: searchKindValue,
    search: searchKindValue,
    storeid: searchKindValue,
    federaltaxid: searchKindValue,
    limit: paginationQuerySchema.shape.limit,
    offset: paginationQuerySchema.shape.offset,
    sort: sortSchema(CUSTOMER_SEARCH_SORT_FIELDS),
    format: z.enum(['json', 'csv'], { message: 'Use format=json or format=csv.' }).optional(),
  })
  .transform((q, ctx) => {
    const { limit, offset, sort, format, ...rest } = q;
    const resolved = resolveCustomerSearchQuery(rest, []);
    if (!resolved.ok) {
      const keys =
        resolved.code === 'no_kind'
          ? []
          : Object.entries(rest)
              .filter(([, v]) => v !== undefined && v !== null && String(v).trim() !== '')
              .map(([k]) => k)
              .filter(
                (k) =>
                  resolved.code === 'several_kinds' || !['customerid', 'search', 'storeid', 'federaltaxid'].includes(k),
              );
      if (keys.length === 0) ctx.addIssue({ code: 'custom', path: [], message: resolved.message });
      for (const key of keys) ctx.addIssue({ code: 'custom', path: [key], message: resolved.message });
      return z.NEVER;
    }
    let value = resolved.value;
    const kind: CustomerSearchKind = resolved.kind;
    if (kind === 'customerid' || kind === 'storeid') {
      if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > INT_MAX) {
        ctx.addIssue({
          code: 'custom',
          path: [kind],
          message: `A ${kind === 'customerid' ? 'customer' : 'store'} id is a positive whole number.`,
        });
        return z.NEVER;
      }
      value = String(Number(value));
    } else if (kind === 'federaltaxid') {
      const normalized = normalizeFederalTaxId(value);
      if (!normalized) {
        ctx.addIssue({ code: 'custom', path: [kind], message: 'A federal tax id is NN-NNNNNNN or 9 digits.' });
        return z.NEVER;
      }
      value = normalized;
    } else if (value.length < STORE_FILTER_MIN_CHARS || value.length > CUSTOMER_SEARCH_TEXT_MAX) {
      ctx.addIssue({
        code: 'custom',
        path: ['search'],
        message: `Search with ${STORE_FILTER_MIN_CHARS} to ${CUSTOMER_SEARCH_TEXT_MAX} characters.`,
      });
      return z.NEVER;
    }
    return { kind, value, limit, offset, sort, format: format ?? ('json' as const) };
  });
export type CustomerSearchQueryInput = z.input<typeof customerSearchQuery>;
export type CustomerSearchQuery = z.output<typeof customerSearchQuery>;

/** One row of the search: a store with its customer (a customer without stores: one row, store fields null). */
export const customerSearchRecord = z.object({
  customer_id: z.number().int(),
  legal_name: z.string(),
  doing_business_as: z.string().nullable(),
  store_id: z.number().int().nullable(),
  store_name: z.string().nullable(),
  bracct: z.string().nullable(),
  sales_rep: z.string().nullable(),
  federal_tax_id: z.string().nullable(),
  email: z.string(),
  phone: z.string().nullable(),
  country: z.string(),
  currency: z.string(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  customer_status: z.string(),
  store_status: z.string().nullable(),
  /** The store's account manager, else the customer's. */
  account_manager: z.string().nullable(),
});
export type CustomerSearchRecord = z.infer<typeof customerSearchRecord>;

/** `total` is exact up to SEARCH_TOTAL_CAP; `total_capped: true` → more match ("1,000+"). */
export const customerSearchResult = cappedPagedList(customerSearchRecord);
export type CustomerSearchResult = z.infer<typeof customerSearchResult>;

/** The CSV columns, in order (header row = these names); one line per matching row. */
export const CUSTOMER_SEARCH_CSV_COLUMNS = [
  'customer_id',
  'legal_name',
  'doing_business_as',
  'store_id',
  'store_name',
  'bracct',
  'sales_rep',
  'federal_tax_id',
  'email',
  'phone',
  'country',
  'currency',
  'city',
  'state',
  'zip',
  'customer_status',
  'store_status',
  'account_manager',
] as const satisfies readonly (keyof CustomerSearchRecord)[];

// ── GET /api/customers/{token}?fedtaxid= ───────────────────────────────────────────────────────────

export const fedTaxIdLookupQuery = z.object({
  fedtaxid: z.string({ message: 'Give the federal tax id (NN-NNNNNNN or 9 digits).' }).transform((v, ctx) => {
    const n = normalizeFederalTaxId(v);
    if (!n) {
      ctx.addIssue({ code: 'custom', message: 'A federal tax id is NN-NNNNNNN or 9 digits.' });
      return z.NEVER;
    }
    return n;
  }),
});
export const fedTaxIdLookupInfo = z.object({ customer_id: z.number().int() });
export type FedTaxIdLookupInfo = z.infer<typeof fedTaxIdLookupInfo>;

// ── Stores and the customer record ─────────────────────────────────────────────────────────────────

/** A store as the customer screens show it. `store_id` is the spec's customer_store_id / custstoreid / storeid. */
export const storeRecord = z.object({
  store_id: z.number().int(),
  customer_id: z.number().int(),
  store_name: z.string(),
  doing_business_as: z.string(),
  bracct: z.string().nullable(),
  sales_rep: z.string().nullable(),
  sales_person_id: z.number().int().nullable(),
  account_manager: z.string().nullable(),
  phone: z.string().nullable(),
  mobile_phone: z.string().nullable(),
  kind_of_business: z.string().nullable(),
  address: addressRecord,
  dba_address: addressRecord.nullable(),
  state: z.string(),
  country: z.string(),
  currency: z.string(),
  status: z.string(),
  store_type: z.string(),
  mid: z.string().nullable(),
  license_expires_on: isoDate.nullable(),
  active_terminals: z.number().int(),
  terminals: z.number().int(),
  /** What the store owes, in its currency: the sum of its invoices' open balances (the ledger, decision 112). */
  open_balance_cents: z.number().int(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  version: z.number().int(),
});
export type StoreRecord = z.infer<typeof storeRecord>;

export const salesPersonSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
});
export type SalesPersonSummary = z.infer<typeof salesPersonSummary>;

/** GET /api/customers/{id}/{token}: the customer (spec §3 CustomerInfo and addresses) with its stores. */
export const customerRecord = z.object({
  customer_id: z.number().int(),
  legal_name: z.string(),
  title: z.string().nullable(),
  first_name: z.string(),
  middle_name: z.string().nullable(),
  last_name: z.string(),
  phone: z.string().nullable(),
  email: z.string(),
  bracct: z.string().nullable(),
  federal_tax_id: z.string().nullable(),
  ofa_customer_id: z.string().nullable(),
  oasis_id: z.string().nullable(),
  business_type: z.string().nullable(),
  customer_category: z.string(),
  customer_class: z.string(),
  resale_certificate: z.string().nullable(),
  country: z.string(),
  currency: z.string(),
  status: z.string(),
  home_address: addressRecord.nullable(),
  billing_address: addressRecord.nullable(),
  shipping_address: addressRecord.nullable(),
  account_manager: z.string().nullable(),
  sales_person: salesPersonSummary.nullable(),
  mobile_consent: z.boolean(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  version: z.number().int(),
  stores: z.array(storeRecord),
  /** What the customer owes, per currency (its invoices' open balances by the ledger); empty when nothing. */
  open_balances: z.array(z.object({ currency: z.string(), open_cents: z.number().int() })),
  /** The due date of its oldest invoice still open after that date (overdue); null when none is. */
  oldest_overdue_on: isoDate.nullable(),
});
export type CustomerRecord = z.infer<typeof customerRecord>;

/** GET /api/customers/{id}/customerstores/{token}?cust_store_id= — all stores of the customer, or the one. */
export const customerStoresQuery = z.object({ cust_store_id: idParam.optional() });
export const customerStoresInfo = z.object({ stores: z.array(storeRecord) });
export type CustomerStoresInfo = z.infer<typeof customerStoresInfo>;

// ── POST /api/customers/{id}/customerstores/address/{token} ────────────────────────────────────────

/**
 * With `customer_store_id` (+ `version`): replace that store's address (the store keeps its country:
 * an address in another country → 400 on address.country; state follows the address).
 * Without it: open a new store for the customer at that address (`doing_business_as` required,
 * `store_name` defaults to it; the address must be in the customer's country).
 */
export const storeAddressRequest = z
  .object({
    address: addressSchema,
    customer_store_id: idParam.optional(),
    version: versionField.optional(),
    doing_business_as: z.string().trim().min(1, { message: 'DBA name is required.' }).max(255).optional(),
    store_name: z.string().trim().min(1).max(255).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.customer_store_id !== undefined && b.version === undefined) {
      ctx.addIssue({ code: 'custom', path: ['version'], message: 'Send the version of the store you edited.' });
    }
    if (b.customer_store_id === undefined && b.doing_business_as === undefined) {
      ctx.addIssue({ code: 'custom', path: ['doing_business_as'], message: 'A new store needs its DBA name.' });
    }
  });
export type StoreAddressRequestInput = z.input<typeof storeAddressRequest>;
export type StoreAddressRequest = z.output<typeof storeAddressRequest>;
export const storeAddressInfo = z.object({ customer_store_id: z.number().int(), version: z.number().int() });
export type StoreAddressInfo = z.infer<typeof storeAddressInfo>;

// ── PUT /api/storeinfo/{id}/{token} — id is the store id ───────────────────────────────────────────

/** Any subset of the store's editable fields, with the `version` the edit was based on. */
export const updateStoreRequest = z
  .object({
    version: versionField,
    store_name: requiredText('Store name').optional(),
    doing_business_as: requiredText('DBA name').optional(),
    phone,
    mobile_phone: phone,
    kind_of_business: clearableText(100),
    sales_rep: clearableText(255),
    account_manager: clearableText(255),
    store_type: z.enum(STORE_TYPE_VALUES, { message: `Choose one of ${STORE_TYPE_VALUES.join(', ')}.` }).optional(),
    status: z.enum(STORE_STATUS_VALUES, { message: `Choose one of ${STORE_STATUS_VALUES.join(', ')}.` }).optional(),
  })
  .refine((b) => Object.keys(b).some((k) => k !== 'version' && b[k as keyof typeof b] !== undefined), {
    message: 'Send at least one field to change.',
  });
export type UpdateStoreRequestInput = z.input<typeof updateStoreRequest>;
export type UpdateStoreRequest = z.output<typeof updateStoreRequest>;

// ── PUT /api/customerinfo/{id}/{token} — id is the customer id ─────────────────────────────────────

/**
 * Any subset of the customer's editable fields, with `version`. Addresses must be in the customer's
 * country (country itself does not change). A federal tax id already used by another customer → 409
 * `conflict`. `sales_person_id` must name an existing sales person (else 400).
 */
export const updateCustomerRequest = z
  .object({
    version: versionField,
    legal_name: requiredText('Legal name').optional(),
    title: clearableText(100),
    first_name: requiredText('First name', 100).optional(),
    middle_name: clearableText(100),
    last_name: requiredText('Last name', 100).optional(),
    phone,
    email: emailSchema.optional(),
    federal_tax_id: z
      .string()
      .transform((v, ctx) => {
        const n = normalizeFederalTaxId(v);
        if (!n) {
          ctx.addIssue({ code: 'custom', message: 'A federal tax id is NN-NNNNNNN or 9 digits.' });
          return z.NEVER;
        }
        return n;
      })
      .optional(),
    business_type: clearableText(100),
    resale_certificate: clearableText(100),
    home_address: addressSchema.optional(),
    billing_address: addressSchema.optional(),
    shipping_address: addressSchema.optional(),
    account_manager: clearableText(255),
    sales_person_id: idParam.nullable().optional(),
    mobile_consent: z.boolean().optional(),
    status: z
      .enum(CUSTOMER_STATUS_VALUES, { message: `Choose one of ${CUSTOMER_STATUS_VALUES.join(', ')}.` })
      .optional(),
  })
  .refine((b) => Object.keys(b).some((k) => k !== 'version' && b[k as keyof typeof b] !== undefined), {
    message: 'Send at least one field to change.',
  });
export type UpdateCustomerRequestInput = z.input<typeof updateCustomerRequest>;
export type UpdateCustomerRequest = z.output<typeof updateCustomerRequest>;

// ── GET /api/customers/stores/{storeId}/{token}/emails ─────────────────────────────────────────────

export const STORE_EMAIL_KINDS = ['general', 'billing', 'owner', 'support', 'customer'] as const;
export const storeEmailRecord = z.object({
  /** null for the customer's own e-mail (kind 'customer'). */
  id: z.number().int().nullable(),
  email: z.string(),
  kind: z.enum(STORE_EMAIL_KINDS),
  is_primary: z.boolean(),
  source: z.enum(['store', 'customer']),
});
export type StoreEmailRecord = z.infer<typeof storeEmailRecord>;
/** A message the product sent to one of these addresses (from the mail log), newest first. */
export const sentMailRecord = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  template: z.string(),
  status: z.string(),
  created_at: isoDateTime,
  sent_at: isoDateTime.nullable(),
});
export type SentMailRecord = z.infer<typeof sentMailRecord>;
/** How many sent messages the e-mails answer lists at most (the newest). */
export const STORE_SENT_MAIL_LIMIT = 50;
export const storeEmailsInfo = z.object({
  store_id: z.number().int(),
  customer_id: z.number().int(),
  emails: z.array(storeEmailRecord),
  sent: z.array(sentMailRecord),
});
export type StoreEmailsInfo = z.infer<typeof storeEmailsInfo>;

// ── GET /api/customers/{id}/{token}/customerorders ─────────────────────────────────────────────────

export const CUSTOMER_ORDER_SORT_FIELDS = [
  'order_date',
  'order_id',
  'status',
  'total_sale_cents',
  'updated_at',
] as const;
/** Default sort: newest order first (`-order_date`). */
export const customerOrdersQuery = paginationQuerySchema.extend({
  storeid: idParam.optional(),
  sort: sortSchema(CUSTOMER_ORDER_SORT_FIELDS),
});
export type CustomerOrdersQueryInput = z.input<typeof customerOrdersQuery>;
export const customerOrder = z.object({
  order_id: z.number().int(),
  unified_order_id: z.string(),
  status: z.enum(ORDER_STATUS_CODES as [OrderStatusCode, ...OrderStatusCode[]]),
  status_label: z.string(),
  flow: z.string(),
  order_type: z.string(),
  store_id: z.number().int().nullable(),
  store_name: z.string().nullable(),
  sales_rep: z.string().nullable(),
  order_date: isoDateTime,
  submitted_at: isoDateTime.nullable(),
  completed_at: isoDateTime.nullable(),
  updated_at: isoDateTime,
  total_sale_cents: z.number().int(),
  currency: currency,
});
export type CustomerOrder = z.infer<typeof customerOrder>;
export const customerOrderList = pagedList(customerOrder);
export type CustomerOrderList = z.infer<typeof customerOrderList>;

// ── Notes: GET/POST /api/customers/{id}/{token}/customernotes ──────────────────────────────────────

export const CUSTOMER_NOTE_MAX = 4000;
/** Newest first. With customer_store_id: that store's notes only; without: every note of the customer. */
export const customerNotesQuery = paginationQuerySchema.extend({ customer_store_id: idParam.optional() });
export type CustomerNotesQueryInput = z.input<typeof customerNotesQuery>;
export const customerNote = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  /** null: a note on the customer as a whole. */
  customer_store_id: z.number().int().nullable(),
  note_type: z.string(),
  note: z.string(),
  created_by: z.string(),
  created_at: isoDateTime,
});
export type CustomerNote = z.infer<typeof customerNote>;
export const customerNoteList = pagedList(customerNote);
export type CustomerNoteList = z.infer<typeof customerNoteList>;
/** created_by is the signed-in user; note_type defaults to order_note; a store must be the customer's. */
export const createCustomerNoteRequest = z.object({
  customer_store_id: idParam.nullable().optional(),
  note: z
    .string({ message: 'Write the note.' })
    .trim()
    .min(1, { message: 'Write the note.' })
    .max(CUSTOMER_NOTE_MAX, { message: `A note has at most ${CUSTOMER_NOTE_MAX} characters.` }),
  note_type: z
    .enum(NOTE_TYPES as [NoteType, ...NoteType[]], { message: `Choose one of ${NOTE_TYPES.join(', ')}.` })
    .default(NOTE_TYPE.ORDER_NOTE),
});
export type CreateCustomerNoteRequestInput = z.input<typeof createCustomerNoteRequest>;
export type CreateCustomerNoteRequest = z.output<typeof createCustomerNoteRequest>;

// ── GET /api/salesperson/{id}/{token} — id is the sales person id ──────────────────────────────────

export const salesPersonInfo = salesPersonSummary.extend({
  sales_channel: z.enum(SALES_CHANNELS as unknown as [string, ...string[]]),
  agent_id: z.number().int().nullable(),
  active: z.boolean(),
  /** How many customers have this sales person. */
  customers: z.number().int(),
});
export type SalesPersonInfo = z.infer<typeof salesPersonInfo>;

// ── GET /api/saleshistory/{id}/{token}?storeid= — id is the customer id ────────────────────────────

/** Months the sales history covers: the current month and the 23 before it. */
export const SALES_HISTORY_MONTHS = 24;
export const salesHistoryQuery = z.object({ storeid: idParam.optional() });
export const salesHistoryMonth = z.object({
  /** First day of the month, 'YYYY-MM-01'. */
  period_month: isoDate,
  units: z.number().int(),
  amount_cents: z.number().int(),
  currency: currency,
});
export type SalesHistoryMonth = z.infer<typeof salesHistoryMonth>;
/**
 * `months`: oldest first, every one of the 24 months in the customer's currency (zero when nothing was
 * sold; a month with sales in another currency has its own row too). `totals`: one per currency.
 */
export const salesHistoryInfo = z.object({
  customer_id: z.number().int(),
  store_id: z.number().int().nullable(),
  currency: currency,
  from_month: isoDate,
  to_month: isoDate,
  months: z.array(salesHistoryMonth),
  totals: z.array(z.object({ currency: currency, units: z.number().int(), amount_cents: z.number().int() })),
});
export type SalesHistoryInfo = z.infer<typeof salesHistoryInfo>;

// ── GET /api/customers/{id}/audit/{token} ──────────────────────────────────────────────────────────

/** Newest first: changes to the customer, its stores, and anything whose before/after names the customer. */
export const customerAuditQuery = paginationQuerySchema.omit({ sort: true });
export type CustomerAuditQueryInput = z.input<typeof customerAuditQuery>;
export const auditEntry = z.object({
  id: z.number().int(),
  at: isoDateTime,
  actor_type: z.string(),
  actor_email: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditEntryList = pagedList(auditEntry);
export type AuditEntryList = z.infer<typeof auditEntryList>;

// ── GET /api/domaindata/{token}?type= ──────────────────────────────────────────────────────────────

/** The look-up lists kept in domain_data. */
export const DOMAIN_DATA_TYPES = [
  'retire_reason',
  'business_type',
  'internet_connection_type',
  'return_reason',
] as const;
export type DomainDataType = (typeof DOMAIN_DATA_TYPES)[number];
export const domainDataQuery = z.object({
  type: z.enum(DOMAIN_DATA_TYPES, { message: `Choose a type: ${DOMAIN_DATA_TYPES.join(', ')}.` }),
});
export const domainDataItem = z.object({ id: z.number().int(), code: z.string(), label: z.string() });
export type DomainDataItem = z.infer<typeof domainDataItem>;
/** Active entries of the type, in their display order. */
export const domainDataInfo = z.object({ type: z.enum(DOMAIN_DATA_TYPES), items: z.array(domainDataItem) });
export type DomainDataInfo = z.infer<typeof domainDataInfo>;
