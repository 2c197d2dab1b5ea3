import { createHash } from 'node:crypto';
import {
  CONTRACT_LINK_TTL_MS,
  ORDER_STATUS,
  ORDER_STATUS_LABELS,
  ORDER_TYPE_LABELS,
  OTHER_IDS,
  PAYMENT_PLAN_KIND,
  canTransition,
  describeOrderPaymentMethod,
  isOrderType,
  orderHasNrsPayBundle,
  orderTotals,
  type ContractSignRequest,
  type ContractSignResult,
  type ContractStatus,
  type ContractView,
  type OrderContract,
  type OrderDocument,
  type OrderStatusCode,
  type ReauthorizeRequest,
  type ReauthorizeView,
} from '@pos/domain';
import { and, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import { withTx, type AnyServiceCtx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { contracts, linkTokens, orderStatusHistory, orders, uploads } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, notFound } from '../../http/errors';
import { contractReauthorizeLinkEmail, contractSigningLinkEmail } from '../../integrations/mail/templates';
import { hashToken } from '../../lib/tokens';
import { dataEncryptionKey, encryptAccountNumber } from '../../lib/account-number-cipher';
import { issueLinkToken } from '../../lib/link-tokens';
import { newStorageKey, newUploadPublicId } from '../../lib/storage-key';
import { applyStatusEffects, type DocumentSave, type StatusChange } from '../orders';
import { orderSaleTaxCents, taxDayOf } from '../taxes';
import { buildContractPdf, stampSignature, type ContractInput } from './contract-pdf';
import { postalAddressLine } from '../../lib/pdf';
import { gatewayInfo } from '../payments';

/*
 * An order's contract (issue 7, decision 082): versions made from the order document, the merchant's single-use
 * links, the signature, re-authorizing the payment method, and a signed paper contract uploaded by staff.
 */

type OrderRow = typeof orders.$inferSelect;
type ContractRow = typeof contracts.$inferSelect;
export type LinkKind = 'sign' | 'reauthorize';

const SUBJECT = 'order';
const PURPOSE: Readonly<Record<LinkKind, 'contract_sign' | 'contract_reauthorize'>> = {
  sign: 'contract_sign',
  reauthorize: 'contract_reauthorize',
};
/** Contract versions that can still be signed (the newest of them is the one the link shows). */
const OPEN: readonly ContractStatus[] = ['generated', 'sent'];
export const LINK_EXPIRED_MESSAGE =
  'This link has expired, was replaced by a newer one or was already used. Ask your sales representative for a new link.';

const docOf = (order: OrderRow) => order.document as OrderDocument;
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : v == null ? '' : String(v));

/** The merchant as the contract names it: the customer's name, else the store's DBA. */
export function merchantName(doc: OrderDocument): string {
  const c = doc.CustomerInfo ?? {};
  return (
    str(c.legalName) ||
    [c.firstName, c.lastName].map(str).filter(Boolean).join(' ') ||
    str(doc.StoreInfo?.doingBusinessAs)
  );
}

async function contractInputOf(
  ctx: AnyServiceCtx,
  db: Db,
  order: OrderRow,
  versionNo: number,
  now: Date,
): Promise<ContractInput> {
  const doc = docOf(order);
  const c = doc.CustomerInfo ?? {};
  const s = doc.StoreInfo ?? {};
  const plans = doc.PaymentPlanInfo ?? [];
  const hardware = plans.find((p) => p.type === PAYMENT_PLAN_KIND.HARDWARE);
  const monthly = plans.find((p) => p.type === PAYMENT_PLAN_KIND.MONTHLY);
  const totals = orderTotals(doc, await orderSaleTaxCents(db, doc, taxDayOf(ctx.app, now)));
  const methods = (doc.PaymentInstrumentInfo ?? [])
    .map((m) => {
      const d = describeOrderPaymentMethod(m);
      return d ? `${m.type === PAYMENT_PLAN_KIND.HARDWARE ? 'Hardware' : 'Recurring'}: ${d}` : null;
    })
    .filter((m): m is string => m !== null);
  const orderType = isOrderType(doc.orderType) ? doc.orderType : 'P';
  return {
    orderId: order.id,
    unifiedOrderId: order.unifiedOrderId,
    versionNo,
    createdAt: now,
    merchant: {
      legalName: merchantName(doc),
      contactName: [c.title, c.firstName, c.lastName].map(str).filter(Boolean).join(' '),
      email: str(c.email),
      phone: str(c.phone),
      fedTaxIdLast4: str(c.federalTaxId).slice(-4),
      homeAddress: postalAddressLine(doc.HomeAddress),
      billingAddress: postalAddressLine(doc.BillingAddress),
    },
    store: {
      dba: str(s.doingBusinessAs),
      name: str(s.storeName),
      address: postalAddressLine(s.StoreAddress),
      phone: str(s.phone),
    },
    orderTypeLabel: ORDER_TYPE_LABELS[orderType],
    terminals: orderType === 'P' ? (doc.noOfTerminals ?? 0) : 0,
    totals,
    hardwarePlan:
      orderType === 'N'
        ? 'None (non-POS order)'
        : totals.installments
          ? `Installments over ${hardware?.term ?? 0} months`
          : 'Paid upfront',
    recurringPlan: Number(monthly?.paymentPlanId) === OTHER_IDS.YEARLY_PLAN_ID ? 'Yearly plan' : 'Monthly plan',
    paymentMethods: methods,
  };
}

