import {
  CA_PROVINCES,
  isStateOf,
  rateInForce,
  US_STATES,
  type AdminTaxRateCreate,
  type AdminTaxRates,
  type AdminTaxState,
  type TaxComponent,
  type TaxRateVersion,
} from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import { taxRateVersions } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, fieldError } from '../../http/errors';
import { taxToday } from './tax-rules.service';

type VersionRow = typeof taxRateVersions.$inferSelect;

/** One state's versions → the rate in force today and those scheduled after it (oldest first). */
function stateOf(country: 'US' | 'CA', state: string, name: string, rows: readonly VersionRow[], today: string) {
  const byDay = new Map<string, VersionRow[]>();
  for (const r of rows) byDay.set(r.effectiveOn, [...(byDay.get(r.effectiveOn) ?? []), r]);
  const versionOf = (day: string): TaxRateVersion => {
    const list = byDay.get(day)!;
    const rate = rateInForce(
      list.map((r) => ({ ...r, component: r.component as TaxComponent })),
      day,
    );
    return {
      effective_on: day,
      rate_basis_points: rate.rateBasisPoints,
      label: rate.label,
      components: rate.components.map((c) => ({
        component: c.component,
        rate_basis_points: c.rateBasisPoints,
        label: c.label,
      })),
      created_by: list[0]!.createdByEmail,
    };
  };
  const current = rateInForce(
    rows.map((r) => ({ ...r, component: r.component as TaxComponent })),
    today,
  ).effectiveOn;
  const scheduled = [...byDay.keys()].filter((d) => d > today).sort();
  return {
    country,
    state,
    state_name: name,
    current: current ? versionOf(current) : null,
    scheduled: scheduled.map(versionOf),
  } satisfies AdminTaxState;
}

/** GET /api/admin/taxes/{token}: every state and province with its rate in force today and its scheduled versions. */
export async function listTaxRates(ctx: ServiceCtx): Promise<AdminTaxRates> {
  const today = taxToday(ctx.app);
  const rows = await ctx.app.database.db.select().from(taxRateVersions);
  const of = (country: string, state: string) => rows.filter((r) => r.country === country && r.state === state);
  return {
    today,
    states: [
      ...US_STATES.map((s) => stateOf('US', s.code, s.name, of('US', s.code), today)),
      ...CA_PROVINCES.map((s) => stateOf('CA', s.code, s.name, of('CA', s.code), today)),
    ],
  };
}

/**
 * POST /api/admin/taxes/{token}: a new version of a state's rate from `effective_on` (today or later — the past is
 * not edited: invoices and contracts already made used it). A version on the same future day is replaced.
 */
export async function addTaxRateVersion(ctx: ServiceCtx, body: AdminTaxRateCreate): Promise<AdminTaxState> {
  const today = taxToday(ctx.app);
  if (!isStateOf(body.country, body.state))
    throw new AppError(
      'not_found',
      `${body.state} is not a ${body.country === 'CA' ? 'Canadian province or territory' : 'US state'}.`,
      { state: `There is no ${body.country === 'CA' ? 'province' : 'state'} ${body.state}.` },
    );
  if (body.effective_on < today)
    throw fieldError('effective_on', `The effective date is today (${today}) or later: past rates are not changed.`);
  const now = ctx.app.clock.now();
  await withTx(ctx, async (tx) => {
    const where = and(
      eq(taxRateVersions.country, body.country),
      eq(taxRateVersions.state, body.state),
      eq(taxRateVersions.effectiveOn, body.effective_on),
    );
    const before = await tx.select().from(taxRateVersions).where(where);
    await tx.delete(taxRateVersions).where(where);
    await tx.insert(taxRateVersions).values(
      body.components.map((c) => ({
        country: body.country,
        state: body.state,
        component: c.component,
        rateBasisPoints: c.rate_basis_points,
        label: c.label || defaultLabel(c.component),
        effectiveOn: body.effective_on,
        createdByEmail: ctx.session.email,
        createdAt: now,
        updatedAt: now,
      })),
    );
    await writeAudit(tx, {
      at: now,
      ...ctx.actor,
      action: before.length ? 'update' : 'create',
      entity: 'tax_rate',
      entityId: `${body.country}-${body.state}-${body.effective_on}`,
      before: before.length
        ? before.map((r) => ({ component: r.component, rate_basis_points: r.rateBasisPoints, label: r.label }))
        : null,
      after: body,
      requestId: ctx.requestId,
    });
  });
  const rows = await ctx.app.database.db
    .select()
    .from(taxRateVersions)
    .where(and(eq(taxRateVersions.country, body.country), eq(taxRateVersions.state, body.state)));
  const name = (body.country === 'US' ? US_STATES : CA_PROVINCES).find((s) => s.code === body.state)!.name;
  return stateOf(body.country, body.state, name, rows, today);
}

function defaultLabel(component: TaxComponent): string {
  switch (component) {
    case 'GST':
      return 'GST';
    case 'HST':
      return 'HST';
    case 'PST':
      return 'PST';
    case 'STATE':
      return 'State sales tax';
  }
}
