import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/** Key/value facts about this database (schema seed version, first-run marker). */
export const appMeta = pgTable('app_meta', {
  key: text().primaryKey(),
  value: jsonb().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Append-only audit trail: who did what to which record, with the record before and after.
 * Nothing updates or deletes rows here (a trigger refuses it; see migration 0002).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    at: timestamp({ withTimezone: true }).notNull().defaultNow(),
    actorType: text().notNull(),
    actorId: text(),
    actorEmail: text(),
    action: text().notNull(),
    entity: text().notNull(),
    entityId: text(),
    before: jsonb(),
    after: jsonb(),
    requestId: uuid(),
    /** The customer the change belongs to (set by writeAudit from the entry or its before/after `customer_id`). */
    customerId: integer(),
  },
  (t) => [
    index('audit_log_customer_idx').on(t.customerId, t.at),
    index('audit_log_entity_idx').on(t.entity, t.entityId, t.at),
    index('audit_log_actor_idx').on(t.actorId, t.at),
    index('audit_log_at_idx').on(t.at),
    check(
      'audit_log_actor_type_check',
      sql`${t.actorType} in ('staff', 'distributor', 'merchant', 'system', 'anonymous')`,
    ),
  ],
);

/**
 * Idempotency-Key of a money POST and the answer it got (decision 104, Stripe's semantics). `scope` is the
 * caller and the route ('staff:12 POST /customers/:id/transactions/:txId'); `request_hash` is the SHA-256 of
 * the canonical JSON of the path ids and the body. While the first request runs, `locked_until` is set and
 * there is no response; once answered, `response_status` and `response_body` (the JSON the caller got) are
 * set and the lock is gone. A key is forgotten at `expires_at` (created + 24 h): the janitor job deletes it.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text().notNull(),
    key: text().notNull(),
    requestHash: text().notNull(),
    responseStatus: integer(),
    responseBody: jsonb(),
    createdAt: timestamp({ withTimezone: true }).notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    lockedUntil: timestamp({ withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.key] }),
    index('idempotency_keys_expires_at_idx').on(t.expiresAt),
    // In flight (locked, no answer yet) or answered (an answer, no lock): never both, never neither.
    check(
      'idempotency_keys_state_check',
      sql`(${t.lockedUntil} is null) = (${t.responseStatus} is not null) and (${t.responseStatus} is null) = (${t.responseBody} is null)`,
    ),
    check('idempotency_keys_status_check', sql`${t.responseStatus} between 200 and 499`),
  ],
);