/** A PDF the server made, stored under a fresh key with its `uploads` row (kind contract, owned by the order). */
async function storePdf(
  ctx: AnyServiceCtx,
  db: Db,
  order: OrderRow,
  bytes: Uint8Array,
  name: string,
  now: Date,
): Promise<{ id: number }> {
  const storageKey = newStorageKey('contract', 'pdf', now);
  await ctx.app.storage.put(storageKey, bytes, 'application/pdf');
  const [upload] = await db
    .insert(uploads)
    .values({
      publicId: newUploadPublicId(),
      kind: 'contract',
      originalName: name,
      contentType: 'application/pdf',
      sizeBytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      storageKey,
      ownerType: SUBJECT,
      ownerId: String(order.id),
      createdByEmail: ctx.actor.actorEmail ?? null,
      createdAt: now,
    })
    .returning({ id: uploads.id });
  return upload!;
}

/** A new contract version of the order: the PDF stored, earlier unsigned versions superseded. */
export async function makeContractVersion(
  ctx: AnyServiceCtx,
  db: Db,
  order: OrderRow,
  now: Date,
): Promise<ContractRow> {
  const [last] = await db
    .select({ n: sql<number>`coalesce(max(${contracts.versionNo}), 0)::int` })
    .from(contracts)
    .where(eq(contracts.orderId, order.id));
  const versionNo = (last?.n ?? 0) + 1;
  const bytes = await buildContractPdf(await contractInputOf(ctx, db, order, versionNo, now));
  const upload = await storePdf(ctx, db, order, bytes, `contract-${order.unifiedOrderId}-v${versionNo}.pdf`, now);
  const superseded = await db
    .update(contracts)
    .set({ status: 'superseded', updatedAt: now })
    .where(and(eq(contracts.orderId, order.id), inArray(contracts.status, [...OPEN])))
    .returning({ id: contracts.id });
  const [row] = await db
    .insert(contracts)
    .values({ orderId: order.id, versionNo, status: 'generated', uploadId: upload!.id, createdAt: now, updatedAt: now })
    .returning();
  await writeAudit(db, {
    ...ctx.actor,
    at: now,
    action: 'contract.generate',
    entity: 'order',
    entityId: order.id,
    customerId: order.customerId,
    after: {
      contract_id: row!.id,
      version_no: versionNo,
      upload_id: upload!.id,
      superseded: superseded.map((s) => s.id),
    },
    requestId: ctx.requestId,
  });
  return row!;
}

/** The public page of a link. */
export function contractLink(publicUrl: string, kind: LinkKind, token: string): string {
  return kind === 'sign' ? `${publicUrl}/#/contract/${token}` : `${publicUrl}/#/contract/reauthorize/${token}`;
}

/**
 * E-mail the merchant (CustomerInfo.email) a new single-use link; earlier live links of the same kind stop working.
 * The mail row commits with the transaction (the local Mailbox keeps it).
 */
