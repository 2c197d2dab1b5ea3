import { eq, getTableColumns, getTableName, inArray, sql } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import {
  AGENT_TYPE,
  BILLING_ITEM_IDS,
  CA_PROVINCES,
  FEES,
  NRS_PAY_BUNDLE_IDS,
  ORDER_STATUS,
  ORDER_STATUS_CODES,
  OTHER_IDS,
  US_STATES,
  WRITE_OFF_TYPE,
  currencyForCountry,
  type AgentType,
  type CurrencyCode,
  type MerchantCountryCode,
  type OrderFlow,
  type OrderStatusCode,
  type Role,
  type SalesChannel,
} from '@pos/domain';
import type { Database, Db } from '../client';
import {
  agentOrders,
  agentStores,
  agents,
  appMeta,
  auditLog,
  banks,
  contracts,
  creditMemos,
  customerBillingItems,
  customerBundles,
  customerNotes,
  customerPaymentPlans,
  customers,
  distributorAccounts,
  domainData,
  invoiceLines,
  invoices,
  orderNotes,
  orderPromotions,
  orderStatusHistory,
  orders,
  paymentInstruments,
  promotions,
  receiptAllocations,
  receipts,
  referrals,
  returns,
  salesHistory,
  salesPersons,
  staffUsers,
  statusReasons,
  storeEmails,
  stores,
  taxCertificates,
  taxRates,
  terminals,
  transactions,
  writeOffs,
  type AddressJson,
} from '../schema';
import {
  BILLING_ITEM_DEFS,
  BUNDLE_DEFS,
  CHANNEL_FOR_TYPE,
  FEATURE_ITEM_IDS,
  HARDWARE_ITEM_IDS,
  PLAN_KIND_DEFAULTS,
  PRODUCT_DEFS,
  Rng,
  agentValues,
  buildOrderDocument,
  cadPrice,
  createCatalogue,
  customerValues,
  ensureAccessData,
  hashPassword,
  storeValues,
  type NewCustomer,
  type NewStore,
  type OrderPlanInput,
} from '../factories';
import {
  BANKS,
  CHARGEBACK_REASONS,
  CUSTOMER_NOTE_TEXTS,
  DEMO_DISTRIBUTOR_LOGIN,
  DEMO_STAFF,
  DOMAIN_DATA,
  FAILURE_REASONS,
  MEMO_REASONS,
  ORDER_NOTE_TEXTS,
  STATUS_ACTOR,
  STATUS_PATHS,
  STATUS_REASONS,
  TAX_RATES,
} from './reference-data';

/** Bump when the demo content changes; a database seeded with an older version is left alone. */
export const DEMO_SEED_VERSION = 1;
export const DEMO_SEED_MARKER = 'demo_seed_version';
/** The fixed seed of the demo's pseudo-random generator. */
export const DEMO_SEED = 20_240_917;

export interface SeedDemoOptions {
  /** Progress lines ("demo seed: …"). */
  log?: (message: string) => void;
  /**
   * The day the demo is built around (default: now). Twelve months of billing end in its month; the same
   * day (month, really) and the same seed give the same rows.
   */
  today?: Date;
  /** How many customers (default 200 US, 50 CA — the two test/demo-store customers included in US). */
  customers?: { us: number; ca: number };
}

export interface SeedDemoResult {
  /** False when the marker was already there (nothing was written). */
  seeded: boolean;
  ms: number;
  counts: Record<string, number>;
}

const DAY = 86_400_000;
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY);
const monthStart = (d: Date, plus = 0) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + plus, 1));
const monthKey = (d: Date) => d.getUTCFullYear() * 12 + d.getUTCMonth();
const iso = (d: Date) => d.toISOString().slice(0, 10);
const minDate = (a: Date, b: Date) => (a < b ? a : b);

/**
 * Insert rows in statements of a few hundred rows. The rows travel as one JSON parameter expanded by
 * `json_populate_recordset` — on PGlite about four times faster than thousands of bound parameters. Rows are
 * grouped by the keys they set, so a column a row leaves out still gets its database default.
 */
async function insertMany<T extends PgTable>(db: Db, table: T, rows: PgInsertValue<T>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table) as Record<string, { name: string; keyAsName: boolean }>;
  const columnName = (key: string) => {
    const c = columns[key];
    if (!c) throw new Error(`${getTableName(table)} has no column ${key}`);
    return c.keyAsName ? toSnakeCase(c.name) : c.name;
  };
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const row of rows as Record<string, unknown>[]) {
    const keys = Object.keys(row).filter((k) => row[k] !== undefined);
    const signature = keys.join(',');
    let list = groups.get(signature);
    if (!list) groups.set(signature, (list = []));
    list.push(Object.fromEntries(keys.map((k) => [columnName(k), row[k]])));
  }
  const tableSql = sql.identifier(getTableName(table));
  for (const list of groups.values()) {
    const names = sql.join(
      Object.keys(list[0]!).map((n) => sql.identifier(n)),
      sql`, `,
    );
    for (let i = 0; i < list.length; i += 500) {
      const json = JSON.stringify(list.slice(i, i + 500));
      await db.execute(
        sql`insert into ${tableSql} (${names}) select ${names} from json_populate_recordset(null::${tableSql}, ${json}::json)`,
      );
    }
  }
}

