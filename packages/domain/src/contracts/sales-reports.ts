import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { ORDER_FLOWS, type OrderFlow } from '../codes/order';
import { ORDER_STATUS_CODES, type OrderStatusCode } from '../codes/order-status';
import { SALES_CHANNELS, type SalesChannel } from '../codes/sales';
import { pagedList, paginationQuerySchema } from './common';
import { checkReportRange, reportFormat, reportPlaceFilters } from './reports';
import { idParam, salesPersonInfo, sortSchema } from './customers';

/*
 * Orders and sales reports (the Orders and Sales tabs of #/reports, and #/sales-person/:salesPersonId; privilege
 * reports_edit; issue 18 parts 1 and 3, decision 129):
 *   GET /api/reports/orders/{token}?from&to&date_basis&country&currency[&format=csv]       → ordersReport
 *   GET /api/reports/orders/list/{token}?…same…&status&flow&channel&limit&offset[&format=csv] → ordersReportList
 *   GET /api/reports/sales/{token}?from_month&to_month&group&currency&limit&offset[&format=csv] → salesReport
 *   GET /api/reports/sales/reps/{id}/{token}[?format=csv]                                    → repSalesHistory
 *   GET /api/reports/sales/reps/{id}/customers/{token}?limit&offset[&format=csv]             → repCustomerList
 * Money is per currency: USD and CAD figures are separate rows, never added together.
 */

const currency = z.enum(CURRENCY_CODES);
const format = reportFormat;
const isoDay = (what: string) => z.iso.date({ message: `Enter the ${what} date as YYYY-MM-DD.` });
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const isoMonth = (what: string) =>
  z
    .string({ message: `Enter the ${what} month as YYYY-MM.` })
    .regex(MONTH, { message: `Enter the ${what} month as YYYY-MM.` });

/** Months the sales report may span at most. */
export const SALES_REPORT_MAX_MONTHS = 60;
/** Months the sales report covers when no range is given (this month and the 11 before). */
export const SALES_REPORT_DEFAULT_MONTHS = 12;
/** Days the orders report covers when no range is given (counted back from today). */
export const ORDERS_REPORT_DEFAULT_DAYS = 365;

/** The orders report counts an order by the day it was created (order_date) or submitted (submitted_at). */
export const ORDER_REPORT_DATE_BASES = ['created', 'submitted'] as const;
export type OrderReportDateBasis = (typeof ORDER_REPORT_DATE_BASES)[number];

/** The sales channel of an order, or 'none' when neither its agent nor its sales person names one. */
export const ORDER_REPORT_CHANNELS = [...SALES_CHANNELS, 'none'] as const;
export type OrderReportChannel = SalesChannel | 'none';
export const ORDER_REPORT_CHANNEL_LABELS: Readonly<Record<OrderReportChannel, string>> = {
  IS: 'IS',
  RAM: 'RAM',
  Distributor: 'Distributor',
  MSS: 'MSS',
  none: 'No channel',
};
export const ORDER_FLOW_LABELS: Readonly<Record<OrderFlow, string>> = { AR: 'AR flow', RAM: 'RAM flow' };

const ordersReportFilters = z.object({
  from: isoDay('first').optional(),
  to: isoDay('last').optional(),
  date_basis: z.enum(ORDER_REPORT_DATE_BASES, { message: 'Date basis is created or submitted.' }).default('created'),
  ...reportPlaceFilters,
  format,
});

export const ordersReportQuery = ordersReportFilters.superRefine(checkReportRange);
export type OrdersReportQuery = z.infer<typeof ordersReportQuery>;
export type OrdersReportQueryInput = z.input<typeof ordersReportQuery>;

/** One figure: how many orders and their total sale in one currency, for one status, flow or channel. */
export const ordersReportFigure = z.object({
  /** The status code, the flow or the channel ('none': no channel). */
  key: z.string(),
  label: z.string(),
  currency,
  count: z.number().int(),
  amount_cents: z.number().int(),
});
export type OrdersReportFigure = z.infer<typeof ordersReportFigure>;

export const ordersReport = z.object({
  /** The range applied (defaults filled in), YYYY-MM-DD, both days included. */
  from: z.string(),
  to: z.string(),
  date_basis: z.enum(ORDER_REPORT_DATE_BASES),
  /** In status workflow order, then currency; only figures with orders. */
  by_status: z.array(ordersReportFigure),
  by_flow: z.array(ordersReportFigure),
  by_channel: z.array(ordersReportFigure),
  /** One per currency. */
  totals: z.array(z.object({ currency, count: z.number().int(), amount_cents: z.number().int() })),
});
export type OrdersReport = z.infer<typeof ordersReport>;