export async function sendContractLink(
  ctx: AnyServiceCtx,
  db: Db,
  order: OrderRow,
  kind: LinkKind,
  now: Date,
  options: { staffId?: number | null } = {},
): Promise<{ to: string; expiresAt: Date }> {
  const doc = docOf(order);
  const to = str(doc.CustomerInfo?.email);
  if (!to)
    throw new AppError(
      'validation_failed',
      "The order has no merchant e-mail: add it on the order's store information step.",
      { 'CustomerInfo.email': 'Required to send the link.' },
    );
  const link = await issueLinkToken(db, {
    purpose: PURPOSE[kind],
    subjectType: SUBJECT,
    subjectId: order.id,
    now,
    ttlMs: CONTRACT_LINK_TTL_MS,
    createdByStaffId: options.staffId ?? null,
  });
  const input = {
    recipientName:
      [doc.CustomerInfo?.firstName, doc.CustomerInfo?.lastName].map(str).filter(Boolean).join(' ') || 'merchant',
    storeName: str(doc.StoreInfo?.doingBusinessAs) || str(doc.StoreInfo?.storeName) || order.unifiedOrderId,
    orderReference: order.unifiedOrderId,
    link: contractLink(ctx.app.config.publicUrl, kind, link.token),
    expiresAt: link.expiresAt,
  };
  const message = kind === 'sign' ? contractSigningLinkEmail(input) : contractReauthorizeLinkEmail(input);
  const mail = await ctx.app.mail.send({ to, ...message, related: { type: SUBJECT, id: order.id } }, { db });
  if (kind === 'sign') {
    await db
      .update(contracts)
      .set({ status: 'sent', updatedAt: now })
      .where(and(eq(contracts.orderId, order.id), eq(contracts.status, 'generated')));
  }
  await writeAudit(db, {
    ...ctx.actor,
    at: now,
    action: `contract.${kind}_link_sent`,
    entity: 'order',
    entityId: order.id,
    customerId: order.customerId,
    after: { to, link_token_id: link.id, expires_at: link.expiresAt.toISOString(), mail_id: mail.id },
    requestId: ctx.requestId,
  });
  return { to, expiresAt: link.expiresAt };
}

/** Pending Contract Sign → a new version and the signing link; AR Contract Regenerated → a new version. */
export async function contractStatusEffects(ctx: AnyServiceCtx, db: Db, change: StatusChange): Promise<void> {
  if (change.to === ORDER_STATUS.PENDING_CONTRACT_SIGN) {
    await makeContractVersion(ctx, db, change.order, change.now);
    // Without a merchant e-mail the contract waits for a paper copy (upload) or a link sent once the e-mail is there.
    if (str(docOf(change.order).CustomerInfo?.email)) await sendContractLink(ctx, db, change.order, 'sign', change.now);
  } else if (change.to === ORDER_STATUS.AR_CONTRACT_REGENERATED) {
    await makeContractVersion(ctx, db, change.order, change.now);
  }
}

/**
 * After a document save: an order waiting for its signature (11) or regenerated by AR (125) gets a new contract
 * version when the document changed, unless `skipContractRegeneration`; at 11 the merchant gets the new link.
 */
export async function regenerateAfterSave(ctx: AnyServiceCtx, db: Db, save: DocumentSave): Promise<void> {
  const { before, after } = save;
  const status = after.status;
  if (status !== ORDER_STATUS.PENDING_CONTRACT_SIGN && status !== ORDER_STATUS.AR_CONTRACT_REGENERATED) return;
  if (docOf(after).skipContractRegeneration === true) return;
  if (JSON.stringify(before.document) === JSON.stringify(after.document)) return;
  const now = after.updatedAt;
  await makeContractVersion(ctx, db, after, now);
  if (status === ORDER_STATUS.PENDING_CONTRACT_SIGN && str(docOf(after).CustomerInfo?.email))
    await sendContractLink(ctx, db, after, 'sign', now);
}

// ── The merchant's pages (public; the link token is the credential) ──────────────────────────────────────────────

function liveLinkWhere(tok: string, kind: LinkKind, now: Date) {
  return and(
    eq(linkTokens.tokenHash, hashToken(tok)),
    eq(linkTokens.purpose, PURPOSE[kind]),
    eq(linkTokens.subjectType, SUBJECT),
    isNull(linkTokens.usedAt),
    isNull(linkTokens.revokedAt),
    gt(linkTokens.expiresAt, now),
  );
}

