import { STORE_FILTER_MIN_CHARS } from '../limits';

/** Fields of a customer store search record that the filter matches (spec §3, §5). */
export const STORE_FILTER_FIELDS = ['bracct', 'sales_rep', 'store_name', 'doing_business_as'] as const;
export type StoreFilterField = (typeof STORE_FILTER_FIELDS)[number];

export type StoreSearchRecord = {
  readonly [K in StoreFilterField]?: string | number | null;
};

/**
 * The filter applies only from 3 characters. Surrounding white space is not counted (decision:
 * '  a ' is one character and does not filter).
 */
export function storeFilterApplies(text: string | null | undefined): boolean {
  return (text ?? '').trim().length >= STORE_FILTER_MIN_CHARS;
}

/**
 * Case-insensitive substring match of the trimmed text against any of bracct, sales_rep, store_name,
 * doing_business_as. Under 3 characters every record is returned (a new array, same order).
 */
export function filterStores<T extends StoreSearchRecord>(records: readonly T[], text: string | null | undefined): T[] {
  if (!storeFilterApplies(text)) return [...records];
  const needle = (text ?? '').trim().toLowerCase();
  return records.filter((record) =>
    STORE_FILTER_FIELDS.some((field) => {
      const value = record[field];
      return value !== null && value !== undefined && String(value).toLowerCase().includes(needle);
    }),
  );
}
