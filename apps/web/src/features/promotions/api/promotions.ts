import {
  promotionCreateRequest,
  promotionOrderList,
  promotionRecord,
  promotionSearchResult,
  promotionUpdateRequest,
  type PromotionCreateRequest,
  type PromotionOrderList,
  type PromotionRecord,
  type PromotionSearchResult,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isVersionConflict } from '../../../lib/api';

/*
 * The promotions screen's API (decision 125; contracts in @pos/domain/contracts/promotions.ts, every answer parsed):
 *   GET  /api/promotions/{token}?q&state&currency&customer_type&sort&limit&offset[&format=csv]
 *   POST /api/promotions/{token}                  create
 *   PUT  /api/promotions/{id}/{token}             edit (version)
 *   POST /api/promotions/{id}/expire/{token}      expire (version)
 *   GET  /api/promotions/{id}/orders/{token}      the orders that used it
 */

export const PROMOTION_PAGE_SIZE = 25;

export interface PromotionFilters {
  readonly q: string;
  /** all, current, expired, scheduled. */
  readonly state: string;
  /** USD, CAD or ''. */
  readonly currency: string;
  /** A customer type or ''. */
  readonly customerType: string;
}

export const NO_PROMOTION_FILTERS: PromotionFilters = { q: '', state: 'all', currency: '', customerType: '' };

export interface PromotionListParams extends PromotionFilters {
  /** 1-based. */
  readonly page: number;
  /** 'code' or '-code' (PROMOTION_SORT_FIELDS); null: by code. */
  readonly sort: string | null;
}

function filterQuery(f: PromotionFilters) {
  return {
    q: f.q.trim() || undefined,
    state: f.state || undefined,
    currency: f.currency || undefined,
    customer_type: f.customerType || undefined,
  };
}

export const promotionKeys = {
  all: ['promotions'] as const,
  list: (p: PromotionListParams) => [...promotionKeys.all, 'list', p] as const,
  orders: (id: number) => [...promotionKeys.all, 'orders', id] as const,
};

export async function searchPromotions(p: PromotionListParams, signal?: AbortSignal): Promise<PromotionSearchResult> {
  const info = await api.get<unknown>('/api/promotions/{token}', {
    query: {
      ...filterQuery(p),
      limit: PROMOTION_PAGE_SIZE,
      offset: (p.page - 1) * PROMOTION_PAGE_SIZE,
      sort: p.sort ?? undefined,
    },
    signal,
  });
  return promotionSearchResult.parse(info);
}

export function getPromotionListQueryOptions(p: PromotionListParams) {
  return queryOptions({
    queryKey: promotionKeys.list(p),
    queryFn: ({ signal }) => searchPromotions(p, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every matching promotion as CSV. */
export async function exportPromotions(p: PromotionListParams): Promise<Blob> {
  return api.get<Blob>('/api/promotions/{token}', {
    query: { ...filterQuery(p), sort: p.sort ?? undefined, format: 'csv' },
    responseType: 'blob',
  });
}

export async function createPromotion(body: PromotionCreateRequest): Promise<PromotionRecord> {
  return promotionRecord.parse(await api.post<unknown>('/api/promotions/{token}', promotionCreateRequest.parse(body)));
}

export async function updatePromotion(
  id: number,
  body: PromotionCreateRequest & { version: number },
): Promise<PromotionRecord> {
  return promotionRecord.parse(
    await api.put<unknown>('/api/promotions/{id}/{token}', promotionUpdateRequest.parse(body), { params: { id } }),
  );
}

export async function expirePromotion(id: number, version: number): Promise<PromotionRecord> {
  return promotionRecord.parse(
    await api.post<unknown>('/api/promotions/{id}/expire/{token}', { version }, { params: { id } }),
  );
}

/**
 * Create a promotion (`promotion` null) or edit one (its version guards the edit): every promotion list refreshes —
 * after the save, and after a version conflict (the list shows the promotion as it is now). The dialog shows a
 * refusal itself.
 */
export function useSavePromotion() {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: promotionKeys.all });
  return useMutation({
    mutationFn: ({ body, promotion }: { body: PromotionCreateRequest; promotion: PromotionRecord | null }) =>
      promotion ? updatePromotion(promotion.promo_id, { ...body, version: promotion.version }) : createPromotion(body),
    meta: { silentError: true },
    onSuccess: refresh,
    onError: (error) => {
      if (isVersionConflict(error)) refresh();
    },
  });
}

/** End a promotion today (its version guards it): the lists refresh, whether it was expired or refused. */
export function useExpirePromotion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (p: Pick<PromotionRecord, 'promo_id' | 'version'>) => expirePromotion(p.promo_id, p.version),
    meta: { silentError: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: promotionKeys.all }),
  });
}

export async function getPromotionOrders(id: number, signal?: AbortSignal): Promise<PromotionOrderList> {
  return promotionOrderList.parse(
    await api.get<unknown>('/api/promotions/{id}/orders/{token}', { params: { id }, signal }),
  );
}

export function getPromotionOrdersQueryOptions(id: number) {
  return queryOptions({
    queryKey: promotionKeys.orders(id),
    queryFn: ({ signal }) => getPromotionOrders(id, signal),
  });
}
