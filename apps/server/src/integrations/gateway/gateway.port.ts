import type { CardBrand, CurrencyCode, DeclineCode } from '@pos/domain';

/**
 * The payment gateway as the rest of the server sees it. Cards never reach us: the browser sends the card to the
 * gateway (its tokenize URL) and gives us the token, which we redeem here for brand/last4/expiry and a processor
 * reference. Every call that moves money carries an idempotency key, so a repeated call never charges twice, and
 * `lookupCharge(key)` tells what became of a charge whose answer was lost (the reconciler; decision 116).
 * A charge whose answer does not arrive (timeout, network) throws GatewayOutcomeUnknown: the caller keeps its P
 * transaction and lets the reconciler ask.
 * Two implementations: `local-gateway.ts` (no PAYMENT_GATEWAY_URL; deterministic test behaviour) and
 * `http-gateway.ts` (PAYMENT_GATEWAY_URL). Pick one with `createGateway(config, clock)` (index.ts).
 */

export interface CardDetails {
  brand: CardBrand;
  last4: string;
  expMonth: number;
  expYear: number;
  /** The gateway's reference for the payment method (stored as payment_instruments.processor_reference). */
  reference: string;
}

export interface ChargeInput {
  customerId: number;
  amountCents: number;
  currency: CurrencyCode;
  /** The payment method's processor reference (card) or our instrument reference (bank). */
  paymentReference: string;
  instrumentKind: 'card' | 'bank' | 'cash';
  /** The same key answers the same charge again (no second charge). */
  idempotencyKey: string;
  description: string;
}

export interface ChargeResult {
  /** 'pending': a bank debit (ACH / PAD) accepted, not yet settled — ask again with lookupCharge. */
  status: 'succeeded' | 'failed' | 'pending';
  /** The gateway's reference of this charge. */
  reference: string;
  /** Why a charge failed (a sentence a person can read). */
  failureReason: string | null;
  /** The decline code of a failed charge (soft or hard: domain DECLINE_KIND). */
  declineCode: DeclineCode | null;
}

/** What became of a charge, asked by its idempotency key. 'returned': a settled bank debit came back. */
export interface ChargeLookup extends Omit<ChargeResult, 'status'> {
  status: ChargeResult['status'] | 'returned';
}

export interface CaptureInput {
  /** The authorization's reference. */
  authorizationReference: string;
  /** At most the authorized amount. */
  amountCents: number;
  idempotencyKey: string;
}

export interface RefundInput {
  /** The settled charge's reference. */
  chargeReference: string;
  /** At most what is left of the charge after earlier refunds. */
  amountCents: number;
  idempotencyKey: string;
  reason: string;
}

export interface MoneyMoveResult {
  status: 'succeeded' | 'failed';
  reference: string;
  failureReason: string | null;
}

/** A money call whose answer never came: it may or may not have happened at the gateway. Ask with lookupCharge. */
export class GatewayOutcomeUnknown extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GatewayOutcomeUnknown';
  }
}

export interface VoidInput {
  /** The charge's gateway reference. */
  reference: string;
  idempotencyKey: string;
}

export interface AuthorizeInput {
  /** The order's customer, when it has one. */
  customerId: number | null;
  amountCents: number;
  currency: CurrencyCode;
  /** The card's processor reference. */
  paymentReference: string;
  /** The same key answers the same authorization again (no second hold). */
  idempotencyKey: string;
  description: string;
}

export interface AuthorizeResult {
  status: 'authorized' | 'declined';
  /** The gateway's reference of this authorization (a hold, not a charge). */
  reference: string;
  /** Why it was declined (a sentence a person can read). */
  declineReason: string | null;
  declineCode: DeclineCode | null;
}

export interface GatewayCustomerInput {
  customerId: number;
  name: string;
  email: string;
  /** The default payment method's processor reference, if it is a card. */
  defaultPaymentReference: string | null;
}

/** What a line of the gateway's settlement report records (decision 146). */
export const SETTLEMENT_KINDS = ['charge', 'refund', 'void', 'chargeback'] as const;
export type SettlementKind = (typeof SETTLEMENT_KINDS)[number];

/**
 * One line of the gateway's own books for a day: money it settled (a charge or a captured hold), refunded, a
 * charge it voided before settlement (the amount voided), a settled charge that came back (chargeback, bank return).
 */
export interface SettlementEntry {
  /** The gateway's id of this line (a charge's, a refund's, a void's, a chargeback's reference). */
  gatewayTransactionId: string;
  /** The charge a refund, void or chargeback acts on; for a charge, its own reference. */
  chargeReference: string;
  /** What we sent with the call: its idempotency key (null when the gateway does not know one). */
  ourReference: string | null;
  kind: SettlementKind;
  /** Integer cents, positive (a void: what it released). */
  amountCents: number;
  currency: CurrencyCode;
  at: Date;
}

export interface SettlementReportInput {
  /** A UTC calendar day, YYYY-MM-DD: the gateway settles in UTC days. */
  day: string;
  currency: CurrencyCode;
}

export interface PaymentGateway {
  readonly kind: 'local' | 'remote';
  /** False when this gateway may not be used (the local gateway in production): every call answers 503. */
  readonly available: boolean;
  /** Where the browser posts the card to get a token. */
  readonly tokenizeUrl: string;
  /** Redeem a card token; a bad, tampered or expired token → AppError('validation_failed', …, {card_token}). */
  redeemCardToken(token: string): Promise<CardDetails>;
  /** Charge (or, for a bank account, start a debit). Throws GatewayOutcomeUnknown when no answer came. */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /** What became of the charge sent with this idempotency key; null: the gateway never received it. */
  lookupCharge(idempotencyKey: string): Promise<ChargeLookup | null>;
  /** Void a pending charge or release an authorization (hold). */
  voidCharge(input: VoidInput): Promise<{ reference: string }>;
  /** Capture (part of) an authorization. */
  capture(input: CaptureInput): Promise<MoneyMoveResult>;
  /** Refund (part of) a settled charge. */
  refund(input: RefundInput): Promise<MoneyMoveResult>;
  /** Authorize (hold, do not capture) an amount on a card. */
  authorize(input: AuthorizeInput): Promise<AuthorizeResult>;
  /**
   * The gateway's own books for one UTC day and currency: what it settled, refunded, voided and charged back
   * (reconciliation, decision 146). Throws AppError('unavailable') when it cannot answer.
   */
  settlementReport(input: SettlementReportInput): Promise<SettlementEntry[]>;
  /** Spec §7 "Payment gateway host: POST /customers/{id}" — create or update the gateway's customer. */
  updateCustomer(input: GatewayCustomerInput): Promise<{ customerReference: string }>;
}
