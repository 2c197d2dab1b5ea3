import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  cardBrandOf,
  type CurrencyCode,
  DECLINE_LABELS,
  isCardExpired,
  type CardBrand,
  type DeclineCode,
  type GatewayToken,
} from '@pos/domain';
import type { Database } from '../../db/client';
import { AppError } from '../../http/errors';
import type { Clock } from '../../lib/clock';
import {
  GatewayOutcomeUnknown,
  type AuthorizeResult,
  type CardDetails,
  type ChargeLookup,
  type ChargeResult,
  type MoneyMoveResult,
  type PaymentGateway,
  type SettlementEntry,
  type SettlementKind,
} from './gateway.port';

/** Where the browser tokenizes cards when the local gateway is selected (served by local-gateway.routes.ts). */
export const LOCAL_GATEWAY_TOKENIZE_PATH = '/gateway-local/v1/tokens';
/** A token is good for 15 minutes. */
export const LOCAL_TOKEN_TTL_MS = 15 * 60_000;

/**
 * Test behaviour of the local gateway (decisions 059, 116). Cards, by their last four digits (every number below
 * passes the Luhn check; any expiry in the future, any CVC):
 */
export const LOCAL_TEST_CARDS: Readonly<Record<string, { number: string; outcome: DeclineCode | 'success' | 'slow' }>> =
  {
    '4242': { number: '4242 4242 4242 4242', outcome: 'success' },
    '0002': { number: '4000 0000 0000 0002', outcome: 'do_not_honor' },
    '9995': { number: '4000 0000 0000 9995', outcome: 'insufficient_funds' },
    '0119': { number: '4000 0000 0000 0119', outcome: 'processing_error' },
    '0036': { number: '4000 0000 0000 0036', outcome: 'issuer_unavailable' },
    '0101': { number: '4000 0000 0000 0101', outcome: 'timeout' },
    '9979': { number: '4000 0000 0000 9979', outcome: 'stolen_card' },
    '9987': { number: '4000 0000 0000 9987', outcome: 'lost_card' },
    '0127': { number: '4000 0000 0000 0127', outcome: 'invalid_account' },
    '0085': { number: '4000 0000 0000 0085', outcome: 'account_closed' },
    '0069': { number: '4000 0000 0000 0069', outcome: 'expired_card' },
    '0019': { number: '4100 0000 0000 0019', outcome: 'fraud' },
    '0341': { number: '4000 0000 0000 0341', outcome: 'slow' },
  };
/**
 * Bank accounts (ACH / PAD), by the account number's last four digits: a debit is accepted as pending and settles
 * the next day (LOCAL_SETTLEMENT_MS) — as a success, or failed with the code below; …4444 settles, then comes back
 * (returned) a day after settlement.
 */
export const LOCAL_TEST_BANK_ACCOUNTS: Readonly<Record<string, DeclineCode | 'returned'>> = {
  '1111': 'insufficient_funds',
  '2222': 'account_closed',
  '3333': 'invalid_account',
  '4444': 'returned',
};
/** A charge whose amount ends in 51 cents is declined 'Insufficient funds' (any card or account). */
export const LOCAL_DECLINE_CENTS = 51;
export const LOCAL_DECLINED_CARD_LAST4 = '0002';
export const LOCAL_SETTLEMENT_MS = 24 * 3600_000;
/** How long the timeout card keeps the caller waiting before the call fails without an answer. */
const TIMEOUT_CARD_WAIT_MS = 50;

/** The failure sentence of a decline code (what a processor says). */
function reasonOf(code: DeclineCode): string {
  return code === 'do_not_honor' ? 'Card declined' : DECLINE_LABELS[code];
}

interface TokenPayload {
  /** brand */ b: CardBrand;
  /** last4 */ l: string;
  /** exp month */ m: number;
  /** exp year */ y: number;
  /** nonce */ n: string;
  /** issued at (ms) */ t: number;
}

/** One answered call, as the gateway remembers it. */
export interface LocalOperation {
  idempotencyKey: string;
  operation: 'charge' | 'authorize' | 'capture' | 'void' | 'refund';
  reference: string;
  parentReference: string | null;
  amountCents: number;
  currency: string | null;
  paymentReference: string | null;
  instrumentKind: string | null;
  status: string;
  declineCode: DeclineCode | null;
  failureReason: string | null;
  createdAt: Date;
}

