import { gatewayConfig, type GatewayConfig } from '@pos/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../lib/api';

/*
 * Where the browser tokenizes cards (decision 067), for the edit-payment page and the order flow:
 *   GET /api/customers/paymentinstruments/gateway/{token} → {provider, tokenize_url, available}
 * The tokenization itself is lib/gateway.ts (tokenizeCard): the card goes to tokenize_url only, never to /api.
 */

export const paymentGatewayKeys = {
  config: ['payment-gateway', 'config'] as const,
};

export async function getGatewayConfig(signal?: AbortSignal): Promise<GatewayConfig> {
  return gatewayConfig.parse(await api.get<unknown>('/api/customers/paymentinstruments/gateway/{token}', { signal }));
}

export function getGatewayConfigQueryOptions() {
  return queryOptions({
    queryKey: paymentGatewayKeys.config,
    queryFn: ({ signal }) => getGatewayConfig(signal),
    staleTime: 10 * 60_000,
  });
}

export function useGatewayConfig() {
  return useQuery(getGatewayConfigQueryOptions());
}