async function orderOfLink(
  db: Db,
  tok: string,
  kind: LinkKind,
  now: Date,
): Promise<{ order: OrderRow; expiresAt: Date }> {
  const [link] = await db
    .select({ subjectId: linkTokens.subjectId, expiresAt: linkTokens.expiresAt })
    .from(linkTokens)
    .where(liveLinkWhere(tok, kind, now))
    .limit(1);
  if (!link) throw new AppError('link_expired', LINK_EXPIRED_MESSAGE);
  const [order] = await db
    .select()
    .from(orders)
    .where(eq(orders.id, Number(link.subjectId)));
  if (!order) throw new AppError('link_expired', LINK_EXPIRED_MESSAGE);
  return { order, expiresAt: link.expiresAt };
}

async function latestContract(db: Db, orderId: number): Promise<ContractRow | undefined> {
  const [row] = await db
    .select()
    .from(contracts)
    .where(eq(contracts.orderId, orderId))
    .orderBy(desc(contracts.versionNo))
    .limit(1);
  return row;
}

async function signableContract(db: Db, order: OrderRow): Promise<ContractRow> {
  const contract = await latestContract(db, order.id);
  if (
    order.status !== ORDER_STATUS.PENDING_CONTRACT_SIGN ||
    !contract ||
    !OPEN.includes(contract.status as ContractStatus)
  ) {
    throw new AppError(
      'link_expired',
      `Order ${order.unifiedOrderId} is not waiting for a signature any more. ${LINK_EXPIRED_MESSAGE}`,
    );
  }
  return contract;
}

const place = (order: OrderRow) => {
  const doc = docOf(order);
  const country = order.country === 'CA' ? 'CA' : 'US';
  return {
    merchant_name: merchantName(doc) || order.legalName || '',
    store_name: str(doc.StoreInfo?.doingBusinessAs) || str(doc.StoreInfo?.storeName),
    country: country as 'US' | 'CA',
    currency: orderTotals(doc).currency,
  };
};

export async function viewContract(ctx: AnyServiceCtx, tok: string): Promise<ContractView> {
  const db = ctx.app.database.db;
  const { order, expiresAt } = await orderOfLink(db, tok, 'sign', ctx.app.clock.now());
  const contract = await signableContract(db, order);
  // The figures of the contract's PDF: the tax on the day it was made (decision 127).
  const totals = orderTotals(
    docOf(order),
    await orderSaleTaxCents(db, docOf(order), taxDayOf(ctx.app, contract.createdAt)),
  );
  return {
    order_id: order.id,
    unified_order_id: order.unifiedOrderId,
    contract_id: contract.id,
    version_no: contract.versionNo,
    status: contract.status as ContractStatus,
    ...place(order),
    currency: totals.currency,
    lines: totals.lines,
    total_cents: totals.totalCents,
    pdf_url: `/api/public/contracts/${tok}/pdf`,
    expires_at: expiresAt.toISOString(),
  };
}

/** A stored file's bytes; `db` is the open transaction when there is one (PGlite has one connection). */
async function readUpload(
  ctx: AnyServiceCtx,
  uploadId: number,
  db: Db = ctx.app.database.db,
): Promise<{ bytes: Uint8Array; contentType: string; fileName: string }> {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, uploadId));
  if (!row) throw notFound('The contract file');
  const object = await ctx.app.storage.get(row.storageKey);
  if (!object) throw notFound('The contract file');
  const chunks: Buffer[] = [];
  for await (const chunk of object.body) chunks.push(Buffer.from(chunk as Uint8Array));
  return { bytes: new Uint8Array(Buffer.concat(chunks)), contentType: row.contentType, fileName: row.originalName };
}

export async function contractPdfOfLink(ctx: AnyServiceCtx, tok: string) {
  const db = ctx.app.database.db;
  const { order } = await orderOfLink(db, tok, 'sign', ctx.app.clock.now());
  const contract = await signableContract(db, order);
  return readUpload(ctx, contract.uploadId!);
}

/** Where a signed (or uploaded) contract sends the order: NRS Pay approval for an NRS Pay bundle, Petro approval for
 * the Petro product, else AR approval (decision 082). */
export function statusAfterSignature(doc: OrderDocument): OrderStatusCode {
  if (orderHasNrsPayBundle(doc)) return ORDER_STATUS.PENDING_NRS_PAY_APPROVAL;
  const petro = (doc.BillingItemInfo ?? []).some(
    (e) => (e as { productId?: unknown }).productId === OTHER_IDS.PETRO_PRODUCT_ID,
  );
  return petro ? ORDER_STATUS.PETRO_APPROVAL : ORDER_STATUS.PENDING_AR_APPROVAL;
}

