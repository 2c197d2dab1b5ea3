import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
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
  CONTRACT_STATUSES,
  CURRENCY_CODES,
  CUSTOMER_MATCH_STATUSES,
  NOTE_TYPES,
  ORDER_FLOWS,
  ORDER_STATUS_CODES,
  ORDER_TYPES,
} from '@pos/domain';
import { agents } from './agents';
import { inList, timestamps, version } from './columns';
import { customers, stores } from './merchants';

export const UPLOAD_KINDS = [
  'storePicture',
  'businessLicense',
  'contract',
  'resellerFile',
  'checkImage',
  'achCadImage',
  'taxCertificate',
] as const;

/**
 * Every uploaded file: stored under a server-made key, with its checked type, size and hash. `id` is internal (foreign
 * keys); every API surface names an upload by `public_id` (decision 140: 24 random bytes, base64url, made by the
 * server). `owner_type` / `owner_id`: the record it belongs to (domain UPLOAD_OWNER_TYPES), null until attached.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    publicId: text().notNull(),
    kind: text().notNull(),
    originalName: text().notNull(),
    contentType: text().notNull(),
    sizeBytes: integer().notNull(),
    sha256: text().notNull(),
    storageKey: text().notNull(),
    ownerType: text(),
    ownerId: text(),
    createdByEmail: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('uploads_storage_key_uq').on(t.storageKey),
    uniqueIndex('uploads_public_id_uq').on(t.publicId),
    check('uploads_public_id_check', sql`${t.publicId} ~ '^[A-Za-z0-9_-]{32}$'`),
    index('uploads_owner_idx').on(t.ownerType, t.ownerId),
    check('uploads_kind_check', inList(t.kind, UPLOAD_KINDS)),
    check('uploads_size_check', sql`${t.sizeBytes} between 1 and 5242880`),
    check('uploads_sha256_check', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * An order: the §3 order document kept whole in `document`, with the columns lists and queues filter on.
 * The id is the spec's orderInfoId.
 */
export const orders = pgTable(
  'orders',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity({ startWith: 700001 }),
    unifiedOrderId: text().notNull(),
    document: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text().notNull().default('1'),
    flow: text().notNull().default('AR'),
    orderType: text().notNull().default('P'),
    salesRep: text(),
    agentId: integer().references(() => agents.id),
    customerId: integer().references(() => customers.id),
    storeId: integer().references(() => stores.id),
    createdByEmail: text().notNull(),
    fedTaxId: text(),
    legalName: text(),
    dbaName: text(),
    country: text().notNull().default('US'),
    currency: text().notNull().default('USD'),
    totalSaleCents: bigint({ mode: 'number' }).notNull().default(0),
    /**
     * The sales channel the order was sold through (decision 138): its agent's, else its store's sales person's, else
     * its customer's sales person's, else 'none' — set by the trigger orders_sales_channel (migration 0025) whenever
     * the order is written with another agent, store or customer; the orders report groups and filters by it.
     */
    salesChannel: text().notNull().default('none'),
    orderDate: timestamp({ withTimezone: true }).notNull().defaultNow(),
    submittedAt: timestamp({ withTimezone: true }),
    completedAt: timestamp({ withTimezone: true }),
    onboardedAt: timestamp({ withTimezone: true }),
    ...timestamps,
    ...version,
  },
  (t) => [
    uniqueIndex('orders_unified_order_id_uq').on(t.unifiedOrderId),
    // The role's queue and the list's default sort (newest change first, then id), walked with LIMIT (decision 107).
    index('orders_status_idx').on(t.status, t.updatedAt, t.id),
    index('orders_updated_at_idx').on(t.updatedAt, t.id),
    index('orders_flow_status_idx').on(t.flow, t.status),
    index('orders_agent_idx').on(t.agentId),
    index('orders_customer_idx').on(t.customerId),
    index('orders_store_idx').on(t.storeId),
    // The orders report's two day bases (decision 138): newest-first pages walk them; the figures read their
    // INCLUDE columns only (migration 0025 adds them: drizzle-kit has no INCLUDE).
    index('orders_report_order_date_idx').on(t.orderDate, t.id),
    index('orders_report_submitted_idx').on(t.submittedAt, t.id),
    index('orders_sales_rep_trgm_idx').using('gin', t.salesRep.op('gin_trgm_ops')),
    index('orders_legal_name_trgm_idx').using('gin', t.legalName.op('gin_trgm_ops')),
    index('orders_dba_name_trgm_idx').using('gin', t.dbaName.op('gin_trgm_ops')),
    check('orders_status_check', inList(t.status, ORDER_STATUS_CODES)),
    check('orders_flow_check', inList(t.flow, ORDER_FLOWS)),
    check('orders_order_type_check', inList(t.orderType, ORDER_TYPES)),
    check('orders_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('orders_total_check', sql`${t.totalSaleCents} >= 0`),
  ],
);

