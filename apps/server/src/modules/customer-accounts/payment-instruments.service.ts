import {
  createsProcessorCustomer,
  isCardExpired,
  type PaymentInstrumentCreateBody,
  type PaymentInstrument,
  type PaymentInstrumentList,
  type PaymentInstrumentListQuery,
} from '@pos/domain';
import { and, asc, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { AnyServiceCtx, ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { customers, paymentInstruments, uploads } from '../../db/schema';
import {
  isRecordVisible,
  loadAttachableUpload,
  requireCustomer,
  requireStoreOf,
  viewerOf,
  visibleRecordsWhere,
} from '../../access';
import { AppError, fieldError } from '../../http/errors';
import { audit } from './account-context';
import { accountNumberMac, dataEncryptionKey, encryptAccountNumber } from '../../lib/account-number-cipher';
import { retryFailedInvoices } from '../../jobs/collection';
import { runIdempotent } from '../../http/idempotency';
import { redeemCardToken, updateGatewayCustomer } from '../payments';

type InstrumentRow = typeof paymentInstruments.$inferSelect;

/** Masked: never the account number (nor its ciphertext) nor a card number (we never have one). */
export function toInstrument(r: InstrumentRow, today: Date): PaymentInstrument {
  return {
    id: r.id,
    customer_id: r.customerId,
    store_id: r.storeId,
    kind: r.kind as PaymentInstrument['kind'],
    name_on_account: r.nameOnAccount,
    card:
      r.kind === 'card' && r.cardLast4 && r.cardExpMonth && r.cardExpYear
        ? {
            brand: r.cardBrand ?? 'unknown',
            last4: r.cardLast4,
            exp_month: r.cardExpMonth,
            exp_year: r.cardExpYear,
            expired: isCardExpired(r.cardExpMonth, r.cardExpYear, today),
          }
        : null,
    bank:
      r.kind === 'bank'
        ? {
            bank_name: r.bankName,
            routing_number: r.routingNumber,
            institution_number: r.institutionNumber,
            account_last4: r.accountLast4 ?? '',
            account_type: r.accountType === 'checking' || r.accountType === 'savings' ? r.accountType : null,
          }
        : null,
    is_default: r.isDefault,
    status: r.status === 'inactive' ? 'inactive' : 'active',
    created_at: r.createdAt.toISOString(),
    version: r.version,
  };
}

/** GET …/paymentinstruments?storeid&status: default first, then newest. */
export async function listInstruments(
  ctx: ServiceCtx,
  customerId: number,
  q: PaymentInstrumentListQuery,
): Promise<PaymentInstrumentList> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), customerId);
  if (q.storeid !== undefined) await requireStoreOf(db, viewerOf(ctx), customerId, q.storeid, 'storeid');
  const where = and(
    eq(paymentInstruments.customerId, customerId),
    visibleRecordsWhere(viewerOf(ctx), paymentInstruments.storeId),
    q.storeid === undefined ? undefined : eq(paymentInstruments.storeId, q.storeid),
    q.status === undefined ? undefined : eq(paymentInstruments.status, q.status),
  );
  const rows = await db
    .select()
    .from(paymentInstruments)
    .where(where)
    .orderBy(desc(paymentInstruments.isDefault), desc(paymentInstruments.createdAt), asc(paymentInstruments.id))
    .limit(q.limit)
    .offset(q.offset);
  const [total] = await db.select({ n: count() }).from(paymentInstruments).where(where);
  const now = ctx.app.clock.now();
  return { items: rows.map((r) => toInstrument(r, now)), total: total?.n ?? 0 };
}

/** GET …/paymentinstruments/{instrumentId}. */
export async function getInstrument(
  ctx: ServiceCtx,
  customerId: number,
  instrumentId: number,
): Promise<PaymentInstrument> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), customerId);
  const [row] = await db
    .select()
    .from(paymentInstruments)
    .where(and(eq(paymentInstruments.id, instrumentId), eq(paymentInstruments.customerId, customerId)));
  if (!row || !(await isRecordVisible(db, viewerOf(ctx), row)))
    throw new AppError('not_found', `Payment instrument ${instrumentId} of customer ${customerId} was not found.`);
  return toInstrument(row, ctx.app.clock.now());
}

/**
 * Attach the check / bank-account image a bank instrument names (its public id): only an upload this user made and
 * that is attached to nothing yet (else 404 naming the field, exactly like a missing one), of an image kind.
 */