/** The move out of Pending Contract Sign once the contract is signed or uploaded, with its history row and effects. */
async function moveAfterSignature(
  ctx: AnyServiceCtx,
  db: Db,
  order: OrderRow,
  now: Date,
  note: string,
): Promise<OrderRow> {
  const to = statusAfterSignature(docOf(order));
  if (!canTransition(ORDER_STATUS.PENDING_CONTRACT_SIGN, to)) throw new Error(`no move 11 → ${to}`);
  const [moved] = await db
    .update(orders)
    .set({ status: to, updatedAt: now, version: sql`${orders.version} + 1` })
    .where(eq(orders.id, order.id))
    .returning();
  await db.insert(orderStatusHistory).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: to,
    note,
    changedByEmail: ctx.actor.actorEmail ?? 'merchant',
    changedAt: now,
  });
  await writeAudit(db, {
    ...ctx.actor,
    at: now,
    action: 'status_change',
    entity: 'order',
    entityId: order.id,
    customerId: order.customerId,
    before: { status: order.status, version: order.version },
    after: { status: to, version: moved!.version, note },
    requestId: ctx.requestId,
  });
  await applyStatusEffects(ctx, db, { order: moved!, from: ORDER_STATUS.PENDING_CONTRACT_SIGN, to, now });
  return moved!;
}

/**
 * The merchant signs: the link is used up (a second use finds nothing), the signature is stamped onto a copy of the
 * PDF (stored), the contract records signer, time and IP, and the order goes to its approval queue. One transaction.
 */
export async function signContract(
  ctx: ServiceCtx<null>,
  tok: string,
  body: ContractSignRequest,
): Promise<ContractSignResult> {
  const now = ctx.app.clock.now();
  const ip = ctx.ip ?? 'unknown'; // always known on the merchant's request
  const png = new Uint8Array(Buffer.from(body.signature_png.slice(body.signature_png.indexOf(',') + 1), 'base64'));
  return withTx(ctx, async (db) => {
    const used = await db
      .update(linkTokens)
      .set({ usedAt: now })
      .where(liveLinkWhere(tok, 'sign', now))
      .returning({ id: linkTokens.id, subjectId: linkTokens.subjectId });
    if (used.length === 0) throw new AppError('link_expired', LINK_EXPIRED_MESSAGE);
    const [order] = await db
      .select()
      .from(orders)
      .where(eq(orders.id, Number(used[0]!.subjectId)))
      .for('update');
    if (!order) throw new AppError('link_expired', LINK_EXPIRED_MESSAGE);
    const contract = await signableContract(db, order);
    const doc = docOf(order);
    const merchant: ServiceCtx<null> = {
      ...ctx,
      actor: { actorType: 'merchant', actorId: `order:${order.id}`, actorEmail: str(doc.CustomerInfo?.email) || null },
    };

    const original = await readUpload(merchant, contract.uploadId!, db);
    let signed: Uint8Array;
    try {
      signed = await stampSignature(original.bytes, { signerName: body.signer_name, signedAt: now, ip, png });
    } catch {
      throw new AppError('validation_failed', 'The signature image could not be read: clear it and sign again.', {
        signature_png: 'Draw your signature again.',
      });
    }
    const upload = await storePdf(
      merchant,
      db,
      order,
      signed,
      `contract-${order.unifiedOrderId}-v${contract.versionNo}-signed.pdf`,
      now,
    );
    await db
      .update(contracts)
      .set({
        status: 'signed',
        signedUploadId: upload!.id,
        signedByName: body.signer_name,
        signedAt: now,
        signedFromIp: ip,
        updatedAt: now,
      })
      .where(eq(contracts.id, contract.id));
    await writeAudit(db, {
      ...merchant.actor,
      at: now,
      action: 'contract.sign',
      entity: 'order',
      entityId: order.id,
      customerId: order.customerId,
      after: {
        contract_id: contract.id,
        version_no: contract.versionNo,
        signer_name: body.signer_name,
        ip,
        signed_upload_id: upload!.id,
        link_token_id: used[0]!.id,
      },
      requestId: ctx.requestId,
    });
    const moved = await moveAfterSignature(
      merchant,
      db,
      order,
      now,
      `Contract v${contract.versionNo} signed by ${body.signer_name} (from ${ip}).`,
    );
    return {
      order_id: order.id,
      unified_order_id: order.unifiedOrderId,
      contract_id: contract.id,
      signed_at: now.toISOString(),
      signer_name: body.signer_name,
      order_status: moved.status as OrderStatusCode,
    };
  });
}

