import {
  agingInvoices,
  agingReport,
  failedPaymentReport,
  revenueReport,
  type AgingBucket,
  type AgingInvoices,
  type AgingReport,
  type FailedPaymentReport,
  type RevenueReport,
} from '@pos/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type QueryParams } from '../../../lib/api';
import { MONEY_ROOTS } from '../../../api/money-views';

/*
 * The reports screen's API (decision 128; contracts in @pos/domain/contracts/reports.ts, every answer parsed):
 *   GET /api/reports/aging/{token}?as_of&country&currency&sort&limit&offset[&format=csv]
 *   GET /api/reports/aging/invoices/{token}?as_of&bucket&country&currency&customer_id&sort&limit&offset[&format=csv]
 *   GET /api/reports/revenue/{token}?from&to&country&currency&type[&format=csv]
 *   GET /api/reports/failed-payments/{token}?from&to&country&currency[&format=csv]
 */

export const AGING_PAGE_SIZE = 25;
export const DRILL_PAGE_SIZE = 25;

/** Country and currency filters ('' for any). */
export interface PlaceFilters {
  readonly country: string;
  readonly currency: string;
}

export interface AgingParams extends PlaceFilters {
  /** YYYY-MM-DD or '' for today. */
  readonly asOf: string;
  /** 1-based. */
  readonly page: number;
  readonly sort: string | null;
}

export interface DrillParams extends PlaceFilters {
  readonly asOf: string;
  readonly bucket: AgingBucket;
  readonly customerId: number | null;
  readonly page: number;
}

export interface RangeParams extends PlaceFilters {
  /** YYYY-MM-DD or '' for the server's default (the last 12 months). */
  readonly from: string;
  readonly to: string;
  /** Revenue only: an invoice type or ''. */
  readonly type?: string;
}

const place = (p: PlaceFilters) => ({ country: p.country || undefined, currency: p.currency || undefined });
const agingQuery = (p: AgingParams): QueryParams => ({
  ...place(p),
  as_of: p.asOf || undefined,
  sort: p.sort ?? undefined,
});
const drillQuery = (p: DrillParams): QueryParams => ({
  ...place(p),
  as_of: p.asOf || undefined,
  bucket: p.bucket,
  customer_id: p.customerId ?? undefined,
});
const rangeQuery = (p: RangeParams): QueryParams => ({
  ...place(p),
  from: p.from || undefined,
  to: p.to || undefined,
  type: p.type || undefined,
});

export const reportKeys = {
  all: MONEY_ROOTS.reports,
  aging: (p: AgingParams) => [...reportKeys.all, 'aging', p] as const,
  drill: (p: DrillParams) => [...reportKeys.all, 'aging-invoices', p] as const,
  revenue: (p: RangeParams) => [...reportKeys.all, 'revenue', p] as const,
  failed: (p: RangeParams) => [...reportKeys.all, 'failed-payments', p] as const,
};

export async function getAging(p: AgingParams, signal?: AbortSignal): Promise<AgingReport> {
  const info = await api.get<unknown>('/api/reports/aging/{token}', {
    query: { ...agingQuery(p), limit: AGING_PAGE_SIZE, offset: (p.page - 1) * AGING_PAGE_SIZE },
    signal,
  });
  return agingReport.parse(info);
}

export function getAgingQueryOptions(p: AgingParams) {
  return queryOptions({
    queryKey: reportKeys.aging(p),
    queryFn: ({ signal }) => getAging(p, signal),
    placeholderData: keepPreviousData,
  });
}

export async function getAgingInvoices(p: DrillParams, signal?: AbortSignal): Promise<AgingInvoices> {
  const info = await api.get<unknown>('/api/reports/aging/invoices/{token}', {
    query: { ...drillQuery(p), limit: DRILL_PAGE_SIZE, offset: (p.page - 1) * DRILL_PAGE_SIZE },
    signal,
  });
  return agingInvoices.parse(info);
}

export function getAgingInvoicesQueryOptions(p: DrillParams) {
  return queryOptions({
    queryKey: reportKeys.drill(p),
    queryFn: ({ signal }) => getAgingInvoices(p, signal),
    placeholderData: keepPreviousData,
  });
}

export async function getRevenue(p: RangeParams, signal?: AbortSignal): Promise<RevenueReport> {
  return revenueReport.parse(await api.get<unknown>('/api/reports/revenue/{token}', { query: rangeQuery(p), signal }));
}

export function getRevenueQueryOptions(p: RangeParams) {
  return queryOptions({ queryKey: reportKeys.revenue(p), queryFn: ({ signal }) => getRevenue(p, signal) });
}

export async function getFailedPayments(p: RangeParams, signal?: AbortSignal): Promise<FailedPaymentReport> {
  return failedPaymentReport.parse(
    await api.get<unknown>('/api/reports/failed-payments/{token}', { query: rangeQuery(p), signal }),
  );
}

export function getFailedPaymentsQueryOptions(p: RangeParams) {
  return queryOptions({ queryKey: reportKeys.failed(p), queryFn: ({ signal }) => getFailedPayments(p, signal) });
}

/** Every row of a report as CSV (the server streams them all). */
export type CsvReport =
  | { readonly kind: 'aging'; readonly params: AgingParams }
  | { readonly kind: 'aging-invoices'; readonly params: DrillParams }
  | { readonly kind: 'revenue'; readonly params: RangeParams }
  | { readonly kind: 'failed-payments'; readonly params: RangeParams };

export async function exportReport(r: CsvReport): Promise<Blob> {
  const [path, query] =
    r.kind === 'aging'
      ? ['/api/reports/aging/{token}', agingQuery(r.params)]
      : r.kind === 'aging-invoices'
        ? ['/api/reports/aging/invoices/{token}', drillQuery(r.params)]
        : r.kind === 'revenue'
          ? ['/api/reports/revenue/{token}', rangeQuery(r.params)]
          : ['/api/reports/failed-payments/{token}', rangeQuery(r.params)];
  return api.get<Blob>(path, { query: { ...query, format: 'csv' }, responseType: 'blob' });
}
