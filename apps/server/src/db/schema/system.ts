import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

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
