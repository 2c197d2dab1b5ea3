import {
  currencyForCountry,
  isMerchantCountry,
  isStateOf,
  lineTaxCents,
  type CurrencyCode,
  type TaxFetchRequest,
  type TaxFetchResult,
} from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import { stores } from '../../db/schema';
import { AppError, fieldError } from '../../http/errors';
import { visibleStoresWhere } from '../agents';
import { rateInForceFor, storeSaleExempt, taxToday } from '../taxes';

/**
 * POST /api/customers/taxes/fetch/{token} (decision 075): the tax of each line from the state/province rate
 * (basis points, decision 012) — of the store's address when store_id is sent, else of state + country.
 * Per line: taxable = amount_cents × quantity, tax = round half up (taxable × bp / 10 000); totals are sums.
 * The currency is the body's, else the store's, else the country's. A read: nothing is written.
 * Issue 17 (decision 127): the rate is the one in force on `date` (the order or invoice date, default today); a
 * store (store_id) with a valid Arizona certificate that day is exempt: every line's tax is 0.
 */
export async function fetchTaxes(ctx: ServiceCtx, body: TaxFetchRequest): Promise<TaxFetchResult> {
  const db = ctx.app.database.db;
  let country: string;
  let state: string;
  let storeCurrency: CurrencyCode | undefined;
  if (body.store_id !== undefined) {
    const [store] = await db
      .select({ state: stores.state, country: stores.country, currency: stores.currency })
      .from(stores)
      // An agent-scoped session taxes only its own stores (decision 124): another store is "not found".
      .where(and(eq(stores.id, body.store_id), visibleStoresWhere(ctx.session)));
    if (!store)
      throw new AppError('not_found', `Store ${body.store_id} was not found.`, {
        store_id: `There is no store ${body.store_id}.`,
      });
    country = store.country;
    state = store.state.toUpperCase();
    storeCurrency = store.currency as CurrencyCode;
  } else {
    country = body.country!;
    state = body.state!;
    if (!isMerchantCountry(country)) throw fieldError('country', 'Choose US or CA.');
    if (!isStateOf(country, state))
      throw fieldError(
        'state',
        `${state} is not a ${country === 'CA' ? 'Canadian province or territory' : 'US state'}.`,
      );
  }
  const day = body.date ?? taxToday(ctx.app);
  const rate = await rateInForceFor(db, { country, state, day });
  if (rate.effectiveOn === null) {
    const message = `There is no tax rate for ${state}, ${country} on ${day}.`;
    throw new AppError('not_found', message, { [body.store_id !== undefined ? 'store_id' : 'state']: message });
  }
  const exempt = await storeSaleExempt(db, { storeId: body.store_id ?? null, day });
  const lines = body.lines.map((l) => {
    const taxable = l.amount_cents * l.quantity;
    return {
      billing_item_id: l.billing_item_id ?? null,
      product_id: l.product_id ?? null,
      amount_cents: l.amount_cents,
      quantity: l.quantity,
      taxable_cents: taxable,
      tax_cents: exempt ? 0 : lineTaxCents(taxable, rate.rateBasisPoints),
    };
  });
  const taxable = lines.reduce((s, l) => s + l.taxable_cents, 0);
  const tax = lines.reduce((s, l) => s + l.tax_cents, 0);
  return {
    country,
    state,
    rate_basis_points: rate.rateBasisPoints,
    label: rate.label,
    date: day,
    effective_on: rate.effectiveOn,
    components: rate.components.map((c) => ({
      component: c.component,
      rate_basis_points: c.rateBasisPoints,
      label: c.label,
    })),
    exempt,
    currency: body.currency ?? storeCurrency ?? currencyForCountry(country),
    lines,
    taxable_cents: taxable,
    tax_cents: tax,
    total_cents: taxable + tax,
  };
}
