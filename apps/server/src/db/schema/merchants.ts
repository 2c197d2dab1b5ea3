import { sql } from 'drizzle-orm';
import {
  boolean,
  bigint,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  CURRENCY_CODES,
  CUSTOMER_STATUS_VALUES,
  MERCHANT_COUNTRY_CODES,
  NOTE_TYPES,
  SALES_CHANNELS,
  STORE_STATUS_VALUES,
  STORE_TYPE_VALUES,
} from '@pos/domain';
import { agents } from './agents';
import { inList, nonNegative, timestamps, version } from './columns';

export interface AddressJson {
  address1: string;
  address2?: string | null;
  city: string;
  state: string;
  zip: string;
  country: string;
}

export interface GeocodedAddressJson {
  lattitude?: number | null;
  longitude?: number | null;
  placeId?: string | null;
  streetNumber?: string | null;
  streetName?: string | null;
  city?: string | null;
  county?: string | null;
  state?: string | null;
  zip?: string | null;
  zip4?: string | null;
  country?: string | null;
  singleLine?: string | null;
}

/** Status and store-type lists live in the domain (contracts/customers.ts); the CHECKs below use them. */
export const CUSTOMER_STATUSES = CUSTOMER_STATUS_VALUES;
export const STORE_STATUSES = STORE_STATUS_VALUES;
export const STORE_TYPES = STORE_TYPE_VALUES;

export const salesPersons = pgTable(
  'sales_persons',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    email: text().notNull(),
    phone: text(),
    salesChannel: text().notNull(),
    agentId: integer().references(() => agents.id),
    active: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('sales_persons_email_uq').on(sql`lower(${t.email})`),
    index('sales_persons_agent_idx').on(t.agentId),
    check('sales_persons_channel_check', inList(t.salesChannel, SALES_CHANNELS)),
  ],
);

/** The merchant's legal entity (spec §3 CustomerInfo and addresses). */
export const customers = pgTable(
  'customers',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity({ startWith: 100001 }),
    legalName: text().notNull(),
    title: text(),
    firstName: text().notNull(),
    middleName: text(),
    lastName: text().notNull(),
    phone: text(),
    email: text().notNull(),
    brAcct: text(),
    federalTaxId: text(),
    ofaCustomerId: text(),
    oasisId: text(),
    paymentProcessorReference: text(),
    businessType: text(),
    customerCategory: text().notNull().default('DISTRIBUTOR'),
    customerClass: text().notNull().default('POS'),
    resaleCertificate: text(),
    country: text().notNull(),
    currency: text().notNull(),
    status: text().notNull().default('active'),
    homeAddress: jsonb().$type<AddressJson>(),
    billingAddress: jsonb().$type<AddressJson>(),
    shippingAddress: jsonb().$type<AddressJson>(),
    accountManagerUsername: text(),
    salesPersonId: integer().references(() => salesPersons.id),
    mobileConsent: boolean().notNull().default(false),
    /**
     * The searched fields, lower-cased and joined by a unit separator (decision 111): one `like '%…%'` per row
     * instead of three `ilike`, and one trigram index. Kept by PostgreSQL itself (generated, stored).
     */
    searchText: text().generatedAlwaysAs(
      sql`lower(legal_name || chr(31) || email || chr(31) || coalesce(federal_tax_id, ''))`,
    ),
    ...timestamps,
    ...version,
  },
  (t) => [
    uniqueIndex('customers_federal_tax_id_uq').on(t.federalTaxId),
    index('customers_search_text_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    // Sorts and exact-name look-ups on the legal name (decision 107; the global search's exact match).
    index('customers_legal_name_sort_idx').on(sql`lower(${t.legalName})`, t.id),
    index('customers_br_acct_idx').on(t.brAcct),
    index('customers_sales_person_idx').on(t.salesPersonId),
    index('customers_status_idx').on(t.status),
    check('customers_country_check', inList(t.country, MERCHANT_COUNTRY_CODES)),
    check('customers_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('customers_status_check', inList(t.status, CUSTOMER_STATUSES)),
  ],
);

/**
 * A store of a customer. Its id is the spec's customer_store_id / custstoreid / storeid.
 * br_acct is the customer's brAcct, copied here (and kept in step by a trigger) so the store search can use one
 * trigram index per searched field (decision 004).
 */
