import { z } from 'zod';
import { CARD_BRANDS, CURRENCY_CODES, DECLINE_CODES } from '@pos/domain';
import { AppError } from '../../http/errors';
import { GatewayOutcomeUnknown, SETTLEMENT_KINDS, type PaymentGateway, type SettlementEntry } from './gateway.port';

/*
 * The payment gateway over HTTP (PAYMENT_GATEWAY_URL set). `Authorization: Bearer PAYMENT_GATEWAY_API_KEY`.
 *   POST {url}/v1/tokens                      (the browser, not us: tokenize a card)
 *   POST {url}/v1/tokens/redeem   {token}                                   → {brand, last4, exp_month, exp_year, reference}
 *   POST {url}/v1/charges         {customer_id, amount_cents, currency, payment_reference, description}
 *                                 + Idempotency-Key                         → {status: succeeded|failed|pending, reference,
 *                                                                             failure_reason?, decline_code?}
 *   GET  {url}/v1/charges?idempotency_key=K                                → the same answer (status may be 'returned'); 404: never received
 *   POST {url}/v1/charges/{reference}/void  + Idempotency-Key              → {reference}   (a charge or a hold)
 *   POST {url}/v1/authorizations/{reference}/capture {amount_cents} + Idempotency-Key → {status, reference, failure_reason?}
 *   POST {url}/v1/refunds         {charge_reference, amount_cents, reason} + Idempotency-Key → {status, reference, failure_reason?}
 *   POST {url}/v1/authorizations  {customer_id, amount_cents, currency, payment_reference, description, capture: false}
 *                                 + Idempotency-Key                         → {status: authorized|declined, reference, decline_reason?}
 *   POST {url}/customers/{id}     {name, email, default_payment_reference} → {customer_reference}   (spec §7)
 *   GET  {url}/v1/settlements?day=YYYY-MM-DD&currency=USD[&starting_after=ID]
 *                                 → {items: [{id, charge_reference, our_reference?, kind: charge|refund|void|chargeback,
 *                                    amount_cents, currency, at}], has_more}   (pages of the day's books; decision 146)
 * A 4xx on redeem → 400 card_token; a timeout, network error, other non-2xx or unexpected shape → 503 unavailable —
 * except for a charge, whose outcome is then unknown (GatewayOutcomeUnknown: the reconciler asks by key later).
 * A decline code the gateway sends that we do not know is kept as null (counts as soft).
 */

const TIMEOUT_MS = 10_000;
const redeemAnswer = z.object({
  brand: z.enum(CARD_BRANDS).catch('unknown'),
  last4: z.string().regex(/^\d{4}$/),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int(),
  reference: z.string().min(1).max(200),
});
const declineCode = z.enum(DECLINE_CODES).nullish().catch(null);
const chargeAnswer = z.object({
  status: z.enum(['succeeded', 'failed', 'pending']),
  reference: z.string().min(1).max(200),
  failure_reason: z.string().max(500).nullish(),
  decline_code: declineCode,
});
const lookupAnswer = chargeAnswer.extend({ status: z.enum(['succeeded', 'failed', 'pending', 'returned']) });
const moveAnswer = z.object({
  status: z.enum(['succeeded', 'failed']),
  reference: z.string().min(1).max(200),
  failure_reason: z.string().max(500).nullish(),
});
const authorizeAnswer = z.object({
  status: z.enum(['authorized', 'declined']),
  reference: z.string().min(1).max(200),
  decline_reason: z.string().max(500).nullish(),
  decline_code: declineCode,
});
const voidAnswer = z.object({ reference: z.string().min(1).max(200) });
const customerAnswer = z.object({ customer_reference: z.string().min(1).max(200) });
const settlementAnswer = z.object({
  items: z.array(
    z.object({
      id: z.string().min(1).max(200),
      charge_reference: z.string().min(1).max(200),
      our_reference: z.string().max(200).nullish(),
      kind: z.enum(SETTLEMENT_KINDS),
      amount_cents: z.number().int().nonnegative(),
      currency: z.enum(CURRENCY_CODES),
      at: z.iso.datetime({ offset: true }),
    }),
  ),
  has_more: z.boolean(),
});
/** Pages of a day's settlement report at most (a day of 100,000 lines at 1,000 a page is 100). */
const SETTLEMENT_MAX_PAGES = 1_000;