/** The CSV of the figures table (format=csv on the report): one line per dimension, key and currency. */
export const ORDERS_REPORT_FIGURE_CSV_COLUMNS = [
  'dimension',
  'key',
  'label',
  'currency',
  'count',
  'amount_cents',
] as const;
export type OrdersReportFigureCsvRow = OrdersReportFigure & { dimension: 'status' | 'flow' | 'channel' };

/** The drill-down's sorts: the day (the date basis's), the amount; default newest first. */
export const ORDERS_REPORT_SORT_FIELDS = ['date', 'total_sale_cents'] as const;
export type OrdersReportSortField = (typeof ORDERS_REPORT_SORT_FIELDS)[number];
export const ORDERS_REPORT_DEFAULT_SORT = '-date';

/** The orders behind a figure (the drill-down): the report's filters plus the figure's status, flow or channel. */
export const ordersReportListQuery = ordersReportFilters
  .extend({
    status: z
      .enum(ORDER_STATUS_CODES as [OrderStatusCode, ...OrderStatusCode[]], { message: 'Unknown order status.' })
      .optional(),
    flow: z.enum(ORDER_FLOWS as [OrderFlow, ...OrderFlow[]], { message: 'Flow is AR or RAM.' }).optional(),
    channel: z
      .enum(ORDER_REPORT_CHANNELS, { message: `Channel is one of ${ORDER_REPORT_CHANNELS.join(', ')}.` })
      .optional(),
    sort: sortSchema(ORDERS_REPORT_SORT_FIELDS),
    limit: paginationQuerySchema.shape.limit,
    offset: paginationQuerySchema.shape.offset,
  })
  .superRefine(checkReportRange);
export type OrdersReportListQuery = z.infer<typeof ordersReportListQuery>;
export type OrdersReportListQueryInput = z.input<typeof ordersReportListQuery>;

export const ordersReportItem = z.object({
  order_id: z.number().int(),
  unified_order_id: z.string(),
  status: z.string(),
  status_label: z.string(),
  flow: z.string(),
  channel: z.enum(ORDER_REPORT_CHANNELS),
  customer_id: z.number().int().nullable(),
  legal_name: z.string().nullable(),
  dba_name: z.string().nullable(),
  sales_rep: z.string().nullable(),
  country: z.string(),
  currency,
  total_sale_cents: z.number().int(),
  order_date: z.string(),
  submitted_at: z.string().nullable(),
});
export type OrdersReportItem = z.infer<typeof ordersReportItem>;
export const ordersReportList = pagedList(ordersReportItem);
export type OrdersReportList = z.infer<typeof ordersReportList>;
export const ORDERS_REPORT_CSV_COLUMNS = [
  'order_id',
  'unified_order_id',
  'order_date',
  'submitted_at',
  'status',
  'status_label',
  'flow',
  'channel',
  'customer_id',
  'legal_name',
  'dba_name',
  'sales_rep',
  'country',
  'currency',
  'total_sale_cents',
] as const satisfies readonly (keyof OrdersReportItem)[];

// ── Sales by rep and by agent (sales_history, decision 129) ────────────────────────────────────────

export const SALES_REPORT_GROUPS = ['rep', 'agent'] as const;
export type SalesReportGroup = (typeof SALES_REPORT_GROUPS)[number];

export const salesReportQuery = z
  .object({
    from_month: isoMonth('first').optional(),
    to_month: isoMonth('last').optional(),
    group: z.enum(SALES_REPORT_GROUPS, { message: 'Group is rep or agent.' }).default('rep'),
    currency: z.enum(CURRENCY_CODES, { message: `Currency is one of ${CURRENCY_CODES.join(', ')}.` }).optional(),
    limit: paginationQuerySchema.shape.limit,
    offset: paginationQuerySchema.shape.offset,
    format,
  })
  .superRefine((q, ctx) => {
    // Only two valid months make a range (a bad one already has its own message).
    const from = q.from_month ?? '';
    const to = q.to_month ?? '';
    if (!MONTH.test(from) || !MONTH.test(to)) return;
    const months = monthIndex(to) - monthIndex(from) + 1;
    if (months < 1)
      ctx.addIssue({ code: 'custom', path: ['to_month'], message: 'The last month is before the first.' });
    else if (months > SALES_REPORT_MAX_MONTHS)
      ctx.addIssue({
        code: 'custom',
        path: ['to_month'],
        message: `The range is at most ${SALES_REPORT_MAX_MONTHS} months.`,
      });
  });
