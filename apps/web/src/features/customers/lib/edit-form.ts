import { fieldsFromZodError } from '@pos/domain';
import type { z } from 'zod';
import { isApiError } from '../../../lib/api';

/*
 * The edit dialogs send only what changed, with the version the edit started from (optimistic
 * concurrency, decision 061). Text boxes hold strings; '' means "clear" for optional fields.
 */

export type Draft<K extends string> = Readonly<Record<K, string>>;

/** The fields whose text differs from the record's (both trimmed; null reads as ''). */
export function changedFields<K extends string>(
  draft: Draft<K>,
  original: Readonly<Record<K, string | null>>,
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of Object.keys(draft) as K[]) {
    if (draft[key].trim() !== (original[key] ?? '').trim()) out[key] = draft[key];
  }
  return out;
}

export type FieldErrors = Readonly<Record<string, string>>;

export type Checked<T> =
  | { readonly ok: true; readonly data: T }
  | { readonly ok: false; readonly fields: FieldErrors; readonly message: string };

/** The contract's own check of a body, before it is sent. */
export function checkBody<S extends z.ZodType>(schema: S, body: unknown): Checked<z.input<S>> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, data: body as z.input<S> };
  const fields = fieldsFromZodError(parsed.error);
  return { ok: false, fields, message: fields._ ?? 'Correct the marked fields.' };
}

/** Field messages a failed call carries (400 validation), else none. */
export function serverFields(error: unknown): FieldErrors {
  return isApiError(error) ? error.fields : {};
}