async function claimUpload(ctx: AnyServiceCtx, tx: Db, publicId: string, instrumentId: number): Promise<void> {
  const u = await loadAttachableUpload(tx, ctx.session, publicId, 'check_image_upload_id', true);
  if (u.kind !== 'checkImage' && u.kind !== 'achCadImage')
    throw fieldError('check_image_upload_id', 'This upload is not a check or bank-account image.');
  await tx
    .update(uploads)
    .set({ ownerType: 'payment_instrument', ownerId: String(instrumentId) })
    .where(eq(uploads.id, u.id));
}

/**
 * POST …/paymentinstruments (/editpayment; decision 059). A card: the gateway token is redeemed for brand, last4,
 * expiry and the processor reference — the number never reaches us. A bank account: the account number is stored
 * AES-256-GCM encrypted with its last4; US accounts name the ABA routing number, Canadian ones the transit and
 * institution numbers. make_default makes every other instrument of the customer not default. For a US customer
 * the gateway's customer is updated (§9: Canada has no processor customer).
 */
export async function addInstrument(
  ctx: ServiceCtx,
  customerId: number,
  body: PaymentInstrumentCreateBody,
  idempotencyKey: string | undefined,
): Promise<PaymentInstrument> {
  // The idempotency record keeps a hash of the request; the account number enters it only as a keyed MAC, so the
  // hash cannot be brute-forced back to a short account number.
  const hashed =
    body.kind === 'bank' && idempotencyKey !== undefined
      ? { ...body, account_number: accountNumberMac(dataEncryptionKey(ctx.app.config), body.account_number) }
      : body;
  const db = ctx.app.database.db;
  const added = await runIdempotent(
    ctx,
    {
      route: 'POST /customers/:id/paymentinstruments',
      key: idempotencyKey,
      request: { params: { id: customerId }, body: hashed },
      status: 201,
    },
    {
      // Whose it is, before the gateway is asked anything (a record not the caller's is 404 whatever the token);
      // the token is redeemed outside any transaction (convention 13).
      outside: async () => {
        await requireCustomer(db, viewerOf(ctx), customerId);
        if (body.store_id != null) await requireStoreOf(db, viewerOf(ctx), customerId, body.store_id, 'store_id');
        return redeemInstrument(ctx, body);
      },
      effect: async (tx, now, redeemed) => {
        const row = await insertInstrument(tx, ctx, now, customerId, redeemed);
        return toInstrument(row, now);
      },
    },
  );
  // After the commit: the gateway's customer learns its new default (a replay tells it again; that is harmless).
  await syncGatewayCustomerOf(db, ctx, added.id);
  // A new payment method retries the customer's open failed invoices at once (issue 15, decision 116). The charge
  // jobs' attempt names the instrument: a replayed request queues nothing new.
  await retryFailedInvoices(ctx.app, customerId, added.id, ctx.actor, ctx.requestId);
  return added;
}

/** A card token's details as the gateway gives them (brand, last 4, expiry, processor reference). */
type RedeemedCard = Awaited<ReturnType<typeof redeemCardToken>>;

/** A new instrument with what the gateway said of it: a card's details (null for a bank account). */
export interface RedeemedInstrument {
  readonly body: PaymentInstrumentCreateBody;
  readonly card: RedeemedCard | null;
}

/** The gateway's part of a new instrument, asked before any transaction: a card token is redeemed (400 if not valid). */
export async function redeemInstrument(
  ctx: Pick<AnyServiceCtx, 'app'>,
  body: PaymentInstrumentCreateBody,
): Promise<RedeemedInstrument> {
  return { body, card: body.kind === 'card' ? await redeemCardToken(ctx.app, body.card_token) : null };
}

/**
 * After the commit, never inside a transaction: a new default instrument of a customer whose country has a processor
 * customer (§9, the country table's createsProcessorCustomer: the US, not Canada) is told to the gateway's customer
 * (spec §7 POST /customers/{id}). Moves no money; safe to repeat.
 */
export async function syncGatewayCustomer(db: Db, ctx: Pick<AnyServiceCtx, 'app'>, row: InstrumentRow): Promise<void> {
  if (!row.isDefault) return;
  const [customer] = await db.select().from(customers).where(eq(customers.id, row.customerId));
  if (!customer || !createsProcessorCustomer(customer.country)) return;
  await updateGatewayCustomer(ctx.app, {
    customerId: row.customerId,
    name: customer.legalName,
    email: customer.email,
    defaultPaymentReference: row.kind === 'card' ? row.processorReference : null,
  });
}

