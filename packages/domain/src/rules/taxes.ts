import { addDays } from './license';

/*
 * Taxes (issue 17 points 5 and 6, decision 127) — the one rule every reader uses:
 *  - a state's / province's rate is a set of components (GST, HST, PST, STATE) that takes effect on a day; the rate in
 *    force on a day is the set of the latest effective date on or before it (rateInForce). The tax is computed once
 *    on the summed rate, rounded half up (decision 012); the components are shown beside it.
 *  - a store with a valid Arizona certificate (TPT or resale, not revoked, not expired on the sale date) pays no tax
 *    on its hardware sale (saleTaxExempt). Services (the billing run's monthly/yearly invoices) stay taxed.
 * The SQL twin of rateInForce is the server's TAX_RATE_IN_FORCE_SQL (billing run, contracts, onboarding).
 */

export const TAX_COMPONENTS = ['GST', 'HST', 'PST', 'STATE'] as const;
export type TaxComponent = (typeof TAX_COMPONENTS)[number];
export const TAX_COMPONENT_LABELS: Readonly<Record<TaxComponent, string>> = {
  GST: 'GST (federal)',
  HST: 'HST (harmonized)',
  PST: 'PST / QST / RST (provincial)',
  STATE: 'State sales tax',
};
/** The components a country's rate may have: a US state has one state rate; a province GST and PST, or HST. */
export const TAX_COMPONENTS_BY_COUNTRY: Readonly<Record<'US' | 'CA', readonly TaxComponent[]>> = {
  US: ['STATE'],
  CA: ['GST', 'HST', 'PST'],
};

export const TAX_CERTIFICATE_KINDS = ['TPT', 'RESALE'] as const;
export type TaxCertificateKind = (typeof TAX_CERTIFICATE_KINDS)[number];
export const TAX_CERTIFICATE_KIND_LABELS: Readonly<Record<TaxCertificateKind, string>> = {
  TPT: 'Arizona TPT license',
  RESALE: 'Resale certificate',
};
/** The state whose certificates exempt a store's hardware sale (issue 17 point 6). */
export const CERTIFICATE_STATE = 'AZ';
/** Certificates expiring within this many days are listed on #/arizona. */
export const CERTIFICATE_EXPIRY_WARNING_DAYS = 30;

export interface TaxRateVersionRow {
  readonly component: TaxComponent;
  readonly rateBasisPoints: number;
  readonly label: string;
  /** YYYY-MM-DD */
  readonly effectiveOn: string;
}

export interface RateInForce {
  /** The effective date of the version in force, null when none is. */
  readonly effectiveOn: string | null;
  readonly rateBasisPoints: number;
  readonly label: string;
  readonly components: readonly { component: TaxComponent; rateBasisPoints: number; label: string }[];
}

/** The rate in force on `day` (YYYY-MM-DD) among one state's versions: the components of the latest date ≤ day. */
export function rateInForce(versions: readonly TaxRateVersionRow[], day: string): RateInForce {
  let latest: string | null = null;
  for (const v of versions)
    if (v.effectiveOn <= day && (latest === null || v.effectiveOn > latest)) latest = v.effectiveOn;
  const components = versions
    .filter((v) => v.effectiveOn === latest)
    .sort((a, b) => TAX_COMPONENTS.indexOf(a.component) - TAX_COMPONENTS.indexOf(b.component))
    .map((v) => ({ component: v.component, rateBasisPoints: v.rateBasisPoints, label: v.label }));
  return {
    effectiveOn: latest,
    rateBasisPoints: components.reduce((s, c) => s + c.rateBasisPoints, 0),
    label: components.map((c) => c.label).join(' + '),
    components,
  };
}

export interface CertificateForRule {
  readonly state: string;
  /** YYYY-MM-DD; a certificate without an expiry date exempts nothing (decision 127). */
  readonly expiresOn: string | null;
  readonly revokedAt: Date | string | null;
}

/** Whether a certificate exempts a sale made on `day`: an Arizona one, not revoked, expiring on or after that day. */
export function certificateValidOn(cert: CertificateForRule, day: string): boolean {
  return (
    cert.state.toUpperCase() === CERTIFICATE_STATE &&
    cert.revokedAt == null &&
    cert.expiresOn != null &&
    cert.expiresOn >= day
  );
}

/** Whether a store's hardware sale on `day` is tax-exempt: an Arizona store with a certificate valid that day. */
export function saleTaxExempt(
  store: { readonly country: string; readonly state: string },
  certificates: readonly CertificateForRule[],
  day: string,
): boolean {
  return (
    store.country === 'US' &&
    store.state.toUpperCase() === CERTIFICATE_STATE &&
    certificates.some((c) => certificateValidOn(c, day))
  );
}

/** A certificate's state on a day, as the list shows it. */
export function certificateStatus(
  cert: CertificateForRule,
  day: string,
  warnDays = CERTIFICATE_EXPIRY_WARNING_DAYS,
): 'revoked' | 'expired' | 'expiring' | 'valid' {
  if (cert.revokedAt != null) return 'revoked';
  if (cert.expiresOn == null || cert.expiresOn < day) return 'expired';
  return cert.expiresOn <= addDays(day, warnDays) ? 'expiring' : 'valid';
}
