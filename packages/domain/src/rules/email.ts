import { EMAIL_LOCAL_MAX_LENGTH, EMAIL_MAX_LENGTH } from '../limits';

/**
 * Local part: RFC 5322 dot-atom (letters, digits and !#$%&'*+/=?^_`{|}~- separated by single dots).
 * Domain: dot-separated labels of letters, digits and inner hyphens (≤ 63 each), at least two labels,
 * top-level label at least 2 letters. Quoted local parts and IP-literal domains are refused.
 */
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const TOP_LEVEL = /^[A-Za-z]{2,63}$/;

/** E-mail rule (spec §5): at most 254 characters in all, at most 64 before the '@', and a sane shape. */
export function isValidEmail(email: string): boolean {
  if (email.length === 0 || email.length > EMAIL_MAX_LENGTH) return false;
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (local.length > EMAIL_LOCAL_MAX_LENGTH || !LOCAL_PART.test(local)) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((l) => DOMAIN_LABEL.test(l))) return false;
  return TOP_LEVEL.test(labels[labels.length - 1] as string);
}

/** Agent e-mail checks send the address lower-cased (spec §5); we also trim it. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The domain of an address, lower-cased ('' when there is no '@'). */
export function emailDomain(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/**
 * Internal users must have an address in one of the configured domains (spec §6: two domains,
 * configured). Comparison is case-insensitive and exact (no sub-domains).
 */
export function isAllowedEmailDomain(email: string, allowedDomains: readonly string[]): boolean {
  const domain = emailDomain(email);
  return domain !== '' && allowedDomains.some((d) => d.trim().toLowerCase() === domain);
}
