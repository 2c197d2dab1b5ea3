/** '$1,499.50' / 'CA$1,499.50' from cents and a currency code. */
export function formatCents(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(cents / 100);
}

/** '2026-03-01 12:00' (UTC) from an ISO date-time; the text itself when it is not a date. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)}`;
}

/** '2026-03-01' from an ISO date-time. */
export function formatDate(iso: string): string {
  return iso.slice(0, 10);
}