// ── Re-authorizing the payment method ───────────────────────────────────────────────────────────────────────────

/** The order's recurring method (the monthly plan's), else the hardware one. */
function currentMethodIndex(doc: OrderDocument): number {
  const list = doc.PaymentInstrumentInfo ?? [];
  const monthly = list.findIndex((m) => m.type === PAYMENT_PLAN_KIND.MONTHLY);
  return monthly >= 0 ? monthly : list.length > 0 ? 0 : -1;
}

export async function viewReauthorize(ctx: ServiceCtx<null>, tok: string): Promise<ReauthorizeView> {
  const { order, expiresAt } = await orderOfLink(ctx.app.database.db, tok, 'reauthorize', ctx.app.clock.now());
  const doc = docOf(order);
  const p = place(order);
  return {
    order_id: order.id,
    unified_order_id: order.unifiedOrderId,
    merchant_name: p.merchant_name,
    store_name: p.store_name,
    country: p.country,
    currency: p.currency,
    current_method: describeOrderPaymentMethod((doc.PaymentInstrumentInfo ?? [])[currentMethodIndex(doc)]),
    tokenize_url: gatewayInfo(ctx.app).tokenize_url,
    expires_at: expiresAt.toISOString(),
  };
}

export interface RedeemedCard {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  reference: string;
}

/**
 * The merchant names the payment method again: a card (the gateway token redeemed by the caller) or a bank account
 * (number kept encrypted, last 4 shown). Both of the order's method entries take it; the link is used up.
 */
export async function reauthorize(
  ctx: ServiceCtx<null>,
  tok: string,
  body: ReauthorizeRequest,
  card: RedeemedCard | null,
): Promise<{ order_id: number; method: string; authorized_at: string }> {
  const now = ctx.app.clock.now();
  return withTx(ctx, async (db) => {
    const used = await db
      .update(linkTokens)
      .set({ usedAt: now })
      .where(liveLinkWhere(tok, 'reauthorize', now))
      .returning({ subjectId: linkTokens.subjectId });
    if (used.length === 0) throw new AppError('link_expired', LINK_EXPIRED_MESSAGE);
    const [order] = await db
      .select()
      .from(orders)
      .where(eq(orders.id, Number(used[0]!.subjectId)))
      .for('update');
    if (
      !order ||
      [ORDER_STATUS.REJECTED, ORDER_STATUS.POS_CANCELED, ORDER_STATUS.COMPLETE].includes(order.status as never)
    ) {
      throw new AppError('link_expired', LINK_EXPIRED_MESSAGE);
    }
    const doc = structuredClone(docOf(order));
    const method =
      body.kind === 'card'
        ? {
            paymentMethodTypeId: 1,
            paymentMethodCode: 'CC',
            creditCardNumber: card!.last4,
            issuer: card!.brand,
            expirationDate: `${String(card!.expMonth).padStart(2, '0')}/${card!.expYear}`,
            paymentProcessorReference: card!.reference,
            achAccountNumber: null,
            achRoutingNumber: null,
            achBankName: null,
            achAccountType: null,
            achInstitutionNumber: null,
          }
        : {
            paymentMethodTypeId: 2,
            paymentMethodCode: order.country === 'CA' ? 'CAD' : 'ACH',
            creditCardNumber: null,
            issuer: null,
            expirationDate: null,
            paymentProcessorReference: null,
            achAccountNumber: `****${body.account_number.slice(-4)}`,
            achAccountNumberEncrypted: encryptAccountNumber(
              dataEncryptionKey(ctx.app.config),
              -order.id,
              body.account_number,
            ),
            achRoutingNumber: body.routing_number,
            achInstitutionNumber: body.institution_number ?? null,
            achBankName: body.bank_name,
            achAccountType: body.account_type,
          };
    doc.PaymentInstrumentInfo = (doc.PaymentInstrumentInfo ?? []).map((entry) => ({
      ...entry,
      ...method,
      nameOnAccount: body.name_on_account,
      paymentMethodSet: true,
    }));
    const described =
      describeOrderPaymentMethod(doc.PaymentInstrumentInfo[currentMethodIndex(doc)]) ?? 'Payment method';
    await db
      .update(orders)
      .set({ document: doc, updatedAt: now, version: sql`${orders.version} + 1` })
      .where(eq(orders.id, order.id));
    const email = str(doc.CustomerInfo?.email) || 'merchant';
    await db.insert(orderStatusHistory).values({
      orderId: order.id,
      fromStatus: order.status,
      toStatus: order.status,
      note: `Payment method re-authorized by the merchant: ${described}.`,
      changedByEmail: email,
      changedAt: now,
    });
    await writeAudit(db, {
      actorType: 'merchant',
      actorId: `order:${order.id}`,
      actorEmail: email,
      at: now,
      action: 'contract.reauthorize',
      entity: 'order',
      entityId: order.id,
      customerId: order.customerId,
      after: { method: described, ip: ctx.ip },
      requestId: ctx.requestId,
    });
    return { order_id: order.id, method: described, authorized_at: now.toISOString() };
  });
}

