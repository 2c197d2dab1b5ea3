import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { cardBrandOf, isCardExpired, type CardBrand, type GatewayToken } from '@pos/domain';
import { AppError } from '../../http/errors';
import type { Clock } from '../../lib/clock';
import type { AuthorizeResult, CardDetails, ChargeResult, PaymentGateway } from './gateway.port';

/** Where the browser tokenizes cards when the local gateway is selected (served by local-gateway.routes.ts). */
export const LOCAL_GATEWAY_TOKENIZE_PATH = '/gateway-local/v1/tokens';
/** A token is good for 15 minutes. */
export const LOCAL_TOKEN_TTL_MS = 15 * 60_000;

/**
 * Test behaviour of the local gateway (decision 059):
 * - a charge whose amount ends in 51 cents is declined 'Insufficient funds';
 * - a card ending 0002 (e.g. 4000 0000 0000 0002) tokenizes but every charge on it is declined 'Card declined';
 * - everything else succeeds.
 * Authorizations follow the same rules (declined with the same reasons).
 */
export const LOCAL_DECLINE_CENTS = 51;
export const LOCAL_DECLINED_CARD_LAST4 = '0002';

interface TokenPayload {
  /** brand */ b: CardBrand;
  /** last4 */ l: string;
  /** exp month */ m: number;
  /** exp year */ y: number;
  /** nonce */ n: string;
  /** issued at (ms) */ t: number;
}

export interface LocalGateway extends PaymentGateway {
  readonly kind: 'local';
  /** What the local tokenize route does: a card (already checked by the contract) → a signed token. */
  tokenize(card: { number: string; exp_month: number; exp_year: number }): GatewayToken;
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

/**
 * A gateway without a gateway. Tokens are HMAC-signed blobs (key in memory, per process) carrying brand, last4
 * and expiry — nothing is stored, and the full number is thrown away once the token is made. Charges are decided
 * by the rules above; a repeated idempotency key answers the first result.
 */
export function createLocalGateway(deps: { clock: Clock; available?: boolean; key?: Buffer }): LocalGateway {
  const key = deps.key ?? randomBytes(32);
  const available = deps.available ?? true;
  const charges = new Map<string, ChargeResult>();
  const authorizations = new Map<string, AuthorizeResult>();
  const sign = (payload: string) => createHmac('sha256', key).update(payload).digest();
  const refuse = () => {
    if (!available)
      throw new AppError(
        'unavailable',
        'No payment gateway is configured (set PAYMENT_GATEWAY_URL); the local test gateway is not used in production.',
      );
  };
  const badToken = (why: string) =>
    new AppError('validation_failed', `The card token is not valid (${why}). Enter the card again.`, {
      card_token: `The card token is not valid (${why}).`,
    });

  return {
    kind: 'local',
    available,
    tokenizeUrl: LOCAL_GATEWAY_TOKENIZE_PATH,

    tokenize(card) {
      refuse();
      const now = deps.clock.now();
      if (isCardExpired(card.exp_month, card.exp_year, now)) {
        throw new AppError('validation_failed', 'The card has expired.', { exp_year: 'The card has expired.' });
      }
      const payload: TokenPayload = {
        b: cardBrandOf(card.number),
        l: card.number.slice(-4),
        m: card.exp_month,
        y: card.exp_year,
        n: randomBytes(9).toString('base64url'),
        t: now.getTime(),
      };
      const body = b64(JSON.stringify(payload));
      return {
        token: `tok_local_${body}.${b64(sign(body))}`,
        brand: payload.b,
        last4: payload.l,
        exp_month: payload.m,
        exp_year: payload.y,
      };
    },

    async redeemCardToken(token): Promise<CardDetails> {
      refuse();
      const m = /^tok_local_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
      if (!m) throw badToken('not a token of this gateway');
      const expected = sign(m[1]!);
      const given = Buffer.from(m[2]!, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badToken('signature mismatch');
      const payload = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8')) as TokenPayload;
      if (deps.clock.now().getTime() - payload.t > LOCAL_TOKEN_TTL_MS) throw badToken('expired');
      return {
        brand: payload.b,
        last4: payload.l,
        expMonth: payload.m,
        expYear: payload.y,
        reference: `pm_local_${payload.n}_${payload.l}`,
      };
    },

    async charge(input) {
      refuse();
      const seen = charges.get(input.idempotencyKey);
      if (seen) return seen;
      const reference = `ch_local_${randomBytes(8).toString('hex')}`;
      let result: ChargeResult;
      if (input.instrumentKind === 'card' && input.paymentReference.endsWith(`_${LOCAL_DECLINED_CARD_LAST4}`)) {
        result = { status: 'failed', reference, failureReason: 'Card declined' };
      } else if (input.amountCents % 100 === LOCAL_DECLINE_CENTS) {
        result = { status: 'failed', reference, failureReason: 'Insufficient funds' };
      } else {
        result = { status: 'succeeded', reference, failureReason: null };
      }
      charges.set(input.idempotencyKey, result);
      return result;
    },

    async authorize(input) {
      refuse();
      const seen = authorizations.get(input.idempotencyKey);
      if (seen) return seen;
      const reference = `auth_local_${randomBytes(8).toString('hex')}`;
      let result: AuthorizeResult;
      if (input.paymentReference.endsWith(`_${LOCAL_DECLINED_CARD_LAST4}`)) {
        result = { status: 'declined', reference, declineReason: 'Card declined' };
      } else if (input.amountCents % 100 === LOCAL_DECLINE_CENTS) {
        result = { status: 'declined', reference, declineReason: 'Insufficient funds' };
      } else {
        result = { status: 'authorized', reference, declineReason: null };
      }
      authorizations.set(input.idempotencyKey, result);
      return result;
    },

    async voidCharge(input) {
      refuse();
      return { reference: input.reference };
    },

    async updateCustomer(input) {
      refuse();
      return { customerReference: `cus_local_${input.customerId}` };
    },
  };
}
