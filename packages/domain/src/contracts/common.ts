import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { COUNTRY, type CountryCode } from '../codes/countries';
import { CURRENCY_CODES } from '../codes/currencies';
import { isStateOf } from '../codes/states';
import { EMAIL_LOCAL_MAX_LENGTH, EMAIL_MAX_LENGTH } from '../limits';
import { isValidEmail } from '../rules/email';
import { toCents } from '../rules/money';
import { isValidPercent } from '../rules/percent';
import { validateZip } from '../rules/zip';

/*
 * Schemas shared by every API contract. Rules are not restated here: each schema calls the function in
 * rules/ that owns the rule.
 */

// ── Envelopes ──────────────────────────────────────────────────────────────────────────────────────

/** Failure: `{ error: { code, message, fields? } }` — `fields` maps a field path ('zip', 'items.0.qty') to its message. */
export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.string().min(1),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/** Success: `{ info: … }`. `info` may be a zod/mini schema (./sign-in.ts): both builds share zod's core. */
export function successEnvelope<T extends $ZodType>(info: T) {
  return z.object({ info });
}

/**
 * The `fields` of an error envelope from a zod error: one message per dotted path (the first issue for
 * that path wins); issues about the whole object use the key '_'.
 */
export function fieldsFromZodError(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length === 0 ? '_' : issue.path.map(String).join('.');
    if (!(key in fields)) fields[key] = issue.message;
  }
  return fields;
}

// ── Lists ──────────────────────────────────────────────────────────────────────────────────────────

export const PAGINATION = { defaultLimit: 50, maxLimit: 500 } as const;

/** `?limit&offset&sort` — query strings are coerced; limit 1–500 (default 50), offset ≥ 0 (default 0). */
export const paginationQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(PAGINATION.maxLimit).default(PAGINATION.defaultLimit),
  offset: z.coerce.number().int().min(0).default(0),
  sort: z.string().trim().min(1).max(100).optional(),
});
export type PaginationQuery = z.infer<typeof paginationQuerySchema>;

/** A page of a list: `{ items, total }` (use inside successEnvelope). */
export function pagedList<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int().min(0) });
}
export interface Paged<T> {
  items: T[];
  total: number;
}

/**
 * A page of a search whose total is exact up to SEARCH_TOTAL_CAP: `total_capped: true` means "at least
 * `total`" (the list says "1,000+"; the last page is found by paging until a page comes back short).
 */
export function cappedPagedList<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int().min(0), total_capped: z.boolean() });
}
export interface CappedPaged<T> extends Paged<T> {
  total_capped: boolean;
}

// ── Health ─────────────────────────────────────────────────────────────────────────────────────────

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  database: z.enum(['pglite', 'postgres']),
});
/** Alias with the name used in the project brief. */
export const healthResponse = healthResponseSchema;
export type HealthResponse = z.infer<typeof healthResponseSchema>;

// ── Field helpers ──────────────────────────────────────────────────────────────────────────────────

/** A ZIP/postal code of `country`; output is the normalised form ('k1a0b1' → 'K1A 0B1'). */
export function zipSchemaFor(country: string) {
  return z.string().transform((value, ctx) => {
    const check = validateZip(country, value);
    if (!check.ok) {
      ctx.addIssue({ code: 'custom', message: check.message });
      return z.NEVER;
    }
    return check.normalized;
  });
}

export const EMAIL_MESSAGE = `Enter a valid e-mail address (at most ${EMAIL_MAX_LENGTH} characters, ${EMAIL_LOCAL_MAX_LENGTH} before the @).`;
/** E-mail (trimmed) checked by `isValidEmail`. */
export const emailSchema = z.string().trim().refine(isValidEmail, { message: EMAIL_MESSAGE });

export const PERCENT_MESSAGE = 'Enter a percentage from 0 to 100.';
export const percentSchema = z.number().refine(isValidPercent, { message: PERCENT_MESSAGE });

