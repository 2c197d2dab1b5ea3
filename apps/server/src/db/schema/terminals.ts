import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { inList, timestamps, version } from './columns';
import { customers, stores } from './merchants';
import { products } from './catalogue';
import { orders } from './orders';
import { customerPaymentPlans, returns } from './billing';

/** Typed look-up lists (retire reasons, business types, kinds of business…): GET /api/domaindata?type=. */
export const domainData = pgTable(
  'domain_data',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    type: text().notNull(),
    code: text().notNull(),
    label: text().notNull(),
    sortOrder: integer().notNull().default(0),
    active: boolean().notNull().default(true),
    ...version,
  },
  (t) => [
    uniqueIndex('domain_data_type_code_uq').on(t.type, t.code),
    index('domain_data_type_idx').on(t.type, t.sortOrder),
  ],
);

export const TERMINAL_STATUSES = ['active', 'pending', 'retired'] as const;

/** A payment terminal at a store: elmer_id is the terminal id of the spec. */
export const terminals = pgTable(
  'terminals',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    elmerId: text().notNull(),
    serialNumber: text().notNull(),
    posCcProcessorSerialNumber: text(),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    storeId: integer()
      .notNull()
      .references(() => stores.id),
    productId: integer().references(() => products.id),
    /** Set by onboarding: the order and plan this terminal came with. */
    orderId: integer().references(() => orders.id),
    planId: integer().references(() => customerPaymentPlans.id),
    underTransfer: boolean().notNull().default(false),
    status: text().notNull().default('active'),
    installedAt: timestamp({ withTimezone: true }),
    retiredAt: timestamp({ withTimezone: true }),
    retireReasonId: integer().references(() => domainData.id),
    ...timestamps,
    ...version,
  },
  (t) => [
    uniqueIndex('terminals_elmer_id_uq').on(t.elmerId),
    uniqueIndex('terminals_serial_number_uq').on(t.serialNumber),
    index('terminals_customer_idx').on(t.customerId),
    index('terminals_store_idx').on(t.storeId, t.status),
    index('terminals_product_idx').on(t.productId),
    index('terminals_order_idx').on(t.orderId),
    index('terminals_plan_idx').on(t.planId),
    index('terminals_retire_reason_idx').on(t.retireReasonId),
    check('terminals_status_check', inList(t.status, TERMINAL_STATUSES)),
    check(
      'terminals_retired_check',
      sql`(${t.status} = 'retired') = (${t.retiredAt} is not null and ${t.retireReasonId} is not null)`,
    ),
  ],
);

/** The terminals of a return (issue 16): which ones, and the price each refunds from the hardware invoice. */
export const returnTerminals = pgTable(
  'return_terminals',
  {
    returnId: integer()
      .notNull()
      .references(() => returns.id, { onDelete: 'cascade' }),
    terminalId: integer()
      .notNull()
      .references(() => terminals.id),
    unitCents: bigint({ mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('return_terminals_uq').on(t.returnId, t.terminalId),
    index('return_terminals_terminal_idx').on(t.terminalId),
    check('return_terminals_unit_check', sql`${t.unitCents} >= 0`),
  ],
);
