import type { Readable } from 'node:stream';
import {
  ACCOUNTS,
  JOURNAL_ENTRY_KIND_LABELS,
  formatMoney,
  isInvoiceOverdue,
  INVOICE_CSV_COLUMNS,
  parseSort,
  taxLines,
  taxRegistrations,
  type AccountCode,
  type AuditEntry as AuditEntryOut,
  type JournalEntryKind,
  type InvoiceEmailResult,
  type InvoicePage,
  type InvoiceSearchItem,
  type InvoiceSearchQuery,
  type InvoiceSearchResult,
  type InvoiceSearchSortField,
} from '@pos/domain';
import { and, asc, desc, eq, gte, inArray, lt, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import { cappedCount } from '../../db/capped-count';
import type { Db } from '../../db/client';
import {
  auditLog,
  billingItems,
  billingRuns,
  creditMemos,
  customers,
  invoiceLines,
  invoices,
  receiptAllocations,
  receipts,
  stores,
  transactions,
  writeOffs,
} from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError } from '../../http/errors';
import { invoiceEmail } from '../../integrations/mail/templates';
import { csvStream } from '../../lib/csv-stream';
import { searchTextPattern } from '../../lib/sql-like';
import { billingToday } from '../billing';
import { creditInvoicesOf, selectTransactions, toCreditMemo, toInvoice, toTransaction } from '../customer-accounts';
import { invoiceBalanceFields, invoiceBalances, toInvoiceBalance } from '../ledger';
import { rateInForceFor } from '../taxes';
import { buildInvoicePdf, invoicePdfFileName, type InvoicePdfInput } from './invoice-pdf';

/*
 * The invoices screen's calls (issue 14 point 4, decision 114). Every balance is read from the ledger's view
 * invoice_balances (decision 112); filters on the status use the stored status, which the ledger check proves
 * equal to the derived one (status N ⇔ open balance > 0), so that they are index-backed.
 */

/** Today in the billing time zone (decision 113): an invoice due before it with a balance is overdue. */
function todayOf(ctx: ServiceCtx): string {
  return billingToday(ctx.app);
}

/** The invoice has an open balance by the ledger (one lateral read of its rows through the view). */
const hasOpenBalance = sql`exists (select 1 from invoice_balances b where b.invoice_id = ${invoices.id} and b.open_cents > 0)`;

/** Overdue: due before `today`, still pending (stored status, index-backed) and open by the ledger. */
function overdueWhere(today: string): SQL {
  return and(eq(invoices.status, 'N'), lt(invoices.dueOn, today), hasOpenBalance)!;
}

/** The WHERE of the list (and of its CSV and count) over `invoices`. */
export function invoiceSearchWhere(q: InvoiceSearchQuery, today: string): SQL | undefined {
  const pattern = q.q === undefined ? undefined : searchTextPattern(q.q);
  return and(
    q.status === undefined ? undefined : inArray(invoices.status, q.status),
    q.type === undefined ? undefined : inArray(invoices.type, q.type),
    q.customer_id === undefined ? undefined : eq(invoices.customerId, q.customer_id),
    q.store_id === undefined ? undefined : eq(invoices.storeId, q.store_id),
    q.currency === undefined ? undefined : eq(invoices.currency, q.currency),
    q.issued_from === undefined ? undefined : gte(invoices.issuedOn, q.issued_from),
    q.issued_to === undefined ? undefined : lte(invoices.issuedOn, q.issued_to),
    q.due_from === undefined ? undefined : gte(invoices.dueOn, q.due_from),
    q.due_to === undefined ? undefined : lte(invoices.dueOn, q.due_to),
    q.overdue ? overdueWhere(today) : undefined,
    // Legal name (customers.search_text) or DBA (stores.search_text): the trigram-indexed text of decision 111.
    pattern === undefined
      ? undefined
      : or(
          inArray(invoices.customerId, sql`(select c.id from customers c where c.search_text like ${pattern})`),
          inArray(invoices.storeId, sql`(select s.id from stores s where s.search_text like ${pattern})`),
        ),
  );
}

