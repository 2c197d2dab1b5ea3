import { useState } from 'react';
import type { FilterValues, ListState } from './use-list-state';

/** What is wrong with the draft, per filter (empty: nothing). */
export type FilterErrors<F> = Partial<Record<keyof F, string>>;

/**
 * The filter bar's Apply and Clear with the draft checked first (the list kit, issue 30): `check` says what is wrong
 * with each field; nothing wrong → the list shows the draft (or `normalize` of it) from page 1. Clear forgets the
 * messages and goes back to the defaults.
 *
 *   const { errors, apply, clear } = useCheckedFilters(list, (d) => ({
 *     q: textTooShort(d.q, 3), customerId: notAnId(d.customerId, 'customer'),
 *   }));
 */
export function useCheckedFilters<F extends FilterValues<F>>(
  list: ListState<F>,
  check: (draft: F) => FilterErrors<F>,
  options: {
    /** The filters to show for a draft that passed (amounts normalised, text trimmed); the draft by default. */
    readonly normalize?: (draft: F) => F;
    /** Runs when other filters are shown, by Apply or Clear (e.g. a selection of rows is dropped). */
    readonly onChanged?: () => void;
  } = {},
) {
  const [errors, setErrors] = useState<FilterErrors<F>>({});
  return {
    errors,
    apply() {
      const wrong = Object.fromEntries(
        Object.entries(check(list.draft)).filter(([, message]) => typeof message === 'string' && message !== ''),
      ) as FilterErrors<F>;
      setErrors(wrong);
      if (Object.keys(wrong).length > 0) return;
      options.onChanged?.();
      list.apply(options.normalize ? options.normalize(list.draft) : undefined);
    },
    clear() {
      setErrors({});
      options.onChanged?.();
      list.clear();
    },
  };
}

/** "Type at least N characters." for text shorter than `min` (none for empty text). */
export function textTooShort(value: string, min: number): string | undefined {
  const text = value.trim();
  return text !== '' && text.length < min ? `Type at least ${min} characters.` : undefined;
}

/** "A customer id is a number." for anything but digits (none for empty). */
export function notAnId(value: string, what: string): string | undefined {
  return /^\d{0,10}$/.test(value.trim()) ? undefined : `A ${what} id is a number.`;
}

/** "Enter a number of days, 1 or more." for anything but a positive whole number (none for empty). */
export function notDays(value: string): string | undefined {
  const days = value.trim();
  return /^\d{0,4}$/.test(days) && days !== '0' ? undefined : 'Enter a number of days, 1 or more.';
}

/** `message` when both ends are given and the last is before the first. */
export function reversedRange(from: string, to: string, message: string): string | undefined {
  return from && to && from > to ? message : undefined;
}

/** "Enter an amount such as 25 or 25.50." for anything but dollars and cents (none for empty). */
export function notAmount(value: string): string | undefined {
  return /^\d{0,9}(\.\d{0,2})?$/.test(value.trim()) ? undefined : 'Enter an amount such as 25 or 25.50.';
}
