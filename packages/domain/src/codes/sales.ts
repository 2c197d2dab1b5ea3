/** Customer types, sales channels, agent types and test/demo store types (spec §1, §6, §9). */

export const CUSTOMER_TYPE = {
  ANY: 'A',
  NEW_STORE: 'N',
  EXISTING_STORE: 'E',
  TRANSFERS: 'T',
  UPGRADES: 'U',
  REPLACEMENTS: 'R',
} as const;
export type CustomerType = (typeof CUSTOMER_TYPE)[keyof typeof CUSTOMER_TYPE];
export const CUSTOMER_TYPES: readonly CustomerType[] = Object.values(CUSTOMER_TYPE);
export const CUSTOMER_TYPE_LABELS: Readonly<Record<CustomerType, string>> = {
  A: 'Any',
  N: 'New Store',
  E: 'Existing Store',
  T: 'Transfers',
  U: 'Upgrades',
  R: 'Replacements',
};

/**
 * What kind of sale an existing customer's order is (decision 163); the rep picks it in the order flow ("Kind of
 * sale", Store information) and the order document keeps it in `additionalInfo.saleKind` (absent = E). A new
 * merchant's order has no kind: it is always N. Promotions of customer type T, U or R fit only orders of that kind.
 */
export const SALE_KIND = {
  EXISTING_STORE: 'E',
  TRANSFER: 'T',
  UPGRADE: 'U',
  REPLACEMENT: 'R',
} as const satisfies Record<string, CustomerType>;
export type SaleKind = (typeof SALE_KIND)[keyof typeof SALE_KIND];
export const SALE_KINDS: readonly SaleKind[] = Object.values(SALE_KIND);
export function isSaleKind(value: unknown): value is SaleKind {
  return typeof value === 'string' && (SALE_KINDS as readonly string[]).includes(value);
}
/** The order flow's choices, in words. */
export const SALE_KIND_CHOICES: Readonly<Record<SaleKind, string>> = {
  E: 'Existing store — add-on',
  T: 'Transfer — the store changes owner',
  U: 'Upgrade — better hardware or plan for a store that has ours',
  R: 'Replacement — replaces broken or lost hardware',
};

/** The customer type of an order (orderCustomerType in contracts/promotions.ts): N, or the kind of sale. */
export type OrderCustomerType = typeof CUSTOMER_TYPE.NEW_STORE | SaleKind;
/** An order's customer type as the order summary shows it ("Kind of sale: Transfer"). */
export const ORDER_CUSTOMER_TYPE_LABELS: Readonly<Record<OrderCustomerType, string>> = {
  N: 'New store',
  E: 'Existing store — add-on',
  T: 'Transfer',
  U: 'Upgrade',
  R: 'Replacement',
};

export const SALES_CHANNEL = {
  IS: 'IS',
  RAM: 'RAM',
  DISTRIBUTOR: 'Distributor',
  MSS: 'MSS',
} as const;
export type SalesChannel = (typeof SALES_CHANNEL)[keyof typeof SALES_CHANNEL];
export const SALES_CHANNELS: readonly SalesChannel[] = Object.values(SALES_CHANNEL);

/** Numeric sales channel codes (§9): 1 IS; 2 and 4 RAM; 5, 7, 8 Distributor; 10 MSS. */
export const SALES_CHANNEL_CODES: Readonly<Record<SalesChannel, readonly number[]>> = {
  IS: [1],
  RAM: [2, 4],
  Distributor: [5, 7, 8],
  MSS: [10],
};

/** The channel of a numeric code (a digit string is accepted); undefined for unknown codes. */
export function salesChannelForCode(code: number | string): SalesChannel | undefined {
  const n = typeof code === 'number' ? code : /^\s*\d+\s*$/.test(code) ? Number(code) : NaN;
  return SALES_CHANNELS.find((channel) => SALES_CHANNEL_CODES[channel].includes(n));
}

/** Agent types used by agent filters (§1, §6). */
export const AGENT_TYPE = {
  DISTRIBUTOR: 'Distributor',
  REFP: 'REFP',
  RDC: 'RDC',
} as const;
export type AgentType = (typeof AGENT_TYPE)[keyof typeof AGENT_TYPE];
export const AGENT_TYPES: readonly AgentType[] = Object.values(AGENT_TYPE);
export function isAgentType(value: unknown): value is AgentType {
  return typeof value === 'string' && (AGENT_TYPES as readonly string[]).includes(value);
}

/**
 * Test or demo store types (§9): such stores are excluded from real billing and reports — never billed by the
 * billing run, charged by the sweep or collection, dunned, or counted in any report (decision 149; the rule is
 * isBillableStoreType below, its SQL twin the server's db/billable-stores.sql.ts).
 */
export const TEST_STORE_TYPE = {
  TEST: 'T',
  DEMO: 'D',
} as const;
export type TestStoreType = (typeof TEST_STORE_TYPE)[keyof typeof TEST_STORE_TYPE];
export const TEST_STORE_TYPES: readonly TestStoreType[] = Object.values(TEST_STORE_TYPE);
export function isTestOrDemoStoreType(value: unknown): value is TestStoreType {
  return typeof value === 'string' && (TEST_STORE_TYPES as readonly string[]).includes(value);
}

/**
 * Whether a store of this type is billed, charged, dunned and counted in reports (decision 149): every type but test
 * (T) and demo (D). A record with no store (null / undefined type) is billable. The one rule; the server's SQL twin
 * (billableStoreSql) is compared with it by a test.
 */
export function isBillableStoreType(storeType: string | null | undefined): boolean {
  return storeType === null || storeType === undefined || !isTestOrDemoStoreType(storeType);
}
