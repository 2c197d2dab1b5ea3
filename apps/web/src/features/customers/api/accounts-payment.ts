import {
  paymentInstrument,
  paymentInstrumentList,
  type PaymentInstrument,
  type PaymentInstrumentCreateRequest,
  type PaymentInstrumentList,
} from '@pos/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { accountPath, compactQuery, useAccountMutation } from './accounts';
import { accountKeys } from './accounts-keys';

/*
 *   GET    …/paymentinstruments?storeid&status                    → paymentInstrumentList (masked)
 *   POST $ …/paymentinstruments    {kind:'card', card_token…} | {kind:'bank', …} → 201 paymentInstrument
 *   GET    /api/customers/paymentinstruments/gateway/{token}      → {provider, tokenize_url, available}
 *   POST   <tokenize_url>  {number, exp_month, exp_year, cvc, name}  → {token, brand, last4, exp_month, exp_year}
 *
 * The card number goes from the browser to the gateway's tokenize_url only (decision 067): never to /api,
 * never into the query or mutation cache. Our API receives the token.
 */

export interface InstrumentFilter {
  readonly storeId: number | null;
}

export async function getInstruments(
  customerId: number,
  filter: InstrumentFilter,
  signal?: AbortSignal,
): Promise<PaymentInstrumentList> {
  const query = compactQuery({ storeid: filter.storeId, status: 'active', limit: 50 });
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
