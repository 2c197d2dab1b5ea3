import { MERCHANT_COUNTRIES, isMerchantCountry } from '../codes/countries';

/**
 * ZIP / postal code rules (spec §3, §5).
 * - US: exactly 5 digits, mask '00000' (ZIP+4 is not accepted: the spec's length is 5).
 * - CA: letter-digit-letter space digit-letter-digit, mask 'S0S 0S0', stored upper case with the space.
 *   Lower case and a missing space are accepted and normalised. Letters follow Canada Post: D, F, I, O,
 *   Q, U never appear, and W, Z never start a code (decision: we enforce this).
 * - Other countries: no mask; any 1–10 letters, digits, spaces or dashes (trimmed).
 */
const US_ZIP = /^\d{5}$/;
const CA_POSTAL = /^([ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z]) ?(\d[ABCEGHJ-NPRSTV-Z]\d)$/;
const OTHER_ZIP = /^[A-Z0-9][A-Z0-9 -]{0,9}$/i;

export type ZipCheck =
  { readonly ok: true; readonly normalized: string } | { readonly ok: false; readonly message: string };

export function zipMask(country: string): string | null {
  return isMerchantCountry(country) ? MERCHANT_COUNTRIES[country].zipMask : null;
}

export function zipLength(country: string): number | null {
  return isMerchantCountry(country) ? MERCHANT_COUNTRIES[country].zipLength : null;
}

export function validateZip(country: string, zip: string | null | undefined): ZipCheck {
  const raw = (zip ?? '').trim();
  if (raw === '') return { ok: false, message: 'ZIP code is required.' };
  if (country === 'US') {
    return US_ZIP.test(raw)
      ? { ok: true, normalized: raw }
      : { ok: false, message: 'US ZIP code must be 5 digits (00000).' };
  }
  if (country === 'CA') {
    const m = CA_POSTAL.exec(raw.toUpperCase());
    return m
      ? { ok: true, normalized: `${m[1]} ${m[2]}` }
      : { ok: false, message: 'Canadian postal code must look like A1A 1A1.' };
  }
  return OTHER_ZIP.test(raw)
    ? { ok: true, normalized: raw.toUpperCase() }
    : { ok: false, message: 'Postal code must be 1 to 10 letters, digits, spaces or dashes.' };
}

export function isValidZip(country: string, zip: string | null | undefined): boolean {
  return validateZip(country, zip).ok;
}

/** The stored form of a valid code ('k1a0b1' → 'K1A 0B1'), or null when it is invalid. */
export function normalizeZip(country: string, zip: string | null | undefined): string | null {
  const check = validateZip(country, zip);
  return check.ok ? check.normalized : null;
}

/**
 * Format what a user is typing into the country's mask, dropping characters the mask cannot take:
 * US keeps up to 5 digits; CA alternates letter/digit, upper-cases, and inserts the space after 3.
 * Other countries are only cut to 10 characters.
 */
export function formatZipInput(country: string, input: string): string {
  const mask = zipMask(country);
  if (mask === null) return input.slice(0, 10);
  const chars = input.toUpperCase().replace(/[^A-Z0-9]/g, '');
  let out = '';
  let i = 0;
  for (const slot of mask) {
    if (slot === ' ') {
      if (i < chars.length) out += ' ';
      continue;
    }
    const want = slot === '0' ? /\d/ : /[A-Z]/;
    while (i < chars.length && !want.test(chars[i] as string)) i++;
    if (i >= chars.length) break;
    out += chars[i];
    i++;
  }
  return out;
}
