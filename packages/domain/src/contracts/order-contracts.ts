import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { MERCHANT_COUNTRY_CODES } from '../codes/countries';
import { ORDER_STATUS_CODES } from '../codes/order-status';
import { BANK_ACCOUNT_TYPES, cardInstrumentRequest, isValidAbaRoutingNumber } from './customer-accounts';
import { tokenParams } from './customers';

/*
 * An order's contract (issue 7; decision 082): the PDF made from the order, the merchant's link to read and sign it
 * (`#/contract/{tok}`), re-authorizing the payment method (`#/contract/reauthorize/{tok}`), and the staff calls
 * (list versions, resend the link, upload a signed paper contract).
 *
 * Public calls (no session; the link token is the credential, single-use and expiring):
 *   GET  /api/public/contracts/{tok}                 → contractView
 *   GET  /api/public/contracts/{tok}/pdf             → application/pdf (the contract to sign)
 *   POST /api/public/contracts/{tok}/sign            contractSignRequest → contractSignResult
 *   GET  /api/public/contracts/reauthorize/{tok}     → reauthorizeView
 *   POST /api/public/contracts/reauthorize/{tok}     reauthorizeRequest → reauthorizeResult
 * Staff calls (session in the path; search_orders_edit or create_distributor_orders):
 *   GET  /api/customers/contracts/{orderId}/{token}              → orderContractList
 *   GET  /api/customers/contracts/{orderId}/{contractId}/pdf/{token}  → application/pdf (signed one when signed)
 *   POST /api/customers/contracts/{orderId}/send/{token}          {kind?: 'sign'|'reauthorize'} → contractLinkSent
 *   POST /api/customers/contracts/{orderId}/upload/{token}        multipart field 'file' (pdf/jpeg/png/gif ≤ 5 MB)
 *                                                                 → orderContract
 */

export const CONTRACT_STATUSES = ['generated', 'sent', 'signed', 'superseded', 'uploaded'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];

/** How long a merchant's contract or re-authorization link works: 14 days. */
export const CONTRACT_LINK_TTL_MS = 14 * 24 * 60 * 60 * 1000;

/** A link token as it appears in `#/contract/{tok}` (base64url, 43 characters for 256 bits). */
export const linkTokenParams = z.object({
  tok: z
    .string()
    .regex(/^[A-Za-z0-9_-]{20,128}$/, { message: 'This link is not valid: open the link from the e-mail again.' }),
});

const orderStatusCode = z.enum(ORDER_STATUS_CODES as [string, ...string[]]);

/** One line of the contract's summary (hardware, plan, charge), money in cents of the order's currency. */
export const contractLine = z.object({
  section: z.enum(['hardware', 'plan', 'charge', 'discount', 'tax']),
  description: z.string(),
  quantity: z.number().int(),
  amount_cents: z.number().int(),
});
export type ContractLine = z.infer<typeof contractLine>;

/** What the public contract page shows (no card or bank numbers). */
export const contractView = z.object({
  order_id: z.number().int(),
  unified_order_id: z.string(),
  contract_id: z.number().int(),
  version_no: z.number().int(),
  status: z.enum(CONTRACT_STATUSES),
  merchant_name: z.string(),
  store_name: z.string(),
  country: z.enum(MERCHANT_COUNTRY_CODES as ['US', 'CA']),
  currency: z.enum(CURRENCY_CODES),
  lines: z.array(contractLine),
  total_cents: z.number().int(),
  /** Relative URL of the PDF to read before signing. */
  pdf_url: z.string(),
  expires_at: z.string(),
});
export type ContractView = z.infer<typeof contractView>;

/** A signature drawn on the page: a PNG data URL of at most ~300 kB. */
export const SIGNATURE_PNG_PATTERN = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;

export const contractSignRequest = z.object({
  signer_name: z
    .string({ message: 'Type your full name.' })
    .trim()
    .min(2, { message: 'Type your full name.' })
    .max(120, { message: 'A name has at most 120 characters.' }),
  signature_png: z
    .string({ message: 'Draw your signature in the box.' })
    .max(400_000, { message: 'The signature image is too large: clear it and sign again.' })
    .regex(SIGNATURE_PNG_PATTERN, { message: 'Draw your signature in the box.' }),
  consent: z.literal(true, { message: 'Tick the box to agree to sign electronically.' }),
});
export type ContractSignRequest = z.infer<typeof contractSignRequest>;