const SORT_COLUMNS: Readonly<Record<InvoiceSearchSortField, AnyColumn>> = {
  issued_on: invoices.issuedOn,
  due_on: invoices.dueOn,
  invoice_number: invoices.invoiceNumber,
  total_cents: invoices.totalCents,
  customer_id: invoices.customerId,
  status: invoices.status,
};

/** ORDER BY of the list: the sort key, then the id in the same direction (the default walks (issued_on, id)). */
function invoiceOrder(sort: InvoiceSearchQuery['sort']): SQL[] {
  const s = parseSort(sort ?? '-issued_on', 'issued_on');
  const dir = s.desc ? desc : asc;
  return [dir(SORT_COLUMNS[s.field]), dir(invoices.id)];
}

/** One page of the list: each invoice with its ledger row, merchant and store (one statement). */
export function invoiceSearchPage(
  db: Db,
  where: SQL | undefined,
  q: Pick<InvoiceSearchQuery, 'sort'>,
  page: { limit: number; offset: number },
) {
  return db
    .select({
      inv: invoices,
      bal: invoiceBalanceFields,
      legalName: customers.legalName,
      dba: stores.doingBusinessAs,
    })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .innerJoin(customers, eq(customers.id, invoices.customerId))
    .leftJoin(stores, eq(stores.id, invoices.storeId))
    .where(where)
    .orderBy(...invoiceOrder(q.sort))
    .limit(page.limit)
    .offset(page.offset);
}

type PageRow = Awaited<ReturnType<typeof invoiceSearchPage>>[number];

function toSearchItem(r: PageRow, today: string): InvoiceSearchItem {
  const base = toInvoice(r.inv, toInvoiceBalance(r.bal));
  return {
    ...base,
    legal_name: r.legalName,
    doing_business_as: r.dba ?? null,
    overdue: isInvoiceOverdue({ due_on: base.due_on, open_cents: base.balance_cents }, today),
  };
}

/** GET /api/invoices/{token}: one page and the total, exact up to the cap ("1,000+" beyond; decision 107). */
export async function searchInvoices(ctx: ServiceCtx, q: InvoiceSearchQuery): Promise<InvoiceSearchResult> {
  const db = ctx.app.database.db;
  const today = todayOf(ctx);
  const where = invoiceSearchWhere(q, today);
  const rows = await invoiceSearchPage(db, where, q, q);
  const items = rows.map((r) => toSearchItem(r, today));
  // A first page shorter than the limit is the whole list: no count needed.
  if (q.offset === 0 && items.length < q.limit) return { items, total: items.length, total_capped: false };
  return { items, ...(await cappedCount(db, invoices, where)) };
}

/** format=csv: every invoice the filters match, in the list's order, streamed page by page. */
export function searchInvoicesCsv(ctx: ServiceCtx, q: InvoiceSearchQuery): Readable {
  const db = ctx.app.database.db;
  const today = todayOf(ctx);
  const where = invoiceSearchWhere(q, today);
  return csvStream(INVOICE_CSV_COLUMNS, async (limit, offset) =>
    (await invoiceSearchPage(db, where, q, { limit, offset })).map((r) => toSearchItem(r, today)),
  );
}

// ── One invoice ─────────────────────────────────────────────────────────────────────────────────────

