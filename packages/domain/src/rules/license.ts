import { FEES } from '../codes/billing';

/** A store's license on a day (issue 14, decision 113). */
export type LicenseStatus = 'active' | 'grace' | 'expired' | 'disabled';

export const LICENSE_STATUS_LABELS: Readonly<Record<LicenseStatus, string>> = {
  active: 'Licensed',
  grace: 'In grace period',
  expired: 'License lapsed',
  disabled: 'Not licensed (store not active)',
};

const DAY_MS = 24 * 3600_000;

/** `date` (YYYY-MM-DD) plus `days`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * A store's license state on `today` (YYYY-MM-DD): disabled when the store is not active; active until the
 * expiry day (or with no expiry recorded); then 'grace' for the §9 grace period (37 days); then expired — "License
 * lapsed": the terminals are told to stop until the overdue invoices are paid.
 */
export function licenseStatus(input: { storeStatus: string; expiresOn: string | null; today: string }): {
  status: LicenseStatus;
  graceUntil: string | null;
} {
  const graceUntil = input.expiresOn ? addDays(input.expiresOn, FEES.LICENSE_EXPIRY_GRACE_PERIOD_DAYS) : null;
  if (input.storeStatus !== 'active') return { status: 'disabled', graceUntil };
  if (!input.expiresOn || input.today <= input.expiresOn) return { status: 'active', graceUntil };
  if (graceUntil && input.today <= graceUntil) return { status: 'grace', graceUntil };
  return { status: 'expired', graceUntil };
}
