import {
  COUNTRY_NAMES,
  CURRENCY_SYMBOLS,
  formatMoney,
  isCountryCode,
  isCurrencyCode,
  orderStatusLabel,
  type CurrencyCode,
} from '@pos/domain';

/*
 * How the customer screens show values (shared with the account tabs). Money uses the domain's
 * formatting: USD as '$1,234.56', CAD as 'C$1,234.56'.
 */

/** Integer cents in a currency → '$1,234.56' / 'C$1,234.56'; '—' when there is no amount. */
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

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
const monthFormat = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });

function parse(value: string): Date | null {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A calendar date ('2026-03-04' or a timestamp) → 'Mar 4, 2026'; '—' for none. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = parse(value);
  return date ? dateFormat.format(date) : value;
}

/** A timestamp → 'Mar 4, 2026, 9:05 AM' (local time); '—' for none. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = parse(value);
  return date ? dateTimeFormat.format(date) : value;
}

/** A month ('2026-03-01') → 'Mar 2026'. */
export function formatMonth(value: string): string {
  const date = parse(value);
  return date ? monthFormat.format(date) : value;
}

/** 'active' → 'Active', 'under_transfer' → 'Under transfer'. */
export function humanize(value: string | null | undefined): string {
  if (!value) return '—';
  const text = value.replace(/[_-]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** An order status code → its §4 label ('121' → 'Pending AR Approval'); unknown codes as 'Status 7'. */
export function orderStatusText(code: string | number | null | undefined): string {
  if (code === null || code === undefined || code === '') return '—';
  return orderStatusLabel(code) ?? `Status ${code}`;
}

/** Colours for record statuses (customers, stores, terminals…). */
export function statusColor(status: string | null | undefined): string {
  switch (status) {
    case 'active':
      return 'green';
    case 'pending':
      return 'yellow';
    case 'suspended':
      return 'orange';
    case 'closed':
    case 'retired':
    case 'canceled':
      return 'gray';
    default:
      return 'blue';
  }
}
