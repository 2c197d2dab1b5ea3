import { CA_PROVINCES, ORDER_STATUS_CODES, US_STATES } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { createCatalogue, ensureAccessData, TAX_RATES_SINCE, taxRateComponents } from '../factories';
import { banks, domainData, statusReasons, taxRates, taxRateVersions } from '../schema';
import { BANKS, DOMAIN_DATA, STATUS_REASONS, TAX_RATES } from './reference-data';
import { insertMany } from './bulk';
import { taxBp, type DemoRun, type DemoReference } from './demo-run';

/** Roles, privileges, catalogue, tax rates, banks, look-ups (idempotent: existing rows stay). */
export async function seedReference(run: DemoRun): Promise<DemoReference> {
  const { db, log } = run;
  // ── reference data ────────────────────────────────────────────────────────────────────────────────
  const access = await ensureAccessData(db);
  await createCatalogue(db);
  await db
    .insert(taxRates)
    .values([
      ...US_STATES.map((s) => ({
        country: 'US',
        state: s.code,
        rateBasisPoints: taxBp('US', s.code),
        label: TAX_RATES.US[s.code]?.label ?? 'State sales tax',
      })),
      ...CA_PROVINCES.map((s) => ({
        country: 'CA',
        state: s.code,
        rateBasisPoints: taxBp('CA', s.code),
        label: TAX_RATES.CA[s.code]?.label ?? 'GST',
      })),
    ])
    .onConflictDoNothing();
  // Issue 17 (decision 127): the same rates as versions in force since 2000-01-01 — what every reader uses.
  await db
    .insert(taxRateVersions)
    .values(
      (['US', 'CA'] as const).flatMap((country) =>
        (country === 'US' ? US_STATES : CA_PROVINCES).flatMap((s) =>
          taxRateComponents(
            country,
            taxBp(country, s.code),
            TAX_RATES[country][s.code]?.label ?? (country === 'US' ? 'State sales tax' : 'GST'),
          ).map((c) => ({
            country,
            state: s.code,
            component: c.component,
            rateBasisPoints: c.rateBasisPoints,
            label: c.label,
            effectiveOn: TAX_RATES_SINCE,
          })),
        ),
      ),
    )
    .onConflictDoNothing();
  const existingBanks = await db.select({ name: banks.name }).from(banks);
  const haveBank = new Set(existingBanks.map((b) => b.name));
  await insertMany(
    db,
    banks,
    BANKS.filter((b) => !haveBank.has(b.name)).map((b) => ({
      name: b.name,
      country: b.country,
      routingNumber: b.routingNumber ?? null,
      institutionNumber: b.institutionNumber ?? null,
    })),
  );
  await db
    .insert(domainData)
    .values(
      Object.entries(DOMAIN_DATA).flatMap(([type, list]) =>
        list.map(([code, label], i) => ({ type, code, label, sortOrder: i + 1 })),
      ),
    )
    .onConflictDoNothing();
  const retireReasons = new Map(
    (await db.select().from(domainData).where(eq(domainData.type, 'retire_reason'))).map((r) => [r.code, r.id]),
  );
  await db
    .insert(statusReasons)
    .values(
      ORDER_STATUS_CODES.flatMap((status) =>
        (STATUS_REASONS[status] ?? []).map((reason, i) => ({ status, reason, sortOrder: i + 1 })),
      ),
    )
    .onConflictDoNothing();
  const reasonRows = await db.select().from(statusReasons);
  const reasonsByStatus = new Map<string, { id: number; reason: string }[]>();
  for (const r of reasonRows)
    reasonsByStatus.set(r.status, [...(reasonsByStatus.get(r.status) ?? []), { id: r.id, reason: r.reason }]);
  for (const list of reasonsByStatus.values()) list.sort((a, b) => a.id - b.id);
  log('demo seed: roles, privileges, catalogue, tax rates, banks, look-ups');

  return { access, retireReasons, reasonsByStatus };
}