/** `{ cents: integer, currency: 'USD' | 'CAD' }`. */
export const moneySchema = z.object({
  cents: z.number().int().refine(Number.isSafeInteger, { message: 'Amount is out of range.' }),
  currency: z.enum(CURRENCY_CODES),
});

/** A decimal amount ('19.99' or 19.99) from a legacy payload, output as integer cents via `toCents`. */
export const decimalAmountSchema = z.union([z.string(), z.number()]).transform((value, ctx) => {
  try {
    return toCents(value);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'Enter an amount with at most 2 decimals.' });
    return z.NEVER;
  }
});

const COUNTRY_CODES = Object.values(COUNTRY) as [CountryCode, ...CountryCode[]];
export const countrySchema = z.enum(COUNTRY_CODES);

/**
 * A postal address (§3 address fields). The country's ZIP rule and, for US/CA, its state list are
 * applied; the output carries the normalised ZIP.
 */
export const addressSchema = z
  .object({
    address1: z.string().trim().min(1, { message: 'Address is required.' }).max(255),
    address2: z.string().trim().max(255).optional(),
    city: z.string().trim().min(1, { message: 'City is required.' }).max(255),
    state: z.string().trim().min(1, { message: 'State is required.' }).max(50),
    zip: z.string(),
    country: countrySchema,
  })
  .superRefine((address, ctx) => {
    const zip = validateZip(address.country, address.zip);
    if (!zip.ok) ctx.addIssue({ code: 'custom', path: ['zip'], message: zip.message });
    if (!isStateOf(address.country, address.state)) {
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message:
          address.country === 'CA' ? 'Choose a Canadian province or territory.' : 'Choose a US state or territory.',
      });
    }
  })
  .transform((address) => {
    const zip = validateZip(address.country, address.zip);
    return zip.ok ? { ...address, zip: zip.normalized } : address;
  });
export type AddressInput = z.input<typeof addressSchema>;
export type Address = z.output<typeof addressSchema>;

/**
 * A filter on several records of one kind by id (the multi-select of §2 over records: `?agent_id=3,5`): one id or a
 * comma list, blanks and repeats dropped, each a whole number from 1 (else 400 naming `what`). Parsed to the ids.
 */
export function queryIdList(what: string, maxIds = 100) {
  const message = `The ${what} is a whole number from 1, or a comma list of them.`;
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : typeof v === 'number' ? String(v) : v),
    z
      .string()
      .max(maxIds * 11, { message: `At most ${maxIds} ${what}s.` })
      .transform((text, ctx) => {
        const parts = [
          ...new Set(
            text
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== ''),
          ),
        ];
        if (parts.length === 0 || parts.some((p) => !/^[1-9]\d{0,9}$/.test(p) || Number(p) > 2_147_483_647)) {
          ctx.addIssue({ code: 'custom', message });
          return z.NEVER;
        }
        return parts.map(Number);
      })
      .optional(),
  );
}

/**
 * A filter on several values of one field (the multi-select dropdown of §2): `?status=N,P` — one value or a comma
 * list, blanks and repeats dropped; each value must be one of `values` (else 400 with `message`, or the message
 * `message(bad, text)` makes of the unknown values). Parsed to the list of distinct values; an empty text is no filter.
 */
export function queryValueList<const V extends string>(
  values: readonly V[],
  message: string | ((bad: readonly string[], text: string) => string),
  maxLength = 400,
) {
  const say = (bad: readonly string[], text: string) => (typeof message === 'string' ? message : message(bad, text));
  return z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .max(maxLength, { message: say([], '') })
      .transform((text, ctx) => {
        const list = [
          ...new Set(
            text
              .split(',')
              .map((s) => s.trim())
              .filter((s) => s !== ''),
          ),
        ];
        const bad = list.filter((s) => !(values as readonly string[]).includes(s));
        if (list.length === 0 || bad.length > 0) {
          ctx.addIssue({ code: 'custom', message: say(bad, text) });
          return z.NEVER;
        }
        return list as V[];
      })
      .optional(),
  );
}