/** syncGatewayCustomer for an instrument known by its id (after a replayed request too). */
async function syncGatewayCustomerOf(db: Db, ctx: Pick<AnyServiceCtx, 'app'>, instrumentId: number): Promise<void> {
  const [row] = await db.select().from(paymentInstruments).where(eq(paymentInstruments.id, instrumentId));
  if (row) await syncGatewayCustomer(db, ctx, row);
}

/**
 * The database part of the add, on the caller's transaction, no gateway call: insert, claim the check image, audit,
 * and with make_default unset the other defaults (the gateway's customer is told by syncGatewayCustomer).
 */
export async function insertInstrument(
  tx: Db,
  ctx: AnyServiceCtx,
  now: Date,
  customerId: number,
  redeemed: RedeemedInstrument,
): Promise<InstrumentRow> {
  const body = redeemed.body;
  const customer = await requireCustomer(tx, viewerOf(ctx), customerId);
  const store =
    body.store_id == null ? null : await requireStoreOf(tx, viewerOf(ctx), customerId, body.store_id, 'store_id');
  let values: typeof paymentInstruments.$inferInsert;
  let summary: Record<string, unknown>;
  if (body.kind === 'card') {
    const card = redeemed.card;
    if (!card) throw new Error('insertInstrument: a card without its redeemed details');
    if (isCardExpired(card.expMonth, card.expYear, now)) throw fieldError('card_token', 'The card has expired.');
    values = {
      customerId,
      storeId: store?.id ?? null,
      kind: 'card',
      nameOnAccount: body.name_on_account,
      cardBrand: card.brand,
      cardLast4: card.last4,
      cardExpMonth: card.expMonth,
      cardExpYear: card.expYear,
      processorReference: card.reference,
    };
    summary = { brand: card.brand, last4: card.last4, exp_month: card.expMonth, exp_year: card.expYear };
  } else {
    const canadian = customer.country === 'CA';
    const institution = body.institution_number ? body.institution_number : null;
    if (canadian && !institution)
      throw fieldError(
        'institution_number',
        'A Canadian bank account needs the 3-digit institution number (and the 5-digit transit number as routing number).',
      );
    if (!canadian && institution)
      throw fieldError(
        'institution_number',
        'US bank accounts have no institution number; enter the 9-digit ABA routing number.',
      );
    const key = dataEncryptionKey(ctx.app.config);
    values = {
      customerId,
      storeId: store?.id ?? null,
      kind: 'bank',
      nameOnAccount: body.name_on_account,
      bankName: body.bank_name,
      routingNumber: body.routing_number,
      institutionNumber: institution,
      accountNumberEncrypted: encryptAccountNumber(key, customerId, body.account_number),
      accountLast4: body.account_number.slice(-4),
      accountType: body.account_type,
    };
    summary = {
      bank_name: body.bank_name,
      routing_number: body.routing_number,
      institution_number: institution,
      account_last4: body.account_number.slice(-4),
      account_type: body.account_type,
    };
  }
  const [row] = await tx
    .insert(paymentInstruments)
    .values({ ...values, isDefault: body.make_default, status: 'active', createdAt: now, updatedAt: now })
    .returning();
  if (body.kind === 'bank' && body.check_image_upload_id !== undefined)
    await claimUpload(ctx, tx, body.check_image_upload_id, row!.id);
  await audit(tx, ctx, now, {
    customerId,
    action: 'create',
    entity: 'payment_instrument',
    entityId: row!.id,
    after: {
      payment_instrument_id: row!.id,
      store_id: row!.storeId,
      kind: body.kind,
      name_on_account: body.name_on_account,
      ...summary,
      is_default: body.make_default,
      ...(body.kind === 'bank' && body.check_image_upload_id !== undefined
        ? { check_image_upload_id: body.check_image_upload_id }
        : {}),
    },
  });
  if (body.make_default) {
    const others = await tx
      .update(paymentInstruments)
      .set({ isDefault: false, updatedAt: now, version: sql`${paymentInstruments.version} + 1` })
      .where(
        and(
          eq(paymentInstruments.customerId, customerId),
          eq(paymentInstruments.isDefault, true),
          ne(paymentInstruments.id, row!.id),
        ),
      )
      .returning({ id: paymentInstruments.id });
    for (const o of others) {
      await audit(tx, ctx, now, {
        customerId,
        action: 'unset_default',
        entity: 'payment_instrument',
        entityId: o.id,
        before: { payment_instrument_id: o.id, is_default: true },
        after: { payment_instrument_id: o.id, is_default: false, replaced_by: row!.id },
      });
    }
  }
  return row!;
}