export function createHttpGateway(
  config: { url: string; apiKey: string | null },
  deps: { fetch?: typeof fetch } = {},
): PaymentGateway {
  const doFetch = deps.fetch ?? fetch;
  const base = config.url.replace(/\/+$/, '');

  async function call<T>(
    path: string,
    body: unknown,
    answer: z.ZodType<T>,
    opts: {
      idempotencyKey?: string;
      badRequest?: (status: number) => AppError;
      method?: 'GET' | 'POST';
      /** A 404 answers null (lookups). */
      notFoundNull?: boolean;
    } = {},
  ): Promise<T> {
    const unavailable = (why: string) =>
      new AppError('unavailable', `The payment gateway is unavailable (${why}). Try again later.`);
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method: opts.method ?? 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
          ...(opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {}),
        },
        ...(opts.method === 'GET' ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw unavailable(`no answer within ${TIMEOUT_MS} ms`);
      throw unavailable('it could not be reached');
    }
    if (res.status === 404 && opts.notFoundNull) return null as T;
    if (res.status >= 400 && res.status < 500 && opts.badRequest) throw opts.badRequest(res.status);
    if (!res.ok) throw unavailable(`HTTP ${res.status}`);
    let json: unknown;
    try {
      json = await res.json();
    } catch {
      throw unavailable('its answer was not JSON');
    }
    const parsed = answer.safeParse(json);
    if (!parsed.success) throw unavailable('its answer had an unexpected shape');
    return parsed.data;
  }

  return {
    kind: 'remote',
    available: true,
    tokenizeUrl: `${base}/v1/tokens`,
    async redeemCardToken(token) {
      const a = await call('/v1/tokens/redeem', { token }, redeemAnswer, {
        badRequest: () =>
          new AppError('validation_failed', 'The payment gateway refused the card token. Enter the card again.', {
            card_token: 'The gateway refused this token.',
          }),
      });
      return { brand: a.brand, last4: a.last4, expMonth: a.exp_month, expYear: a.exp_year, reference: a.reference };
    },
    async charge(input) {
      let a: z.infer<typeof chargeAnswer>;
      try {
        a = await call(
          '/v1/charges',
          {
            customer_id: input.customerId,
            amount_cents: input.amountCents,
            currency: input.currency,
            payment_reference: input.paymentReference,
            instrument_kind: input.instrumentKind,
            description: input.description,
          },
          chargeAnswer,
          { idempotencyKey: input.idempotencyKey },
        );
      } catch (err) {
        // Sent, maybe done, answer lost: only the reconciler's lookup can tell.
        if (err instanceof AppError && err.code === 'unavailable') throw new GatewayOutcomeUnknown(err.message);
        throw err;
      }
      return {
        status: a.status,
        reference: a.reference,
        failureReason: a.status === 'failed' ? (a.failure_reason ?? 'Declined by the gateway') : null,
        declineCode: a.status === 'failed' ? (a.decline_code ?? null) : null,
      };
    },
    async lookupCharge(idempotencyKey) {
      const a = await call(
        `/v1/charges?idempotency_key=${encodeURIComponent(idempotencyKey)}`,
        {},
        lookupAnswer.nullable(),
        { method: 'GET', notFoundNull: true },
      );
      if (!a) return null;
      return {
        status: a.status,
        reference: a.reference,
        failureReason:
          a.status === 'failed' ? (a.failure_reason ?? 'Declined by the gateway') : (a.failure_reason ?? null),
        declineCode: a.status === 'failed' ? (a.decline_code ?? null) : null,
      };
    },
    async capture(input) {
      const a = await call(
        `/v1/authorizations/${encodeURIComponent(input.authorizationReference)}/capture`,
        { amount_cents: input.amountCents },
        moveAnswer,
        { idempotencyKey: input.idempotencyKey },
      );
      return { status: a.status, reference: a.reference, failureReason: a.failure_reason ?? null };
    },
    async refund(input) {
      const a = await call(
        '/v1/refunds',
        { charge_reference: input.chargeReference, amount_cents: input.amountCents, reason: input.reason },
        moveAnswer,
        { idempotencyKey: input.idempotencyKey },
      );
      return { status: a.status, reference: a.reference, failureReason: a.failure_reason ?? null };
    },
    async authorize(input) {
      const a = await call(
        '/v1/authorizations',
        {
          customer_id: input.customerId,
          amount_cents: input.amountCents,
          currency: input.currency,
          payment_reference: input.paymentReference,
          description: input.description,
          capture: false,
        },
        authorizeAnswer,
        { idempotencyKey: input.idempotencyKey },
      );
      return {
        status: a.status,
        reference: a.reference,
        declineReason: a.status === 'declined' ? (a.decline_reason ?? 'Declined by the gateway') : null,
        declineCode: a.status === 'declined' ? (a.decline_code ?? null) : null,
      };
    },
    async voidCharge(input) {
      return call(`/v1/charges/${encodeURIComponent(input.reference)}/void`, {}, voidAnswer, {
        idempotencyKey: input.idempotencyKey,
      });
    },
    async settlementReport({ day, currency }) {
      const entries: SettlementEntry[] = [];
      let after: string | null = null;
      for (let page = 0; page < SETTLEMENT_MAX_PAGES; page++) {
        const query: URLSearchParams = new URLSearchParams({
          day,
          currency,
          ...(after ? { starting_after: after } : {}),
        });
        const a: z.infer<typeof settlementAnswer> = await call(`/v1/settlements?${query}`, {}, settlementAnswer, {
          method: 'GET',
        });
        for (const item of a.items)
          entries.push({
            gatewayTransactionId: item.id,
            chargeReference: item.charge_reference,
            ourReference: item.our_reference ?? null,
            kind: item.kind,
            amountCents: item.amount_cents,
            currency: item.currency,
            at: new Date(item.at),
          });
        if (!a.has_more || a.items.length === 0) return entries;
        after = a.items[a.items.length - 1]!.id;
      }
      throw new AppError(
        'unavailable',
        'The payment gateway is unavailable (its settlement report did not end). Try again later.',
      );
    },
    async updateCustomer(input) {
      const a = await call(
        `/customers/${input.customerId}`,
        { name: input.name, email: input.email, default_payment_reference: input.defaultPaymentReference },
        customerAnswer,
      );
      return { customerReference: a.customer_reference };
    },
  };
}
