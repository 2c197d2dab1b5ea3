import {
  ordersReport,
  ordersReportList,
  repCustomerList,
  repSalesHistory,
  salesReport,
  type OrdersReport,
  type OrdersReportList,
  type OrdersReportListQueryInput,
  type OrdersReportQueryInput,
  type RepCustomerList,
  type RepSalesHistory,
  type SalesReport,
  type SalesReportQueryInput,
} from '@pos/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/*
 * The Orders and Sales tabs of #/reports and the sales person page (decision 129; contracts in
 * @pos/domain/contracts/sales-reports.ts, every answer parsed):
 *   GET /api/reports/orders/{token}?from&to&date_basis&country&currency[&format=csv]
 *   GET /api/reports/orders/list/{token}?…&status&flow&channel&limit&offset[&format=csv]
 *   GET /api/reports/sales/{token}?from_month&to_month&group&currency&limit&offset[&format=csv]
 *   GET /api/reports/sales/reps/{id}/{token}[?format=csv]
 *   GET /api/reports/sales/reps/{id}/customers/{token}?limit&offset[&format=csv]
 */

/** A query as the web sends it (the contracts' coerced numbers typed as numbers). */
type Paged<Q> = Omit<Q, 'limit' | 'offset' | 'sort'> & { limit?: number; offset?: number; sort?: string };
export type SalesReportParams = Paged<SalesReportQueryInput>;
type DrillQuery = Paged<OrdersReportListQueryInput>;

export const ORDERS_DRILL_PAGE_SIZE = 25;
export const SALES_REPORT_PAGE_SIZE = 25;
export const REP_CUSTOMERS_PAGE_SIZE = 25;

/** The orders report's filters as the form holds them ('' for none). */
export interface OrdersReportFilters {
  readonly from: string;
  readonly to: string;
  readonly dateBasis: 'created' | 'submitted';
  readonly country: string;
  readonly currency: string;
}

function ordersQuery(f: OrdersReportFilters): OrdersReportQueryInput {
  return {
    from: f.from || undefined,
    to: f.to || undefined,
    date_basis: f.dateBasis,
    country: (f.country || undefined) as OrdersReportQueryInput['country'],
    currency: (f.currency || undefined) as OrdersReportQueryInput['currency'],
  };
}

/** The figure a drill-down opens: one status, flow or channel in one currency. */
export interface OrdersDrill {
  readonly dimension: 'status' | 'flow' | 'channel';
  readonly key: string;
  readonly label: string;
  readonly currency: string;
}

export const salesReportKeys = {
  all: ['sales-reports'] as const,
  orders: (f: OrdersReportFilters) => [...salesReportKeys.all, 'orders', f] as const,
  ordersList: (f: OrdersReportFilters, d: OrdersDrill, page: number, sort: string) =>
    [...salesReportKeys.all, 'orders-list', f, d, page, sort] as const,
  sales: (q: SalesReportParams) => [...salesReportKeys.all, 'sales', q] as const,
  rep: (id: number) => [...salesReportKeys.all, 'rep', id] as const,
  repCustomers: (id: number, page: number, sort: string) =>
    [...salesReportKeys.all, 'rep-customers', id, page, sort] as const,
};

export async function getOrdersReport(f: OrdersReportFilters, signal?: AbortSignal): Promise<OrdersReport> {
  return ordersReport.parse(await api.get<unknown>('/api/reports/orders/{token}', { query: ordersQuery(f), signal }));
}

export function ordersReportQueryOptions(f: OrdersReportFilters) {
  return queryOptions({
    queryKey: salesReportKeys.orders(f),
    queryFn: ({ signal }) => getOrdersReport(f, signal),
    placeholderData: keepPreviousData,
  });
}

/** The figures table as CSV. */
export async function exportOrdersReport(f: OrdersReportFilters): Promise<Blob> {
  return api.get<Blob>('/api/reports/orders/{token}', {
    query: { ...ordersQuery(f), format: 'csv' },
    responseType: 'blob',
  });
}

