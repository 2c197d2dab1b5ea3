import { eq } from 'drizzle-orm';
import { currencyForCountry, isMerchantCountry, type MerchantCountryCode, type SalesChannel } from '@pos/domain';
import type { Db } from '../client';
import { customerNotes, customers, salesPersons, storeEmails, stores } from '../schema';
import { geocode, phoneNumber, randomAddress } from './address';
import { factoryRng, type Rng } from './random';
import { uniqueDigits, uniqueSuffix } from './sequence';
import {
  BUSINESS_TYPES,
  FIRST_NAMES,
  KINDS_OF_BUSINESS,
  LAST_NAMES,
  LEGAL_SUFFIXES_CA,
  LEGAL_SUFFIXES_US,
  MIDDLE_INITIALS,
  STORE_PREFIXES,
} from './words';

export type CustomerRow = typeof customers.$inferSelect;
export type NewCustomer = typeof customers.$inferInsert;
export type StoreRow = typeof stores.$inferSelect;
export type NewStore = typeof stores.$inferInsert;
export type SalesPersonRow = typeof salesPersons.$inferSelect;
export type NewSalesPerson = typeof salesPersons.$inferInsert;

function countryOf(value: unknown): MerchantCountryCode {
  return isMerchantCountry(value) ? value : 'US';
}

/** A store name and its doing-business-as name, e.g. "Sunrise Food Mart". */
export function storeNames(rng: Rng): { dba: string; kindOfBusiness: string } {
  const kind = rng.weighted(KINDS_OF_BUSINESS.map((k) => [k, k.weight] as const));
  return { dba: `${rng.pick(STORE_PREFIXES)} ${rng.pick(kind.words)}`, kindOfBusiness: kind.kind };
}

/** Federal tax id: US EIN `NN-NNNNNNN`, Canadian business number: 9 digits. */
export function federalTaxIdFrom(country: MerchantCountryCode, nineDigits: string): string {
  return country === 'CA' ? nineDigits : `${nineDigits.slice(0, 2)}-${nineDigits.slice(2)}`;
}

/**
 * Insert values of a valid customer. Unique fields (email, federal tax id, br_acct) come from `unique`
 * (the seed passes its own); the rest is drawn from `rng`.
 */
export function customerValues(
  rng: Rng,
  overrides: Partial<NewCustomer> = {},
  unique: { key: string; taxDigits: string } = { key: uniqueSuffix(), taxDigits: uniqueDigits(9) },
): NewCustomer {
  const country = countryOf(overrides.country);
  const firstName = overrides.firstName ?? rng.pick(FIRST_NAMES);
  const lastName = overrides.lastName ?? rng.pick(LAST_NAMES);
  const legalName =
    overrides.legalName ??
    `${lastName} ${rng.pick(['Retail', 'Group', 'Trading', 'Brothers', 'Family', 'Ventures'])} ${rng.pick(country === 'CA' ? LEGAL_SUFFIXES_CA : LEGAL_SUFFIXES_US)}`;
  const home = randomAddress(rng, country);
  const billing = rng.chance(0.8) ? home : randomAddress(rng, country);
  return {
    legalName,
    title: rng.pick(['Owner', 'President', 'Manager', 'Director']),
    firstName,
    middleName: rng.chance(0.3) ? rng.pick(MIDDLE_INITIALS) : null,
    lastName,
    phone: phoneNumber(rng),
    email: `${firstName}.${lastName}.${unique.key}@example.org`.toLowerCase(),
    brAcct: `BR${unique.taxDigits.slice(-7)}`,
    federalTaxId: federalTaxIdFrom(country, unique.taxDigits),
    ofaCustomerId: `OFA${unique.taxDigits.slice(-6)}`,
    oasisId: `OAS-${unique.taxDigits.slice(-6)}`,
    paymentProcessorReference: country === 'US' ? `cus_${unique.taxDigits}` : null,
    businessType: rng.pick(BUSINESS_TYPES),
    country,
    currency: currencyForCountry(country),
    homeAddress: home,
    billingAddress: billing,
    shippingAddress: rng.chance(0.9) ? home : randomAddress(rng, country),
    ...overrides,
  };
}