/** Where the local gateway keeps its answers: the database (durable: survives a restart) or memory (unit tests). */
export interface LocalGatewayStore {
  byKey(key: string): Promise<LocalOperation | null>;
  byReference(reference: string): Promise<LocalOperation | null>;
  /** Insert unless the key exists; answers the stored operation (the first one wins). */
  insert(op: LocalOperation): Promise<LocalOperation>;
  setStatus(reference: string, status: string): Promise<void>;
  /** Sum of the successful child operations of `operation` under a parent. */
  childTotal(parentReference: string, operation: string): Promise<number>;
  /** How many charges the gateway has received (tests: "the gateway saw one charge"). */
  countCharges(paymentReference?: string): Promise<number>;
  /** Write a line of the gateway's books; a line already there (same id and kind) is kept (decision 146). */
  book(entry: SettlementEntry): Promise<void>;
  /** The lines of the books in [from, to) in a currency, by time. */
  booksBetween(from: Date, to: Date, currency: CurrencyCode): Promise<SettlementEntry[]>;
  /** Bank debits still pending (not voided) made before `before`: the ones whose settlement may be due. */
  pendingBankCharges(before: Date): Promise<LocalOperation[]>;
}

export function memoryGatewayStore(): LocalGatewayStore {
  const ops = new Map<string, LocalOperation>();
  const books = new Map<string, SettlementEntry>();
  const all = () => [...ops.values()];
  return {
    async book(entry) {
      const key = `${entry.kind}:${entry.gatewayTransactionId}`;
      if (!books.has(key)) books.set(key, { ...entry });
    },
    async booksBetween(from, to, currency) {
      return [...books.values()]
        .filter((e) => e.currency === currency && e.at >= from && e.at < to)
        .sort(
          (a, b) => a.at.getTime() - b.at.getTime() || a.gatewayTransactionId.localeCompare(b.gatewayTransactionId),
        );
    },
    async pendingBankCharges(before) {
      return all().filter(
        (o) =>
          o.operation === 'charge' && o.instrumentKind === 'bank' && o.status === 'pending' && o.createdAt < before,
      );
    },
    async byKey(key) {
      return ops.get(key) ?? null;
    },
    async byReference(reference) {
      return all().find((o) => o.reference === reference) ?? null;
    },
    async insert(op) {
      const seen = ops.get(op.idempotencyKey);
      if (seen) return seen;
      ops.set(op.idempotencyKey, op);
      return op;
    },
    async setStatus(reference, status) {
      for (const o of all()) if (o.reference === reference) o.status = status;
    },
    async childTotal(parent, operation) {
      return all()
        .filter((o) => o.parentReference === parent && o.operation === operation && o.status === 'succeeded')
        .reduce((s, o) => s + o.amountCents, 0);
    },
    async countCharges(paymentReference) {
      return all().filter(
        (o) => o.operation === 'charge' && (paymentReference === undefined || o.paymentReference === paymentReference),
      ).length;
    },
  };
}

interface OpRow {
  idempotency_key: string;
  operation: LocalOperation['operation'];
  reference: string;
  parent_reference: string | null;
  amount_cents: string | number;
  currency: string | null;
  payment_reference: string | null;
  instrument_kind: string | null;
  status: string;
  decline_code: DeclineCode | null;
  failure_reason: string | null;
  created_at: Date | string;
}
interface BookRow {
  gateway_transaction_id: string;
  charge_reference: string;
  our_reference: string | null;
  kind: SettlementKind;
  amount_cents: string | number;
  currency: CurrencyCode;
  at: Date | string;
}
const bookFromRow = (r: BookRow): SettlementEntry => ({
  gatewayTransactionId: r.gateway_transaction_id,
  chargeReference: r.charge_reference,
  ourReference: r.our_reference,
  kind: r.kind,
  amountCents: Number(r.amount_cents),
  currency: r.currency,
  at: new Date(r.at),
});
const fromRow = (r: OpRow): LocalOperation => ({
  idempotencyKey: r.idempotency_key,
  operation: r.operation,
  reference: r.reference,
  parentReference: r.parent_reference,
  amountCents: Number(r.amount_cents),
  currency: r.currency,
  paymentReference: r.payment_reference,
  instrumentKind: r.instrument_kind,
  status: r.status,
  declineCode: r.decline_code,
  failureReason: r.failure_reason,
  createdAt: new Date(r.created_at),
});