function drillQuery(f: OrdersReportFilters, d: OrdersDrill, sort: string): DrillQuery {
  return {
    ...ordersQuery(f),
    sort: sort || undefined,
    currency: d.currency as DrillQuery['currency'],
    [d.dimension]: d.key,
  };
}

export async function getReportOrders(
  f: OrdersReportFilters,
  d: OrdersDrill,
  page: number,
  sort: string,
  signal?: AbortSignal,
): Promise<OrdersReportList> {
  const query = {
    ...drillQuery(f, d, sort),
    limit: ORDERS_DRILL_PAGE_SIZE,
    offset: (page - 1) * ORDERS_DRILL_PAGE_SIZE,
  };
  return ordersReportList.parse(await api.get<unknown>('/api/reports/orders/list/{token}', { query, signal }));
}

export function reportOrdersQueryOptions(f: OrdersReportFilters, d: OrdersDrill, page: number, sort: string) {
  return queryOptions({
    queryKey: salesReportKeys.ordersList(f, d, page, sort),
    queryFn: ({ signal }) => getReportOrders(f, d, page, sort, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every order behind the figure as CSV (the server streams all rows). */
export async function exportReportOrders(f: OrdersReportFilters, d: OrdersDrill, sort: string): Promise<Blob> {
  return api.get<Blob>('/api/reports/orders/list/{token}', {
    query: { ...drillQuery(f, d, sort), format: 'csv' },
    responseType: 'blob',
  });
}

export async function getSalesReport(q: SalesReportParams, signal?: AbortSignal): Promise<SalesReport> {
  return salesReport.parse(await api.get<unknown>('/api/reports/sales/{token}', { query: { ...q }, signal }));
}

export function salesReportQueryOptions(q: SalesReportParams) {
  return queryOptions({
    queryKey: salesReportKeys.sales(q),
    queryFn: ({ signal }) => getSalesReport(q, signal),
    placeholderData: keepPreviousData,
  });
}

export async function exportSalesReport(q: SalesReportParams): Promise<Blob> {
  const { limit: _limit, offset: _offset, ...rest } = q;
  return api.get<Blob>('/api/reports/sales/{token}', { query: { ...rest, format: 'csv' }, responseType: 'blob' });
}

export async function getRepSalesHistory(id: number, signal?: AbortSignal): Promise<RepSalesHistory> {
  return repSalesHistory.parse(
    await api.get<unknown>('/api/reports/sales/reps/{id}/{token}', { params: { id }, signal }),
  );
}

export function repSalesHistoryQueryOptions(id: number) {
  return queryOptions({ queryKey: salesReportKeys.rep(id), queryFn: ({ signal }) => getRepSalesHistory(id, signal) });
}

export async function exportRepSalesHistory(id: number): Promise<Blob> {
  return api.get<Blob>('/api/reports/sales/reps/{id}/{token}', {
    params: { id },
    query: { format: 'csv' },
    responseType: 'blob',
  });
}

export async function getRepCustomers(
  id: number,
  page: number,
  sort: string,
  signal?: AbortSignal,
): Promise<RepCustomerList> {
  const query = {
    limit: REP_CUSTOMERS_PAGE_SIZE,
    offset: (page - 1) * REP_CUSTOMERS_PAGE_SIZE,
    sort: sort || undefined,
  };
  return repCustomerList.parse(
    await api.get<unknown>('/api/reports/sales/reps/{id}/customers/{token}', { params: { id }, query, signal }),
  );
}

export function repCustomersQueryOptions(id: number, page: number, sort: string) {
  return queryOptions({
    queryKey: salesReportKeys.repCustomers(id, page, sort),
    queryFn: ({ signal }) => getRepCustomers(id, page, sort, signal),
    placeholderData: keepPreviousData,
  });
}

export async function exportRepCustomers(id: number, sort: string): Promise<Blob> {
  return api.get<Blob>('/api/reports/sales/reps/{id}/customers/{token}', {
    params: { id },
    query: { format: 'csv', sort: sort || undefined },
    responseType: 'blob',
  });
}