/** Reasons a status change can give (GET /api/customers/orderstatus). */
export const statusReasons = pgTable(
  'status_reasons',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    status: text().notNull(),
    reason: text().notNull(),
    sortOrder: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex('status_reasons_status_reason_uq').on(t.status, t.reason),
    check('status_reasons_status_check', inList(t.status, ORDER_STATUS_CODES)),
  ],
);

export const orderNotes = pgTable(
  'order_notes',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    noteType: text().notNull(),
    statusReasonId: integer().references(() => statusReasons.id),
    body: text().notNull(),
    createdByEmail: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_notes_order_idx').on(t.orderId, t.createdAt),
    index('order_notes_status_reason_idx').on(t.statusReasonId),
    check('order_notes_type_check', inList(t.noteType, NOTE_TYPES)),
    check('order_notes_body_check', sql`length(${t.body}) between 1 and 4000`),
  ],
);

export const orderStatusHistory = pgTable(
  'order_status_history',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    fromStatus: text(),
    toStatus: text().notNull(),
    statusReasonId: integer().references(() => statusReasons.id),
    note: text(),
    changedByEmail: text().notNull(),
    changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('order_status_history_order_idx').on(t.orderId, t.changedAt),
    index('order_status_history_reason_idx').on(t.statusReasonId),
    check('order_status_history_to_check', inList(t.toStatus, ORDER_STATUS_CODES)),
    check(
      'order_status_history_from_check',
      sql`${t.fromStatus} is null or ${inList(t.fromStatus, ORDER_STATUS_CODES)}`,
    ),
  ],
);

export const contracts = pgTable(
  'contracts',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    versionNo: integer().notNull(),
    status: text().notNull().default('generated'),
    uploadId: integer().references(() => uploads.id),
    signedUploadId: integer().references(() => uploads.id),
    signedByName: text(),
    signedAt: timestamp({ withTimezone: true }),
    signedFromIp: text(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('contracts_order_version_uq').on(t.orderId, t.versionNo),
    index('contracts_upload_idx').on(t.uploadId),
    index('contracts_signed_upload_idx').on(t.signedUploadId),
    check('contracts_status_check', inList(t.status, CONTRACT_STATUSES)),
    check(
      'contracts_signed_check',
      sql`${t.status} <> 'signed' or (${t.signedAt} is not null and ${t.signedByName} is not null)`,
    ),
  ],
);

/** Orders an agent placed or was assigned (spec agentorders add / updateagentid / delete). */
export const agentOrders = pgTable(
  'agent_orders',
  {
    agentId: integer()
      .notNull()
      .references(() => agents.id),
    orderId: integer()
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    assignedByEmail: text().notNull(),
    assignedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.agentId, t.orderId] }), index('agent_orders_order_idx').on(t.orderId)],
);

/**
 * An order's existing-customer match (decision 142): an agent-scoped session saved an order whose federal tax id is an
 * existing customer's that the session may not see. Onboarding does not attach the order to that customer until staff
 * confirm (status confirmed); rejected: onboarded as a new customer; pending: the move to Complete waits. One row per
 * order (the match of its latest agent save); decisions are audited (order.customer_match*).
 */
export const orderCustomerMatches = pgTable(
  'order_customer_matches',
  {
    orderId: integer()
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    federalTaxId: text().notNull(),
    status: text().notNull().default('pending'),
    flaggedAt: timestamp({ withTimezone: true }).notNull(),
    flaggedByEmail: text().notNull(),
    decidedAt: timestamp({ withTimezone: true }),
    decidedByEmail: text(),
  },
  (t) => [
    index('order_customer_matches_customer_idx').on(t.customerId),
    check('order_customer_matches_status_check', inList(t.status, CUSTOMER_MATCH_STATUSES)),
    check('order_customer_matches_decided_check', sql`(${t.status} = 'pending') = (${t.decidedAt} is null)`),
  ],
);
