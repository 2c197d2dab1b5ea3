import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { ACCOUNT_CODES, CURRENCY_CODES, JOURNAL_SOURCES } from '@pos/domain';
import { inList } from './columns';

/*
 * The double-entry journal (issue 28, decisions 143 and 145), made by migration 0029 with its triggers: append-only
 * (updates, deletes and truncates refused), Σ debits = Σ credits per entry checked at commit (a deferred constraint
 * trigger), one currency per entry (the entry's), integer cents. Entries are posted by the AFTER triggers on the
 * money tables (journal_sync: the difference between what a source row says and what the journal holds for it);
 * modules/ledger reads it (journal.service.ts).
 */
export const journalEntries = pgTable(
  'journal_entries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    /** domain JOURNAL_ENTRY_KINDS: the first posting of a source row, or 'correction' (receipt_unapplied). */
    kind: text().notNull(),
    currency: text().notNull(),
    postedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    effectiveOn: date({ mode: 'string' }).notNull(),
    customerId: integer(),
    invoiceId: integer(),
    /** The table of the row the entry is posted for (domain JOURNAL_SOURCES, 'settle': an invoice's settlement). */
    source: text().notNull(),
    sourceId: integer().notNull(),
    actor: text(),
    requestId: text(),
    /** A correction names the first entry of its source row. */
    reversesEntryId: bigint({ mode: 'number' }),
    /** The posting transaction (txid_current()): lines may join only an entry of their own transaction. */
    postedTxid: bigint({ mode: 'number' })
      .notNull()
      .default(sql`txid_current()`),
  },
  (t) => [
    index('journal_entries_source_idx').on(t.source, t.sourceId),
    check('journal_entries_currency_check', inList(t.currency, CURRENCY_CODES)),
    check('journal_entries_source_check', inList(t.source, [...JOURNAL_SOURCES, 'manual'])),
  ],
);

export const journalLines = pgTable(
  'journal_lines',
  {
    /** Its entry (no foreign key: a statement-level trigger checks it exists and was posted by the same transaction). */
    entryId: bigint({ mode: 'number' }).notNull(),
    lineNo: smallint().notNull(),
    /** domain ACCOUNT codes. */
    account: text().notNull(),
    /** Set on the per-customer accounts (1100 receivable, 2100 unapplied cash). */
    customerId: integer(),
    /** Set on receivables (1100) only. */
    invoiceId: integer(),
    debitCents: bigint({ mode: 'number' }).notNull().default(0),
    creditCents: bigint({ mode: 'number' }).notNull().default(0),
    /** The entry's effective day, copied for the account + day index. */
    effectiveOn: date({ mode: 'string' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'journal_lines_pk', columns: [t.entryId, t.lineNo] }),
    index('journal_lines_invoice_idx')
      .on(t.invoiceId)
      .where(sql`${t.invoiceId} is not null`),
    index('journal_lines_customer_idx')
      .on(t.customerId, t.account)
      .where(sql`${t.customerId} is not null`),
    index('journal_lines_account_idx').on(t.account, t.effectiveOn),
    check(
      'journal_lines_amount_check',
      sql`${t.debitCents} >= 0 and ${t.creditCents} >= 0 and (${t.debitCents} = 0) <> (${t.creditCents} = 0)`,
    ),
    check('journal_lines_account_check', inList(t.account, ACCOUNT_CODES)),
  ],
);
