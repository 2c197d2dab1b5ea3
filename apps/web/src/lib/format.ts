import {
  COUNTRY_NAMES,
  CURRENCY_SYMBOLS,
  formatDisplayDate,
  parseDisplayDate,
  formatMoney,
  isCountryCode,
  isCurrencyCode,
  orderStatusLabel,
  type CurrencyCode,
} from '@pos/domain';
import { businessToday } from './business-day';

/*
 * How every screen shows values (decision 105). Money goes through the domain's formatMoney: USD as '$1,234.56',
 * CAD as 'C$1,234.56' — never the browser's currency display ('CA$'). Dates in one style: 'Mar 4, 2026'.
 */

/** Integer cents in a currency → '$1,234.56' / 'C$1,234.56'; '—' when there is no amount; an unknown currency as USD. */
export function formatCents(
  cents: number | null | undefined,
  currency: CurrencyCode | string | null | undefined,
): string {
  if (cents === null || cents === undefined || !Number.isSafeInteger(cents)) return '—';
  return formatMoney(cents, isCurrencyCode(currency) ? currency : undefined);
}

/** 'CAD (C$)' / 'USD ($)'. */
export function currencyLabel(currency: string | null | undefined): string {
  if (!currency) return '—';
  return isCurrencyCode(currency) ? `${currency} (${CURRENCY_SYMBOLS[currency]})` : currency;
}

/** 'CA' → 'Canada'; unknown codes as they are. */
export function countryName(code: string | null | undefined): string {
  if (!code) return '—';
  return isCountryCode(code) ? COUNTRY_NAMES[code] : code;
}

const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeSecondsFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium' });
const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** A calendar date ('2026-03-04', or a timestamp's UTC day) → 'Mar 4, 2026'; '—' for none (domain formatDisplayDate). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  return formatDisplayDate(value);
}

/**
 * A timestamp → 'Mar 4, 2026, 9:05 AM' in local time ('9:05:12 AM' with `seconds`, for the job monitor and the
 * Mailbox); '—' for none; text that is not a date as it is.
 */
export function formatDateTime(value: string | null | undefined, { seconds = false } = {}): string {
  if (!value) return '—';
  const date = parseDisplayDate(value);
  if (!date) return value;
  return (seconds ? dateTimeSecondsFormat : dateTimeFormat).format(date);
}

/** A month ('2026-03-01') → 'Mar 2026'. */
export function formatMonth(value: string): string {
  const date = parseDisplayDate(value);
  return date ? monthFormat.format(date) : value;
}

/** 'active' → 'Active', 'under_transfer' → 'Under transfer'. */
export function humanize(value: string | null | undefined): string {
  if (!value) return '—';
  const text = value.replace(/[_-]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An order status code → its §4 label (ORDER_STATUS.PENDING_AR_APPROVAL → 'Pending AR Approval'); unknown: 'Status 7'. */
export function orderStatusText(code: string | number | null | undefined): string {
  if (code === null || code === undefined || code === '') return '—';
  return orderStatusLabel(code) ?? `Status ${code}`;
}

/** Today's business day as YYYY-MM-DD — the provider's, as the server checks it (lib/business-day.ts). */
export function todayIso(now: Date = new Date()): string {
  return businessToday(now);
}

/** A count of things: 1,234. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
