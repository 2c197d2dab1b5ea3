import { merchantFeatureChangeView, type MerchantFeatureDecisionRequest } from '@pos/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/*
 * The merchant's feature-change page (public; the link token is in the path) — see
 * packages/domain/src/contracts/merchant-features.ts (decision 123):
 *   GET  /api/public/features/{tok}                          → merchantFeatureChangeView
 *   POST /api/public/features/{tok}  {decision, version}     → merchantFeatureChangeView
 */

const PATH = '/api/public/features/{tok}';

export function getMerchantFeatureChangeQueryOptions(tok: string) {
  return queryOptions({
    queryKey: ['merchant-feature-change', tok] as const,
    queryFn: async ({ signal }) =>
      merchantFeatureChangeView.parse(await api.get<unknown>(PATH, { params: { tok }, signal })),
    // A link's page is read fresh each time it opens (it may be used or replaced meanwhile) and never retried.
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
}

export async function decideFeatureChange(tok: string, body: MerchantFeatureDecisionRequest) {
  return merchantFeatureChangeView.parse(await api.post<unknown>(PATH, body, { params: { tok } }));
}