export const contractSignResult = z.object({
  order_id: z.number().int(),
  unified_order_id: z.string(),
  contract_id: z.number().int(),
  signed_at: z.string(),
  signer_name: z.string(),
  /** The order's status after signing (the approval queue it went to). */
  order_status: orderStatusCode,
});
export type ContractSignResult = z.infer<typeof contractSignResult>;

/** What the re-authorization page shows: the order and the method on file (described, never the number). */
export const reauthorizeView = z.object({
  order_id: z.number().int(),
  unified_order_id: z.string(),
  merchant_name: z.string(),
  store_name: z.string(),
  country: z.enum(MERCHANT_COUNTRY_CODES as ['US', 'CA']),
  currency: z.enum(CURRENCY_CODES),
  current_method: z.string().nullable(),
  /** Where the browser tokenizes a card (the card number never reaches /api). */
  tokenize_url: z.string(),
  expires_at: z.string(),
});
export type ReauthorizeView = z.infer<typeof reauthorizeView>;

const reauthorizeConsent = z.literal(true, { message: 'Tick the box to authorize the payments.' });

/** The new method: a gateway card token, or a bank account (ACH for US: ABA routing; CA: transit + institution). */
export const reauthorizeRequest = z
  .discriminatedUnion(
    'kind',
    [
      cardInstrumentRequest.omit({ store_id: true, make_default: true }).extend({ consent: reauthorizeConsent }),
      z.object({
        kind: z.literal('bank'),
        name_on_account: z
          .string({ message: 'Enter the name on the account.' })
          .trim()
          .min(1, { message: 'Enter the name on the account.' })
          .max(100),
        routing_number: z.string({ message: 'Enter the routing number.' }).trim(),
        institution_number: z.string().trim().optional(),
        account_number: z
          .string({ message: 'Enter the account number.' })
          .trim()
          .regex(/^\d{4,17}$/, { message: 'An account number has 4–17 digits.' }),
        account_type: z.enum(BANK_ACCOUNT_TYPES, { message: 'Account type is checking or savings.' }),
        bank_name: z
          .string({ message: 'Enter the bank name.' })
          .trim()
          .min(1, { message: 'Enter the bank name.' })
          .max(100),
        consent: reauthorizeConsent,
      }),
    ],
    { message: 'Kind is card or bank.' },
  )
  .superRefine((b, ctx) => {
    if (b.kind !== 'bank') return;
    if (b.institution_number !== undefined && b.institution_number !== '') {
      if (!/^\d{3}$/.test(b.institution_number))
        ctx.addIssue({ code: 'custom', path: ['institution_number'], message: 'An institution number has 3 digits.' });
      if (!/^\d{5}$/.test(b.routing_number))
        ctx.addIssue({ code: 'custom', path: ['routing_number'], message: 'A Canadian transit number has 5 digits.' });
    } else if (!isValidAbaRoutingNumber(b.routing_number)) {
      ctx.addIssue({ code: 'custom', path: ['routing_number'], message: 'Enter a valid 9-digit ABA routing number.' });
    }
  });
export type ReauthorizeRequest = z.infer<typeof reauthorizeRequest>;

export const reauthorizeResult = z.object({
  order_id: z.number().int(),
  method: z.string(),
  authorized_at: z.string(),
});

/** One version of an order's contract, as staff see it. */
export const orderContract = z.object({
  id: z.number().int(),
  order_id: z.number().int(),
  version_no: z.number().int(),
  status: z.enum(CONTRACT_STATUSES),
  signed_by_name: z.string().nullable(),
  signed_at: z.string().nullable(),
  signed_from_ip: z.string().nullable(),
  created_at: z.string(),
  pdf_url: z.string(),
});
export type OrderContract = z.infer<typeof orderContract>;
export const orderContractList = z.object({ contracts: z.array(orderContract) });

export const orderContractParams = tokenParams.extend({ orderId: z.coerce.number().int().min(1).max(2_147_483_647) });
export const orderContractPdfParams = orderContractParams.extend({
  contractId: z.coerce.number().int().min(1).max(2_147_483_647),
});

export const contractLinkSendRequest = z.object({ kind: z.enum(['sign', 'reauthorize']).default('sign') });
export const contractLinkSent = z.object({
  order_id: z.number().int(),
  kind: z.enum(['sign', 'reauthorize']),
  sent_to: z.string(),
  expires_at: z.string(),
});
