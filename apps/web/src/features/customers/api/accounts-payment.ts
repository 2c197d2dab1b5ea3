import {
  expiringCardList,
  paymentInstrument,
  paymentInstrumentList,
  paymentInstrumentUpdateRequest,
  type ExpiringCardList,
  type PaymentInstrument,
  type PaymentInstrumentCreateRequest,
  type PaymentInstrumentList,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { accountPath, compactQuery, useAccountMutation } from './accounts';
import { accountKeys } from './accounts-keys';

/*
 *   GET    …/paymentinstruments?storeid&status                    → paymentInstrumentList (masked)
 *   POST $ …/paymentinstruments    {kind:'card', card_token…} | {kind:'bank', …} → 201 paymentInstrument
 *   GET    /api/customers/paymentinstruments/gateway/{token}      → {provider, tokenize_url, available}
 *   PUT    …/paymentinstruments/{instrumentId}  {is_default: true, version} → paymentInstrument   (decision 115)
 *   DELETE …/paymentinstruments/{instrumentId}?version=N            → paymentInstrument (status inactive)
 *   GET    /api/customers/paymentinstruments/expiring/{token}?days&limit&offset → expiringCardList (all customers)
 *   POST   <tokenize_url>  {number, exp_month, exp_year, cvc, name}  → {token, brand, last4, exp_month, exp_year}
 *
 * The card number goes from the browser to the gateway's tokenize_url only (decision 067): never to /api,
 * never into the query or mutation cache. Our API receives the token.
 */

export interface InstrumentFilter {
  readonly storeId: number | null;
  /** Which instruments: the active ones (default) or all of them (removed ones too). */
  readonly status?: 'active' | 'all';
}

export async function getInstruments(
  customerId: number,
  filter: InstrumentFilter,
  signal?: AbortSignal,
): Promise<PaymentInstrumentList> {
  const status = filter.status === 'all' ? undefined : 'active';
  const query = compactQuery({ storeid: filter.storeId, status, limit: 50 });
  return paymentInstrumentList.parse(
    await api.get<unknown>(accountPath('/paymentinstruments'), { params: { id: customerId }, query, signal }),
  );
}

export function getInstrumentsQueryOptions(customerId: number, filter: InstrumentFilter) {
  return queryOptions({
    queryKey: accountKeys.instruments(customerId, filter),
    queryFn: ({ signal }) => getInstruments(customerId, filter, signal),
  });
}

export function useInstruments(customerId: number | null, filter: InstrumentFilter) {
  return useQuery({ ...getInstrumentsQueryOptions(customerId ?? 0, filter), enabled: customerId !== null });
}

export interface InstrumentCreation {
  readonly body: PaymentInstrumentCreateRequest;
  readonly idempotencyKey: string;
}

export async function addInstrument(
  customerId: number,
  { body, idempotencyKey }: InstrumentCreation,
): Promise<PaymentInstrument> {
  return paymentInstrument.parse(
    await api.post<unknown>(accountPath('/paymentinstruments'), body, { params: { id: customerId }, idempotencyKey }),
  );
}

export function useAddInstrument(customerId: number) {
  return useAccountMutation(customerId, (input: InstrumentCreation) => addInstrument(customerId, input));
}

export interface InstrumentChange {
  readonly instrumentId: number;
  /** The instrument's version as read (stale → 409 version_conflict). */
  readonly version: number;
}

export async function setDefaultInstrument(
  customerId: number,
  { instrumentId, version }: InstrumentChange,
): Promise<PaymentInstrument> {
  const body = paymentInstrumentUpdateRequest.parse({ is_default: true, version });
  return paymentInstrument.parse(
    await api.put<unknown>(accountPath('/paymentinstruments/{instrumentId}'), body, {
      params: { id: customerId, instrumentId },
    }),
  );
}

export async function removeInstrument(
  customerId: number,
  { instrumentId, version }: InstrumentChange,
): Promise<PaymentInstrument> {
  return paymentInstrument.parse(
    await api.delete<unknown>(accountPath('/paymentinstruments/{instrumentId}'), undefined, {
      params: { id: customerId, instrumentId },
      query: { version },
    }),
  );
}

/** The expiring-cards list is not per customer: a change to an instrument refreshes it as well. */
function useRefreshExpiring() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: expiringCardKeys.all });
}

export function useSetDefaultInstrument(customerId: number) {
  const refreshExpiring = useRefreshExpiring();
  return useAccountMutation(customerId, async (input: InstrumentChange) => {
    const result = await setDefaultInstrument(customerId, input);
    refreshExpiring();
    return result;
  });
}

export function useRemoveInstrument(customerId: number) {
  const refreshExpiring = useRefreshExpiring();
  return useAccountMutation(customerId, async (input: InstrumentChange) => {
    const result = await removeInstrument(customerId, input);
    refreshExpiring();
    return result;
  });
}

// ── Cards about to expire (all customers) ──────────────────────────────────────────────────────────

export const EXPIRING_PAGE_SIZE = 25;

export interface ExpiringCardsParams {
  readonly days: number;
  /** 1-based. */
  readonly page: number;
}

export const expiringCardKeys = {
  all: ['payment-instruments', 'expiring'] as const,
  page: (params: ExpiringCardsParams) => [...expiringCardKeys.all, params] as const,
};

export async function getExpiringCards(params: ExpiringCardsParams, signal?: AbortSignal): Promise<ExpiringCardList> {
  return expiringCardList.parse(
    await api.get<unknown>('/api/customers/paymentinstruments/expiring/{token}', {
      query: { days: params.days, limit: EXPIRING_PAGE_SIZE, offset: (params.page - 1) * EXPIRING_PAGE_SIZE },
      signal,
    }),
  );
}

export function getExpiringCardsQueryOptions(params: ExpiringCardsParams) {
  return queryOptions({
    queryKey: expiringCardKeys.page(params),
    queryFn: ({ signal }) => getExpiringCards(params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useExpiringCards(params: ExpiringCardsParams) {
  return useQuery(getExpiringCardsQueryOptions(params));
}
