import { STORE_FILTER_MIN_CHARS } from '../limits';
/** Customer search query kinds (spec §5, §7: GET /api/customers/{token}/all). */
export const CUSTOMER_SEARCH_KINDS = ['customerid', 'search', 'storeid', 'federaltaxid'] as const;
export type CustomerSearchKind = (typeof CUSTOMER_SEARCH_KINDS)[number];

export function isCustomerSearchKind(value: unknown): value is CustomerSearchKind {
  return typeof value === 'string' && (CUSTOMER_SEARCH_KINDS as readonly string[]).includes(value);
}

/** Query keys that may accompany a search kind without being one (list paging). */
export const CUSTOMER_SEARCH_EXTRA_KEYS = ['limit', 'offset', 'sort'] as const;

export type CustomerSearchQueryError = 'no_kind' | 'several_kinds' | 'unknown_kind';

export type CustomerSearchResolution =
  | { readonly ok: true; readonly kind: CustomerSearchKind; readonly value: string }
  | { readonly ok: false; readonly code: CustomerSearchQueryError; readonly message: string };

/**
 * Given a query object, return the single search kind it uses and its (trimmed) value.
 * Keys with an undefined, null or blank value are ignored; paging keys (limit, offset, sort) are
 * allowed. Errors: no kind, several kinds, or any other key.
 */
export function resolveCustomerSearchQuery(
  query: Readonly<Record<string, unknown>>,
  allowedExtraKeys: readonly string[] = CUSTOMER_SEARCH_EXTRA_KEYS,
): CustomerSearchResolution {
  const present = Object.entries(query).filter(([, v]) => v !== undefined && v !== null && String(v).trim() !== '');
  const unknown = present.map(([k]) => k).filter((k) => !isCustomerSearchKind(k) && !allowedExtraKeys.includes(k));
  if (unknown.length > 0) {
    return {
      ok: false,
      code: 'unknown_kind',
      message: `Unknown search ${unknown.length === 1 ? 'kind' : 'kinds'}: ${unknown.join(', ')}. Use one of ${CUSTOMER_SEARCH_KINDS.join(', ')}.`,
    };
  }
  const kinds = present.filter(([k]) => isCustomerSearchKind(k));
  if (kinds.length === 0) {
    return {
      ok: false,
      code: 'no_kind',
      message: `Give one of ${CUSTOMER_SEARCH_KINDS.join(', ')}.`,
    };
  }
  if (kinds.length > 1) {
    return {
      ok: false,
      code: 'several_kinds',
      message: `Search by one kind at a time, not ${kinds.map(([k]) => k).join(' and ')}.`,
    };
  }
  const [kind, value] = kinds[0] as [CustomerSearchKind, unknown];
  return { ok: true, kind, value: String(value).trim() };
}

const FEDERAL_TAX_ID = /^(\d{2})-?(\d{7})$/;

/** Canonical federal tax id (EIN) form 'NN-NNNNNNN', or null when the text is not one. */
export function normalizeFederalTaxId(text: string): string | null {
  const m = FEDERAL_TAX_ID.exec(text.trim());
  return m ? `${m[1]}-${m[2]}` : null;
}

/**
 * The single search box (decision):
 * - 'NN-NNNNNNN' or exactly 9 digits → federaltaxid (value normalised to NN-NNNNNNN);
 * - 'S123' / 's123' → storeid '123';
 * - 'C123' / 'c123' or any other run of digits → customerid (digits only);
 * - anything else → free-text search (trimmed);
 * - blank → null (nothing to search).
 */
export function guessCustomerSearchKind(
  text: string,
): { readonly kind: CustomerSearchKind; readonly value: string } | null {
  const t = text.trim();
  if (t === '') return null;
  const fedTaxId = normalizeFederalTaxId(t);
  if (fedTaxId) return { kind: 'federaltaxid', value: fedTaxId };
  const store = /^[Ss](\d+)$/.exec(t);
  if (store) return { kind: 'storeid', value: store[1] as string };
  const customer = /^[Cc]?(\d+)$/.exec(t);
  if (customer) return { kind: 'customerid', value: customer[1] as string };
  return { kind: 'search', value: t };
}

/**
 * Whether what is typed in a merchant or store picker may be searched yet (issue 30): an id (digits) at once, text
 * from STORE_FILTER_MIN_CHARS characters — what the search call accepts, so a picker never asks it with too little.
 */
export function isMerchantSearchReady(text: string): boolean {
  const t = text.trim();
  return /^\d+$/.test(t) || t.length >= STORE_FILTER_MIN_CHARS;
}

/** The hint under a merchant or store picker, in the words of the rule above. */
export const MERCHANT_SEARCH_HINT = `an id, or at least ${STORE_FILTER_MIN_CHARS} letters of the name`;
