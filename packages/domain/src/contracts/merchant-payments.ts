import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { bankInstrumentRequest, cardInstrumentRequest, paymentInstrumentCreateRequest } from './customer-accounts';

/*
 * The merchant's payment pages (issue 15 points 6–7; decisions 118, 155). Public: the link token is the credential
 * (single purpose, expiring); no sign-in.
 *   GET  /api/public/payment/{tok}              → merchantPaymentView      ('payment_update' link: what is owed)
 *   POST /api/public/payment/{tok}/method       merchantPaymentRequest → merchantMethodReplaced (Idempotency-Key)
 *                                               replace the method on file: stored as the default, nothing charged
 *   POST /api/public/payment/{tok}              merchantPayRequest → merchantPaymentResult (Idempotency-Key)
 *                                               pay what is owed, with the method on file or a new one
 *   GET  /api/public/payment/instrument/{tok}   → merchantPaymentView      ('payment_instrument' link)
 *   POST /api/public/payment/instrument/{tok}   merchantPaymentRequest → merchantPaymentResult (Idempotency-Key)
 * A link that expired, was replaced or was used answers 410; a link never issued 404. A 'payment_update' link is
 * used up once money moved because of it, or once nothing is owed (decision 155).
 */

/** How the merchant gets a new link (shown with every 410). */
export const MERCHANT_NEW_LINK_HELP =
  'Ask our billing team for a new link: call us at 1-800-555-0199 or reply to the e-mail that brought you here.';
export const MERCHANT_LINK_USED = `This link was already used. ${MERCHANT_NEW_LINK_HELP}`;
export const MERCHANT_LINK_EXPIRED = `This link has expired or was replaced by a newer one. ${MERCHANT_NEW_LINK_HELP}`;
export const MERCHANT_LINK_UNKNOWN = 'This link is not valid: open the link from the e-mail again.';

export const merchantLinkParams = z.object({
  tok: z.string().regex(/^[A-Za-z0-9_-]{20,128}$/, { message: MERCHANT_LINK_UNKNOWN }),
});

export const merchantOpenInvoice = z.object({
  invoice_number: z.string(),
  issued_on: z.string(),
  due_on: z.string(),
  open_cents: z.number().int(),
});
export type MerchantOpenInvoice = z.infer<typeof merchantOpenInvoice>;

/** What the merchant's page shows: the store's name, what it owes, the method on file (masked). Nothing else. */
export const merchantPaymentView = z.object({
  purpose: z.enum(['payment_update', 'payment_instrument']),
  store_name: z.string(),
  currency: z.enum(CURRENCY_CODES),
  invoices: z.array(merchantOpenInvoice),
  total_owed_cents: z.number().int(),
  current_method: z.string().nullable(),
  /** What the method on file is (the page says "Replace the card on file" or "… the bank account …"). */
  current_method_kind: z.enum(['card', 'bank']).nullable(),
  /** Where the browser tokenizes a card (the card number never reaches /api). */
  tokenize_url: z.string(),
  expires_at: z.string(),
});
export type MerchantPaymentView = z.infer<typeof merchantPaymentView>;

/**
 * The new card (gateway token) or bank account; it becomes the store's default. store_id/make_default are ignored
 * (the link's store is used). A check image is refused: the merchant's page uploads none, and an upload id would
 * let a link claim an image staff uploaded for another record (decision 132).
 */
export const merchantPaymentRequest = paymentInstrumentCreateRequest.superRefine(refuseCheckImage);

function refuseCheckImage(body: { kind: string; check_image_upload_id?: string }, ctx: z.RefinementCtx): void {
  if (body.kind === 'bank' && body.check_image_upload_id !== undefined)
    ctx.addIssue({
      code: 'custom',
      path: ['check_image_upload_id'],
      message: 'The payment page does not take a check image.',
    });
}
export type MerchantPaymentRequest = z.output<typeof merchantPaymentRequest>;

/** Pay with the method on file (the one the page shows as "On file"). */
export const merchantPayOnFile = z.object({ kind: z.literal('on_file') });

/**
 * What the merchant pays with (decision 155): the method on file, or a new card or bank account — which becomes the
 * method on file too when `make_default` (the page's "Keep it on file for future payments", default true).
 */
export const merchantPayRequest = z
  .discriminatedUnion('kind', [merchantPayOnFile, cardInstrumentRequest, bankInstrumentRequest], {
    message: 'Kind is on_file, card or bank.',
  })
  .superRefine(refuseCheckImage);
