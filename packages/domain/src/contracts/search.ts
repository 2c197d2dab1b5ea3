import { z } from 'zod';
import { hasAnyPermission, type Permission } from '../access/permissions';
import { STORE_FILTER_MIN_CHARS } from '../limits';
import { normalizeFederalTaxId } from '../rules/customer-search';

/*
 * The global search (⌘K; decision 106):
 *   GET /api/search/{token}?q=…  → { info: GlobalSearchResult }
 * One box over customers (id, legal name, federal tax id), stores (id, name, DBA, bracct), terminals (terminal id,
 * serial number) and orders (id, unified order id); at most GLOBAL_SEARCH_LIMIT results, grouped by kind.
 */

/** At most this many results in all kinds together. */
export const GLOBAL_SEARCH_LIMIT = 20;
export const GLOBAL_SEARCH_TEXT_MAX = 100;

export const SEARCH_KINDS = ['customer', 'store', 'terminal', 'order'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/**
 * Who may search what (any one privilege of a list): the privileges of the customer search for customers, stores
 * and terminals, those of the order list for orders. A session with none of them gets 403.
 */
export const SEARCH_KIND_PRIVILEGES: Readonly<Record<SearchKind, readonly Permission[]>> = {
  customer: ['customer_details_view', 'customer_details_edit'],
  store: ['customer_details_view', 'customer_details_edit'],
  terminal: ['customer_details_view', 'customer_details_edit'],
  order: ['search_orders_view', 'search_orders_edit', 'create_distributor_orders'],
};

/** Every privilege that opens the search for at least one kind. */
export const GLOBAL_SEARCH_PRIVILEGES: readonly Permission[] = [
  ...new Set(Object.values(SEARCH_KIND_PRIVILEGES).flat()),
];

/** The kinds a session with these privileges may search (the server answers with the same; the web offers them). */
export function searchKindsFor(privileges: Iterable<string>): SearchKind[] {
  const granted = [...privileges];
  return SEARCH_KINDS.filter((kind) => hasAnyPermission(granted, SEARCH_KIND_PRIVILEGES[kind]));
}

/** What one text is matched against. */
export interface GlobalSearchTerms {
  /** The trimmed text: matched exactly against terminal ids, serial numbers and unified order ids. */
  readonly exact: string;
  /** A customer id: digits, or 'C' + digits. */
  readonly customerId: number | null;
  /** A store id: digits, or 'S' + digits. */
  readonly storeId: number | null;
  /** An order id: digits. */
  readonly orderId: number | null;
  /** A federal tax id in its canonical form 'NN-NNNNNNN' (typed with or without the dash). */
  readonly federalTaxId: string | null;
  /**
   * Text for case-insensitive substring matching (names, DBA, bracct, tax id): the trimmed text when it has at
   * least 3 characters (spec §5, the customer search's rule), else null.
   */
  readonly text: string | null;
}

const INT_MAX = 2_147_483_647;
const idOf = (digits: string | undefined): number | null => {
  if (digits === undefined || digits.length > 10) return null;
  const n = Number(digits);
  return n >= 1 && n <= INT_MAX ? n : null;
};

/**
 * The terms of a search text, or null when there is nothing to search: blank, or shorter than 3 characters
 * without being an id.
 */
export function globalSearchTerms(q: string): GlobalSearchTerms | null {
  const exact = q.trim();
  if (exact === '') return null;
  const digits = /^\d+$/.test(exact) ? exact : undefined;
  const terms: GlobalSearchTerms = {
    exact,
    customerId: idOf(digits ?? /^[Cc](\d+)$/.exec(exact)?.[1]),
    storeId: idOf(digits ?? /^[Ss](\d+)$/.exec(exact)?.[1]),
    orderId: idOf(digits),
    federalTaxId: normalizeFederalTaxId(exact),
    text: exact.length >= STORE_FILTER_MIN_CHARS ? exact : null,
  };
  const searchable =
    terms.text !== null || terms.customerId !== null || terms.storeId !== null || terms.federalTaxId !== null;
  return searchable ? terms : null;
}

export const GLOBAL_SEARCH_SHORT_MESSAGE = `Type at least ${STORE_FILTER_MIN_CHARS} characters, or an id.`;

/** `?q=` — 1–100 characters once trimmed; text needs 3 (an id does not). Output: the text and its terms. */
export const globalSearchQuery = z
  .object({
    q: z
      .string({ message: 'Give the text to search for (q).' })
      .trim()
      .max(GLOBAL_SEARCH_TEXT_MAX, { message: `Search with at most ${GLOBAL_SEARCH_TEXT_MAX} characters.` }),
  })
  .transform(({ q }, ctx) => {
    const terms = globalSearchTerms(q);
    if (!terms) {
      ctx.addIssue({ code: 'custom', path: ['q'], message: GLOBAL_SEARCH_SHORT_MESSAGE });
      return z.NEVER;
    }
    return { q, terms };
  });
export type GlobalSearchQuery = z.output<typeof globalSearchQuery>;

export const customerSearchHit = z.object({
  customer_id: z.number().int(),
  legal_name: z.string(),
  federal_tax_id: z.string().nullable(),
  country: z.string(),
  status: z.string(),
});
export type CustomerSearchHit = z.infer<typeof customerSearchHit>;

export const storeSearchHit = z.object({
  store_id: z.number().int(),
  customer_id: z.number().int(),
  store_name: z.string(),
  doing_business_as: z.string(),
  bracct: z.string().nullable(),
  /** The store's customer. */
  legal_name: z.string(),
  city: z.string().nullable(),
  state: z.string(),
  status: z.string(),
});
export type StoreSearchHit = z.infer<typeof storeSearchHit>;

export const terminalSearchHit = z.object({
  terminal_id: z.number().int(),
  /** The terminal id of the spec. */
  elmer_id: z.string(),
  serial_number: z.string(),
  status: z.string(),
  store_id: z.number().int(),
  customer_id: z.number().int(),
  store_name: z.string(),
});
export type TerminalSearchHit = z.infer<typeof terminalSearchHit>;

export const orderSearchHit = z.object({
  order_id: z.number().int(),
  unified_order_id: z.string(),
  status: z.string(),
  status_label: z.string(),
  legal_name: z.string().nullable(),
  dba_name: z.string().nullable(),
});
export type OrderSearchHit = z.infer<typeof orderSearchHit>;

/**
 * The answer, grouped by kind (each group best match first). `searched`: the kinds this session may search (the
 * others are always empty); `more`: something matched beyond the GLOBAL_SEARCH_LIMIT shown.
 */
export const globalSearchResult = z.object({
  q: z.string(),
  searched: z.array(z.enum(SEARCH_KINDS)),
  customers: z.array(customerSearchHit),
  stores: z.array(storeSearchHit),
  terminals: z.array(terminalSearchHit),
  orders: z.array(orderSearchHit),
  more: z.boolean(),
});
export type GlobalSearchResult = z.infer<typeof globalSearchResult>;
