import { type CurrencyCode, type MerchantCountryCode, type OrderStatusCode } from '@pos/domain';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { Db } from '../client';
import {
  BILLING_ITEM_DEFS,
  PRODUCT_DEFS,
  type Rng,
  cadPrice,
  type ensureAccessData,
  type NewCustomer,
  type NewStore,
} from '../factories';
import {
  type agentOrders,
  type agentStores,
  type contracts,
  type customerBillingItems,
  type customerBundles,
  type customerNotes,
  type customerPaymentPlans,
  type invoiceDunning,
  type invoiceLines,
  type invoices,
  type orderNotes,
  type orderPromotions,
  type orderStatusHistory,
  type orders,
  type promotions,
  type receiptAllocations,
  type receipts,
  type referrals,
  type salesHistory,
  type storeEmails,
  type taxCertificates,
  type transactions,
} from '../schema';
import { TAX_RATES } from './reference-data';
import type { SALES_PEOPLE } from './demo-defs';

/** Bump when the demo content changes; a database seeded with an older version is left alone. */
export const DEMO_SEED_VERSION = 1;
/** The fixed seed of the demo's pseudo-random generator. */
export const DEMO_SEED = 20_240_917;

/** What every part of the demo seed gets: the transaction, the generator, the dates it counts from, progress. */
export interface DemoRun {
  db: Db;
  rng: Rng;
  log: (m: string) => void;
  /** The first day of the demo's current month. */
  anchor: Date;
  /** "Today" inside the demo. */
  today: Date;
  /** The first month of the twelve months of billing. */
  windowStart: Date;
}

export const DAY = 86_400_000;
export const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY);
export const monthStart = (d: Date, plus = 0) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + plus, 1));
export const monthKey = (d: Date) => d.getUTCFullYear() * 12 + d.getUTCMonth();
export const iso = (d: Date) => d.toISOString().slice(0, 10);
export const minDate = (a: Date, b: Date) => (a < b ? a : b);
export const priceOf = new Map(BILLING_ITEM_DEFS.map((d) => [d.id, d.prices]));
export function itemPrice(id: number, currency: CurrencyCode): number {
  const p = priceOf.get(id);
  return p?.[currency] ?? p?.USD ?? 0;
}
export const productPrice = (id: number, currency: CurrencyCode) => {
  const usd = PRODUCT_DEFS.find((p) => p.id === id)!.usdCents;
  return currency === 'USD' ? usd : cadPrice(usd);
};
export const itemName = new Map(BILLING_ITEM_DEFS.map((d) => [d.id, d.name]));
export const taxBp = (country: MerchantCountryCode, state: string) => TAX_RATES[country][state]?.bp ?? 0;
export const tax = (amount: number, bp: number) => Math.round((amount * bp) / 10_000);

export type StoreStatus = 'active' | 'pending' | 'suspended' | 'closed';
export const IN_PROGRESS: readonly OrderStatusCode[] = [
  '2',
  '10',
  '11',
  '15',
  '111',
  '121',
  '125',
  '126',
  '140',
  '142',
];

export interface CustomerGen {
  id: number;
  values: NewCustomer;
  country: MerchantCountryCode;
  currency: CurrencyCode;
  createdAt: Date;
  salesPerson: { id: number; name: string; manager: string; agentId: number | null };
  special: 'T' | 'D' | null;
  stores: StoreGen[];
  instrumentId: number;
  instrumentKind: 'card' | 'bank';
}

export interface StoreGen {
  id: number;
  customer: CustomerGen;
  values: NewStore;
  status: StoreStatus;
  createdAt: Date;
  closedAt: Date | null;
  terminals: number;
  petro: boolean;
  taxBp: number;
  orderId: number;
  hw: {
    id: number;
    upfront: boolean;
    initial: number;
    recurring: number;
    financed: number;
    interest: number;
    saleLines: Line[];
  } | null;
  /**
   * The service plan. `dueNow`: left due this month without its invoice, so that "Run now" of the billing run on a
   * fresh start bills it (decision 113; one live monthly store in ten).
   */
  svc: { id: number; kind: 'monthly' | 'yearly'; recurringLines: Line[]; dueNow?: boolean } | null;
  features: number[];
  bundleId: number | null;
}

export interface Line {
  billingItemId: number;
  description: string;
  quantity: number;
  unitCents: number;
}

export const lineTotal = (lines: Line[]) => lines.reduce((s, l) => s + l.quantity * l.unitCents, 0);

/** Reference data the later parts look up. */
export interface DemoReference {
  access: Awaited<ReturnType<typeof ensureAccessData>>;
  retireReasons: Map<string, number>;
  reasonsByStatus: Map<string, { id: number; reason: string }[]>;
}

/** Agents by key and the sales people (with their ids and agents). */
export interface DemoPeople {
  agentId: Map<string, number>;
  salesPeople: ((typeof SALES_PEOPLE)[number] & { id: number; agentId: number | null })[];
}

/** Customers and stores, decided in memory before anything is written. */
export interface DemoMerchants {
  customerGens: CustomerGen[];
  storeGens: StoreGen[];
}

export interface DemoPlans {
  /** Stores that are or were live (they have plans and invoices). */
  billed: StoreGen[];
  planRows: PgInsertValue<typeof customerPaymentPlans>[];
  cbiRows: PgInsertValue<typeof customerBillingItems>[];
  bundleRows: PgInsertValue<typeof customerBundles>[];
}

export interface InvoiceRef {
  id: number;
  s: StoreGen;
  total: number;
  issued: Date;
}

export interface DemoBilling {
  invoiceRows: PgInsertValue<typeof invoices>[];
  lineRows: PgInsertValue<typeof invoiceLines>[];
  txRows: PgInsertValue<typeof transactions>[];
  receiptRows: PgInsertValue<typeof receipts>[];
  allocationRows: PgInsertValue<typeof receiptAllocations>[];
  paidInvoices: InvoiceRef[];
  unpaidOld: InvoiceRef[];
  dunningRows: PgInsertValue<typeof invoiceDunning>[];
}

export interface DemoOrders {
  promoRows: PgInsertValue<typeof promotions>[];
  orderRows: PgInsertValue<typeof orders>[];
  historyRows: PgInsertValue<typeof orderStatusHistory>[];
  noteRows: PgInsertValue<typeof orderNotes>[];
  contractRows: PgInsertValue<typeof contracts>[];
  agentOrderRows: PgInsertValue<typeof agentOrders>[];
  orderPromoRows: PgInsertValue<typeof orderPromotions>[];
}

export interface DemoExtras {
  emailRows: PgInsertValue<typeof storeEmails>[];
  customerNoteRows: PgInsertValue<typeof customerNotes>[];
  agentStoreRows: PgInsertValue<typeof agentStores>[];
  salesHistoryRows: PgInsertValue<typeof salesHistory>[];
  taxCertRows: PgInsertValue<typeof taxCertificates>[];
  referralRows: PgInsertValue<typeof referrals>[];
}