export type MerchantPayRequest = z.output<typeof merchantPayRequest>;

/** The method on file was replaced; nothing was charged. */
export const merchantMethodReplaced = z.object({
  method: z.string(),
  currency: z.enum(CURRENCY_CODES),
  /** What is still owed (nothing was charged): the page offers to pay it. */
  total_owed_cents: z.number().int(),
  /** The link is used up when nothing is owed; otherwise it stays open for paying. */
  link_used: z.boolean(),
});
export type MerchantMethodReplaced = z.infer<typeof merchantMethodReplaced>;

export const merchantInvoiceOutcome = z.object({
  invoice_number: z.string(),
  amount_cents: z.number().int(),
  outcome: z.enum(['paid', 'failed', 'pending', 'skipped']),
  message: z.string(),
});
export type MerchantInvoiceOutcome = z.infer<typeof merchantInvoiceOutcome>;

export const merchantPaymentResult = z.object({
  method: z.string(),
  currency: z.enum(CURRENCY_CODES),
  invoices: z.array(merchantInvoiceOutcome),
  paid_cents: z.number().int(),
  /** The instrument page: how many failed invoices were queued for an immediate retry. */
  retries_queued: z.number().int(),
  /**
   * Whether the link is used up. The payment page's link stays usable until money moved because of it (a charge
   * succeeded or is pending) or nothing is owed: after a decline, or while another charge is in progress, the
   * merchant may try again with the same link (issue 27). The instrument page's link is always used.
   */
  link_used: z.boolean(),
});
export type MerchantPaymentResult = z.infer<typeof merchantPaymentResult>;

/** The public POSTs take money: an `Idempotency-Key` header is required (the page makes one per submit). */
export const requiredIdempotencyHeaders = z.object({
  'idempotency-key': z
    .string({ message: 'Send an Idempotency-Key header (one per payment attempt).' })
    .trim()
    .regex(/^[\x21-\x7e]{1,200}$/, { message: 'An Idempotency-Key is 1–200 visible ASCII characters.' }),
});

/*
 * The collection page (#/customer/payment/{paymentPlanId}/collection; collect_payment):
 *   GET /api/customers/paymentcollection/{paymentPlanId}/{token} → paymentCollectionView
 *   POST /api/customers/paymentcollection/{paymentPlanId}/card/{token} collectionCardRequest → 201 {id, description}
 *     (a new card for this collection, stored for the plan's store, not made the default; Idempotency-Key)
 * then "Collect now" is POST /api/customers/paymentcollection/sns/{token} (paymentCollectionSnsRequest, with an
 * Idempotency-Key) and the job's output lists each invoice's outcome.
 */
export const paymentCollectionParams = z.object({
  paymentPlanId: z.coerce.number().int().positive({ message: 'A payment plan id is a positive number.' }),
});

export const paymentCollectionView = z.object({
  payment_plan_id: z.number().int(),
  plan_name: z.string(),
  customer_id: z.number().int(),
  customer_name: z.string(),
  store_id: z.number().int().nullable(),
  store_name: z.string().nullable(),
  currency: z.enum(CURRENCY_CODES),
  /** Open amount > 0 and due before today (billing day), oldest first. */
  past_due: z.array(merchantOpenInvoice.extend({ invoice_id: z.number().int() })),
  instruments: z.array(z.object({ id: z.number().int(), description: z.string(), is_default: z.boolean() })),
});
export type PaymentCollectionView = z.infer<typeof paymentCollectionView>;

/** One invoice of a collection job's output. */
export const collectedInvoice = z.object({
  invoice_id: z.number().int(),
  invoice_number: z.string().nullable(),
  outcome: z.enum(['paid', 'failed', 'pending', 'skipped']),
  transaction_id: z.number().int().nullable(),
  reason: z.string().nullable(),
});
export const paymentCollectionOutput = z.object({ invoices: z.array(collectedInvoice) });
export type PaymentCollectionOutput = z.infer<typeof paymentCollectionOutput>;

/** A new card given on the collection page (gateway token; the number never reaches the API). */
export const collectionCardRequest = cardInstrumentRequest.pick({
  kind: true,
  card_token: true,
  name_on_account: true,
});
export type CollectionCardRequest = z.infer<typeof collectionCardRequest>;
export const collectionCard = z.object({ id: z.number().int(), description: z.string() });
