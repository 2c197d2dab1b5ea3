import {
  customerListingOptions,
  customerListingResult,
  type CustomerListingOptions,
  type CustomerListingResult,
} from '@pos/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { streamDownload, type StreamProgress } from '../../../lib/stream-download';
import { MONEY_ROOTS } from '../../../api/money-views';

/*
 * The customer listing's API (decision 130; contract in @pos/domain/contracts/customer-listing.ts, answers parsed):
 *   GET /api/reports/customer-listing/{token}?status&country&state&sales_rep&agent_id&plan&balance&balance_min
 *       &license&sort&limit&offset[&format=csv]
 *   GET /api/reports/customer-listing/options/{token}   the agents and sales reps to filter by
 */

export const LISTING_PAGE_SIZE = 25;

/** The filters as the page keeps them in its URL query ('' = any). balanceMin is in cents. */
export interface ListingFilters {
  readonly status: string;
  readonly country: string;
  readonly state: string;
  readonly salesRep: string;
  readonly agentId: string;
  readonly plan: string;
  readonly balance: string;
  readonly balanceMin: string;
  readonly license: string;
}

export const NO_LISTING_FILTERS: ListingFilters = {
  status: '',
  country: '',
  state: '',
  salesRep: '',
  agentId: '',
  plan: '',
  balance: '',
  balanceMin: '',
  license: '',
};

export interface ListingParams extends ListingFilters {
  /** 1-based. */
  readonly page: number;
  /** 'balance' or '-balance' (LISTING_SORT_FIELDS); '' = by customer name. */
  readonly sort: string;
}

export function listingQuery(f: ListingFilters) {
  return {
    status: f.status || undefined,
    country: f.country || undefined,
    state: f.state || undefined,
    sales_rep: f.salesRep.trim() || undefined,
    agent_id: f.agentId || undefined,
    plan: f.plan || undefined,
    balance: f.balance || undefined,
    balance_min: f.balanceMin || undefined,
    license: f.license || undefined,
  };
}

export const listingKeys = {
  all: MONEY_ROOTS.customerListing,
  list: (p: ListingParams) => [...listingKeys.all, 'list', p] as const,
  options: () => [...listingKeys.all, 'options'] as const,
};

export function getListingQueryOptions(p: ListingParams) {
  return queryOptions({
    queryKey: listingKeys.list(p),
    queryFn: async ({ signal }): Promise<CustomerListingResult> =>
      customerListingResult.parse(
        await api.get<unknown>('/api/reports/customer-listing/{token}', {
          query: {
            ...listingQuery(p),
            sort: p.sort || undefined,
            limit: LISTING_PAGE_SIZE,
            offset: (p.page - 1) * LISTING_PAGE_SIZE,
          },
          signal,
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function getListingOptionsQueryOptions() {
  return queryOptions({
    queryKey: listingKeys.options(),
    queryFn: async ({ signal }): Promise<CustomerListingOptions> =>
      customerListingOptions.parse(await api.get<unknown>('/api/reports/customer-listing/options/{token}', { signal })),
    staleTime: 5 * 60_000,
  });
}

/** Every row the filters match, as CSV, streamed with progress (lib/stream-download.ts). */
export function exportListing(
  f: ListingFilters,
  fileName: string,
  signal: AbortSignal,
  onProgress: (p: StreamProgress) => void,
): Promise<StreamProgress> {
  return streamDownload({
    path: '/api/reports/customer-listing/{token}',
    query: { ...listingQuery(f), format: 'csv' },
    fileName,
    signal,
    onProgress,
  });
}
