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
