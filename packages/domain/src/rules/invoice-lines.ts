import { BILLING_ITEM_IDS } from '../codes/billing';
import { centsToDecimal, toCents } from './money';
import type { TaxComponent } from './taxes';

/*
 * How an invoice and an order read (issue 29 item 6, decision 149):
 *  - tax is printed once, as its own line(s) after the item lines, named for the jurisdiction — "Sales tax (TX) 6.25%"
 *    for a US state; "GST 5%", "HST (ON) 13%", "PST (BC) 7%", "QST 9.975%" for a province — and never also as an item
 *    line: a stored line of the tax billing item (6) is the invoice's tax, so it is not an item line
 *    (invoiceItemLines). The item lines plus the tax lines add up to the total (invoiceLinesAddUp).
 *  - a Canadian invoice names the provider's registration numbers (GST/HST, and the province's PST / QST / RST)
 *    under its tax (taxRegistrations; the numbers come from the server's configuration).
 *  - the lines a rep may put on an order are products, bundles, promotions and shipping — never an internal fee the
 *    provider bills itself (INTERNAL_FEE_ITEM_IDS: isOfferedOnOrders).
 */

/** The US failed-payment and reactivation fees of §9 (the spec gives amounts, not item ids). */
export const PROVIDER_FEE_ITEM_IDS = { FAILED_PAYMENT: 92, REACTIVATION: 93 } as const;

/**
 * Billing items the provider bills by its own rules, never offered as an order line: sales tax, the restocking,
 * cash / check, cancellation, failed-payment and reactivation fees, "other charges", installments and their interest.
 */
export const INTERNAL_FEE_ITEM_IDS: readonly number[] = [
  BILLING_ITEM_IDS.TAX,
  BILLING_ITEM_IDS.INSTALLMENT,
  BILLING_ITEM_IDS.INTEREST,
  BILLING_ITEM_IDS.RESTOCKING_FEE,
  BILLING_ITEM_IDS.OTHER_CHARGES,
  BILLING_ITEM_IDS.CASH_CHECK_FEE,
  BILLING_ITEM_IDS.CANCELLATION_FEE,
  PROVIDER_FEE_ITEM_IDS.FAILED_PAYMENT,
  PROVIDER_FEE_ITEM_IDS.REACTIVATION,
];

/** Whether a billing item may be offered to a rep as an order line (not an internal fee item). */
export function isOfferedOnOrders(billingItemId: number): boolean {
  return !INTERNAL_FEE_ITEM_IDS.includes(billingItemId);
}

/** Billing items that are the invoice's tax when they appear as a stored line. */
export const TAX_BILLING_ITEM_IDS: readonly number[] = [BILLING_ITEM_IDS.TAX];

/** An invoice's item lines: its stored lines without those of the tax item (the tax is printed once, from tax_cents). */
export function invoiceItemLines<L extends { readonly billing_item_id: number }>(lines: readonly L[]): L[] {
  return lines.filter((l) => !TAX_BILLING_ITEM_IDS.includes(l.billing_item_id));
}

/** One tax line of an invoice or an order: its component, the jurisdiction's name with the rate, the amount. */
export interface TaxLine {
  /** GST / HST / PST / STATE; null when no rate is known for the place (one line named for the country). */
  readonly component: TaxComponent | null;
  readonly label: string;
  readonly rate_basis_points: number | null;
  readonly amount_cents: number;
}

/** 500 → '5', 625 → '6.25', 998 → '9.98'. */
function percentText(basisPoints: number): string {
  return String(Number((basisPoints / 100).toFixed(3)));
}

/** A component's name in a place: 'Sales tax (TX)', 'GST', 'HST (ON)', 'PST (BC)', 'QST', 'RST'. */
export function taxComponentName(component: TaxComponent, state: string): string {
  const place = state.trim().toUpperCase();
  switch (component) {
    case 'STATE':
      return place ? `Sales tax (${place})` : 'Sales tax';
    case 'GST':
      return 'GST';
    case 'HST':
      return place ? `HST (${place})` : 'HST';
    case 'PST':
      if (place === 'QC') return 'QST';
      if (place === 'MB') return 'RST';
      return place ? `PST (${place})` : 'PST';
  }
}

