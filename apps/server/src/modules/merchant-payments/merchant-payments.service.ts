import {
  describeBankAccount,
  describeCard,
  MERCHANT_LINK_EXPIRED,
  MERCHANT_LINK_UNKNOWN,
  MERCHANT_LINK_USED,
  type CurrencyCode,
  type MerchantInvoiceOutcome,
  type MerchantOpenInvoice,
  type MerchantPaymentRequest,
  type MerchantPaymentResult,
  type MerchantPaymentView,
} from '@pos/domain';
import { and, asc, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { AppContext, ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import {
  auditLog,
  invoiceBalances,
  invoices,
  linkTokens,
  paymentInstruments,
  stores,
  transactions,
} from '../../db/schema';
import { writeAudit, type AuditActor } from '../../http/audit';
import { AppError } from '../../http/errors';
import { runIdempotent } from '../../http/idempotency';
import { accountNumberMac, dataEncryptionKey } from '../../lib/account-number-cipher';
import { findLinkToken, useLinkToken } from '../../lib/link-tokens';
import { hashToken } from '../../lib/tokens';
import { storeInstrument } from '../customer-accounts';
import { retryFailedInvoices } from '../../jobs/collection';
import { chargeInvoice, gatewayInfo, type ChargeOutcome } from '../payments';

/*
 * The merchant's payment pages (issue 15 points 6–7, decision 118). The link token is the credential: it names a
 * store; the page shows only the store's name, what it owes and the masked method on file. Paying adds the new
 * method as the store's default and charges every open invoice (payment_update), or only adds it and queues an
 * immediate retry of the failed invoices (payment_instrument). A payment_instrument link is used once; a
 * payment_update link is used up once money moved because of it — a charge of this request succeeded or is pending —
 * or nothing is owed any more: a declined method, or a charge already in progress elsewhere, gives it back for
 * another try (issue 27).
 */

export type MerchantLinkPurpose = 'payment_update' | 'payment_instrument';
type LinkRow = typeof linkTokens.$inferSelect;
type StoreRow = typeof stores.$inferSelect;

/** The link by its token: 404 when never issued, 410 when used, expired or replaced. */
async function linkOf(db: Db, tok: string, purpose: MerchantLinkPurpose, now: Date): Promise<LinkRow> {
  const found = await findLinkToken(db, { token: tok, purpose, subjectType: 'store', now });
  if (found.state === 'unknown') throw new AppError('not_found', MERCHANT_LINK_UNKNOWN);
  if (found.state === 'used') throw new AppError('link_expired', MERCHANT_LINK_USED);
  if (found.state === 'expired') throw new AppError('link_expired', MERCHANT_LINK_EXPIRED);
  return found.link;
}

async function storeOf(db: Db, link: LinkRow): Promise<StoreRow> {
  const [store] = await db
    .select()
    .from(stores)
    .where(eq(stores.id, Number(link.subjectId)));
  if (!store) throw new AppError('link_expired', MERCHANT_LINK_EXPIRED);
  return store;
}

/** The store's open invoices (open amount from the ledger > 0), oldest due first. */
async function openInvoicesOf(
  db: Db,
  storeId: number,
): Promise<Array<MerchantOpenInvoice & { id: number; currency: string }>> {
  const rows = await db
    .select({
      id: invoices.id,
      invoice_number: invoices.invoiceNumber,
      issued_on: invoices.issuedOn,
      due_on: invoices.dueOn,
      currency: invoices.currency,
      open_cents: invoiceBalances.openCents,
    })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .where(and(eq(invoices.storeId, storeId), isNull(invoices.reversedAt), gt(invoiceBalances.openCents, 0)))
    .orderBy(asc(invoices.dueOn), asc(invoices.id));
  return rows.map((r) => ({ ...r, open_cents: Number(r.open_cents) }));
}

function describeRow(pi: typeof paymentInstruments.$inferSelect): string {
  return pi.kind === 'card'
    ? describeCard(pi.cardBrand, pi.cardLast4)
    : describeBankAccount(pi.bankName, pi.accountLast4);
}

/** The store's current default method (the store's own, else the customer's), described — never a number. */
async function currentMethod(db: Db, store: StoreRow): Promise<string | null> {
  const rows = await db
    .select()
    .from(paymentInstruments)
    .where(
      and(
        eq(paymentInstruments.customerId, store.customerId),
        eq(paymentInstruments.status, 'active'),
        inArray(paymentInstruments.kind, ['card', 'bank']),
      ),
    )
    .orderBy(desc(paymentInstruments.isDefault), desc(paymentInstruments.id));
  const pick = rows.find((r) => r.storeId === store.id && r.isDefault) ?? rows.find((r) => r.isDefault) ?? rows[0];
  return pick ? describeRow(pick) : null;
}

export async function viewMerchantPayment(
  ctx: ServiceCtx<null>,
  tok: string,
  purpose: MerchantLinkPurpose,
): Promise<MerchantPaymentView> {
  const db = ctx.app.database.db;
  const link = await linkOf(db, tok, purpose, ctx.app.clock.now());
  const store = await storeOf(db, link);
  const open = await openInvoicesOf(db, store.id);
  return {
    purpose,
    store_name: store.doingBusinessAs,
    currency: store.currency as CurrencyCode,
    invoices: open.map(({ invoice_number, issued_on, due_on, open_cents }) => ({
      invoice_number,
      issued_on,
      due_on,
      open_cents,
    })),
    total_owed_cents: open.reduce((s, i) => s + i.open_cents, 0),
    current_method: await currentMethod(db, store),
    tokenize_url: gatewayInfo(ctx.app).tokenize_url,
    expires_at: link.expiresAt.toISOString(),
  };
}

function outcomeOf(
  inv: { invoice_number: string; open_cents: number },
  o: ChargeOutcome,
  status: string | null,
  reason: string | null,
): MerchantInvoiceOutcome {
  const base = { invoice_number: inv.invoice_number, amount_cents: inv.open_cents };
  if (o.kind === 'skipped')
    return {
      ...base,
      outcome: 'skipped',
      message:
        o.reason === 'paid'
          ? 'Nothing left to pay.'
          : o.reason === 'pending'
            ? 'A payment of this invoice is already in progress.'
            : 'Not charged.',
    };
  if (o.status === 'S') return { ...base, outcome: 'paid', message: 'Paid.' };
  if (o.status === 'F') return { ...base, outcome: 'failed', message: reason ?? 'The payment was declined.' };
  return {
    ...base,
    outcome: 'pending',
    message: status === 'P' ? 'The payment is being processed; you will get an e-mail with its result.' : 'Pending.',
  };
}

/**
 * The merchant gives a card or bank account through a link. In order, each step safe to repeat:
 *   1. one transaction: the link is used up (a second use — also one racing this request — finds it used → 410), the
 *      method is stored as the store's default (storeInstrument, as POST …/paymentinstruments), audited with time and
 *      IP;
 *   2. payment_update: every open invoice is charged (chargeInvoice, attempt `merchant-<linkId>-<method id>`: one
 *      attempt per try, outside any transaction); payment_instrument: the failed invoices in dunning get an immediate
 *      retry job;
 *   3. one transaction: payment_update: when this try moved no money and something is still owed (linkSpent: a
 *      decline, a charge in progress from elsewhere) the link is given back (used_at cleared, audited
 *      'link_released') for another try; the answer is stored with the Idempotency-Key (a replay answers it again and
 *      charges nothing) — both commit together.
 */
export async function payThroughLink(
  ctx: ServiceCtx<null>,
  tok: string,
  purpose: MerchantLinkPurpose,
  body: MerchantPaymentRequest,
  idempotencyKey: string,
): Promise<MerchantPaymentResult> {
  const app = ctx.app;
  const db = app.database.db;
  const now = app.clock.now();
  const [known] = await db
    .select({ id: linkTokens.id })
    .from(linkTokens)
    .where(and(eq(linkTokens.tokenHash, hashToken(tok)), eq(linkTokens.purpose, purpose)));
  if (!known) throw new AppError('not_found', MERCHANT_LINK_UNKNOWN);
  const hashed =
    body.kind === 'bank'
      ? { ...body, account_number: accountNumberMac(dataEncryptionKey(app.config), body.account_number) }
      : body;
  return runIdempotent<MerchantPaymentResult, MerchantPaymentResult>(
    ctx,
    {
      route: `POST /public/payment/${purpose}`,
      key: idempotencyKey,
      caller: `link:${known.id}`,
      request: { params: { link: known.id }, body: hashed },
    },
    {
      outside: async (run) => {
        // A retry of this very request after a crash between its steps: the link is used, by this request — go on.
        const resumed = await resumeOf(db, known.id, run.requestRef);
        if (resumed) return afterAdding(app, ctx.requestId, purpose, resumed);
        // Step 1.
        const added = await db.transaction(async (tx) => {
          const link = await linkOf(tx, tok, purpose, now);
          // Taken for this try; step 3 gives a payment_update link back when no money moved.
          if (!(await useLinkToken(tx, link.id, now))) throw new AppError('link_expired', MERCHANT_LINK_USED);
          const store = await storeOf(tx, link);
          const actor: AuditActor = { actorType: 'merchant', actorId: `store:${store.id}`, actorEmail: null };
          const merchantCtx = { ...ctx, actor };
          const row = await storeInstrument(tx, merchantCtx, now, store.customerId, {
            ...body,
            store_id: store.id,
            make_default: true,
          } as MerchantPaymentRequest);
          await writeAudit(tx, {
            ...actor,
            at: now,
            action: 'link_used',
            entity: 'store',
            entityId: store.id,
            customerId: store.customerId,
            after: {
              link_token_id: link.id,
              purpose,
              payment_instrument_id: row.id,
              used_at: now.toISOString(),
              request_ref: run.requestRef,
              ip: ctx.ip ?? 'unknown',
              user_agent: ctx.userAgent,
            },
            requestId: ctx.requestId,
          });
          return { link, store, row, actor };
        });
        return afterAdding(app, ctx.requestId, purpose, added);
      },
      effect: async (tx, at, result) => {
        // Step 3: the answer is stored with the key by runIdempotent; a try that moved no money gives the link back;
        // the summary is audited here.
        const [link] = await tx.select().from(linkTokens).where(eq(linkTokens.id, known.id));
        const store = link ? await storeOf(tx, link) : null;
        if (link && store && !result.link_used && link.usedAt !== null) {
          await tx.update(linkTokens).set({ usedAt: null }).where(eq(linkTokens.id, link.id));
          await writeAudit(tx, {
            actorType: 'merchant',
            actorId: `store:${store.id}`,
            at,
            action: 'link_released',
            entity: 'store',
            entityId: store.id,
            customerId: store.customerId,
            before: { used_at: link.usedAt.toISOString() },
            after: {
              link_token_id: link.id,
              purpose,
              used_at: null,
              reason: 'no money moved and something is still owed',
              ip: ctx.ip ?? 'unknown',
            },
            requestId: ctx.requestId,
          });
        }
        if (store)
          await writeAudit(tx, {
            actorType: 'merchant',
            actorId: `store:${store.id}`,
            at,
            action: purpose === 'payment_update' ? 'merchant_paid' : 'merchant_instrument_added',
            entity: 'store',
            entityId: store.id,
            customerId: store.customerId,
            after: { link_token_id: known.id, ...result, ip: ctx.ip ?? 'unknown' },
            requestId: ctx.requestId,
          });
        return result;
      },
    },
  );
}

/** The link's use by the request named `requestRef` (its audit entry), with what it stored. */
async function resumeOf(
  db: Db,
  linkId: number,
  requestRef: string,
): Promise<{ link: LinkRow; store: StoreRow; row: typeof paymentInstruments.$inferSelect; actor: AuditActor } | null> {
  const [link] = await db.select().from(linkTokens).where(eq(linkTokens.id, linkId));
  if (!link || link.usedAt === null) return null;
  const entries = await db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'store'), eq(auditLog.entityId, link.subjectId), eq(auditLog.action, 'link_used')))
    .orderBy(desc(auditLog.id))
    .limit(20);
  const mine = entries
    .map((e) => e.after as { link_token_id?: number; request_ref?: string; payment_instrument_id?: number } | null)
    .find((a) => a?.link_token_id === linkId && a.request_ref === requestRef);
  if (!mine?.payment_instrument_id) return null;
  const [row] = await db.select().from(paymentInstruments).where(eq(paymentInstruments.id, mine.payment_instrument_id));
  if (!row) return null;
  const store = await storeOf(db, link);
  return { link, store, row, actor: { actorType: 'merchant', actorId: `store:${store.id}`, actorEmail: null } };
}

