import {
  lineTaxCents,
  orderTotals,
  rateInForce,
  saleTaxExempt,
  type OrderDocument,
  type RateInForce,
  type TaxComponent,
} from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { stores, taxCertificates, taxRateVersions } from '../../db/schema';
import { billingToday } from '../billing';

/*
 * The one tax rule on the server (decision 127): the rate in force on a day (domain rateInForce over the state's
 * versions) and the Arizona exemption of a store's hardware sale (domain saleTaxExempt over its certificates). Used
 * by taxes/fetch, the contract, onboarding, payment authorizations; the billing run uses the SQL twins in db/tax-rules.sql.ts.
 */

/** "Today" for taxes: the billing time zone's day (the injected clock). */
export function taxToday(app: Pick<AppContext, 'config' | 'clock'>): string {
  return billingToday(app);
}

/** The tax day of an instant (the billing time zone's date of it). */
export function taxDayOf(app: Pick<AppContext, 'config'>, at: Date): string {
  return billingToday({ config: app.config, clock: { now: () => at } });
}

/** The rate in force on `day` for a state or province (no version that day → effectiveOn null, 0 bp). */
export async function rateInForceFor(
  db: Db,
  input: { country: string; state: string; day: string },
): Promise<RateInForce> {
  const rows = await db
    .select({
      component: taxRateVersions.component,
      rateBasisPoints: taxRateVersions.rateBasisPoints,
      label: taxRateVersions.label,
      effectiveOn: taxRateVersions.effectiveOn,
    })
    .from(taxRateVersions)
    .where(and(eq(taxRateVersions.country, input.country), eq(taxRateVersions.state, input.state.toUpperCase())));
  return rateInForce(
    rows.map((r) => ({ ...r, component: r.component as TaxComponent })),
    input.day,
  );
}

/** Whether a store's hardware sale on `day` is exempt (an Arizona store with a certificate valid that day). */
export async function storeSaleExempt(db: Db, input: { storeId: number | null; day: string }): Promise<boolean> {
  if (input.storeId == null) return false;
  const [store] = await db
    .select({ country: stores.country, state: stores.state })
    .from(stores)
    .where(eq(stores.id, input.storeId));
  if (!store) return false;
  const certs = await db
    .select({
      state: taxCertificates.state,
      expiresOn: taxCertificates.expiresOn,
      revokedAt: taxCertificates.revokedAt,
    })
    .from(taxCertificates)
    .where(eq(taxCertificates.storeId, input.storeId));
  return saleTaxExempt(store, certs, input.day);
}

/** The tax of a hardware sale of `taxableCents` on `day`: the rate in force, none when the store is exempt. */
export async function saleTaxCents(
  db: Db,
  input: { country: string; state: string; storeId: number | null; day: string; taxableCents: number },
): Promise<{ taxCents: number; exempt: boolean; rate: RateInForce }> {
  const rate = await rateInForceFor(db, input);
  const exempt = await storeSaleExempt(db, input);
  return { rate, exempt, taxCents: exempt ? 0 : lineTaxCents(Math.max(0, input.taxableCents), rate.rateBasisPoints) };
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : v == null ? '' : String(v));

/**
 * The sale tax of an order document on `day`, on its one-time amount after discounts, by the rule above (as taxes/fetch
 * does): the store address's state (else the home address's), the rate in force that day, none for an Arizona store
 * (customerStoreId) with a valid certificate. The contract's figure and a hold's ceiling (decision 142).
 */
export async function orderSaleTaxCents(db: Db, doc: OrderDocument, day: string): Promise<number> {
  const address = doc.StoreInfo?.StoreAddress ?? doc.HomeAddress;
  const country = str(address?.country) || 'US';
  const state = str(address?.state).toUpperCase();
  if (!state) return 0;
  const t = orderTotals(doc);
  const storeId = Number(doc.StoreInfo?.customerStoreId) || null;
  const { taxCents } = await saleTaxCents(db, {
    country,
    state,
    storeId,
    day,
    taxableCents: Math.max(0, t.subtotalCents - t.discountCents),
  });
  return taxCents;
}
