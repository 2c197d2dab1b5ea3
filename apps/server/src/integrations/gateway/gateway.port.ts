import type { CardBrand, CurrencyCode } from '@pos/domain';

/**
 * The payment gateway as the rest of the server sees it. Cards never reach us: the browser sends the card to the
 * gateway (its tokenize URL) and gives us the token, which we redeem here for brand/last4/expiry and a processor
 * reference. Charges and voids carry an idempotency key, so a repeated call never charges twice.
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
  status: 'succeeded' | 'failed';
  /** The gateway's reference of this charge. */
  reference: string;
  /** Why a charge failed (a sentence a person can read). */
  failureReason: string | null;
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
}

export interface GatewayCustomerInput {
  customerId: number;
  name: string;
  email: string;
  /** The default payment method's processor reference, if it is a card. */
  defaultPaymentReference: string | null;
}

export interface PaymentGateway {
  readonly kind: 'local' | 'remote';
  /** False when this gateway may not be used (the local gateway in production): every call answers 503. */
  readonly available: boolean;
  /** Where the browser posts the card to get a token. */
  readonly tokenizeUrl: string;
  /** Redeem a card token; a bad, tampered or expired token → AppError('validation_failed', …, {card_token}). */
  redeemCardToken(token: string): Promise<CardDetails>;
  charge(input: ChargeInput): Promise<ChargeResult>;
  voidCharge(input: VoidInput): Promise<{ reference: string }>;
  /** Authorize (hold, do not capture) an amount on a card. */
  authorize(input: AuthorizeInput): Promise<AuthorizeResult>;
  /** Spec §7 "Payment gateway host: POST /customers/{id}" — create or update the gateway's customer. */
  updateCustomer(input: GatewayCustomerInput): Promise<{ customerReference: string }>;
}