/**
 * The tax lines of `taxCents` in a place: one per component of the rate (the components in force on the invoice's
 * or order's day), the amount split by their rates — each rounded down, the last taking the rest, so the lines add up
 * to `taxCents` exactly. No tax, no line. Tax but no known rate: one line named for the country.
 */
export function taxLines(input: {
  readonly taxCents: number;
  readonly country: string;
  readonly state: string;
  readonly components: readonly { readonly component: string; readonly rateBasisPoints: number }[];
}): TaxLine[] {
  if (input.taxCents === 0) return [];
  const parts = input.components.filter(
    (c): c is { component: TaxComponent; rateBasisPoints: number } =>
      ['GST', 'HST', 'PST', 'STATE'].includes(c.component) && c.rateBasisPoints > 0,
  );
  const totalBp = parts.reduce((s, c) => s + c.rateBasisPoints, 0);
  if (parts.length === 0 || totalBp === 0) {
    const place = input.state.trim().toUpperCase();
    const label = input.country === 'CA' ? 'GST/HST' : place ? `Sales tax (${place})` : 'Sales tax';
    return [{ component: null, label, rate_basis_points: null, amount_cents: input.taxCents }];
  }
  let left = input.taxCents;
  return parts.map((c, i) => {
    const amount = i === parts.length - 1 ? left : Math.trunc((input.taxCents * c.rateBasisPoints) / totalBp);
    left -= amount;
    return {
      component: c.component,
      label: `${taxComponentName(c.component, input.state)} ${percentText(c.rateBasisPoints)}%`,
      rate_basis_points: c.rateBasisPoints,
      amount_cents: amount,
    };
  });
}

/** The provider's tax registration numbers (configuration): GST/HST, and the provinces' PST / QST / RST numbers. */
export interface TaxRegistrationNumbers {
  readonly gstHst: string | null;
  /** By province code: { BC: 'PST-1234-5678', QC: '1234567890TQ0001' }. */
  readonly provincial: Readonly<Record<string, string>>;
}

/** A registration printed under a Canadian invoice's tax: 'GST/HST registration no.' and its number. */
export interface TaxRegistration {
  readonly label: string;
  readonly number: string;
}

/**
 * The registrations a Canadian invoice names under its tax lines: the GST/HST number when it has a GST or HST line,
 * the province's number when it has a PST / QST / RST line (each only when configured). None outside Canada.
 */
export function taxRegistrations(
  country: string,
  state: string,
  lines: readonly TaxLine[],
  numbers: TaxRegistrationNumbers,
): TaxRegistration[] {
  if (country !== 'CA') return [];
  const out: TaxRegistration[] = [];
  const federal = lines.some((l) => l.component === 'GST' || l.component === 'HST' || l.component === null);
  if (federal && numbers.gstHst) out.push({ label: 'GST/HST registration no.', number: numbers.gstHst });
  const place = state.trim().toUpperCase();
  const provincial = numbers.provincial[place];
  if (lines.some((l) => l.component === 'PST') && provincial)
    out.push({ label: `${taxComponentName('PST', place)} registration no.`, number: provincial });
  return out;
}

/** Whether an invoice's item lines and tax lines add up to its total. */
export function invoiceLinesAddUp(
  itemLines: readonly { readonly amount_cents: number }[],
  tax: readonly { readonly amount_cents: number }[],
  totalCents: number,
): boolean {
  const sum = [...itemLines, ...tax].reduce((s, l) => s + l.amount_cents, 0);
  return sum === totalCents;
}

/** The monthly or yearly service fee's billing item: the plan's price list entry for the default recurring amount. */
export function servicePlanItemId(yearly: boolean): number {
  return yearly ? BILLING_ITEM_IDS.YEARLY_SERVICE_FEE : BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE;
}

/**
 * The recurring amount an order's service plan starts with: the plan's price in the order's currency from the price
 * list (the service fee item's price, servicePlanItemId) while the amount is still blank or zero; an amount the rep
 * entered stays. Null: nothing to change.
 */
export function defaultRecurringAmount(
  current: string | null | undefined,
  listPriceCents: number | null | undefined,
): string | null {
  if (listPriceCents == null || listPriceCents <= 0) return null;
  let cents: number;
  try {
    cents = current == null || current.trim() === '' ? 0 : toCents(current);
  } catch {
    return null; // a typing in progress is the rep's
  }
  return cents === 0 ? centsToDecimal(listPriceCents) : null;
}