export type SalesReportQuery = z.infer<typeof salesReportQuery>;
export type SalesReportQueryInput = z.input<typeof salesReportQuery>;

/** 'YYYY-MM' (or 'YYYY-MM-DD') → months since year 0, for range arithmetic. */
export function monthIndex(month: string): number {
  return Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
}

export const salesMonthFigure = z.object({
  /** First day of the month, 'YYYY-MM-01'. */
  period_month: z.string(),
  units: z.number().int(),
  amount_cents: z.number().int(),
});
export type SalesMonthFigure = z.infer<typeof salesMonthFigure>;

/** One sales person (or agent) in one currency: the range's total and every month of the range (zeros included). */
export const salesReportRow = z.object({
  /** The sales person's id (group=rep) or the agent's id (group=agent; null: sales persons without an agent). */
  id: z.number().int().nullable(),
  name: z.string(),
  sales_channel: z.string().nullable(),
  currency,
  units: z.number().int(),
  amount_cents: z.number().int(),
  months: z.array(salesMonthFigure),
});
export type SalesReportRow = z.infer<typeof salesReportRow>;

export const salesReport = z.object({
  group: z.enum(SALES_REPORT_GROUPS),
  /** 'YYYY-MM-01' both, the range applied. */
  from_month: z.string(),
  to_month: z.string(),
  /** Every month of the range, oldest first. */
  months: z.array(z.string()),
  /** All sales persons (agents) together, per month and currency (the chart). */
  month_totals: z.array(salesMonthFigure.extend({ currency })),
  /** A page of rows, largest amount first; `total` counts every row. */
  rows: z.array(salesReportRow),
  total: z.number().int(),
  totals: z.array(z.object({ currency, units: z.number().int(), amount_cents: z.number().int() })),
});
export type SalesReport = z.infer<typeof salesReport>;

/** The sales report's CSV: one line per sales person (agent), currency and month with sales. */
export const SALES_REPORT_CSV_COLUMNS = [
  'id',
  'name',
  'sales_channel',
  'currency',
  'period_month',
  'units',
  'amount_cents',
] as const;
export type SalesReportCsvRow = Record<(typeof SALES_REPORT_CSV_COLUMNS)[number], string | number | null>;

// ── One sales person (#/sales-person/:salesPersonId) ────────────────────────────────────────────────

export const repIdParams = z.object({ id: idParam, token: z.string() });
export const repHistoryQuery = z.object({ format });
export type RepHistoryQuery = z.infer<typeof repHistoryQuery>;

export const repSalesHistory = z.object({
  sales_person: salesPersonInfo.extend({ agent_name: z.string().nullable() }),
  from_month: z.string(),
  to_month: z.string(),
  /**
   * The last 24 months (SALES_HISTORY_MONTHS), oldest first, in every currency the rep sold in (zero months
   * included); USD when the rep sold nothing.
   */
  months: z.array(salesMonthFigure.extend({ currency })),
  totals: z.array(z.object({ currency, units: z.number().int(), amount_cents: z.number().int() })),
});
export type RepSalesHistory = z.infer<typeof repSalesHistory>;
export const REP_HISTORY_CSV_COLUMNS = ['period_month', 'currency', 'units', 'amount_cents'] as const;

export const REP_CUSTOMER_SORT_FIELDS = ['legal_name', 'customer_id'] as const;
export type RepCustomerSortField = (typeof REP_CUSTOMER_SORT_FIELDS)[number];
export const repCustomersQuery = paginationQuerySchema
  .omit({ sort: true })
  .extend({ sort: sortSchema(REP_CUSTOMER_SORT_FIELDS), format });
export type RepCustomersQuery = z.infer<typeof repCustomersQuery>;
export const repCustomerItem = z.object({
  customer_id: z.number().int(),
  legal_name: z.string(),
  country: z.string(),
  currency,
  status: z.string(),
});
export type RepCustomerItem = z.infer<typeof repCustomerItem>;
export const repCustomerList = pagedList(repCustomerItem);
export type RepCustomerList = z.infer<typeof repCustomerList>;
export const REP_CUSTOMERS_CSV_COLUMNS = [
  'customer_id',
  'legal_name',
  'country',
  'currency',
  'status',
] as const satisfies readonly (keyof RepCustomerItem)[];