/** Take `n` ids from a table's identity sequence (so explicit ids never collide with later inserts). */
async function reserveIds(db: Db, table: string, n: number): Promise<number[]> {
  if (n === 0) return [];
  const res = (await db.execute(
    sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${n}::int)`,
  )) as unknown as { rows: { id: number | string }[] };
  return res.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

/** After rows were inserted with explicit ids outside the sequence, move the sequence past them. */
async function resetSequence(db: Db, table: string): Promise<void> {
  await db.execute(
    sql`select setval(pg_get_serial_sequence(${table}, 'id'), max(id)) from ${sql.identifier(table)} having max(id) is not null`,
  );
}

const priceOf = new Map(BILLING_ITEM_DEFS.map((d) => [d.id, d.prices]));
function itemPrice(id: number, currency: CurrencyCode): number {
  const p = priceOf.get(id);
  return p?.[currency] ?? p?.USD ?? 0;
}
const productPrice = (id: number, currency: CurrencyCode) => {
  const usd = PRODUCT_DEFS.find((p) => p.id === id)!.usdCents;
  return currency === 'USD' ? usd : cadPrice(usd);
};
const itemName = new Map(BILLING_ITEM_DEFS.map((d) => [d.id, d.name]));
const taxBp = (country: MerchantCountryCode, state: string) => TAX_RATES[country][state]?.bp ?? 0;
const tax = (amount: number, bp: number) => Math.round((amount * bp) / 10_000);

const AGENT_DEFS: readonly {
  key: string;
  name: string;
  type: AgentType;
  code?: number;
  parent?: string;
  country?: MerchantCountryCode;
}[] = [
  { key: 'demo', name: 'Demo Distributor LLC', type: AGENT_TYPE.DISTRIBUTOR, code: 5 },
  { key: 'gulfcoast', name: 'Gulf Coast POS Distributors', type: AGENT_TYPE.DISTRIBUTOR, code: 7 },
  {
    key: 'gulfcoast.houston',
    name: 'Gulf Coast POS - Houston',
    type: AGENT_TYPE.DISTRIBUTOR,
    code: 7,
    parent: 'gulfcoast',
  },
  { key: 'greatlakes', name: 'Great Lakes Retail Systems', type: AGENT_TYPE.DISTRIBUTOR, code: 8 },
  { key: 'maple', name: 'Maple POS Distribution Ltd.', type: AGENT_TYPE.DISTRIBUTOR, code: 5, country: 'CA' },
  { key: 'sunbelt', name: 'Sunbelt Referral Partners', type: AGENT_TYPE.REFP, code: 2 },
  { key: 'northeast', name: 'Northeast Merchant Referrals', type: AGENT_TYPE.REFP, code: 4 },
  { key: 'prairie', name: 'Prairie Retail Referrals', type: AGENT_TYPE.REFP, code: 2, country: 'CA' },
  { key: 'rdc.southwest', name: 'RDC Southwest', type: AGENT_TYPE.RDC, code: 1 },
  { key: 'rdc.southeast', name: 'RDC Southeast', type: AGENT_TYPE.RDC, code: 1 },
  { key: 'rdc.central', name: 'RDC Central', type: AGENT_TYPE.RDC, code: 1, parent: 'rdc.southwest' },
];

const SALES_PEOPLE: readonly {
  name: string;
  channel: SalesChannel;
  agent?: string;
  country?: MerchantCountryCode;
  manager: string;
}[] = [
  { name: 'Jordan Reyes', channel: 'IS', manager: 'is' },
  { name: 'Emily Carter', channel: 'IS', manager: 'is' },
  { name: 'Aisha Mohammed', channel: 'IS', manager: 'is' },
  { name: 'Ryan Fischer', channel: 'IS', manager: 'is', country: 'CA' },
  { name: 'Brian Kowalski', channel: 'RAM', manager: 'ram' },
  { name: 'Sandra Lee', channel: 'RAM', manager: 'ram' },
  { name: 'Miguel Torres', channel: 'RAM', manager: 'ram' },
  { name: 'Megan Foster', channel: 'RAM', manager: 'ram', country: 'CA' },
  { name: "Kevin O'Neil", channel: 'MSS', manager: 'mss' },
  { name: 'Fatima Noor', channel: 'MSS', manager: 'mss' },
  { name: 'Daniel Wright', channel: 'Distributor', agent: 'demo', manager: 'distributor' },
  { name: 'Carlos Mendez', channel: 'Distributor', agent: 'gulfcoast.houston', manager: 'distributor' },
  { name: 'Nancy Brooks', channel: 'Distributor', agent: 'greatlakes', manager: 'distributor' },
  { name: 'Julie Tremblay', channel: 'Distributor', agent: 'maple', manager: 'distributor', country: 'CA' },
];

interface PromoDef {
  code: string;
  name: string;
  type: 'H' | 'S' | 'R';
  method: 'A' | 'P';
  value: number;
  customerType: string;
  currency: CurrencyCode;
  billingItemId: number;
  startsIn: number;
  expiresIn: number | null;
}
const PROMOS: readonly PromoDef[] = [
  {
    code: 'WELCOME100',
    name: 'New store: $100 off hardware',
    type: 'H',
    method: 'A',
    value: 100_00,
    customerType: 'N',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -300,
    expiresIn: null,
  },
  {
    code: 'WELCOME100',
    name: 'New store: C$130 off hardware',
    type: 'H',
    method: 'A',
    value: 130_00,
    customerType: 'N',
    currency: 'CAD',
    billingItemId: 66,
    startsIn: -300,
    expiresIn: null,
  },
  {
    code: 'SPRING50',
    name: 'Spring hardware sale',
    type: 'H',
    method: 'A',
    value: 50_00,
    customerType: 'A',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -420,
    expiresIn: -330,
  },
  {
    code: 'SUMMER10',
    name: 'Summer: 10% off hardware',
    type: 'H',
    method: 'P',
    value: 10,
    customerType: 'A',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -260,
    expiresIn: -170,
  },
  {
    code: 'UPGRADE15',
    name: 'Upgrades: 15% off',
    type: 'H',
    method: 'P',
    value: 15,
    customerType: 'U',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -90,
    expiresIn: 180,
  },
  {
    code: 'TRANSFER75',
    name: 'Transfer incentive',
    type: 'H',
    method: 'A',
    value: 75_00,
    customerType: 'T',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -60,
    expiresIn: 300,
  },
  {
    code: 'REPLACE20',
    name: 'Replacement: 20% off',
    type: 'H',
    method: 'P',
    value: 20,
    customerType: 'R',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -30,
    expiresIn: 365,
  },
  {
    code: 'EXISTING25',
    name: 'Existing store add-on: $25 off',
    type: 'H',
    method: 'A',
    value: 25_00,
    customerType: 'E',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -120,
    expiresIn: null,
  },
  {
    code: 'FREEMONTH',
    name: 'First month of service free',
    type: 'S',
    method: 'P',
    value: 100,
    customerType: 'N',
    currency: 'USD',
    billingItemId: 67,
    startsIn: -200,
    expiresIn: 120,
  },
  {
    code: 'FREEMONTH',
    name: 'First month of service free',
    type: 'S',
    method: 'P',
    value: 100,
    customerType: 'N',
    currency: 'CAD',
    billingItemId: 67,
    startsIn: -200,
    expiresIn: 120,
  },
  {
    code: 'REFER50',
    name: 'Referral credit',
    type: 'R',
    method: 'A',
    value: 50_00,
    customerType: 'A',
    currency: 'USD',
    billingItemId: 68,
    startsIn: -365,
    expiresIn: null,
  },
  {
    code: 'CANADA75',
    name: 'Canada launch: C$75 off',
    type: 'H',
    method: 'A',
    value: 75_00,
    customerType: 'A',
    currency: 'CAD',
    billingItemId: 66,
    startsIn: -500,
    expiresIn: -200,
  },
  {
    code: 'HOLIDAY20',
    name: 'Holiday: 20% off hardware',
    type: 'H',
    method: 'P',
    value: 20,
    customerType: 'A',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -420,
    expiresIn: -380,
  },
  {
    code: 'HOLIDAY20',
    name: 'Holiday: 20% off hardware',
    type: 'H',
    method: 'P',
    value: 20,
    customerType: 'A',
    currency: 'CAD',
    billingItemId: 66,
    startsIn: -420,
    expiresIn: -380,
  },
  {
    code: 'PETRO200',
    name: 'Petro system: $200 off',
    type: 'H',
    method: 'A',
    value: 200_00,
    customerType: 'N',
    currency: 'USD',
    billingItemId: 66,
    startsIn: -100,
    expiresIn: 200,
  },
  {
    code: 'NRSPAY3',
    name: 'NRS Pay: three months at half price',
    type: 'S',
    method: 'P',
    value: 50,
    customerType: 'A',
    currency: 'USD',
    billingItemId: 67,
    startsIn: -45,
    expiresIn: 45,
  },
  {
    code: 'QUEBEC10',
    name: 'Quebec: 10% off hardware',
    type: 'H',
    method: 'P',
    value: 10,
    customerType: 'N',
    currency: 'CAD',
    billingItemId: 66,
    startsIn: -20,
    expiresIn: 340,
  },
];

type StoreStatus = 'active' | 'pending' | 'suspended' | 'closed';
const IN_PROGRESS: readonly OrderStatusCode[] = ['2', '10', '11', '15', '111', '121', '125', '126', '140', '142'];

interface CustomerGen {
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

interface StoreGen {
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
  svc: { id: number; kind: 'monthly' | 'yearly'; recurringLines: Line[] } | null;
  features: number[];
  bundleId: number | null;
}

interface Line {
  billingItemId: number;
  description: string;
  quantity: number;
  unitCents: number;
}

const lineTotal = (lines: Line[]) => lines.reduce((s, l) => s + l.quantity * l.unitCents, 0);

/**
 * Fill an empty database with the demo data of issue 3, in one transaction. Idempotent: a marker row in
 * app_meta (`demo_seed_version`) makes a second run do nothing. Deterministic: a fixed-seed generator and
 * dates counted from `today`'s month.
 */
export async function seedDemoData(database: Database, opts: SeedDemoOptions = {}): Promise<SeedDemoResult> {
  const started = performance.now();
  const log = opts.log ?? (() => undefined);
  const result = await database.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    // Two servers starting on one PostgreSQL: the second waits here, then sees the marker.
    await db.execute(sql`select pg_advisory_xact_lock(hashtext('pos-backoffice demo seed'))`);
    const [marker] = await db.select().from(appMeta).where(eq(appMeta.key, DEMO_SEED_MARKER));
    if (marker) return { seeded: false, counts: {} };
    log('demo seed: writing demo data');
    await writeDemoData(db, opts, log);
    const counts = await countRows(db);
    await db.insert(appMeta).values({
      key: DEMO_SEED_MARKER,
      value: { version: DEMO_SEED_VERSION, seed: DEMO_SEED, month: iso(monthStart(opts.today ?? new Date())) },
    });
    return { seeded: true, counts };
  });
  const ms = Math.round(performance.now() - started);
  if (result.seeded)
    log(
      `demo seed: done in ${ms} ms (${Object.entries(result.counts)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')})`,
    );
  else log('demo seed: already present, nothing to do');
  return { ...result, ms };
}

/** The tables the demo fills, for counts. */
export const DEMO_TABLES = [
  'roles',
  'privileges',
  'role_privileges',
  'staff_users',
  'distributor_accounts',
  'agents',
  'sales_persons',
  'customers',
  'stores',
  'store_emails',
  'customer_notes',
  'agent_stores',
  'terminals',
  'domain_data',
  'currencies',
  'products',
  'product_prices',
  'billing_item_categories',
  'billing_items',
  'billing_item_prices',
  'bundles',
  'bundle_price_options',
  'promotions',
  'referrals',
  'tax_rates',
  'banks',
  'customer_payment_plans',
  'customer_billing_items',
  'customer_bundles',
  'payment_instruments',
  'invoices',
  'invoice_lines',
  'transactions',
  'credit_memos',
  'receipts',
  'receipt_allocations',
  'write_offs',
  'returns',
  'tax_certificates',
  'orders',
  'order_notes',
  'order_status_history',
  'status_reasons',
  'contracts',
  'agent_orders',
  'order_promotions',
  'sales_history',
  'audit_log',
] as const;

export async function countRows(db: Db): Promise<Record<string, number>> {
  const parts = DEMO_TABLES.map((t) => `select '${t}' as t, count(*)::int as n from ${t}`).join(' union all ');
  const res = (await db.execute(sql.raw(parts))) as unknown as { rows: { t: string; n: number }[] };
  return Object.fromEntries(res.rows.map((r) => [r.t, Number(r.n)]));
}

async function writeDemoData(db: Db, opts: SeedDemoOptions, log: (m: string) => void): Promise<void> {
  const rng = new Rng(DEMO_SEED);
  const now = opts.today ?? new Date();
  const anchor = monthStart(now);
  // "Today" inside the demo: the same time of day every run of the month keeps the rows identical.
  const today = addDays(anchor, Math.min(now.getUTCDate() - 1, 27) + 0.5);
  const windowStart = monthStart(anchor, -11);
  const usCount = opts.customers?.us ?? 200;
  const caCount = opts.customers?.ca ?? 50;

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

  // ── agents, staff, distributor login, sales persons ─────────────────────────────────────────────────
  const agentEmail = (key: string) => `agent.${key}@example.com`;
  for (const pass of [false, true]) {
    const defs = AGENT_DEFS.filter((a) => Boolean(a.parent) === pass);
    const parentIds = new Map(
      pass ? (await db.select({ id: agents.id, email: agents.email }).from(agents)).map((a) => [a.email, a.id]) : [],
    );
    await db
      .insert(agents)
      .values(
        defs.map((a) =>
          agentValues({
            name: a.name,
            email: agentEmail(a.key),
            phone: `800-555-${String(1000 + AGENT_DEFS.indexOf(a)).slice(-4)}`,
            type: a.type,
            salesChannel: CHANNEL_FOR_TYPE[a.type],
            salesChannelCode: a.code,
            parentAgentId: a.parent ? (parentIds.get(agentEmail(a.parent)) ?? null) : null,
          }),
        ),
      )
      .onConflictDoNothing();
  }
  const agentRows = await db
    .select({ id: agents.id, email: agents.email })
    .from(agents)
    .where(
      inArray(
        agents.email,
        AGENT_DEFS.map((a) => agentEmail(a.key)),
      ),
    );
  const agentId = new Map(AGENT_DEFS.map((a) => [a.key, agentRows.find((r) => r.email === agentEmail(a.key))!.id]));

  const staffAgent: Partial<Record<string, number>> = {
    distributor: agentId.get('demo'),
    rdc: agentId.get('rdc.southwest'),
  };
  await db
    .insert(staffUsers)
    .values(
      DEMO_STAFF.map((s) => ({
        email: `${s.username}@example.com`,
        name: s.name,
        roleId: access.roles.get(s.role as Role)!,
        agentId: staffAgent[s.username] ?? null,
        accountManagerUsername: s.username === 'distributor' || s.username === 'rdc' ? 'ram' : null,
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(distributorAccounts)
    .values({
      email: DEMO_DISTRIBUTOR_LOGIN.email,
      name: DEMO_DISTRIBUTOR_LOGIN.name,
      passwordHash: await hashPassword(DEMO_DISTRIBUTOR_LOGIN.password),
      agentId: agentId.get('demo')!,
      roleId: access.roles.get('Distributor')!,
      accountManagerUsername: 'ram',
    })
    .onConflictDoNothing();

  const spIds = await reserveIds(db, 'sales_persons', SALES_PEOPLE.length);
  const salesPeople = SALES_PEOPLE.map((p, i) => ({
    ...p,
    id: spIds[i]!,
    agentId: p.agent ? agentId.get(p.agent)! : null,
  }));
  await insertMany(
    db,
    salesPersons,
    salesPeople.map((p) => ({
      id: p.id,
      name: p.name,
      email: `${p.name.toLowerCase().replace(/[^a-z]+/g, '.')}.sales@example.com`,
      phone: `800-555-${String(2000 + p.id).slice(-4)}`,
      salesChannel: p.channel,
      agentId: p.agentId,
    })),
  );
  log(
    `demo seed: ${AGENT_DEFS.length} agents, ${DEMO_STAFF.length} staff users, 1 distributor login, ${salesPeople.length} sales persons`,
  );

  // ── customers and stores (decided in memory first) ─────────────────────────────────────────────────
  const customerIds = await reserveIds(db, 'customers', usCount + caCount);
  const customerGens: CustomerGen[] = [];
  for (let i = 0; i < usCount + caCount; i++) {
    const country: MerchantCountryCode = i < usCount ? 'US' : 'CA';
    const special = i === 0 ? ('T' as const) : i === 1 ? ('D' as const) : null;
    const candidates = salesPeople.filter((p) => (country === 'CA' ? p.country === 'CA' : p.country !== 'CA'));
    const sp = rng.pick(candidates);
    const createdAt = special ? addDays(anchor, -1400) : addDays(anchor, -rng.int(30, 1400) + rng.next());
    const taxDigits = String(410_000_000 + i * 37);
    const values = customerValues(
      rng,
      {
        country,
        salesPersonId: sp.id,
        accountManagerUsername: sp.manager,
        createdAt,
        updatedAt: createdAt,
        ...(special === 'T' ? { legalName: 'NRS QA Test Account LLC', firstName: 'Quinn', lastName: 'Tester' } : {}),
        ...(special === 'D' ? { legalName: 'NRS Demo Stores Inc', firstName: 'Dana', lastName: 'Demo' } : {}),
      },
      { key: `d${i + 1}`, taxDigits },
    );
    customerGens.push({
      id: customerIds[i]!,
      values: { ...values, id: customerIds[i]! },
      country,
      currency: currencyForCountry(country),
      createdAt,
      salesPerson: { id: sp.id, name: sp.name, manager: sp.manager, agentId: sp.agentId },
      special,
      stores: [],
      instrumentId: 0,
      instrumentKind: 'card',
    });
  }

  const storeSpecs: {
    customer: CustomerGen;
    values: NewStore;
    status: StoreStatus;
    createdAt: Date;
    closedAt: Date | null;
    terminals: number;
  }[] = [];
  for (const c of customerGens) {
    const count =
      c.special === 'T'
        ? 5
        : c.special === 'D'
          ? 4
          : rng.weighted([
              [1, 45],
              [2, 30],
              [3, 15],
              [4, 10],
            ] as const);
    // Most multi-store customers are a small chain: one name and kind of business, several addresses.
    const chain = count > 1 && rng.chance(0.6);
    let first: NewStore | undefined;
    for (let k = 0; k < count; k++) {
      const base = storeValues(rng, { id: c.id, country: c.country }, {});
      first ??= base;
      const dba =
        c.special === 'T'
          ? `QA Lane ${k + 1}`
          : c.special === 'D'
            ? `Demo Store ${k + 1}`
            : chain
              ? first.doingBusinessAs
              : base.doingBusinessAs;
      const kindOfBusiness = chain ? first.kindOfBusiness : base.kindOfBusiness;
      let createdAt =
        k === 0
          ? addDays(c.createdAt, rng.int(0, 20) + rng.next())
          : addDays(c.createdAt, rng.next() * ((today.getTime() - c.createdAt.getTime()) / DAY - 1));
      let status: StoreStatus = 'active';
      let closedAt: Date | null = null;
      if (!c.special) {
        const roll = rng.next();
        if (roll < 0.06) {
          status = 'pending';
          createdAt = addDays(today, -rng.int(1, 20) - rng.next());
        } else if (roll < 0.1 && createdAt < addDays(today, -90)) {
          status = 'closed';
          closedAt = addDays(createdAt, 60 + rng.next() * ((today.getTime() - createdAt.getTime()) / DAY - 70));
        } else if (roll < 0.115) {
          status = 'suspended';
        }
      }
      const acceptsCards = rng.chance(0.8);
      storeSpecs.push({
        customer: c,
        status,
        createdAt,
        closedAt,
        terminals: c.special
          ? 1
          : rng.weighted([
              [1, 55],
              [2, 30],
              [3, 15],
            ] as const),
        values: {
          ...base,
          doingBusinessAs: dba,
          kindOfBusiness,
          storeName: `${dba} - ${(base.storeAddress as AddressJson).address1.replace(/^\d+\s+/, '')}`,
          salesRep: c.salesPerson.name,
          salesPersonId: c.salesPerson.id,
          accountManagerUsername: c.values.accountManagerUsername ?? null,
          storeType: c.special ?? 'R',
          status,
          mid: acceptsCards && c.country === 'US' ? `MID` : null,
          createdAt,
          updatedAt: closedAt ?? createdAt,
        },
      });
    }
  }
  const storeIds = await reserveIds(db, 'stores', storeSpecs.length);
  const orderIdsForStores = await reserveIds(db, 'orders', storeSpecs.length);
  const storeGens: StoreGen[] = storeSpecs.map((s, i) => {
    const address = s.values.storeAddress as AddressJson;
    const g: StoreGen = {
      id: storeIds[i]!,
      customer: s.customer,
      values: {
        ...s.values,
        id: storeIds[i]!,
        mid: s.values.mid ? `8${String(storeIds[i]!).padStart(11, '0')}` : null,
      },
      status: s.status,
      createdAt: s.createdAt,
      closedAt: s.closedAt,
      terminals: s.terminals,
      petro: s.values.kindOfBusiness === 'Gas station',
      taxBp: taxBp(s.customer.country, address.state),
      orderId: orderIdsForStores[i]!,
      hw: null,
      svc: null,
      features: [],
      bundleId: null,
    };
    s.customer.stores.push(g);
    return g;
  });

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
    s.svc = { id: svcId, kind, recurringLines };

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
          ? iso(monthStart(anchor, -1))
          : kind === 'monthly'
            ? iso(monthStart(anchor, 1))
            : iso(anniversary);
    s.values.licenseExpiresOn = license;
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
        nextBillingOn: live ? (kind === 'monthly' ? iso(monthStart(anchor, 1)) : iso(anniversary)) : null,
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

  // ── payment instruments ──────────────────────────────────────────────────────────────────────────
  const usBanks = BANKS.filter((b) => b.country === 'US');
  const caBanks = BANKS.filter((b) => b.country === 'CA');
  const instrumentPlan = customerGens.map((c) => ({ c, second: rng.chance(0.1) }));
  const instrumentIds = await reserveIds(
    db,
    'payment_instruments',
    instrumentPlan.reduce((n, p) => n + (p.second ? 2 : 1), 0),
  );
  let nextInstrument = 0;
  const instrumentRows: PgInsertValue<typeof paymentInstruments>[] = [];
  for (const { c, second } of instrumentPlan) {
    const bank = c.country === 'CA' ? rng.chance(0.7) : rng.chance(0.25);
    const holder = `${c.values.firstName} ${c.values.lastName}`;
    const make = (active: boolean, asBank: boolean): PgInsertValue<typeof paymentInstruments> => {
      const id = instrumentIds[nextInstrument++]!;
      const last4 = rng.digits(4);
      if (asBank) {
        const b = rng.pick(c.country === 'CA' ? caBanks : usBanks);
        return {
          id,
          customerId: c.id,
          kind: 'bank',
          nameOnAccount: c.values.legalName,
          bankName: b.name,
          routingNumber: c.country === 'CA' ? rng.digits(5) : b.routingNumber!,
          institutionNumber: b.institutionNumber ?? null,
          // Demo rows hold no account number: the placeholder is not a ciphertext (decision 016).
          accountNumberEncrypted: `demo:${last4}`,
          accountLast4: last4,
          accountType: rng.chance(0.85) ? 'checking' : 'savings',
          isDefault: active,
          status: active ? 'active' : 'inactive',
        };
      }
      return {
        id,
        customerId: c.id,
        kind: 'card',
        nameOnAccount: holder,
        cardBrand: rng.weighted([
          ['visa', 50],
          ['mastercard', 30],
          ['amex', 12],
          ['discover', 8],
        ] as const),
        cardLast4: last4,
        cardExpMonth: rng.int(1, 12),
        cardExpYear: today.getUTCFullYear() + (active ? rng.int(1, 5) : -1),
        processorReference: `pm_demo_${c.id}_${id}`,
        isDefault: active,
        status: active ? 'active' : 'inactive',
      };
    };
    const row = make(true, bank);
    c.instrumentId = row.id as number;
    c.instrumentKind = bank ? 'bank' : 'card';
    instrumentRows.push(row);
    if (second) instrumentRows.push(make(false, false));
  }

  // ── invoices, lines, transactions, receipts ─────────────────────────────────────────────────────
  interface InvoiceSpec {
    s: StoreGen;
    planId: number;
    type: 'S' | 'M' | 'I';
    issued: Date;
    lines: Line[];
  }
  const invoiceSpecs: InvoiceSpec[] = [];
  for (const s of billed) {
    const start = s.createdAt;
    const endKey = s.closedAt ? monthKey(s.closedAt) : monthKey(anchor);
    if (monthKey(start) >= monthKey(windowStart))
      invoiceSpecs.push({ s, planId: s.hw!.id, type: 'S', issued: start, lines: s.hw!.saleLines });
    for (let m = monthStart(windowStart); monthKey(m) <= endKey; m = monthStart(m, 1)) {
      const sinceStart = monthKey(m) - monthKey(start);
      if (sinceStart < 0) continue;
      if (!s.hw!.upfront && sinceStart >= 1 && sinceStart <= 12) {
        const principal = Math.round(s.hw!.financed / 12);
        const interest = s.hw!.recurring - principal;
        invoiceSpecs.push({
          s,
          planId: s.hw!.id,
          type: 'I',
          issued: m,
          lines: [
            {
              billingItemId: BILLING_ITEM_IDS.INSTALLMENT,
              description: `Installment ${sinceStart} of 12`,
              quantity: 1,
              unitCents: principal,
            },
            ...(interest > 0
              ? [
                  {
                    billingItemId: BILLING_ITEM_IDS.INTEREST,
                    description: itemName.get(BILLING_ITEM_IDS.INTEREST)!,
                    quantity: 1,
                    unitCents: interest,
                  },
                ]
              : []),
          ],
        });
      }
      const due = s.svc!.kind === 'monthly' || sinceStart % 12 === 0;
      if (!due) continue;
      const issued = sinceStart === 0 ? start : m;
      const lines = [...s.svc!.recurringLines];
      const t = tax(lineTotal(lines), s.taxBp);
      if (t > 0)
        lines.push({ billingItemId: BILLING_ITEM_IDS.TAX, description: 'Sales tax', quantity: 1, unitCents: t });
      invoiceSpecs.push({ s, planId: s.svc!.id, type: 'M', issued, lines });
    }
  }
  invoiceSpecs.sort((a, b) => a.issued.getTime() - b.issued.getTime() || a.s.id - b.s.id);
  const invoiceIds = await reserveIds(db, 'invoices', invoiceSpecs.length);

  const invoiceRows: PgInsertValue<typeof invoices>[] = [];
  const lineRows: PgInsertValue<typeof invoiceLines>[] = [];
  const txRows: PgInsertValue<typeof transactions>[] = [];
  const receiptSpecs: {
    customer: CustomerGen;
    amount: number;
    invoiceId: number | null;
    received: Date;
    method: string;
  }[] = [];
  const unpaidOld: { id: number; s: StoreGen; total: number; issued: Date }[] = [];
  const paidInvoices: { id: number; s: StoreGen; total: number; issued: Date }[] = [];
  invoiceSpecs.forEach((spec, i) => {
    const id = invoiceIds[i]!;
    const { s } = spec;
    const cur = s.customer.currency;
    const total = lineTotal(spec.lines);
    const taxCents = spec.lines
      .filter((l) => l.billingItemId === BILLING_ITEM_IDS.TAX)
      .reduce((n, l) => n + l.unitCents, 0);
    const dueOn = addDays(spec.issued, spec.type === 'S' ? 0 : 10);
    const current = monthKey(spec.issued) === monthKey(anchor) && spec.type !== 'S';
    const lastMonths = monthKey(anchor) - monthKey(spec.issued) <= 2;
    let outcome: 'paid' | 'retried' | 'failed' | 'check' | 'reversed' | 'chargeback' | 'void' | 'open';
    if (current) outcome = 'open';
    else if (spec.type === 'S') outcome = rng.chance(0.04) ? 'check' : 'paid';
    else if (s.status === 'suspended' && lastMonths) outcome = 'failed';
    else if (s.closedAt && monthKey(spec.issued) === monthKey(s.closedAt)) outcome = 'failed';
    else
      outcome = rng.weighted([
        ['paid', 880],
        ['retried', 40],
        ['failed', 35],
        ['check', 25],
        ['reversed', 10],
        ['chargeback', 7],
        ['void', 3],
      ] as const);
    const paid = outcome === 'paid' || outcome === 'retried' || outcome === 'check' || outcome === 'void';
    const at = (d: Date, hours: number) => new Date(d.getTime() + hours * 3_600_000);
    invoiceRows.push({
      id,
      invoiceNumber: `INV-${iso(spec.issued).slice(0, 7).replace('-', '')}-${id}`,
      customerId: s.customer.id,
      storeId: s.id,
      planId: spec.planId,
      status: outcome === 'reversed' ? 'R' : paid ? 'P' : 'N',
      type: spec.type,
      periodStart: spec.type === 'S' ? null : iso(spec.issued),
      periodEnd:
        spec.type === 'S'
          ? null
          : iso(addDays(monthStart(spec.issued, spec.type === 'M' && s.svc!.kind === 'yearly' ? 12 : 1), -1)),
      issuedOn: iso(spec.issued),
      dueOn: iso(dueOn),
      totalCents: total,
      taxCents,
      paidCents: paid ? total : 0,
      currency: cur,
      reversedAt: outcome === 'reversed' ? at(dueOn, 24 * 5) : null,
      createdAt: at(spec.issued, 2),
      updatedAt: at(dueOn, 10),
    });
    for (const l of spec.lines)
      lineRows.push({
        invoiceId: id,
        billingItemId: l.billingItemId,
        description: l.description,
        quantity: l.quantity,
        unitCents: l.unitCents,
        amountCents: l.quantity * l.unitCents,
      });
    if (paid) paidInvoices.push({ id, s, total, issued: spec.issued });
    if (outcome === 'failed' && !current) unpaidOld.push({ id, s, total, issued: spec.issued });

    const base = {
      customerId: s.customer.id,
      storeId: s.id,
      invoiceId: id,
      paymentInstrumentId: s.customer.instrumentId,
      amountCents: total,
      currency: cur,
    };
    const ref = () => `${s.customer.instrumentKind === 'card' ? 'ch' : 'ach'}_${rng.digits(16)}`;
    const tx = (status: string, hours: number, extra: Partial<PgInsertValue<typeof transactions>> = {}) => {
      const attemptedAt = at(dueOn, hours);
      txRows.push({
        ...base,
        kind: 'charge',
        status,
        gatewayReference: ref(),
        attemptedAt,
        settledAt: status === 'S' || status === 'B' || status === 'C' ? at(attemptedAt, 26) : null,
        createdAt: attemptedAt,
        updatedAt: attemptedAt,
        ...extra,
      });
    };
    switch (outcome) {
      case 'paid':
        tx('S', 9);
        break;
      case 'retried':
        tx('R', 9, { failureReason: rng.pick(FAILURE_REASONS) });
        tx('S', 9 + 24 * rng.int(2, 6));
        break;
      case 'failed':
        tx('F', 9, { failureReason: rng.pick(FAILURE_REASONS) });
        if (rng.chance(0.5)) tx('F', 9 + 24 * rng.int(3, 7), { failureReason: rng.pick(FAILURE_REASONS) });
        break;
      case 'check':
        receiptSpecs.push({
          customer: s.customer,
          amount: total,
          invoiceId: id,
          received: addDays(dueOn, rng.int(0, 5)),
          method: rng.weighted([
            ['check', 6],
            ['wire', 2],
            ['cash', 1],
            ['ach', 1],
          ] as const),
        });
        break;
      case 'reversed':
        tx('C', 9, { failureReason: 'Invoice reversed; payment refunded' });
        break;
      case 'chargeback':
        tx('S', 9);
        tx('B', 9 + 24 * rng.int(20, 45), { kind: 'chargeback', failureReason: rng.pick(CHARGEBACK_REASONS) });
        break;
      case 'void':
        tx('V', 8);
        tx('S', 9);
        break;
      case 'open':
        if (rng.chance(0.5)) tx('P', Math.min(9, (today.getTime() - dueOn.getTime()) / 3_600_000 - 1));
        break;
    }
  });
  // Pending transactions must not be dated after "today".
  for (const t of txRows) {
    if ((t.attemptedAt as Date) > today) t.attemptedAt = t.createdAt = t.updatedAt = addDays(today, -0.1);
    if (t.settledAt && (t.settledAt as Date) > today) t.settledAt = addDays(today, -0.05);
  }

  // Receipts not yet applied (for the apply-receipt screen): customers with an unpaid invoice.
  for (const u of rng.sample(unpaidOld, Math.min(15, unpaidOld.length)))
    receiptSpecs.push({
      customer: u.s.customer,
      amount: rng.chance(0.7) ? u.total : Math.round(u.total / 2),
      invoiceId: null,
      received: addDays(today, -rng.int(1, 10)),
      method: rng.pick(['check', 'wire', 'ach']),
    });
  const receiptIds = await reserveIds(db, 'receipts', receiptSpecs.length);
  const receiptRows = receiptSpecs.map((r, i) => ({
    id: receiptIds[i]!,
    customerId: r.customer.id,
    amountCents: r.amount,
    unappliedCents: r.invoiceId ? 0 : r.amount,
    currency: r.customer.currency,
    method: r.method,
    reference: r.method === 'check' ? `CHK ${rng.int(1001, 9999)}` : `${r.method.toUpperCase()}-${rng.digits(8)}`,
    receivedOn: iso(r.received),
    createdByEmail: 'ar@example.com',
    createdAt: r.received,
    updatedAt: r.received,
  }));
  const allocationRows = receiptSpecs.flatMap((r, i) =>
    r.invoiceId
      ? [
          {
            receiptId: receiptIds[i]!,
            invoiceId: r.invoiceId,
            amountCents: r.amount,
            allocatedByEmail: 'ar@example.com',
            allocatedAt: addDays(r.received, 1),
          },
        ]
      : [],
  );

  // ── credit memos, write-offs, returns ────────────────────────────────────────────────────────────
  const memoRows: PgInsertValue<typeof creditMemos>[] = [];
  const recentPaid = paidInvoices.filter((p) => monthKey(anchor) - monthKey(p.issued) <= 2);
  const olderPaid = paidInvoices.filter((p) => monthKey(anchor) - monthKey(p.issued) > 2);
  const memo = (p: (typeof paidInvoices)[number], status: 'P' | 'A' | 'R', createdAt: Date) => {
    const reason = rng.pick(MEMO_REASONS);
    const type = reason.startsWith('Refund')
      ? 'R'
      : reason.startsWith('Price match') || reason.startsWith('Tax')
        ? 'A'
        : 'C';
    const amount = Math.max(100, Math.min(p.total, rng.int(5, 60) * 500));
    memoRows.push({
      customerId: p.s.customer.id,
      storeId: p.s.id,
      invoiceId: p.id,
      type,
      status,
      amountCents: amount,
      currency: p.s.customer.currency,
      reason,
      createdByEmail: `${rng.pick(['service', 'support', 'care'])}@example.com`,
      approvedByEmail: status === 'P' ? null : rng.pick(['ar@example.com', 'admin@example.com']),
      decidedAt: status === 'P' ? null : addDays(createdAt, rng.int(1, 4)),
      createdAt,
      updatedAt: createdAt,
    });
  };
  for (const p of rng.sample(recentPaid, 24)) memo(p, 'P', addDays(today, -rng.int(1, 14) - rng.next()));
  for (const p of rng.sample(olderPaid, 30)) memo(p, 'A', addDays(p.issued, rng.int(12, 40)));
  for (const p of rng.sample(olderPaid, 10)) memo(p, 'R', addDays(p.issued, rng.int(12, 40)));

  const writeOffRows = rng
    .sample(
      unpaidOld.filter((u) => u.s.status === 'closed' || monthKey(anchor) - monthKey(u.issued) >= 6),
      12,
    )
    .map((u) => ({
      customerId: u.s.customer.id,
      invoiceId: u.id,
      type: u.s.status === 'closed' ? WRITE_OFF_TYPE.WRITE_OFF_UNRECOVERABLE : WRITE_OFF_TYPE.WRITE_OFF,
      amountCents: u.total,
      currency: u.s.customer.currency,
      reason:
        u.s.status === 'closed'
          ? 'Store closed; balance unrecoverable'
          : 'Small balance written off after collection attempts',
      createdByEmail: 'ar@example.com',
      createdAt: addDays(u.issued, 75 > (today.getTime() - u.issued.getTime()) / DAY ? 1 : 75),
    }));

  // ── terminals ────────────────────────────────────────────────────────────────────────────────────
  const terminalSpecs: { s: StoreGen; n: number; replacement: boolean }[] = [];
  for (const s of storeGens) {
    for (let n = 0; n < s.terminals; n++) terminalSpecs.push({ s, n, replacement: false });
    if (s.status === 'active' && rng.chance(0.05)) terminalSpecs.push({ s, n: s.terminals, replacement: true });
  }
  const terminalIds = await reserveIds(db, 'terminals', terminalSpecs.length);
  const retiredElmer: { s: StoreGen; elmerId: string }[] = [];
  const terminalRows = terminalSpecs.map(({ s, n, replacement }, i) => {
    const id = terminalIds[i]!;
    const elmerId = String(3_000_000 + id * 7 + (id % 7));
    const product = s.petro && n === 0 ? OTHER_IDS.PETRO_PRODUCT_ID : OTHER_IDS.TERMINAL_PRODUCT_ID;
    const installedAt = s.status === 'pending' ? null : addDays(s.createdAt, -0.2);
    let status: 'active' | 'pending' | 'retired' = s.status === 'pending' ? 'pending' : 'active';
    let retiredAt: Date | null = null;
    let reason: string | null = null;
    if (s.status === 'closed') {
      status = 'retired';
      retiredAt = s.closedAt;
      reason = 'store_closed';
    } else if (replacement) {
      // The old unit a replacement took over from.
      status = 'retired';
      retiredAt = addDays(s.createdAt, rng.next() * Math.max(1, (today.getTime() - s.createdAt.getTime()) / DAY - 1));
      reason = rng.pick(['defective', 'replaced', 'upgraded', 'lost_stolen']);
    }
    if (status === 'retired') retiredElmer.push({ s, elmerId });
    return {
      id,
      elmerId,
      serialNumber: `${product === OTHER_IDS.PETRO_PRODUCT_ID ? 'PT' : 'NT'}${String(s.createdAt.getUTCFullYear()).slice(2)}${String(id).padStart(7, '0')}`,
      posCcProcessorSerialNumber: s.values.mid ? `PAX${rng.digits(9)}` : null,
      customerId: s.customer.id,
      storeId: s.id,
      productId: product,
      orderId: s.orderId,
      planId: s.hw?.id ?? null,
      underTransfer: status === 'active' && rng.chance(0.03),
      status,
      installedAt,
      retiredAt,
      retireReasonId: reason ? retireReasons.get(reason)! : null,
      createdAt: addDays(s.createdAt, -1),
      updatedAt: retiredAt ?? s.createdAt,
    };
  });

  const returnRows = rng.sample(retiredElmer, Math.min(10, retiredElmer.length)).map(({ s, elmerId }, i) => {
    const status = (['requested', 'received', 'refunded', 'rejected'] as const)[i % 4];
    const restocking = itemPrice(BILLING_ITEM_IDS.RESTOCKING_FEE, s.customer.currency);
    return {
      customerId: s.customer.id,
      storeId: s.id,
      orderId: s.orderId,
      terminalElmerId: elmerId,
      reason: rng.pick(DOMAIN_DATA.return_reason!)[1],
      status,
      restockingFeeCents: restocking,
      refundCents:
        status === 'refunded'
          ? Math.max(0, productPrice(OTHER_IDS.TERMINAL_PRODUCT_ID, s.customer.currency) - restocking)
          : 0,
      currency: s.customer.currency,
      createdByEmail: 'support@example.com',
      createdAt: addDays(today, -rng.int(2, 60)),
    };
  });

  // ── orders: one per store (complete, or in progress for pending stores) + add-ons + prospects ────
  const prospectCount = 45;
  const addOnCount = 30;
  const extraOrderIds = await reserveIds(db, 'orders', prospectCount + addOnCount);
  const promoIds = await reserveIds(db, 'promotions', PROMOS.length);
  const promoRows = PROMOS.map((p, i) => ({
    id: promoIds[i]!,
    code: p.code,
    name: p.name,
    type: p.type,
    method: p.method,
    amountCents: p.method === 'A' ? p.value : null,
    percent: p.method === 'P' ? String(p.value) : null,
    customerType: p.customerType,
    currency: p.currency,
    billingItemId: p.billingItemId,
    startsOn: iso(addDays(anchor, p.startsIn)),
    expiresOn: p.expiresIn === null ? null : iso(addDays(anchor, p.expiresIn)),
    active: p.expiresIn === null || p.expiresIn > 0,
  }));

  interface OrderSpec {
    id: number;
    status: OrderStatusCode;
    flow: OrderFlow;
    orderType: 'P' | 'N';
    orderDate: Date;
    end: Date;
    customer: CustomerGen | null;
    store: StoreGen | null;
    prospect: { customer: NewCustomer; store: NewStore } | null;
    agentId: number | null;
    createdBy: string;
    terminals: number;
    totalSale: number;
  }
  const orderSpecs: OrderSpec[] = [];
  const salesStaff = (flow: OrderFlow) => (flow === 'RAM' ? 'ram' : rng.pick(['is', 'mss', 'rss']));
  for (const s of storeGens) {
    const flow: OrderFlow = rng.chance(0.3) ? 'RAM' : 'AR';
    let status: OrderStatusCode = ORDER_STATUS.COMPLETE;
    if (s.status === 'pending')
      status = s.petro && rng.chance(0.5) ? ORDER_STATUS.PETRO_APPROVAL : rng.pick(IN_PROGRESS);
    const orderDate =
      s.status === 'pending'
        ? addDays(s.createdAt, -rng.int(0, 3))
        : addDays(s.createdAt, -rng.int(7, 30) - rng.next());
    const agent = s.customer.salesPerson.agentId;
    orderSpecs.push({
      id: s.orderId,
      status,
      flow,
      orderType: 'P',
      orderDate,
      end: s.status === 'pending' ? today : s.createdAt,
      customer: s.customer,
      store: s,
      prospect: null,
      agentId: agent,
      createdBy: agent ? 'distributor' : salesStaff(flow),
      terminals: s.terminals,
      totalSale: s.hw ? lineTotal(s.hw.saleLines.filter((l) => l.billingItemId !== BILLING_ITEM_IDS.INSTALLMENT)) : 0,
    });
  }
  const liveStores = storeGens.filter((s) => s.status === 'active' && !s.customer.special);
  for (let i = 0; i < addOnCount; i++) {
    const s = rng.pick(liveStores);
    const flow: OrderFlow = rng.chance(0.4) ? 'RAM' : 'AR';
    const orderDate = addDays(today, -rng.int(2, 120) - rng.next());
    orderSpecs.push({
      id: extraOrderIds[i]!,
      status: ORDER_STATUS_CODES[i % ORDER_STATUS_CODES.length]!,
      flow,
      orderType: rng.chance(0.5) ? 'N' : 'P',
      orderDate,
      end: minDate(today, addDays(orderDate, rng.int(3, 40))),
      customer: s.customer,
      store: s,
      prospect: null,
      agentId: s.customer.salesPerson.agentId,
      createdBy: s.customer.salesPerson.agentId ? 'distributor' : salesStaff(flow),
      terminals: 1,
      totalSale: productPrice(OTHER_IDS.TERMINAL_PRODUCT_ID, s.customer.currency),
    });
  }
  for (let i = 0; i < prospectCount; i++) {
    const country: MerchantCountryCode = rng.chance(0.8) ? 'US' : 'CA';
    const customer = customerValues(rng, { country }, { key: `p${i + 1}`, taxDigits: String(470_000_000 + i * 41) });
    const store = storeValues(rng, { id: 0, country }, {});
    const viaAgent = rng.chance(0.35);
    const flow: OrderFlow = rng.chance(0.3) ? 'RAM' : 'AR';
    const orderDate = addDays(today, -rng.int(1, 90) - rng.next());
    const terminalsWanted = rng.int(1, 3);
    orderSpecs.push({
      id: extraOrderIds[addOnCount + i]!,
      status: ORDER_STATUS_CODES[(i + 7) % ORDER_STATUS_CODES.length]!,
      flow,
      orderType: 'P',
      orderDate,
      end: minDate(today, addDays(orderDate, rng.int(2, 30))),
      customer: null,
      store: null,
      prospect: { customer, store },
      agentId: viaAgent
        ? rng.pick([agentId.get('demo')!, agentId.get('gulfcoast')!, agentId.get('greatlakes')!])
        : null,
      createdBy: viaAgent ? 'distributor' : salesStaff(flow),
      terminals: terminalsWanted,
      totalSale: terminalsWanted * productPrice(OTHER_IDS.TERMINAL_PRODUCT_ID, currencyForCountry(country)),
    });
  }

  const orderRows: PgInsertValue<typeof orders>[] = [];
  const historyRows: PgInsertValue<typeof orderStatusHistory>[] = [];
  const noteRows: PgInsertValue<typeof orderNotes>[] = [];
  const contractRows: PgInsertValue<typeof contracts>[] = [];
  const agentOrderRows: PgInsertValue<typeof agentOrders>[] = [];
  const orderPromoRows: PgInsertValue<typeof orderPromotions>[] = [];
  const staffName = new Map<string, string>(DEMO_STAFF.map((s) => [s.username, s.name]));
  for (const o of orderSpecs) {
    const path = STATUS_PATHS[o.status];
    const span = Math.max(0.2, (o.end.getTime() - o.orderDate.getTime()) / DAY);
    const times = path.map((_, k) =>
      k === 0 ? o.orderDate : addDays(o.orderDate, (span * k) / Math.max(1, path.length - 1) - rng.next() * 0.1),
    );
    const c = o.customer
      ? { ...o.customer.values, id: o.customer.id }
      : o.prospect
        ? { ...o.prospect.customer, id: undefined }
        : null;
    const st = o.store ? o.store.values : o.prospect ? { ...o.prospect.store, id: undefined } : null;
    const cur = currencyForCountry((c?.country as string | undefined) ?? 'US');
    const hwPlan: OrderPlanInput | undefined = o.store?.hw
      ? {
          paymentPlanId: o.store.hw.id,
          initialPaymentCents: o.store.hw.initial,
          recurringCents: o.store.hw.recurring,
          term: o.store.hw.upfront ? 0 : 12,
          interval: o.store.hw.upfront ? 0 : 1,
        }
      : {
          paymentPlanId: OTHER_IDS.UPFRONT_PAYMENT_PLAN_ID,
          initialPaymentCents: o.totalSale,
          recurringCents: 0,
          term: 0,
          interval: 0,
        };
    const moPlan: OrderPlanInput | undefined = o.store?.svc
      ? {
          paymentPlanId: o.store.svc.id,
          initialPaymentCents: 0,
          recurringCents: lineTotal(o.store.svc.recurringLines),
          term: PLAN_KIND_DEFAULTS[o.store.svc.kind].term,
          interval: PLAN_KIND_DEFAULTS[o.store.svc.kind].interval,
        }
      : {
          paymentPlanId: OTHER_IDS.MONTHLY_PLAN_ID,
          initialPaymentCents: 0,
          recurringCents: itemPrice(BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, cur),
          term: 1,
          interval: 1,
        };
    const createdByEmail = `${o.createdBy}@example.com`;
    const unifiedOrderId = `UO-${o.id}`;
    const document = buildOrderDocument({
      orderInfoId: o.id,
      unifiedOrderId,
      flow: o.flow,
      orderType: o.orderType,
      orderDate: o.orderDate,
      salesRep: o.customer?.salesPerson.name ?? null,
      customer: c,
      store: st,
      noOfTerminals: o.terminals,
      totalSaleCents: o.totalSale,
      hardwarePlan: hwPlan,
      monthlyPlan: moPlan,
      user: { name: staffName.get(o.createdBy) ?? o.createdBy, email: createdByEmail },
      billingItems: (o.store?.features ?? []).map((f) => ({
        billingItemId: f,
        name: itemName.get(f),
        price: (itemPrice(f, cur) / 100).toFixed(2),
      })),
      bundles: o.store?.bundleId ? [{ bundleId: o.store.bundleId }] : [],
      storeInfo: {
        currentPos: rng.pick(['None', 'Cash register', 'Square', 'Clover', 'Other POS']),
        internetConnectionType: rng.pick(['Cable', 'DSL', 'Fiber', '4G/LTE']),
        acceptsCreditCards: st?.mid ? 'Yes' : 'No',
      },
    });
    const reached = (code: OrderStatusCode) => {
      const k = path.indexOf(code);
      return k >= 0 ? times[k]! : null;
    };
    const last = times[times.length - 1]!;
    orderRows.push({
      id: o.id,
      unifiedOrderId,
      document,
      status: o.status,
      flow: o.flow,
      orderType: o.orderType,
      salesRep: o.customer?.salesPerson.name ?? null,
      agentId: o.agentId,
      customerId: o.customer?.id ?? null,
      storeId: o.store?.id ?? null,
      createdByEmail,
      fedTaxId: (c?.federalTaxId as string | undefined) ?? null,
      legalName: (c?.legalName as string | undefined) ?? null,
      dbaName: (st?.doingBusinessAs as string | undefined) ?? null,
      country: (c?.country as string | undefined) ?? 'US',
      currency: cur,
      totalSaleCents: o.totalSale,
      orderDate: o.orderDate,
      submittedAt: times[1] ?? null,
      onboardedAt: reached(ORDER_STATUS.PENDING_ONBOARDING) ?? reached(ORDER_STATUS.INSTALLATION),
      completedAt: reached(ORDER_STATUS.COMPLETE),
      createdAt: o.orderDate,
      updatedAt: last,
      version: path.length,
    });
    path.forEach((to, k) => {
      const reasons = reasonsByStatus.get(to) ?? [];
      const final = k === path.length - 1;
      const withReason =
        reasons.length > 0 && (final ? ['2', '3', '141', '142'].includes(to) || rng.chance(0.4) : rng.chance(0.1));
      const reason = withReason ? rng.pick(reasons) : null;
      historyRows.push({
        orderId: o.id,
        fromStatus: k === 0 ? null : path[k - 1]!,
        toStatus: to,
        statusReasonId: reason?.id ?? null,
        note: reason?.reason ?? null,
        changedByEmail: k === 0 ? createdByEmail : `${STATUS_ACTOR[to]}@example.com`,
        changedAt: times[k]!,
      });
      if (reason)
        noteRows.push({
          orderId: o.id,
          noteType: 'status_reason',
          statusReasonId: reason.id,
          body: reason.reason,
          createdByEmail: `${STATUS_ACTOR[to]}@example.com`,
          createdAt: times[k]!,
        });
    });
    for (
      let n = rng.weighted([
        [0, 40],
        [1, 35],
        [2, 20],
        [3, 5],
      ] as const);
      n > 0;
      n--
    )
      noteRows.push({
        orderId: o.id,
        noteType: 'order_note',
        body: rng.pick(ORDER_NOTE_TEXTS),
        createdByEmail: rng.pick([createdByEmail, 'service@example.com', 'ar@example.com']),
        createdAt: addDays(o.orderDate, rng.next() * span),
      });
    const contractAt = reached(ORDER_STATUS.PENDING_CONTRACT_SIGN);
    if (contractAt) {
      const signer = c ? `${c.firstName} ${c.lastName}` : 'Merchant';
      const signedAt = times[path.indexOf(ORDER_STATUS.PENDING_CONTRACT_SIGN) + 1];
      const regenerated = reached(ORDER_STATUS.AR_CONTRACT_REGENERATED);
      contractRows.push({
        orderId: o.id,
        versionNo: 1,
        status: regenerated ? 'superseded' : signedAt ? 'signed' : 'sent',
        signedByName: signedAt && !regenerated ? signer : null,
        signedAt: signedAt && !regenerated ? signedAt : null,
        signedFromIp: signedAt && !regenerated ? `203.0.113.${rng.int(1, 254)}` : null,
        createdAt: contractAt,
        updatedAt: signedAt ?? contractAt,
      });
      if (regenerated)
        contractRows.push({
          orderId: o.id,
          versionNo: 2,
          status: 'generated',
          createdAt: regenerated,
          updatedAt: regenerated,
        });
    }
    if (o.agentId)
      agentOrderRows.push({
        agentId: o.agentId,
        orderId: o.id,
        assignedByEmail: o.createdBy === 'distributor' ? createdByEmail : 'admin@example.com',
        assignedAt: o.orderDate,
      });
    if (o.status === ORDER_STATUS.COMPLETE && o.customer && rng.chance(0.12)) {
      const options = promoRows.filter((p) => p.currency === cur && p.type === 'H');
      const p = rng.pick(options);
      const amount = p.method === 'A' ? p.amountCents! : Math.round((o.totalSale * Number(p.percent)) / 100);
      orderPromoRows.push({
        orderId: o.id,
        customerId: o.customer.id,
        storeId: o.store?.id ?? null,
        promotionId: p.id,
        amountCents: Math.min(amount, o.totalSale),
        currency: cur,
        appliedAt: o.orderDate,
      });
    }
  }

  // ── the rest: emails, notes, agent stores, sales history, tax certificates, referrals ─────────────
  const emailRows: PgInsertValue<typeof storeEmails>[] = [];
  const customerNoteRows: PgInsertValue<typeof customerNotes>[] = [];
  const agentStoreRows: PgInsertValue<typeof agentStores>[] = [];
  const salesHistoryRows: PgInsertValue<typeof salesHistory>[] = [];
  const taxCertRows: PgInsertValue<typeof taxCertificates>[] = [];
  for (const s of storeGens) {
    const slug = (s.values.doingBusinessAs as string).toLowerCase().replace(/[^a-z0-9]+/g, '');
    emailRows.push({ storeId: s.id, email: `${slug}.${s.id}@example.org`, kind: 'general', isPrimary: true });
    if (rng.chance(0.5))
      emailRows.push({ storeId: s.id, email: `billing.${s.id}@example.org`, kind: 'billing', isPrimary: false });
    if (s.status !== 'pending')
      for (
        let n = rng.weighted([
          [0, 45],
          [1, 35],
          [2, 20],
        ] as const);
        n > 0;
        n--
      )
        customerNoteRows.push({
          customerId: s.customer.id,
          storeId: s.id,
          noteType: 'order_note',
          body: rng.pick(CUSTOMER_NOTE_TEXTS),
          createdByEmail: `${rng.pick(['service', 'support', 'care', 'ar'])}@example.com`,
          createdAt: addDays(
            s.createdAt,
            rng.next() * Math.max(1, (today.getTime() - s.createdAt.getTime()) / DAY - 1),
          ),
        });
    if (s.customer.salesPerson.agentId)
      agentStoreRows.push({ agentId: s.customer.salesPerson.agentId, storeId: s.id, assignedAt: s.createdAt });
    if (s.hw)
      salesHistoryRows.push({
        salesPersonId: s.customer.salesPerson.id,
        customerId: s.customer.id,
        storeId: s.id,
        periodMonth: iso(monthStart(s.createdAt)),
        units: s.terminals,
        amountCents: lineTotal(
          s.hw.saleLines.filter(
            (l) => l.billingItemId !== BILLING_ITEM_IDS.TAX && l.billingItemId !== BILLING_ITEM_IDS.INSTALLMENT,
          ),
        ),
        currency: s.customer.currency,
      });
    if ((s.values.storeAddress as AddressJson).state === 'AZ' && rng.chance(0.6))
      taxCertRows.push({
        customerId: s.customer.id,
        storeId: s.id,
        state: 'AZ',
        certificateNumber: `TPT-${rng.digits(8)}`,
        expiresOn: iso(addDays(anchor, rng.int(60, 700))),
      });
  }
  const referralRows = AGENT_DEFS.filter((a) => a.type !== AGENT_TYPE.RDC).map((a, i) => ({
    refCode: `REF-${a.key.split('.')[0]!.toUpperCase()}${i + 1}`,
    name: `${a.name} referral`,
    agentId: agentId.get(a.key)!,
    discountCents: a.type === AGENT_TYPE.REFP ? 100_00 : 50_00,
    currency: a.country === 'CA' ? 'CAD' : 'USD',
  }));

  // ── write, parents first ────────────────────────────────────────────────────────────────────────
  await insertMany(
    db,
    customers,
    customerGens.map((c) => c.values),
  );
  await insertMany(
    db,
    stores,
    storeGens.map((s) => s.values),
  );
  log(`demo seed: ${customerGens.length} customers, ${storeGens.length} stores`);
  await insertMany(db, storeEmails, emailRows);
  await insertMany(db, customerNotes, customerNoteRows);
  await insertMany(db, agentStores, agentStoreRows);
  await insertMany(db, promotions, promoRows);
  await db.insert(referrals).values(referralRows).onConflictDoNothing();
  await insertMany(db, orders, orderRows);
  await insertMany(db, orderStatusHistory, historyRows);
  await insertMany(db, orderNotes, noteRows);
  await insertMany(db, contracts, contractRows);
  await insertMany(db, agentOrders, agentOrderRows);
  await insertMany(db, orderPromotions, orderPromoRows);
  log(`demo seed: ${orderRows.length} orders, ${historyRows.length} status changes, ${noteRows.length} notes`);
  await insertMany(db, customerPaymentPlans, planRows);
  await insertMany(db, terminals, terminalRows);
  await insertMany(db, customerBillingItems, cbiRows);
  await insertMany(db, customerBundles, bundleRows);
  await insertMany(db, paymentInstruments, instrumentRows);
  log(`demo seed: ${planRows.length} payment plans, ${terminalRows.length} terminals`);
  await insertMany(db, invoices, invoiceRows);
  await insertMany(db, invoiceLines, lineRows);
  await insertMany(db, transactions, txRows);
  await insertMany(db, receipts, receiptRows);
  await insertMany(db, receiptAllocations, allocationRows);
  await insertMany(db, creditMemos, memoRows);
  await insertMany(db, writeOffs, writeOffRows);
  await insertMany(db, returns, returnRows);
  await insertMany(db, salesHistory, salesHistoryRows);
  await insertMany(db, taxCertificates, taxCertRows);
  log(`demo seed: ${invoiceRows.length} invoices, ${txRows.length} transactions, ${memoRows.length} credit memos`);
  // Products carry their catalogue ids (1 terminal, 2 Petro …); everything else took reserved ids.
  await resetSequence(db, 'products');
  await db.insert(auditLog).values({
    actorType: 'system',
    action: 'seed',
    entity: 'demo_data',
    entityId: String(DEMO_SEED_VERSION),
    after: { seed: DEMO_SEED, month: iso(anchor) },
  });
}