/**
 * The tables local_gateway_operations (every call it answered) and local_gateway_books (its books: what it settled,
 * refunded, voided, charged back; migration 0031) — one statement per call, no transaction: never called inside
 * one of ours.
 */
export function databaseGatewayStore(database: Database): LocalGatewayStore {
  const one = async (text: string, params: unknown[]) => {
    const [row] = await database.query<OpRow>(text, params);
    return row ? fromRow(row) : null;
  };
  return {
    async book(e) {
      await database.query(
        `insert into local_gateway_books (gateway_transaction_id, charge_reference, our_reference, kind, amount_cents,
           currency, at)
         values ($1, $2, $3, $4, $5, $6, $7) on conflict (gateway_transaction_id, kind) do nothing`,
        [e.gatewayTransactionId, e.chargeReference, e.ourReference, e.kind, e.amountCents, e.currency, e.at],
      );
    },
    async booksBetween(from, to, currency) {
      const rows = await database.query<BookRow>(
        `select * from local_gateway_books where currency = $3 and at >= $1 and at < $2
         order by at, gateway_transaction_id`,
        [from, to, currency],
      );
      return rows.map(bookFromRow);
    },
    async pendingBankCharges(before) {
      const rows = await database.query<OpRow>(
        `select * from local_gateway_operations where operation = 'charge' and instrument_kind = 'bank'
           and status = 'pending' and created_at < $1 order by created_at`,
        [before],
      );
      return rows.map(fromRow);
    },
    byKey: (key) => one('select * from local_gateway_operations where idempotency_key = $1', [key]),
    byReference: (ref) => one('select * from local_gateway_operations where reference = $1', [ref]),
    async insert(op) {
      const inserted = await one(
        `insert into local_gateway_operations (idempotency_key, operation, reference, parent_reference, amount_cents,
           currency, payment_reference, instrument_kind, status, decline_code, failure_reason, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         on conflict (idempotency_key) do nothing returning *`,
        [
          op.idempotencyKey,
          op.operation,
          op.reference,
          op.parentReference,
          op.amountCents,
          op.currency,
          op.paymentReference,
          op.instrumentKind,
          op.status,
          op.declineCode,
          op.failureReason,
          op.createdAt,
        ],
      );
      return (
        inserted ??
        (await one('select * from local_gateway_operations where idempotency_key = $1', [op.idempotencyKey]))!
      );
    },
    async setStatus(reference, status) {
      await database.query('update local_gateway_operations set status = $2 where reference = $1', [reference, status]);
    },
    async childTotal(parent, operation) {
      const [row] = await database.query<{ total: string | number }>(
        `select coalesce(sum(amount_cents), 0) as total from local_gateway_operations
         where parent_reference = $1 and operation = $2 and status = 'succeeded'`,
        [parent, operation],
      );
      return Number(row?.total ?? 0);
    },
    async countCharges(paymentReference) {
      const [row] = await database.query<{ n: string | number }>(
        `select count(*) as n from local_gateway_operations where operation = 'charge'
           and ($1::text is null or payment_reference = $1)`,
        [paymentReference ?? null],
      );
      return Number(row?.n ?? 0);
    },
  };
}

export interface LocalGateway extends PaymentGateway {
  readonly kind: 'local';
  /** What the local tokenize route does: a card (already checked by the contract) → a signed token. */
  tokenize(card: { number: string; exp_month: number; exp_year: number }): GatewayToken;
  /** What it remembers (tests). */
  readonly store: LocalGatewayStore;
}

const b64 = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The last four digits a payment reference ends with ('pm_local_…_4242', 'bank_12_4444'). */
function last4Of(paymentReference: string): string {
  return /_(\d{4})$/.exec(paymentReference)?.[1] ?? '';
}