async function requireInvoiceRow(db: Db, invoiceId: number, today: string) {
  const [row] = await invoiceSearchPage(db, eq(invoices.id, invoiceId), {}, { limit: 1, offset: 0 });
  if (!row)
    throw new AppError('not_found', `Invoice ${invoiceId} was not found. Check the number, or search the list.`);
  return toSearchItem(row, today);
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/**
 * The journal entries an invoice posted (issue 29): every entry that names it or has a line on its receivable, with all
 * of the entry's lines (the revenue and tax lines name no invoice), oldest first.
 */
async function invoiceJournal(db: Db, invoiceId: number): Promise<InvoicePage['journal']> {
  const rows = rowsOf<{
    entry_id: string;
    kind: string;
    effective_on: string;
    account: string;
    debit_cents: string;
    credit_cents: string;
  }>(
    await db.execute(sql`
      select e.id::text as entry_id, e.kind, e.effective_on::text as effective_on, l.account,
             l.debit_cents::text as debit_cents, l.credit_cents::text as credit_cents
      from journal_entries e join journal_lines l on l.entry_id = e.id
      where e.invoice_id = ${invoiceId}
         or e.id in (select x.entry_id from journal_lines x where x.invoice_id = ${invoiceId})
      order by e.effective_on, e.id, l.line_no`),
  );
  const entries = new Map<string, InvoicePage['journal'][number]>();
  for (const r of rows) {
    let entry = entries.get(r.entry_id);
    if (!entry) {
      entry = {
        // A bigint id: PostgreSQL answers it as text, PGlite as a number — read as text on both.
        entry_id: Number(r.entry_id),
        kind: r.kind,
        kind_label: JOURNAL_ENTRY_KIND_LABELS[r.kind as JournalEntryKind] ?? r.kind,
        effective_on: r.effective_on,
        lines: [],
      };
      entries.set(r.entry_id, entry);
    }
    entry.lines.push({
      account: r.account,
      account_name: ACCOUNTS[r.account as AccountCode]?.name ?? r.account,
      debit_cents: Number(r.debit_cents),
      credit_cents: Number(r.credit_cents),
    });
  }
  return [...entries.values()];
}

/** GET /api/invoices/{invoiceId}/{token}: the invoice with everything that moved its balance, and its history. */
export async function getInvoicePage(
  ctx: ServiceCtx,
  invoiceId: number,
  db: Db = ctx.app.database.db,
): Promise<InvoicePage> {
  const today = todayOf(ctx);
  const item = await requireInvoiceRow(db, invoiceId, today);
  const [[ledger], lines, txs, memos, offs, applied, history, [merchant], [place]] = await Promise.all([
    db.select().from(invoiceBalances).where(eq(invoiceBalances.invoiceId, invoiceId)),
    db
      .select({ line: invoiceLines, name: billingItems.name })
      .from(invoiceLines)
      .innerJoin(billingItems, eq(billingItems.id, invoiceLines.billingItemId))
      .where(eq(invoiceLines.invoiceId, invoiceId))
      .orderBy(asc(invoiceLines.id)),
    selectTransactions(db)
      .where(eq(transactions.invoiceId, invoiceId))
      .orderBy(asc(transactions.attemptedAt), asc(transactions.id)),
    db.select().from(creditMemos).where(eq(creditMemos.invoiceId, invoiceId)).orderBy(asc(creditMemos.id)),
    db.select().from(writeOffs).where(eq(writeOffs.invoiceId, invoiceId)).orderBy(asc(writeOffs.id)),
    db
      .select({ a: receiptAllocations, r: receipts })
      .from(receiptAllocations)
      .innerJoin(receipts, eq(receipts.id, receiptAllocations.receiptId))
      .where(eq(receiptAllocations.invoiceId, invoiceId))
      .orderBy(asc(receiptAllocations.id)),
    db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'invoice'), eq(auditLog.entityId, String(invoiceId))))
      .orderBy(asc(auditLog.at), asc(auditLog.id)),
    db.select({ email: customers.email }).from(customers).where(eq(customers.id, item.customer_id)),
    // Where the invoice is taxed: its store's country and state, else its merchant's country (decision 149).
    db
      .select({ country: sql<string>`coalesce(${stores.country}, ${customers.country})`, state: stores.state })
      .from(customers)
      .leftJoin(stores, eq(stores.id, item.store_id ?? -1))
      .where(eq(customers.id, item.customer_id)),
  ]);
  const run = await billingRunOf(db, invoiceId);
  // The tax once, per component of the rate in force on the issue day, named for the jurisdiction (decision 149).
  const country = place?.country ?? '';
  const state = place?.state ?? '';
  const rate =
    item.tax_cents === 0 || !state ? null : await rateInForceFor(db, { country, state, day: item.issued_on });
  const tax = taxLines({ taxCents: item.tax_cents, country, state, components: rate?.components ?? [] });
  const b = toInvoiceBalance(ledger!);
  const credit = (await creditInvoicesOf(db, [invoiceId])).get(invoiceId) ?? null;
  const journal = await invoiceJournal(db, invoiceId);
  return {
    ...item,
    credit_invoice: credit,
    journal,
    lines: lines.map(({ line: l, name }) => ({
      id: l.id,
      billing_item_id: l.billingItemId,
      billing_item_name: name,
      description: l.description,
      quantity: l.quantity,
      unit_cents: l.unitCents,
      amount_cents: l.amountCents,
    })),
    tax_lines: tax,
    tax_registrations: taxRegistrations(country, state, tax, ctx.app.config.invoiceTaxNumbers),
    transactions: txs.map(toTransaction),
    credit_memos: memos.map(toCreditMemo),
    write_offs: offs.map((w) => ({
      id: w.id,
      type: w.type,
      amount_cents: w.amountCents,
      currency: w.currency,
      reason: w.reason,
      created_by_email: w.createdByEmail,
      created_at: w.createdAt.toISOString(),
      status: w.status,
      approved_by_email: w.approvedByEmail,
      decided_at: w.decidedAt ? w.decidedAt.toISOString() : null,
    })),
    receipts: applied.map(({ a, r }) => ({
      receipt_id: r.id,
      method: r.method,
      reference: r.reference,
      received_on: r.receivedOn,
      amount_cents: a.amountCents,
      allocated_by_email: a.allocatedByEmail,
      allocated_at: a.allocatedAt.toISOString(),
    })),
    ledger: {
      open_cents: b.open_cents,
      paid_cents: b.paid_cents,
      credited_cents: b.credited_cents,
      written_off_cents: b.written_off_cents,
      reversed_cents: b.reversed_cents,
      debited_cents: b.debited_cents,
      overpaid_cents: b.overpaid_cents,
    },
    merchant_email: merchant?.email || null,
    billing_run: run,
    history: history.map((h): AuditEntryOut => ({
      id: h.id,
      at: h.at.toISOString(),
      actor_type: h.actorType,
      actor_email: h.actorEmail,
      action: h.action,
      entity: h.entity,
      entity_id: h.entityId,
      before: h.before,
      after: h.after,
    })),
  };
}

