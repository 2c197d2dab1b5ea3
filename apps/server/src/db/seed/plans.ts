import { BILLING_ITEM_IDS, FEES, NRS_PAY_BUNDLE_IDS, OTHER_IDS } from '@pos/domain';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import {
  BUNDLE_DEFS,
  FEATURE_ITEM_IDS,
  HARDWARE_ITEM_IDS,
  PLAN_KIND_DEFAULTS,
  PRODUCT_DEFS,
  cadPrice,
} from '../factories';
import { type customerBillingItems, type customerBundles, type customerPaymentPlans } from '../schema';
import { reserveIds } from './bulk';
import type { DemoMerchants, DemoPlans } from './demo-run';
import {
  DAY,
  iso,
  itemName,
  itemPrice,
  lineTotal,
  monthKey,
  monthStart,
  productPrice,
  tax,
  type DemoRun,
  type Line,
} from './demo-run';

/** Plans (hardware sale + monthly or yearly) and recurring billing items for stores that are live or were. */
export async function planPlans(run: DemoRun, { storeGens }: DemoMerchants): Promise<DemoPlans> {
  const { db, rng, anchor, today } = run;
  // ── plans (hardware sale + monthly or yearly) for stores that are live or were ────────────────────
  const billed = storeGens.filter((s) => s.status !== 'pending' && !s.customer.special);
  const planIds = await reserveIds(db, 'customer_payment_plans', billed.length * 2);
  const planRows: PgInsertValue<typeof customerPaymentPlans>[] = [];
  const cbiRows: PgInsertValue<typeof customerBillingItems>[] = [];
  const bundleRows: PgInsertValue<typeof customerBundles>[] = [];
  billed.forEach((s, i) => {
    const cur = s.customer.currency;
    const product = s.petro ? OTHER_IDS.PETRO_PRODUCT_ID : OTHER_IDS.TERMINAL_PRODUCT_ID;
    const accessories = rng.sample(
      PRODUCT_DEFS.filter((p) => p.kind === 'accessory'),
      rng.int(0, 3),
    );
    const saleLines: Line[] = [
      {
        billingItemId: s.petro ? HARDWARE_ITEM_IDS.PETRO : HARDWARE_ITEM_IDS.TERMINAL,
        description: PRODUCT_DEFS.find((p) => p.id === product)!.name,
        quantity: s.terminals,
        unitCents: productPrice(product, cur),
      },
      ...accessories.map((a) => ({
        billingItemId: HARDWARE_ITEM_IDS.ACCESSORIES,
        description: a.name,
        quantity: 1,
        unitCents: productPrice(a.id, cur),
      })),
      {
        billingItemId: BILLING_ITEM_IDS.SHIPPING,
        description: itemName.get(BILLING_ITEM_IDS.SHIPPING)!,
        quantity: 1,
        unitCents: itemPrice(BILLING_ITEM_IDS.SHIPPING, cur),
      },
    ];
    const subtotal = lineTotal(saleLines);
    const saleTax = tax(subtotal, s.taxBp);
    if (saleTax > 0)
      saleLines.push({
        billingItemId: BILLING_ITEM_IDS.TAX,
        description: 'Sales tax',
        quantity: 1,
        unitCents: saleTax,
      });
    const total = subtotal + saleTax;
    const upfront = rng.chance(0.7);
    const initial = upfront ? total : Math.round(total * 0.2);
    const financed = total - initial;
    const interest = Math.round((financed * FEES.INSTALLMENT_INTEREST_PERCENT) / 100);
    if (!upfront)
      saleLines.push({
        billingItemId: BILLING_ITEM_IDS.INSTALLMENT,
        description: 'Financed over 12 monthly installments',
        quantity: 1,
        unitCents: -financed,
      });
    const hwId = planIds[2 * i]!;
    const svcId = planIds[2 * i + 1]!;
    s.hw = {
      id: hwId,
      upfront,
      initial,
      recurring: upfront ? 0 : Math.round((financed + interest) / 12),
      financed,
      interest,
      saleLines,
    };

    const kind = rng.chance(0.8) ? ('monthly' as const) : ('yearly' as const);
    const feeItem = kind === 'monthly' ? BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE : BILLING_ITEM_IDS.YEARLY_SERVICE_FEE;
    const factor = kind === 'monthly' ? 1 : 10;
    const recurringLines: Line[] = [
      { billingItemId: feeItem, description: itemName.get(feeItem)!, quantity: 1, unitCents: itemPrice(feeItem, cur) },
    ];
    if (s.terminals > 1)
      recurringLines.push({
        billingItemId: 213,
        description: itemName.get(213)!,
        quantity: s.terminals - 1,
        unitCents: itemPrice(213, cur) * factor,
      });
    if (s.petro)
      recurringLines.push({
        billingItemId: BILLING_ITEM_IDS.MARKET_FEE,
        description: itemName.get(BILLING_ITEM_IDS.MARKET_FEE)!,
        quantity: 1,
        unitCents: itemPrice(BILLING_ITEM_IDS.MARKET_FEE, cur) * factor,
      });
    if (kind === 'monthly') {
      s.features = rng.sample(
        FEATURE_ITEM_IDS.filter((id) => id !== 213 && id !== 214),
        rng.weighted([
          [0, 50],
          [1, 25],
          [2, 15],
          [3, 10],
        ] as const),
      );
      for (const f of s.features)
        recurringLines.push({
          billingItemId: f,
          description: itemName.get(f)!,
          quantity: 1,
          unitCents: itemPrice(f, cur),
        });
      if (rng.chance(0.25)) {
        s.bundleId = rng.pick(NRS_PAY_BUNDLE_IDS);
        const def = BUNDLE_DEFS.find((b) => b.id === s.bundleId)!;
        for (const item of def.items)
          recurringLines.push({
            billingItemId: item.billingItemId,
            description: `${def.name}: ${itemName.get(item.billingItemId)}`,
            quantity: 1,
            unitCents: cur === 'USD' ? item.usdCents : cadPrice(item.usdCents),
          });
      }
    }
    if (rng.chance(0.05))
      recurringLines.push({
        billingItemId: 113,
        description: itemName.get(113)!,
        quantity: 1,
        unitCents: itemPrice(113, cur) * factor,
      });
    // One live monthly store in ten is left due this month (no invoice yet): "Run now" has work on a fresh start.
    const dueNow =
      kind === 'monthly' &&
      (s.status === 'active' || s.status === 'suspended') &&
      monthKey(s.createdAt) < monthKey(anchor) &&
      s.id % 10 === 3;
    s.svc = { id: svcId, kind, recurringLines, dueNow };

    const startsOn = iso(s.createdAt);
    const yearsIn = Math.floor((today.getTime() - s.createdAt.getTime()) / (365.25 * DAY));
    const anniversary = new Date(
      Date.UTC(s.createdAt.getUTCFullYear() + yearsIn + 1, s.createdAt.getUTCMonth(), s.createdAt.getUTCDate()),
    );
    const live = s.status === 'active' || s.status === 'suspended';
    const license =
      s.status === 'closed'
        ? iso(s.closedAt!)
        : s.status === 'suspended'
          ? iso(monthStart(anchor, -2))
          : kind === 'monthly'
            ? iso(monthStart(anchor, 1))
            : iso(anniversary);
    s.values.licenseExpiresOn = license;
    // The suspended stores' licenses lapsed: their expiry two months back, lapsed the day after the §9 grace (the
    // Breath of life work list has stores to win back; decision 131).
    if (s.status === 'suspended')
      s.values.licenseLapsedOn = iso(new Date(Date.parse(license) + (FEES.LICENSE_EXPIRY_GRACE_PERIOD_DAYS + 1) * DAY));
    const installmentsDone = monthKey(today) - monthKey(s.createdAt) > 12;
    planRows.push(
      {
        id: hwId,
        customerId: s.customer.id,
        storeId: s.id,
        orderId: s.orderId,
        kind: 'hardware_sale',
        paymentPlanTypeId: PLAN_KIND_DEFAULTS.hardware_sale.paymentPlanTypeId,
        planName: upfront ? 'Hardware sale plan (paid upfront)' : 'Hardware sale plan (12 installments)',
        term: upfront ? 0 : 12,
        interval: upfront ? 0 : 1,
        initialAmountCents: initial,
        recurringAmountCents: s.hw.recurring,
        // What the billing run needs to go on with the installments (decision 113).
        financedCents: upfront ? null : s.hw.financed,
        billedPeriods: upfront ? 0 : Math.min(12, Math.max(0, monthKey(today) - monthKey(s.createdAt))),
        currency: cur,
        startsOn,
        status: upfront || installmentsDone ? 'completed' : s.status === 'closed' ? 'canceled' : 'active',
        nextBillingOn: !upfront && !installmentsDone && live ? iso(monthStart(anchor, 1)) : null,
        createdAt: s.createdAt,
        updatedAt: s.createdAt,
      },
      {
        id: svcId,
        customerId: s.customer.id,
        storeId: s.id,
        orderId: s.orderId,
        kind,
        paymentPlanTypeId: PLAN_KIND_DEFAULTS[kind].paymentPlanTypeId,
        planName: PLAN_KIND_DEFAULTS[kind].planName,
        term: PLAN_KIND_DEFAULTS[kind].term,
        interval: PLAN_KIND_DEFAULTS[kind].interval,
        initialAmountCents: 0,
        recurringAmountCents: lineTotal(recurringLines),
        currency: cur,
        startsOn,
        licenseExpiresOn: license,
        nextBillingOn: live
          ? kind === 'monthly'
            ? iso(monthStart(anchor, s.svc.dueNow ? 0 : 1))
            : iso(anniversary)
          : null,
        status: s.status === 'closed' ? 'canceled' : 'active',
        createdAt: s.createdAt,
        updatedAt: s.closedAt ?? s.createdAt,
      },
    );
    for (const l of recurringLines) {
      if (s.bundleId && l.description.includes(':')) continue; // bundle items are the customer bundle
      cbiRows.push({
        customerId: s.customer.id,
        storeId: s.id,
        planId: svcId,
        billingItemId: l.billingItemId,
        quantity: l.quantity,
        unitPriceCents: l.unitCents,
        currency: cur,
        status: s.status === 'closed' ? 'C' : 'A',
        startsOn,
        endsOn: s.closedAt ? iso(s.closedAt) : null,
      });
    }
    if (s.bundleId)
      bundleRows.push({
        customerId: s.customer.id,
        storeId: s.id,
        bundleId: s.bundleId,
        planId: svcId,
        status: s.status === 'closed' ? 'C' : 'A',
        startsOn,
      });
  });

  return { billed, planRows, cbiRows, bundleRows };
}