// ── Staff ─────────────────────────────────────────────────────────────────────────────────────────────────────────

export function contractRecord(row: ContractRow): OrderContract {
  return {
    id: row.id,
    order_id: row.orderId,
    version_no: row.versionNo,
    status: row.status as ContractStatus,
    signed_by_name: row.signedByName,
    signed_at: row.signedAt?.toISOString() ?? null,
    signed_from_ip: row.signedFromIp,
    created_at: row.createdAt.toISOString(),
    pdf_url: `/api/customers/contracts/${row.orderId}/${row.id}/pdf/{token}`,
  };
}

export async function listContracts(db: Db, orderId: number): Promise<OrderContract[]> {
  const rows = await db
    .select()
    .from(contracts)
    .where(eq(contracts.orderId, orderId))
    .orderBy(desc(contracts.versionNo));
  return rows.map(contractRecord);
}

export async function contractPdf(ctx: ServiceCtx, orderId: number, contractId: number) {
  const [row] = await ctx.app.database.db
    .select()
    .from(contracts)
    .where(and(eq(contracts.id, contractId), eq(contracts.orderId, orderId)));
  if (!row) throw notFound(`Contract ${contractId} of order ${orderId}`);
  return readUpload(ctx, row.signedUploadId ?? row.uploadId!);
}

/**
 * A signed paper contract (already stored as an upload owned by the order: `uploadId` is its internal key) replaces the
 * e-signature: the order moves on as if signed.
 */
export async function recordUploadedContract(
  ctx: ServiceCtx,
  orderId: number,
  uploadId: number,
): Promise<OrderContract> {
  const now = ctx.app.clock.now();
  return withTx(ctx, async (db) => {
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).for('update');
    if (!order) throw notFound(`Order ${orderId}`);
    if (order.status !== ORDER_STATUS.PENDING_CONTRACT_SIGN) {
      throw new AppError(
        'conflict',
        `Order ${order.unifiedOrderId} is ${ORDER_STATUS_LABELS[order.status as OrderStatusCode] ?? order.status}: a signed contract is uploaded while it is Pending Contract Sign.`,
      );
    }
    let contract = await latestContract(db, order.id);
    if (!contract || !OPEN.includes(contract.status as ContractStatus))
      contract = await makeContractVersion(ctx, db, order, now);
    const [updated] = await db
      .update(contracts)
      .set({
        status: 'uploaded',
        signedUploadId: uploadId,
        signedByName: `Paper contract uploaded by ${ctx.actor.actorEmail ?? 'staff'}`,
        signedAt: now,
        updatedAt: now,
      })
      .where(eq(contracts.id, contract.id))
      .returning();
    // The merchant's open signing link is no longer needed.
    await db
      .update(linkTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(linkTokens.purpose, PURPOSE.sign),
          eq(linkTokens.subjectType, SUBJECT),
          eq(linkTokens.subjectId, String(order.id)),
          isNull(linkTokens.usedAt),
          isNull(linkTokens.revokedAt),
        ),
      );
    await writeAudit(db, {
      ...ctx.actor,
      at: now,
      action: 'contract.upload',
      entity: 'order',
      entityId: order.id,
      customerId: order.customerId,
      after: { contract_id: contract.id, upload_id: uploadId },
      requestId: ctx.requestId,
    });
    await moveAfterSignature(ctx, db, order, now, `Signed paper contract uploaded (v${contract.versionNo}).`);
    return contractRecord(updated!);
  });
}
