import { globalSearchResult, type GlobalSearchResult } from '@pos/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { getToken } from '../../lib/session';

/*
 * The global search (decision 106):
 *   GET /api/search/{token}?q=…  → GlobalSearchResult (customers, stores, terminals, orders; ≤ 20 in all)
 */

export const searchKeys = {
  all: ['search'] as const,
  results: (token: string | null, q: string) => [...searchKeys.all, token, q] as const,
};

export async function globalSearch(q: string, signal?: AbortSignal): Promise<GlobalSearchResult> {
  return globalSearchResult.parse(await api.get<unknown>('/api/search/{token}', { query: { q }, signal }));
}

export function getGlobalSearchQueryOptions(q: string) {
  return queryOptions({
    queryKey: searchKeys.results(getToken(), q),
    queryFn: ({ signal }) => globalSearch(q, signal),
    // The search box says what went wrong itself.
    meta: { silentError: true },
  });
}