/** Step 2: charge the open invoices, or queue the immediate retries. */
async function afterAdding(
  app: AppContext,
  requestId: string,
  purpose: MerchantLinkPurpose,
  added: { link: LinkRow; store: StoreRow; row: typeof paymentInstruments.$inferSelect; actor: AuditActor },
): Promise<MerchantPaymentResult> {
  const { link, store, row, actor } = added;
  const method = describeRow(row);
  const currency = store.currency as CurrencyCode;
  if (purpose === 'payment_instrument') {
    const queued = await retryFailedInvoices(app, store.customerId, row.id, actor, requestId);
    return { method, currency, invoices: [], paid_cents: 0, retries_queued: queued, link_used: true };
  }
  const open = await openInvoicesOf(app.database.db, store.id);
  const outcomes: MerchantInvoiceOutcome[] = [];
  const charges: ChargeOutcome[] = [];
  let paid = 0;
  for (const inv of open) {
    const o = await chargeInvoice(app, {
      invoiceId: inv.id,
      // One attempt per try (its own method): after a declined try the next one is a new charge, not the old answer.
      attempt: `merchant-${link.id}-${row.id}`,
      source: 'merchant',
      instrumentId: row.id,
      actor,
      requestId,
    });
    const reason = o.kind === 'charged' && o.status === 'F' ? await failureReasonOf(app, o.transactionId) : null;
    const out = outcomeOf(inv, o, o.kind === 'charged' ? o.status : null, reason);
    if (out.outcome === 'paid') paid += inv.open_cents;
    outcomes.push(out);
    charges.push(o);
  }
  return { method, currency, invoices: outcomes, paid_cents: paid, retries_queued: 0, link_used: linkSpent(charges) };
}

/**
 * Is a payment_update link used up by a try whose charges ended so? Yes once money moved because of it (a charge
 * of this try succeeded, or is pending), or when nothing is owed any more (every invoice was paid meanwhile, or there
 * was none); no while something is still owed that this try did not move: a declined charge, or a charge already in
 * progress from elsewhere — the link is given back and the merchant may try again (issue 27).
 */
function linkSpent(charges: readonly ChargeOutcome[]): boolean {
  if (charges.some((c) => c.kind === 'charged' && (c.status === 'S' || c.status === 'P'))) return true;
  return charges.every((c) => c.kind === 'skipped' && (c.reason === 'paid' || c.reason === 'not_found'));
}

async function failureReasonOf(app: AppContext, transactionId: number): Promise<string | null> {
  const [t] = await app.database.db
    .select({ reason: transactions.failureReason })
    .from(transactions)
    .where(eq(transactions.id, transactionId));
  return t?.reason ?? null;
}