/** A customer (default US, currency from the country). */
export async function createCustomer(db: Db, overrides: Partial<NewCustomer> = {}): Promise<CustomerRow> {
  const [row] = await db.insert(customers).values(customerValues(factoryRng, overrides)).returning();
  return row!;
}

/** Insert values of a valid store of `customer` (country, currency and a matching address follow it). */
export function storeValues(
  rng: Rng,
  customer: { id: number; country: string },
  overrides: Partial<NewStore> = {},
): NewStore {
  const country = countryOf(overrides.country ?? customer.country);
  const names = storeNames(rng);
  const dba = overrides.doingBusinessAs ?? names.dba;
  const address = overrides.storeAddress ?? randomAddress(rng, country);
  return {
    customerId: customer.id,
    storeName: `${dba} - ${address.address1.replace(/^\d+\s+/, '')}`,
    doingBusinessAs: dba,
    phone: phoneNumber(rng),
    mobilePhone: rng.chance(0.6) ? phoneNumber(rng) : null,
    kindOfBusiness: names.kindOfBusiness,
    storeAddress: address,
    dbaAddress: address,
    geocodedAddress: geocode(rng, address),
    state: address.state,
    country,
    currency: currencyForCountry(country),
    storeType: 'R',
    status: 'active',
    ...overrides,
  };
}

/** A store; its customer is created (in the store's country) unless customerId is given. */
export async function createStore(db: Db, overrides: Partial<NewStore> = {}): Promise<StoreRow> {
  let customer: { id: number; country: string };
  if (overrides.customerId === undefined) {
    customer = await createCustomer(db, overrides.country ? { country: overrides.country } : {});
  } else {
    const [found] = await db
      .select({ id: customers.id, country: customers.country })
      .from(customers)
      .where(eq(customers.id, overrides.customerId));
    // A missing customer is left to the foreign key to refuse.
    customer = found ?? { id: overrides.customerId, country: overrides.country ?? 'US' };
  }
  const [row] = await db
    .insert(stores)
    .values(storeValues(factoryRng, customer, overrides))
    .returning();
  return row!;
}

export async function createStoreEmail(
  db: Db,
  overrides: Partial<typeof storeEmails.$inferInsert> = {},
): Promise<typeof storeEmails.$inferSelect> {
  const storeId = overrides.storeId ?? (await createStore(db)).id;
  const [row] = await db
    .insert(storeEmails)
    .values({ storeId, email: `store-${uniqueSuffix()}@example.org`, kind: 'general', isPrimary: true, ...overrides })
    .returning();
  return row!;
}

export async function createCustomerNote(
  db: Db,
  overrides: Partial<typeof customerNotes.$inferInsert> = {},
): Promise<typeof customerNotes.$inferSelect> {
  let { customerId, storeId } = overrides;
  if (customerId === undefined) {
    const store = await createStore(db);
    customerId = store.customerId;
    storeId ??= store.id;
  }
  const [row] = await db
    .insert(customerNotes)
    .values({
      noteType: 'order_note',
      body: 'Called the merchant about the next installation date.',
      createdByEmail: 'service@example.com',
      ...overrides,
      customerId,
      storeId: storeId ?? null,
    })
    .returning();
  return row!;
}

export function salesPersonValues(
  rng: Rng,
  overrides: Partial<NewSalesPerson> = {},
  key = uniqueSuffix(),
): NewSalesPerson {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  return {
    name: `${first} ${last}`,
    email: `${first}.${last}.${key}@example.com`.toLowerCase(),
    phone: phoneNumber(rng),
    salesChannel: rng.pick<SalesChannel>(['IS', 'RAM', 'Distributor', 'MSS']),
    ...overrides,
  };
}

export async function createSalesPerson(db: Db, overrides: Partial<NewSalesPerson> = {}): Promise<SalesPersonRow> {
  const [row] = await db.insert(salesPersons).values(salesPersonValues(factoryRng, overrides)).returning();
  return row!;
}