/** What a card or account does with a charge of `amountCents` (decline code, success, or the special cards). */
function outcomeOf(
  kind: string,
  paymentReference: string,
  amountCents: number,
): DeclineCode | 'success' | 'slow' | 'returned' {
  const last4 = last4Of(paymentReference);
  if (kind === 'bank') {
    const bank = LOCAL_TEST_BANK_ACCOUNTS[last4];
    if (bank) return bank;
  } else {
    const card = LOCAL_TEST_CARDS[last4];
    if (card && card.outcome !== 'success') return card.outcome;
  }
  return amountCents % 100 === LOCAL_DECLINE_CENTS ? 'insufficient_funds' : 'success';
}

/**
 * A gateway without a gateway. Tokens are HMAC-signed blobs (key in memory, per process) carrying brand, last4
 * and expiry — the full number is thrown away once the token is made. Charges are decided by the test cards and
 * accounts above; every answer is remembered by its idempotency key (in the database when one is given: after a
 * restart too), so a repeated key answers the first result and lookupCharge can tell what happened. Bank debits
 * settle a day after they were made (by the injected clock).
 */
export function createLocalGateway(deps: {
  clock: Clock;
  available?: boolean;
  key?: Buffer;
  database?: Database;
  store?: LocalGatewayStore;
  /** How long the slow card (…0341) takes to answer (crash tests kill the caller meanwhile). Default 3 s. */
  slowMs?: number;
}): LocalGateway {
  const key = deps.key ?? randomBytes(32);
  const available = deps.available ?? true;
  const store = deps.store ?? (deps.database ? databaseGatewayStore(deps.database) : memoryGatewayStore());
  const slowMs = deps.slowMs ?? 3000;
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
  const newRef = (prefix: string) => `${prefix}_local_${randomBytes(8).toString('hex')}`;

  /** A charge as it stands now: a bank debit moves from pending to settled (or failed, or returned) by the clock. */
  function current(op: LocalOperation): ChargeLookup {
    if (op.status === 'voided')
      return {
        status: 'failed',
        reference: op.reference,
        declineCode: null,
        failureReason: 'Voided before it settled',
      };
    let status = op.status as ChargeLookup['status'];
    let declineCode = op.declineCode;
    if (op.instrumentKind === 'bank' && status === 'pending') {
      const age = deps.clock.now().getTime() - op.createdAt.getTime();
      if (age >= LOCAL_SETTLEMENT_MS) {
        const outcome = outcomeOf('bank', op.paymentReference ?? '', op.amountCents);
        if (outcome === 'returned') status = age >= 2 * LOCAL_SETTLEMENT_MS ? 'returned' : 'succeeded';
        else if (outcome === 'success' || outcome === 'slow') status = 'succeeded';
        else {
          status = 'failed';
          declineCode = outcome;
        }
      }
    }
    return {
      status,
      reference: op.reference,
      declineCode: status === 'failed' ? declineCode : null,
      failureReason:
        status === 'failed' && declineCode
          ? reasonOf(declineCode)
          : status === 'returned'
            ? 'Returned by the bank'
            : null,
    };
  }
  /** A line of the gateway's books for an operation it accepted (decision 146). */
  const bookOp = (op: LocalOperation, kind: SettlementKind, at: Date, chargeReference: string, amountCents?: number) =>
    op.currency
      ? store.book({
          gatewayTransactionId: op.reference,
          chargeReference,
          ourReference: op.idempotencyKey,
          kind,
          amountCents: amountCents ?? op.amountCents,
          currency: op.currency as CurrencyCode,
          at,
        })
      : Promise.resolve();
  /** A card charge is settled when accepted (a bank debit a day later: settleDueBankDebits). */
  const bookCardCharge = (op: LocalOperation) =>
    op.operation === 'charge' && op.instrumentKind !== 'bank' && op.status === 'succeeded'
      ? bookOp(op, 'charge', op.createdAt, op.reference)
      : Promise.resolve();
  /**
   * Bank debits settle a day after they were made and a returned one comes back a day later: their lines are
   * written when the clock has passed those times (dated then), before the books are read.
   */
  async function settleDueBankDebits(now: Date) {
    for (const op of await store.pendingBankCharges(new Date(now.getTime() - LOCAL_SETTLEMENT_MS + 1))) {
      const outcome = outcomeOf('bank', op.paymentReference ?? '', op.amountCents);
      if (outcome !== 'success' && outcome !== 'slow' && outcome !== 'returned') continue;
      await bookOp(op, 'charge', new Date(op.createdAt.getTime() + LOCAL_SETTLEMENT_MS), op.reference);
      const returnedAt = new Date(op.createdAt.getTime() + 2 * LOCAL_SETTLEMENT_MS);
      if (outcome === 'returned' && returnedAt <= now)
        await store.book({
          gatewayTransactionId: `${op.reference}_return`,
          chargeReference: op.reference,
          ourReference: op.idempotencyKey,
          kind: 'chargeback',
          amountCents: op.amountCents,
          currency: op.currency as CurrencyCode,
          at: returnedAt,
        });
    }
  }
  const asCharge = (l: ChargeLookup): ChargeResult => ({
    ...l,
    status: l.status === 'returned' ? 'succeeded' : l.status,
  });

  return {
    kind: 'local',
    available,
    tokenizeUrl: LOCAL_GATEWAY_TOKENIZE_PATH,
    store,

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
      const seen = await store.byKey(input.idempotencyKey);
      if (seen) {
        await bookCardCharge(seen);
        return asCharge(current(seen));
      }
      const outcome = outcomeOf(input.instrumentKind, input.paymentReference, input.amountCents);
      const bank = input.instrumentKind === 'bank';
      const declined = !bank && outcome !== 'success' && outcome !== 'slow' && outcome !== 'returned';
      const op = await store.insert({
        idempotencyKey: input.idempotencyKey,
        operation: 'charge',
        reference: newRef('ch'),
        parentReference: null,
        amountCents: input.amountCents,
        currency: input.currency,
        paymentReference: input.paymentReference,
        instrumentKind: input.instrumentKind,
        status: bank ? 'pending' : declined ? 'failed' : 'succeeded',
        declineCode: declined ? (outcome as DeclineCode) : null,
        failureReason: declined ? reasonOf(outcome as DeclineCode) : null,
        createdAt: deps.clock.now(),
      });
      await bookCardCharge(op);
      if (!bank && outcome === 'timeout') {
        await sleep(TIMEOUT_CARD_WAIT_MS);
        throw new GatewayOutcomeUnknown('The payment gateway did not answer in time.');
      }
      if (!bank && outcome === 'slow') await sleep(slowMs);
      return asCharge(current(op));
    },

    async lookupCharge(idempotencyKey) {
      refuse();
      const op = await store.byKey(idempotencyKey);
      return op && op.operation === 'charge' ? current(op) : null;
    },

    async authorize(input) {
      refuse();
      const seen = await store.byKey(input.idempotencyKey);
      const op =
        seen ??
        (await (async () => {
          const outcome = outcomeOf('card', input.paymentReference, input.amountCents);
          const declined = outcome !== 'success' && outcome !== 'slow' && outcome !== 'returned';
          return store.insert({
            idempotencyKey: input.idempotencyKey,
            operation: 'authorize',
            reference: newRef('auth'),
            parentReference: null,
            amountCents: input.amountCents,
            currency: input.currency,
            paymentReference: input.paymentReference,
            instrumentKind: 'card',
            status: declined ? 'declined' : 'authorized',
            declineCode: declined ? (outcome as DeclineCode) : null,
            failureReason: declined ? reasonOf(outcome as DeclineCode) : null,
            createdAt: deps.clock.now(),
          });
        })());
      const result: AuthorizeResult = {
        status: op.status === 'declined' ? 'declined' : 'authorized',
        reference: op.reference,
        declineReason: op.status === 'declined' ? op.failureReason : null,
        declineCode: op.status === 'declined' ? op.declineCode : null,
      };
      return result;
    },

    async capture(input): Promise<MoneyMoveResult> {
      refuse();
      const seen = await store.byKey(input.idempotencyKey);
      if (seen)
        return {
          status: seen.status as 'succeeded' | 'failed',
          reference: seen.reference,
          failureReason: seen.failureReason,
        };
      const auth = await store.byReference(input.authorizationReference);
      const why =
        !auth || auth.operation !== 'authorize'
          ? 'No such authorization.'
          : auth.status !== 'authorized'
            ? `The authorization is ${auth.status}.`
            : input.amountCents > auth.amountCents
              ? 'The amount is more than was authorized.'
              : null;
      const op = await store.insert({
        idempotencyKey: input.idempotencyKey,
        operation: 'capture',
        reference: newRef('cap'),
        parentReference: input.authorizationReference,
        amountCents: input.amountCents,
        currency: auth?.currency ?? null,
        paymentReference: auth?.paymentReference ?? null,
        instrumentKind: 'card',
        status: why ? 'failed' : 'succeeded',
        declineCode: null,
        failureReason: why,
        createdAt: deps.clock.now(),
      });
      if (!why) {
        await store.setStatus(input.authorizationReference, 'captured');
        await bookOp(op, 'charge', op.createdAt, op.reference);
      }
      return { status: op.status as 'succeeded' | 'failed', reference: op.reference, failureReason: op.failureReason };
    },

    async refund(input): Promise<MoneyMoveResult> {
      refuse();
      const seen = await store.byKey(input.idempotencyKey);
      if (seen)
        return {
          status: seen.status as 'succeeded' | 'failed',
          reference: seen.reference,
          failureReason: seen.failureReason,
        };
      const charge = await store.byReference(input.chargeReference);
      const settled =
        charge && (charge.operation === 'charge' || charge.operation === 'capture') ? current(charge) : null;
      const refunded = charge ? await store.childTotal(charge.reference, 'refund') : 0;
      const why = !settled
        ? 'No such charge.'
        : settled.status !== 'succeeded'
          ? `The charge is ${settled.status}; only a settled charge can be refunded.`
          : input.amountCents > charge!.amountCents - refunded
            ? `At most ${charge!.amountCents - refunded} cents of this charge are left to refund.`
            : null;
      const op = await store.insert({
        idempotencyKey: input.idempotencyKey,
        operation: 'refund',
        reference: newRef('re'),
        parentReference: input.chargeReference,
        amountCents: input.amountCents,
        currency: charge?.currency ?? null,
        paymentReference: charge?.paymentReference ?? null,
        instrumentKind: charge?.instrumentKind ?? null,
        status: why ? 'failed' : 'succeeded',
        declineCode: null,
        failureReason: why,
        createdAt: deps.clock.now(),
      });
      if (op.status === 'succeeded') await bookOp(op, 'refund', op.createdAt, input.chargeReference);
      return { status: op.status as 'succeeded' | 'failed', reference: op.reference, failureReason: op.failureReason };
    },

    async voidCharge(input) {
      refuse();
      const seen = await store.byKey(input.idempotencyKey);
      if (seen) return { reference: input.reference };
      const target = await store.byReference(input.reference);
      const voided = await store.insert({
        idempotencyKey: input.idempotencyKey,
        operation: 'void',
        reference: newRef('void'),
        parentReference: input.reference,
        amountCents: 0,
        currency: target?.currency ?? null,
        paymentReference: target?.paymentReference ?? null,
        instrumentKind: target?.instrumentKind ?? null,
        status: 'succeeded',
        declineCode: null,
        failureReason: null,
        createdAt: deps.clock.now(),
      });
      // A charge voided before it settled is a line of the books (what it released); a released hold is not money.
      if (target?.operation === 'charge' && (target.status === 'pending' || target.status === 'succeeded'))
        await bookOp(
          { ...voided, currency: target.currency },
          'void',
          voided.createdAt,
          target.reference,
          target.amountCents,
        );
      if (target) await store.setStatus(input.reference, 'voided');
      return { reference: input.reference };
    },

    async settlementReport({ day, currency }) {
      refuse();
      const from = new Date(`${day}T00:00:00Z`);
      if (Number.isNaN(from.getTime())) throw new AppError('validation_failed', `Not a day: ${day}.`);
      await settleDueBankDebits(deps.clock.now());
      return store.booksBetween(from, new Date(from.getTime() + 86_400_000), currency);
    },

    async updateCustomer(input) {
      refuse();
      return { customerReference: `cus_local_${input.customerId}` };
    },
  };
}
