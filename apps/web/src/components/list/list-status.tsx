import { Alert } from '@mantine/core';
import { describeError } from '../../lib/error-message';
import { formatTotal } from './list-pagination';

/**
 * The caption of a list: 'Invoices (loading…)' while it loads, then 'Invoices — 1,000+ matches' (a capped
 * total) or 'Invoices — 1 match'.
 */
export function listCaption(
  name: string,
  list: { readonly isPending: boolean; readonly total: number; readonly capped?: boolean },
  words: { readonly one: string; readonly many: string } = { one: 'match', many: 'matches' },
): string {
  if (list.isPending) return `${name} (loading…)`;
  const capped = list.capped ?? false;
  return `${name} — ${formatTotal(list.total, capped)} ${list.total === 1 && !capped ? words.one : words.many}`;
}

/** The line a list shows with no rows: 'Loading…', else what to do ('No invoices match. Change or clear the filters.'). */
export function emptyListText(isPending: boolean, text: string): string {
  return isPending ? 'Loading…' : text;
}

/** A list that could not be read: the error in words (what happened, what to do). */
export function ListError({ error }: { readonly error: unknown }) {
  if (!error) return null;
  const { title, message } = describeError(error);
  return (
    <Alert color="red" title={title}>
      {message}
    </Alert>
  );
}
