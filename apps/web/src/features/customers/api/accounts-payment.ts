import {
  gatewayConfig,
  gatewayToken,
  gatewayTokenRequest,
  paymentInstrument,
  paymentInstrumentList,
  type GatewayConfig,
  type GatewayToken,
  type GatewayTokenRequest,
  type PaymentInstrument,
  type PaymentInstrumentCreateRequest,
  type PaymentInstrumentList,
} from '@pos/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, ApiError, NETWORK_ERROR_MESSAGE } from '../../../lib/api';
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

export async function getInstruments(customerId: number, filter: InstrumentFilter, signal?: AbortSignal): Promise<PaymentInstrumentList> {
  const query = compactQuery({ storeid: filter.storeId, status: 'active', limit: 50 });
  return paymentInstrumentList.parse(await api.get<unknown>(accountPath('/paymentinstruments'), { params: { id: customerId }, query, signal }));
}

export function getInstrumentsQueryOptions(customerId: number, filter: InstrumentFilter) {
  return queryOptions({ queryKey: accountKeys.instruments(customerId, filter), queryFn: ({ signal }) => getInstruments(customerId, filter, signal) });
}

export function useInstruments(customerId: number | null, filter: InstrumentFilter) {
  return useQuery({ ...getInstrumentsQueryOptions(customerId ?? 0, filter), enabled: customerId !== null });
}

export interface InstrumentCreation {
  readonly body: PaymentInstrumentCreateRequest;
  readonly idempotencyKey: string;
}

export async function addInstrument(customerId: number, { body, idempotencyKey }: InstrumentCreation): Promise<PaymentInstrument> {
  return paymentInstrument.parse(await api.post<unknown>(accountPath('/paymentinstruments'), body, { params: { id: customerId }, idempotencyKey }));
}

export function useAddInstrument(customerId: number) {
  return useAccountMutation(customerId, (input: InstrumentCreation) => addInstrument(customerId, input));
}

export async function getGatewayConfig(signal?: AbortSignal): Promise<GatewayConfig> {
  return gatewayConfig.parse(await api.get<unknown>('/api/customers/paymentinstruments/gateway/{token}', { signal }));
}

export function useGatewayConfig() {
  return useQuery({ queryKey: ['payment-gateway', 'config'], queryFn: ({ signal }) => getGatewayConfig(signal), staleTime: 10 * 60_000 });
}

function fieldsOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function sameOrigin(url: string): boolean {
  try {
    return new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
}

function xsrfCookie(): string | null {
  const pair = document.cookie.split(';').map((p) => p.trim()).find((p) => p.startsWith('XSRF-TOKEN='));
  return pair ? decodeURIComponent(pair.slice('XSRF-TOKEN='.length)) : null;
}

/**
 * Send the card to the payment gateway (the URL from the gateway config) and get its token. A plain fetch,
 * not the API client: no session token, and a refusal never ends the session. A gateway on another origin
 * gets no cookies and no XSRF header; the local gateway is served by our own server, whose XSRF check
 * covers every POST, so on our origin the XSRF pair is sent as for any call. The card is checked first with
 * the gateway's own rules (Luhn, month, CVC), so a typo is caught without a call.
 */
export async function tokenizeCard(tokenizeUrl: string, card: GatewayTokenRequest): Promise<GatewayToken> {
  const checked = gatewayTokenRequest.safeParse(card);
  if (!checked.success) {
    const fields: Record<string, string> = {};
    for (const issue of checked.error.issues) {
      const key = issue.path.map(String).join('.') || '_';
      fields[key] ??= issue.message;
    }
    throw new ApiError({ status: 400, code: 'card_invalid', message: 'Check the card details.', fields });
  }
  const local = sameOrigin(tokenizeUrl);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const xsrf = local ? xsrfCookie() : null;
  if (xsrf) headers['X-XSRF-TOKEN'] = xsrf;
  let response: Response;
  try {
    response = await fetch(tokenizeUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify(checked.data),
      credentials: local ? 'same-origin' : 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError({ status: 0, code: 'network', message: NETWORK_ERROR_MESSAGE });
  }
  const data = (await response.json().catch(() => undefined)) as unknown;
  if (!response.ok) {
    const error = (typeof data === 'object' && data !== null && 'error' in data ? (data as { error: unknown }).error : data) as
      | { code?: unknown; message?: unknown; fields?: unknown }
      | undefined;
    throw new ApiError({
      status: response.status,
      code: typeof error?.code === 'string' ? error.code : 'card_declined',
      message: typeof error?.message === 'string' ? error.message : 'The payment gateway refused the card.',
      fields: fieldsOf(error?.fields),
    });
  }
  const info = typeof data === 'object' && data !== null && 'info' in data ? (data as { info: unknown }).info : data;
  return gatewayToken.parse(info);
}
