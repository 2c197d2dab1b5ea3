import {
  describeBankAccount,
  describeCard,
  MERCHANT_LINK_EXPIRED,
  MERCHANT_LINK_UNKNOWN,
  MERCHANT_LINK_USED,
  type CurrencyCode,
  type MerchantInvoiceOutcome,
  type MerchantMethodReplaced,
  type MerchantOpenInvoice,
  type MerchantPaymentRequest,
  type MerchantPaymentResult,
  type MerchantPaymentView,
  type MerchantPayRequest,
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
import { insertInstrument, redeemInstrument, syncGatewayCustomer, type RedeemedInstrument } from '../customer-accounts';
import { retryFailedInvoices } from '../../jobs/collection';
import { chargeInvoice, gatewayInfo, type ChargeOutcome } from '../payments';

/*
 * The merchant's payment pages (issue 15 points 6–7, decisions 118, 155). The link token is the credential: it names
 * a store; the page shows only the store's name, what it owes and the masked method on file. On a payment_update
 * link the merchant makes two separate choices (decision 155): replace the method on file — stored as the store's
 * default, nothing charged — and pay what is owed, with the method on file or a new one. A payment_instrument link
 * only adds the method and queues an immediate retry of the failed invoices. A payment_instrument link is used once;
 * a payment_update link is used up once money moved because of it — a charge of a payment succeeded or is pending —
 * or nothing is owed any more: a declined payment, or a charge already in progress elsewhere, gives it back for
 * another try (issue 27), and replacing the method while something is owed leaves it open for paying.
 * The gateway (a card token redeemed, a charge, the gateway's customer) is never called inside a transaction.
 */

export type MerchantLinkPurpose = 'payment_update' | 'payment_instrument';
type LinkRow = typeof linkTokens.$inferSelect;
type StoreRow = typeof stores.$inferSelect;
type InstrumentRow = typeof paymentInstruments.$inferSelect;

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

/** The method on file of a store: the store's own default, else the customer's, else the newest active one. */
async function onFileInstrument(db: Db, store: StoreRow): Promise<InstrumentRow | null> {
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
  return rows.find((r) => r.storeId === store.id && r.isDefault) ?? rows.find((r) => r.isDefault) ?? rows[0] ?? null;
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
  // The method on file, described — never a number.
  const onFile = await onFileInstrument(db, store);
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
    current_method: onFile ? describeRow(onFile) : null,
    current_method_kind: onFile ? (onFile.kind === 'bank' ? 'bank' : 'card') : null,
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

/** The link a token names for this purpose, whatever its state (404 when never issued): the Idempotency-Key's scope. */
async function knownLinkId(db: Db, tok: string, purpose: MerchantLinkPurpose): Promise<number> {
  const [known] = await db
    .select({ id: linkTokens.id })
    .from(linkTokens)
    .where(and(eq(linkTokens.tokenHash, hashToken(tok)), eq(linkTokens.purpose, purpose)));
  if (!known) throw new AppError('not_found', MERCHANT_LINK_UNKNOWN);
  return known.id;
}

/** In a transaction: the link, locked until the commit, and live (404 / 410 otherwise). */
async function lockedLiveLink(
  tx: Db,
  linkId: number,
  tok: string,
  purpose: MerchantLinkPurpose,
  now: Date,
): Promise<LinkRow> {
  await tx.select({ id: linkTokens.id }).from(linkTokens).where(eq(linkTokens.id, linkId)).for('update');
  return linkOf(tx, tok, purpose, now);
}

/** The request as its Idempotency-Key remembers it: a bank account number only as a keyed MAC. */
function rememberedBody(app: AppContext, body: MerchantPayRequest): unknown {
  return body.kind === 'bank'
    ? { ...body, account_number: accountNumberMac(dataEncryptionKey(app.config), body.account_number) }
    : body;
}

const merchantActor = (store: StoreRow): AuditActor => ({
  actorType: 'merchant',
  actorId: `store:${store.id}`,
  actorEmail: null,
});

/** The new method, stored for the link's store (the body's store is ignored), on the caller's transaction. */
function insertForStore(
  tx: Db,
  ctx: ServiceCtx<null>,
  now: Date,
  store: StoreRow,
  redeemed: RedeemedInstrument,
  makeDefault: boolean,
): Promise<InstrumentRow> {
  return insertInstrument(tx, { ...ctx, actor: merchantActor(store) }, now, store.customerId, {
    card: redeemed.card,
    body: { ...redeemed.body, store_id: store.id, make_default: makeDefault },
  });
}

/**
 * Replace the method on file through a payment_update link (decision 155): the new card or bank account becomes the
 * store's default and nothing is charged — what is owed stays owed, for the merchant to pay or not. In order, each
 * step safe to repeat:
 *   1. no transaction: a retry of this very request after a crash (its audit entry, same request ref) resumes at 3;
 *      else the link is checked (404 / 410 before the gateway is asked) and the card token redeemed at the gateway;
 *   2. one transaction: the link locked and checked again, the method stored as the store's default, audited
 *      'merchant_method_replaced' (link, method, what is owed, time, IP, user agent, request ref); when nothing is
 *      owed the link is used up (its job is done), else it stays open for paying;
 *   3. after the commit: the gateway's customer learns the new default (US); the answer is stored with the key.
 */
export async function replaceMethodThroughLink(
  ctx: ServiceCtx<null>,
  tok: string,
  body: MerchantPaymentRequest,
  idempotencyKey: string,
): Promise<MerchantMethodReplaced> {
  const app = ctx.app;
  const db = app.database.db;
  const now = app.clock.now();
  const purpose = 'payment_update';
  const linkId = await knownLinkId(db, tok, purpose);
  return runIdempotent<MerchantMethodReplaced, MerchantMethodReplaced>(
    ctx,
    {
      route: 'POST /public/payment/payment_update/method',
      key: idempotencyKey,
      caller: `link:${linkId}`,
      request: { params: { link: linkId }, body: rememberedBody(app, body) },
    },
    {
      outside: async (run) => {
        const resumed = await resumeOf(db, linkId, run.requestRef, 'merchant_method_replaced');
        const done =
          resumed ??
          (await (async () => {
            await linkOf(db, tok, purpose, now);
            const redeemed = await redeemInstrument(ctx, body);
            return db.transaction(async (tx) => {
              const link = await lockedLiveLink(tx, linkId, tok, purpose, now);
              const store = await storeOf(tx, link);
              const row = await insertForStore(tx, ctx, now, store, redeemed, true);
              const owed = (await openInvoicesOf(tx, store.id)).reduce((sum, i) => sum + i.open_cents, 0);
              const used = owed === 0 && (await useLinkToken(tx, link.id, now));
              const after = {
                link_token_id: link.id,
                purpose,
                payment_instrument_id: row.id,
                method: describeRow(row),
                charged_cents: 0,
                total_owed_cents: owed,
                link_used: used,
                request_ref: run.requestRef,
                ip: ctx.ip ?? 'unknown',
                user_agent: ctx.userAgent,
              };
              await writeAudit(tx, {
                ...merchantActor(store),
                at: now,
                action: 'merchant_method_replaced',
                entity: 'store',
                entityId: store.id,
                customerId: store.customerId,
                after,
                requestId: ctx.requestId,
              });
              return { link, store, row, after };
            });
          })());
        await syncGatewayCustomer(db, ctx, done.row);
        return {
          method: describeRow(done.row),
          currency: done.store.currency as CurrencyCode,
          total_owed_cents: Number(done.after.total_owed_cents ?? 0),
          link_used: done.after.link_used === true,
        };
      },
      effect: async (_tx, _at, result) => result,
    },
  );
}

/**
 * The merchant pays through a link (payment_update: decision 155 — with the method on file or a new one, which is
 * kept on file when `make_default`), or gives a method on a payment_instrument link. In order, each step safe to
 * repeat:
 *   1. no transaction: a retry of this very request after a crash (its 'link_used' entry, same request ref) resumes
 *      at 3; else the link is checked (404 / 410 before the gateway is asked) and a new card's token redeemed;
 *   2. one transaction: the link is taken (a second use — also one racing this request — finds it used → 410), the
 *      new method stored (payment_instrument: always as the default) or the method on file found, audited with time
 *      and IP;
 *   3. no transaction: a new default's gateway customer is updated; payment_update: every open invoice is charged
 *      (chargeInvoice, attempt `merchant-<linkId>-<method id>-<request ref>`: one attempt per try, outside any
 *      transaction); payment_instrument: the failed invoices in dunning get an immediate retry job;
 *   4. one transaction: payment_update: when this try moved no money and something is still owed (linkSpent: a
 *      decline, a charge in progress from elsewhere) the link is given back (used_at cleared, audited
 *      'link_released') for another try; the answer is stored with the Idempotency-Key (a replay answers it again and
 *      charges nothing) — both commit together.
 */
export async function payThroughLink(
  ctx: ServiceCtx<null>,
  tok: string,
  purpose: MerchantLinkPurpose,
  body: MerchantPayRequest,
  idempotencyKey: string,
): Promise<MerchantPaymentResult> {
  const app = ctx.app;
  const db = app.database.db;
  const now = app.clock.now();
  const linkId = await knownLinkId(db, tok, purpose);
  return runIdempotent<MerchantPaymentResult, MerchantPaymentResult>(
    ctx,
    {
      route: `POST /public/payment/${purpose}`,
      key: idempotencyKey,
      caller: `link:${linkId}`,
      request: { params: { link: linkId }, body: rememberedBody(app, body) },
    },
    {
      outside: async (run) => {
        // A retry of this very request after a crash between its steps: the link is used, by this request — go on.
        const resumed = await resumeOf(db, linkId, run.requestRef, 'link_used');
        const added =
          resumed ??
          (await (async () => {
            // Step 1.
            await linkOf(db, tok, purpose, now);
            const redeemed = body.kind === 'on_file' ? null : await redeemInstrument(ctx, body);
            // Step 2.
            return db.transaction(async (tx) => {
              const link = await lockedLiveLink(tx, linkId, tok, purpose, now);
              // Taken for this try; step 4 gives a payment_update link back when no money moved.
              if (!(await useLinkToken(tx, link.id, now))) throw new AppError('link_expired', MERCHANT_LINK_USED);
              const store = await storeOf(tx, link);
              const row = redeemed
                ? await insertForStore(
                    tx,
                    ctx,
                    now,
                    store,
                    redeemed,
                    purpose === 'payment_instrument' || redeemed.body.make_default,
                  )
                : await onFileInstrument(tx, store);
              if (!row)
                throw new AppError('conflict', 'No payment method is on file: pay with a new card or bank account.');
              const after = {
                link_token_id: link.id,
                purpose,
                payment_instrument_id: row.id,
                on_file: redeemed === null,
                used_at: now.toISOString(),
                request_ref: run.requestRef,
                ip: ctx.ip ?? 'unknown',
                user_agent: ctx.userAgent,
              };
              await writeAudit(tx, {
                ...merchantActor(store),
                at: now,
                action: 'link_used',
                entity: 'store',
                entityId: store.id,
                customerId: store.customerId,
                after,
                requestId: ctx.requestId,
              });
              return { link, store, row, after };
            });
          })());
        // Step 3.
        if (added.after.on_file !== true) await syncGatewayCustomer(db, ctx, added.row);
        return afterAdding(app, ctx.requestId, purpose, added, run.requestRef);
      },
      effect: async (tx, at, result) => {
        // Step 4: the answer is stored with the key by runIdempotent; a try that moved no money gives the link back;
        // the summary is audited here.
        const [link] = await tx.select().from(linkTokens).where(eq(linkTokens.id, linkId));
        const store = link ? await storeOf(tx, link) : null;
        if (link && store && !result.link_used && link.usedAt !== null) {
          await tx.update(linkTokens).set({ usedAt: null }).where(eq(linkTokens.id, link.id));
          await writeAudit(tx, {
            ...merchantActor(store),
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
            ...merchantActor(store),
            at,
            action: purpose === 'payment_update' ? 'merchant_paid' : 'merchant_instrument_added',
            entity: 'store',
            entityId: store.id,
            customerId: store.customerId,
            after: { link_token_id: linkId, ...result, ip: ctx.ip ?? 'unknown' },
            requestId: ctx.requestId,
          });
        return result;
      },
    },
  );
}

interface LinkStep {
  link: LinkRow;
  store: StoreRow;
  row: InstrumentRow;
  /** The step's audit entry ('link_used' / 'merchant_method_replaced'). */
  after: Record<string, unknown>;
}

/** The link's use by the request named `requestRef` (its audit entry `action`), with the method it used. */
async function resumeOf(
  db: Db,
  linkId: number,
  requestRef: string,
  action: 'link_used' | 'merchant_method_replaced',
): Promise<LinkStep | null> {
  const [link] = await db.select().from(linkTokens).where(eq(linkTokens.id, linkId));
  if (!link) return null;
  // A use takes the link (used_at); a replacement may leave it open.
  if (action === 'link_used' && link.usedAt === null) return null;
  const entries = await db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(and(eq(auditLog.entity, 'store'), eq(auditLog.entityId, link.subjectId), eq(auditLog.action, action)))
    .orderBy(desc(auditLog.id))
    .limit(20);
  const mine = entries
    .map((e) => e.after as { link_token_id?: number; request_ref?: string; payment_instrument_id?: number } | null)
    .find((a) => a?.link_token_id === linkId && a.request_ref === requestRef);
  if (!mine?.payment_instrument_id) return null;
  const [row] = await db.select().from(paymentInstruments).where(eq(paymentInstruments.id, mine.payment_instrument_id));
  if (!row) return null;
  const store = await storeOf(db, link);
  return { link, store, row, after: mine as Record<string, unknown> };
}

/** Step 3: charge the open invoices, or queue the immediate retries. */
async function afterAdding(
  app: AppContext,
  requestId: string,
  purpose: MerchantLinkPurpose,
  added: LinkStep,
  requestRef: string,
): Promise<MerchantPaymentResult> {
  const { link, store, row } = added;
  const actor = merchantActor(store);
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
      // One attempt per try: after a declined try the next one is a new charge (also with the same method on
      // file), not the old answer; the same try again (its Idempotency-Key) is the same attempt — charged once.
      attempt: `merchant-${link.id}-${row.id}-${requestRef.slice(0, 16)}`,
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