/**
 * The billing run that created an invoice of a plan (decision 113), found from what the run writes: the invoice is
 * issued on the run's as-of day and created (created_at = the batch's time) while the run ran. Null for invoices no
 * run made (the seed's, a sale's). Two runs of one day at once: the first started (either may have made it).
 */
async function billingRunOf(db: Db, invoiceId: number): Promise<InvoicePage['billing_run']> {
  const [run] = await db
    .select({ id: billingRuns.id, asOf: billingRuns.asOf, requestedBy: billingRuns.requestedBy })
    .from(invoices)
    .innerJoin(
      billingRuns,
      and(
        eq(billingRuns.asOf, invoices.issuedOn),
        lte(billingRuns.startedAt, invoices.createdAt),
        sql`${invoices.createdAt} <= coalesce(${billingRuns.finishedAt}, 'infinity'::timestamptz)`,
      ),
    )
    .where(and(eq(invoices.id, invoiceId), sql`${invoices.planId} is not null`))
    .orderBy(asc(billingRuns.startedAt), asc(billingRuns.id))
    .limit(1);
  return run ? { run_id: run.id, as_of: run.asOf, requested_by: run.requestedBy } : null;
}

// ── PDF and e-mail ──────────────────────────────────────────────────────────────────────────────────

/** What the PDF draws: the invoice page's figures, the provider (configuration) and the merchant's addresses. */
async function pdfInputOf(ctx: ServiceCtx, db: Db, invoiceId: number): Promise<InvoicePdfInput> {
  const page = await getInvoicePage(ctx, invoiceId, db);
  const [party] = await db
    .select({
      legalName: customers.legalName,
      firstName: customers.firstName,
      lastName: customers.lastName,
      homeAddress: customers.homeAddress,
      billingAddress: customers.billingAddress,
      storeAddress: stores.storeAddress,
      storeName: stores.storeName,
    })
    .from(customers)
    .leftJoin(stores, eq(stores.id, page.store_id ?? -1))
    .where(eq(customers.id, page.customer_id));
  return {
    invoice: page,
    issuer: ctx.app.config.invoiceIssuer,
    merchant: {
      legalName: party!.legalName,
      contactName: `${party!.firstName} ${party!.lastName}`.trim(),
      billingAddress: party!.billingAddress ?? party!.homeAddress ?? null,
    },
    store:
      page.store_id === null
        ? null
        : { dba: page.doing_business_as ?? '', name: party!.storeName ?? '', address: party!.storeAddress ?? null },
  };
}

