/*
 * The business day (issue 30): money is dated in the provider's time zone (BILLING_TIME_ZONE, default
 * America/New_York), never in the browser's. The server says its business day on every API answer
 * (BUSINESS_DATE_HEADER), so a form's "today" (a receipt's received-on, a plan's start) is the day the server will
 * check it against — late in the evening, in another zone, or with the server's clock moved in a test.
 */

/** The response header carrying the server's business day, YYYY-MM-DD. */
export const BUSINESS_DATE_HEADER = 'x-business-date';

/** The provider's time zone when nothing else is known. */
export const DEFAULT_BUSINESS_TIME_ZONE = 'America/New_York';

/** The calendar day of `at` in `timeZone`, as YYYY-MM-DD. */
export function calendarDayIn(at: Date, timeZone: string): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** A YYYY-MM-DD day as the server writes it (and nothing else). */
export function isIsoDay(value: string | null | undefined): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
}

const displayDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/**
 * The one way a day is written for people (issue 30): 'Nov 27, 2026' — on screens, in e-mails and on PDFs alike (CSV
 * keeps ISO). A YYYY-MM-DD day or a timestamp's UTC day; text that is not a date comes back as it is.
 */
export function formatDisplayDate(value: string | Date): string {
  const date = value instanceof Date ? value : parseDisplayDate(value);
  return date === null ? String(value) : displayDate.format(date);
}

/** A YYYY-MM-DD day (its UTC midnight) or a timestamp → the Date; null when the text is not a date. */
export function parseDisplayDate(value: string): Date | null {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  return Number.isNaN(date.getTime()) ? null : date;
}
