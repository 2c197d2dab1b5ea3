import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { WINBACK_ACTIVITY_KINDS, WINBACK_OFFER_KINDS, WINBACK_REASONS, WINBACK_STATUSES } from '@pos/domain';
import { promotions } from './catalogue';
import { inList, timestamps, version } from './columns';
import { customers, stores } from './merchants';

/**
 * A store's win-back case (#/breathoflife, decision 131): made on the first action on a lapsed or canceled store.
 * reason / reason_on keep why it was on the list when the case opened (a won store is no longer lapsed).
 */
export const winbackCases = pgTable(
  'winback_cases',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    storeId: integer()
      .notNull()
      .references(() => stores.id),
    customerId: integer()
      .notNull()
      .references(() => customers.id),
    reason: text().notNull(),
    reasonOn: date({ mode: 'string' }).notNull(),
    status: text().notNull().default('new'),
    offerKind: text(),
    offerPromotionId: integer().references(() => promotions.id),
    /** The reactivation fee is waived (the offer): a reactivation raises no fee invoice. */
    feeWaived: boolean().notNull().default(false),
    outcomeReason: text(),
    lastActivityAt: timestamp({ withTimezone: true }),
    ...timestamps,
    ...version,
  },
  (t) => [
    uniqueIndex('winback_cases_store_uq').on(t.storeId),
    index('winback_cases_status_idx').on(t.status),
    check('winback_cases_reason_check', inList(t.reason, WINBACK_REASONS)),
    check('winback_cases_status_check', inList(t.status, WINBACK_STATUSES)),
    check('winback_cases_offer_check', sql`${t.offerKind} is null or ${inList(t.offerKind, WINBACK_OFFER_KINDS)}`),
  ],
);

/** What was done on a case: calls, notes, offers, outcomes, the reactivation (append-only). */
export const winbackActivities = pgTable(
  'winback_activities',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    caseId: integer()
      .notNull()
      .references(() => winbackCases.id),
    kind: text().notNull(),
    text: text().notNull(),
    actorName: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index('winback_activities_case_idx').on(t.caseId, t.at, t.id),
    check('winback_activities_kind_check', inList(t.kind, WINBACK_ACTIVITY_KINDS)),
  ],
);
