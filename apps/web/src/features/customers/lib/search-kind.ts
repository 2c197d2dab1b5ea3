import { guessCustomerSearchKind, STORE_FILTER_MIN_CHARS, type CustomerSearchKind } from '@pos/domain';

/** How the page names each search kind ("Searching store id 500002"). */
export const SEARCH_KIND_LABELS: Readonly<Record<CustomerSearchKind, string>> = {
  customerid: 'customer id',
  storeid: 'store id',
  federaltaxid: 'federal tax id',
  search: 'text',
};

export type SearchPlan =
  /** Nothing typed. */
  | { readonly state: 'empty' }
  /** Free text shorter than the minimum: nothing is asked yet. */
  | { readonly state: 'too_short'; readonly message: string }
  | {
      readonly state: 'ready';
      readonly kind: CustomerSearchKind;
      readonly value: string;
      /** 'Searching store id 500002' / 'Searching text “acme”'. */
      readonly description: string;
    };

/**
 * What the one search box will ask for (the domain's `guessCustomerSearchKind`): a customer id, a store
 * id ('S500002'), a federal tax id ('12-3456789' or 9 digits) or free text. Free text needs at least
 * STORE_FILTER_MIN_CHARS characters (the server's rule, which keeps the trigram search selective).
 */
export function planSearch(text: string): SearchPlan {
  const guess = guessCustomerSearchKind(text);
  if (!guess) return { state: 'empty' };
  if (guess.kind === 'search' && guess.value.length < STORE_FILTER_MIN_CHARS) {
    return {
      state: 'too_short',
      message: `Type at least ${STORE_FILTER_MIN_CHARS} characters to search by name, or a customer id, store id (S500002) or federal tax id.`,
    };
  }
  const what = SEARCH_KIND_LABELS[guess.kind];
  const shown = guess.kind === 'search' ? `“${guess.value}”` : guess.value;
  return { state: 'ready', kind: guess.kind, value: guess.value, description: `Searching ${what} ${shown}` };
}
