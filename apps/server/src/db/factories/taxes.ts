import type { TaxComponent } from '@pos/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../client';
import { taxRateVersions } from '../schema';

/** The day the pre-issue-17 rates take effect from (the migration's backfill and the demo seed; decision 127). */
export const TAX_RATES_SINCE = '2000-01-01';

/**
 * A combined rate as components, as the migration's backfill splits it: a US state is one STATE component; a
 * province HST when its label says so, GST alone at 5 %, else GST 5 % + the rest as PST (QST, RST).
 */
export function taxRateComponents(
  country: string,
  rateBasisPoints: number,
  label: string,
): { component: TaxComponent; rateBasisPoints: number; label: string }[] {
  if (country === 'US') return [{ component: 'STATE', rateBasisPoints, label }];
  if (/HST/i.test(label)) return [{ component: 'HST', rateBasisPoints, label: 'HST' }];
  const gst = { component: 'GST' as const, rateBasisPoints: Math.min(rateBasisPoints, 500), label: 'GST' };
  if (rateBasisPoints <= 500) return [gst];
  return [gst, { component: 'PST', rateBasisPoints: rateBasisPoints - 500, label: label.replace(/^GST\s*\+\s*/, '') }];
}

/**
 * Set a state's rate from a day (tests, seed): one version of its components, replacing a version of the same day.
 * `components` defaults to the split of `rateBasisPoints` (taxRateComponents).
 */
export async function setTaxRate(
  db: Db,
  input: {
    country: string;
    state: string;
    rateBasisPoints?: number;
    label?: string;
    effectiveOn?: string;
    components?: { component: TaxComponent; rateBasisPoints: number; label?: string }[];
  },
): Promise<void> {
  const effectiveOn = input.effectiveOn ?? TAX_RATES_SINCE;
  const components =
    input.components ??
    taxRateComponents(
      input.country,
      input.rateBasisPoints ?? 0,
      input.label ?? (input.country === 'US' ? 'State sales tax' : 'GST'),
    );
  await db
    .delete(taxRateVersions)
    .where(
      sql`${taxRateVersions.country} = ${input.country} and ${taxRateVersions.state} = ${input.state} and ${taxRateVersions.effectiveOn} = ${effectiveOn}`,
    );
  await db.insert(taxRateVersions).values(
    components.map((c) => ({
      country: input.country,
      state: input.state,
      component: c.component,
      rateBasisPoints: c.rateBasisPoints,
      label: c.label ?? c.component,
      effectiveOn,
    })),
  );
}
