import { z } from 'zod';
import { ORDER_FLOWS, type OrderFlow } from '../codes/order';
import { ORDER_STATUS_CODES, type OrderStatusCode } from '../codes/order-status';
import { cappedPagedList, paginationQuerySchema, queryValueList } from './common';
import { sortSchema } from './customers';

/*
 * The order list (decision 080):
 *   GET /api/customers/orders/search/{token}?status&flow&sales_rep&agent_id&date_from&date_to&q&mine=queue
 *                                           &limit&offset&sort[&format=csv]
 *   → { info: { items: OrderSearchRecord[], total } }  (format=csv: text/csv of ALL matching rows)
 *   GET /api/customers/orders/{orderId}/{token} → { info: { order: OrderSearchRecord } }: one order as a row of the list
 *   (a link to one order, #/order?id=…); 404 for an order the session may not see, as for a missing one (decision 102)
 */

export const ORDER_SEARCH_SORT_FIELDS = [
  'id',
  'unified_order_id',
  'status',
  'legal_name',
  'dba_name',
  'sales_rep',
  'order_date',
  'updated_at',
  'total_sale_cents',
] as const;
export type OrderSearchSortField = (typeof ORDER_SEARCH_SORT_FIELDS)[number];

export const ORDER_SEARCH_TEXT_MIN = 3;
export const ORDER_SEARCH_TEXT_MAX = 100;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isoDate = (label: string) =>
  z
    .string()
    .trim()
    .refine((v) => ISO_DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), {
      message: `${label}: a date YYYY-MM-DD.`,
    })
    .optional();

/** Blank query values ('') count as absent: a form submits its empty fields. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/**
 * Filters (all optional, combined with AND):
 * - status: one §4 code or a comma list ('121,125');
 * - flow: AR | RAM; sales_rep: text (substring); agent_id: an agent id;
 * - date_from / date_to: the order date, inclusive calendar days (UTC);
 * - q: 3–100 characters matched against legal name, DBA, unified order id and federal tax id;
 * - mine=queue: only the caller's queue (its role's start status, ROLE_START_STATUS).
 */
export const orderSearchQuery = z
  .object({
    status: queryValueList(
      ORDER_STATUS_CODES,
      (bad, text) => `Unknown status ${bad.join(', ') || text}: use codes of ${ORDER_STATUS_CODES.join(', ')}.`,
      200,
    ),
    flow: z.preprocess(
      blankToUndefined,
      z
        .enum(ORDER_FLOWS as [OrderFlow, ...OrderFlow[]], { message: `Flow is one of ${ORDER_FLOWS.join(', ')}.` })
        .optional(),
    ),
    sales_rep: z.preprocess(blankToUndefined, z.string().trim().max(ORDER_SEARCH_TEXT_MAX).optional()),
    agent_id: z.preprocess(
      blankToUndefined,
      z.coerce.number({ message: 'An agent id is a whole number.' }).int().min(1).max(2147483647).optional(),
    ),
    date_from: z.preprocess(blankToUndefined, isoDate('From')),
    date_to: z.preprocess(blankToUndefined, isoDate('To')),
    q: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .min(ORDER_SEARCH_TEXT_MIN, {
          message: `Search with ${ORDER_SEARCH_TEXT_MIN} to ${ORDER_SEARCH_TEXT_MAX} characters.`,
        })
        .max(ORDER_SEARCH_TEXT_MAX, {
          message: `Search with ${ORDER_SEARCH_TEXT_MIN} to ${ORDER_SEARCH_TEXT_MAX} characters.`,
        })
        .optional(),
    ),
    mine: z.preprocess(blankToUndefined, z.enum(['queue'], { message: 'mine=queue is the only value.' }).optional()),
    limit: paginationQuerySchema.shape.limit,
    offset: paginationQuerySchema.shape.offset,
    sort: sortSchema(ORDER_SEARCH_SORT_FIELDS),
    format: z.enum(['json', 'csv'], { message: 'Use format=json or format=csv.' }).default('json'),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.date_from && q.date_to && q.date_from > q.date_to) {
      ctx.addIssue({ code: 'custom', path: ['date_to'], message: 'To is on or after From.' });
    }
  });
export type OrderSearchQueryInput = z.input<typeof orderSearchQuery>;
export type OrderSearchQuery = z.output<typeof orderSearchQuery>;

/** One row of the order list. */
export const orderSearchRecord = z.object({
  id: z.number().int(),
  unified_order_id: z.string(),
  status: z.enum(ORDER_STATUS_CODES as [OrderStatusCode, ...OrderStatusCode[]]),
  status_label: z.string(),
  flow: z.string(),
  order_type: z.string(),
  legal_name: z.string().nullable(),
  dba_name: z.string().nullable(),
  sales_rep: z.string().nullable(),
  agent_id: z.number().int().nullable(),
  agent: z.string().nullable(),
  country: z.string(),
  currency: z.string(),
  total_sale_cents: z.number().int(),
  order_date: z.string(),
  updated_at: z.string(),
  version: z.number().int(),
});
export type OrderSearchRecord = z.infer<typeof orderSearchRecord>;

/** `total` is exact up to SEARCH_TOTAL_CAP; `total_capped: true` → more match ("1,000+"). */
export const orderSearchResult = cappedPagedList(orderSearchRecord);
export type OrderSearchResult = z.infer<typeof orderSearchResult>;

/** One order as a row of the list (GET /api/customers/orders/{orderId}/{token}). */
export const orderRowInfo = z.object({ order: orderSearchRecord });
export type OrderRowInfo = z.infer<typeof orderRowInfo>;

/** The CSV columns, in order (header row = these names). */
export const ORDER_SEARCH_CSV_COLUMNS = [
  'id',
  'unified_order_id',
  'status',
  'status_label',
  'flow',
  'order_type',
  'legal_name',
  'dba_name',
  'sales_rep',
  'agent',
  'country',
  'currency',
  'total_sale_cents',
  'order_date',
  'updated_at',
] as const satisfies readonly (keyof OrderSearchRecord)[];
