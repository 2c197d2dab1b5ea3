import { gatewayToken, gatewayTokenRequest, type GatewayToken, type GatewayTokenRequest } from '@pos/domain';
import { ApiError, NETWORK_ERROR_MESSAGE } from './api';

/*
 * Card tokenization from the browser (decision 067). The card number goes to the gateway's tokenize_url (from
 * api/payment-gateway.ts) only — never to /api, never into a cache, a document or a draft.
 */

/** What a card form holds until the gateway tokenizes it (components/payment-method-fields.tsx). */
export interface CardInput {
  readonly name: string;
  readonly number: string;
  readonly expMonth: string;
  readonly expYear: string;
  readonly cvc: string;
}
export const EMPTY_CARD: CardInput = { name: '', number: '', expMonth: '', expYear: '', cvc: '' };

/** The card as the gateway takes it. */
function cardTokenRequest(card: CardInput): GatewayTokenRequest {
  return { number: card.number, exp_month: card.expMonth, exp_year: card.expYear, cvc: card.cvc, name: card.name };
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
  const pair = document.cookie
    .split(';')
    .map((p) => p.trim())
    .find((p) => p.startsWith('XSRF-TOKEN='));
  return pair ? decodeURIComponent(pair.slice('XSRF-TOKEN='.length)) : null;
}

/**
 * Send the card to the payment gateway (the URL from the gateway config) and get its token. A plain fetch,
 * not the API client: no session token, and a refusal never ends the session. A gateway on another origin
 * gets no cookies and no XSRF header; the local gateway is served by our own server, whose XSRF check
 * covers every POST, so on our origin the XSRF pair is sent as for any call. The card is checked first with
 * the gateway's own rules (Luhn, month, CVC), so a typo is caught without a call.
 */
export async function tokenizeCard(tokenizeUrl: string, card: CardInput): Promise<GatewayToken> {
  const checked = gatewayTokenRequest.safeParse(cardTokenRequest(card));
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
    const error = (
      typeof data === 'object' && data !== null && 'error' in data ? (data as { error: unknown }).error : data
    ) as { code?: unknown; message?: unknown; fields?: unknown } | undefined;
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