export const stores = pgTable(
  'stores',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity({ startWith: 500001 }),
    customerId: integer().notNull(),
    storeName: text().notNull(),
    doingBusinessAs: text().notNull(),
    brAcct: text(),
    phone: text(),
    mobilePhone: text(),
    kindOfBusiness: text(),
    storeAddress: jsonb().$type<AddressJson>().notNull(),
    dbaAddress: jsonb().$type<AddressJson>(),
    geocodedAddress: jsonb().$type<GeocodedAddressJson>(),
    /** Copied from storeAddress for tax look-ups and filters. */
    state: text().notNull(),
    country: text().notNull(),
    currency: text().notNull(),
    salesRep: text(),
    salesPersonId: integer().references(() => salesPersons.id),
    accountManagerUsername: text(),
    storeType: text().notNull().default('R'),
    mid: text(),
    licenseExpiresOn: date({ mode: 'string' }),
    /**
     * The day the billing run found the license past its grace period and told the terminals to stop (decision 113);
     * cleared when paid invoices move the expiry forward again.
     */
    licenseLapsedOn: date({ mode: 'string' }),
    /** Set when an invoice of the store went to collection (dunning exhausted; decision 116); cleared once paid. */
    pastDueSince: date({ mode: 'string' }),
    status: text().notNull().default('active'),
    /** The searched fields of a store, lower-cased and joined by a unit separator (decision 111). */
    searchText: text().generatedAlwaysAs(
      sql`lower(coalesce(br_acct, '') || chr(31) || coalesce(sales_rep, '') || chr(31) || store_name || chr(31) || doing_business_as)`,
    ),
    ...timestamps,
    ...version,
  },
  (t) => [
    foreignKey({ name: 'stores_customer_fk', columns: [t.customerId], foreignColumns: [customers.id] }).onDelete(
      'restrict',
    ),
    index('stores_customer_idx').on(t.customerId),
    index('stores_sales_person_idx').on(t.salesPersonId),
    index('stores_status_idx').on(t.status),
    index('stores_license_expires_idx').on(t.licenseExpiresOn),
    // The win-back list's lapsed stores (decision 131).
    index('stores_license_lapsed_idx')
      .on(t.licenseLapsedOn, t.id)
      .where(sql`${t.licenseLapsedOn} is not null`),
    // The customer listing's filters (decision 130): country then state, and the sales rep by name in any case.
    index('stores_country_state_idx').on(t.country, t.state),
    index('stores_sales_rep_idx').on(sql`lower(${t.salesRep})`),
    uniqueIndex('stores_mid_uq').on(t.mid),
    index('stores_search_text_trgm_idx').using('gin', t.searchText.op('gin_trgm_ops')),
    check('stores_country_check', inList(t.country, MERCHANT_COUNTRY_CODES)),
    check('stores_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('stores_status_check', inList(t.status, STORE_STATUSES)),
    check('stores_store_type_check', inList(t.storeType, STORE_TYPES)),
  ],
);

export const storeEmails = pgTable(
  'store_emails',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    storeId: integer()
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    kind: text().notNull().default('general'),
    isPrimary: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [
    index('store_emails_store_idx').on(t.storeId),
    check('store_emails_kind_check', inList(t.kind, ['general', 'billing', 'owner', 'support'])),
  ],
);

/** Notes on a customer, per store when customerStoreId is set. */
export const customerNotes = pgTable(
  'customer_notes',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    customerId: integer()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    storeId: integer().references(() => stores.id, { onDelete: 'cascade' }),
    noteType: text().notNull().default('order_note'),
    body: text().notNull(),
    createdByEmail: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('customer_notes_customer_idx').on(t.customerId, t.createdAt),
    index('customer_notes_store_idx').on(t.storeId),
    check('customer_notes_type_check', inList(t.noteType, NOTE_TYPES)),
    check('customer_notes_body_check', sql`length(${t.body}) between 1 and 4000`),
  ],
);

/** Monthly sales per sales person and store (what GET /api/saleshistory shows). */
export const salesHistory = pgTable(
  'sales_history',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    salesPersonId: integer()
      .notNull()
      .references(() => salesPersons.id),
    customerId: integer()
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    storeId: integer().references(() => stores.id, { onDelete: 'cascade' }),
    periodMonth: date({ mode: 'string' }).notNull(),
    units: integer().notNull().default(0),
    amountCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull(),
  },
  (t) => [
    index('sales_history_sales_person_idx').on(t.salesPersonId, t.periodMonth),
    index('sales_history_customer_idx').on(t.customerId, t.periodMonth),
    index('sales_history_store_idx').on(t.storeId),
    check('sales_history_amount_check', nonNegative(t.amountCents)),
    check('sales_history_currency_check', inList(t.currency, CURRENCY_CODES)),
  ],
);

/** Stores an agent looks after (spec /view-agent-stores). */
export const agentStores = pgTable(
  'agent_stores',
  {
    agentId: integer()
      .notNull()
      .references(() => agents.id, { onDelete: 'cascade' }),
    storeId: integer()
      .notNull()
      .references(() => stores.id, { onDelete: 'cascade' }),
    assignedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.storeId] }), index('agent_stores_store_idx').on(t.storeId)],
);
