import { check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { inList } from './columns';

export const MAIL_STATUSES = ['stored', 'queued', 'sent', 'failed'] as const;

/** Every outbound message: to, template, time, status. With no SMTP_URL the message itself is kept (the Mailbox). */
export const mailLog = pgTable(
  'mail_log',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    to: text().notNull(),
    subject: text().notNull(),
    template: text().notNull(),
    status: text().notNull(),
    html: text(),
    text: text(),
    links: jsonb().$type<string[]>(),
    relatedType: text(),
    relatedId: text(),
    error: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('mail_log_created_idx').on(t.createdAt, t.id),
    index('mail_log_template_created_idx').on(t.template, t.createdAt, t.id),
    index('mail_log_to_idx').on(t.to),
    index('mail_log_to_trgm_idx').using('gin', t.to.op('gin_trgm_ops')),
    index('mail_log_related_idx').on(t.relatedType, t.relatedId),
    check('mail_log_status_check', inList(t.status, MAIL_STATUSES)),
  ],
);