/** GET /api/invoices/{invoiceId}/pdf/{token}: the invoice PDF and its file name. */
export async function getInvoicePdf(
  ctx: ServiceCtx,
  invoiceId: number,
): Promise<{ pdf: Uint8Array; fileName: string }> {
  const input = await pdfInputOf(ctx, ctx.app.database.db, invoiceId);
  return { pdf: await buildInvoicePdf(input), fileName: invoicePdfFileName(input.invoice.invoice_number) };
}

/**
 * POST /api/invoices/{invoiceId}/email/{token}: the invoice PDF e-mailed to the merchant (customers.email), through
 * the mail port (locally the Mailbox); the mail row and an audit entry (action 'email') commit together. Not money:
 * no Idempotency-Key, like the other e-mails — sending twice sends two messages, both in the history.
 */
export async function emailInvoice(ctx: ServiceCtx, invoiceId: number): Promise<InvoiceEmailResult> {
  return withTx(ctx, async (tx) => {
    const input = await pdfInputOf(ctx, tx, invoiceId);
    const inv = input.invoice;
    const to = inv.merchant_email;
    if (!to)
      throw new AppError(
        'validation_failed',
        `${inv.legal_name} has no e-mail address: add it on the customer page, then send again.`,
        { merchant_email: 'Required to e-mail the invoice.' },
      );
    const fileName = invoicePdfFileName(inv.invoice_number);
    const pdf = await buildInvoicePdf(input);
    const message = invoiceEmail({
      recipientName: input.merchant.contactName || inv.legal_name,
      invoiceNumber: inv.invoice_number,
      billedFor: inv.doing_business_as ?? inv.legal_name,
      issuedOn: inv.issued_on,
      dueOn: inv.due_on,
      total: formatMoney(inv.total_cents, inv.currency),
      balance: formatMoney(inv.balance_cents, inv.currency),
      attachmentName: fileName,
    });
    const now = ctx.app.clock.now();
    const mail = await ctx.app.mail.send(
      {
        to,
        ...message,
        related: { type: 'invoice', id: invoiceId },
        attachments: [{ filename: fileName, contentType: 'application/pdf', content: pdf }],
      },
      { db: tx },
    );
    await writeAudit(tx, {
      ...ctx.actor,
      at: now,
      action: 'email',
      entity: 'invoice',
      entityId: invoiceId,
      after: {
        customer_id: inv.customer_id,
        invoice_id: invoiceId,
        invoice_number: inv.invoice_number,
        to,
        mail_id: mail.id,
        attachment: fileName,
        balance_cents: inv.balance_cents,
      },
      requestId: ctx.requestId,
      customerId: inv.customer_id,
    });
    return { mail_id: mail.id, to, sent_at: now.toISOString() };
  });
}
