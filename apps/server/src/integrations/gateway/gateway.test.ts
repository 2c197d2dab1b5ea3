import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { fixedClock } from '../../lib/clock';
import { createGateway } from './index';
import { createHttpGateway } from './http-gateway';
import { GatewayOutcomeUnknown } from './gateway.port';
import { createLocalGateway, LOCAL_SETTLEMENT_MS, LOCAL_TEST_CARDS, LOCAL_TOKEN_TTL_MS } from './local-gateway';
import { createTestDatabase } from '../../test/db-template';

const VISA = { number: '4242424242424242', exp_month: 12, exp_year: 2030 };

describe('local payment gateway', () => {
  it('a token carries brand, last4 and expiry, and is redeemed for a processor reference; it expires after 15 minutes', async () => {
    const clock = fixedClock('2026-11-22T12:00:00Z');
    const gateway = createLocalGateway({ clock });
    const token = gateway.tokenize(VISA);
    expect(token).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
    expect(token.token).not.toContain('4242424242424242');
    const card = await gateway.redeemCardToken(token.token);
    expect(card).toEqual({
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2030,
      reference: expect.stringMatching(/^pm_local_[A-Za-z0-9_-]+_4242$/),
    });
    clock.advance(LOCAL_TOKEN_TTL_MS + 1);
    await expect(gateway.redeemCardToken(token.token)).rejects.toMatchObject({
      code: 'validation_failed',
      fields: { card_token: 'The card token is not valid (expired).' },
    });
  });

  it("refuses another gateway instance's token (the key is per instance) and an expired card", async () => {
    const clock = fixedClock('2026-11-22T12:00:00Z');
    const token = createLocalGateway({ clock }).tokenize(VISA).token;
    await expect(createLocalGateway({ clock }).redeemCardToken(token)).rejects.toMatchObject({
      fields: { card_token: 'The card token is not valid (signature mismatch).' },
    });
    expect(() => createLocalGateway({ clock }).tokenize({ ...VISA, exp_month: 10, exp_year: 2026 })).toThrow(
      'The card has expired.',
    );
  });

  it('charges: 51 cents declines, a card ending 0002 declines, the rest succeeds; a repeated key answers the first result', async () => {
    const gateway = createLocalGateway({ clock: fixedClock('2026-11-22T12:00:00Z') });
    const base = {
      customerId: 1,
      currency: 'USD' as const,
      paymentReference: 'pm_local_x_4242',
      instrumentKind: 'card' as const,
      description: 'test',
    };
    expect(await gateway.charge({ ...base, amountCents: 1000, idempotencyKey: 'a' })).toMatchObject({
      status: 'succeeded',
      failureReason: null,
    });
    expect(await gateway.charge({ ...base, amountCents: 1051, idempotencyKey: 'b' })).toMatchObject({
      status: 'failed',
      failureReason: 'Insufficient funds',
    });
    expect(
      await gateway.charge({ ...base, paymentReference: 'pm_local_y_0002', amountCents: 1000, idempotencyKey: 'c' }),
    ).toMatchObject({ status: 'failed', failureReason: 'Card declined' });
    const first = await gateway.charge({ ...base, amountCents: 2000, idempotencyKey: 'd' });
    expect(await gateway.charge({ ...base, amountCents: 2000, idempotencyKey: 'd' })).toEqual(first);
    expect((await gateway.charge({ ...base, amountCents: 2000, idempotencyKey: 'e' })).reference).not.toBe(
      first.reference,
    );
  });

  it('authorizes like it charges: 51 cents and a card ending 0002 decline; a repeated key answers the first result', async () => {
    const gateway = createLocalGateway({ clock: fixedClock('2026-11-22T12:00:00Z') });
    const base = {
      customerId: null,
      currency: 'USD' as const,
      paymentReference: 'pm_local_x_4242',
      description: 'Order 1',
    };
    const ok = await gateway.authorize({ ...base, amountCents: 1000, idempotencyKey: 'a' });
    expect(ok).toMatchObject({
      status: 'authorized',
      reference: expect.stringMatching(/^auth_local_/),
      declineReason: null,
    });
    expect(await gateway.authorize({ ...base, amountCents: 1051, idempotencyKey: 'b' })).toMatchObject({
      status: 'declined',
      declineReason: 'Insufficient funds',
    });
    expect(
      await gateway.authorize({ ...base, paymentReference: 'pm_local_y_0002', amountCents: 1000, idempotencyKey: 'c' }),
    ).toMatchObject({ status: 'declined', declineReason: 'Card declined' });
    expect(await gateway.authorize({ ...base, amountCents: 1000, idempotencyKey: 'a' })).toEqual(ok);
  });

  it('is unavailable in production: every call answers 503', async () => {
    const gateway = createGateway(
      loadConfig({
        NODE_ENV: 'production',
        IDENTITY_PROVIDER: 'google',
        GOOGLE_CLIENT_ID: 'x.apps.googleusercontent.com',
      }),
      fixedClock('2026-11-22T12:00:00Z'),
    );
    expect(gateway).toMatchObject({ kind: 'local', available: false });
    await expect(gateway.redeemCardToken('tok_local_a.b')).rejects.toMatchObject({ code: 'unavailable' });
  });
});

describe('HTTP payment gateway (PAYMENT_GATEWAY_URL)', () => {
  function fakeFetch(answer: (url: string, init: RequestInit) => Response) {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return answer(url, init);
    }) as unknown as typeof globalThis.fetch;
    return { fetch, calls };
  }
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('is chosen by PAYMENT_GATEWAY_URL, and says where the browser tokenizes', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      PAYMENT_GATEWAY_URL: 'https://pay.example.com/api/',
      PAYMENT_GATEWAY_API_KEY: 'k',
    });
    expect(config.gateway).toEqual({ url: 'https://pay.example.com/api', apiKey: 'k', localSlowMs: 3000 });
    expect(createGateway(config, fixedClock(new Date()))).toMatchObject({
      kind: 'remote',
      tokenizeUrl: 'https://pay.example.com/api/v1/tokens',
      available: true,
    });
  });

  it('charges with the idempotency key and the API key; updates the gateway customer (spec §7 POST /customers/{id})', async () => {
    const { fetch, calls } = fakeFetch((url) =>
      url.endsWith('/v1/charges')
        ? json({ status: 'failed', reference: 'ch_1', failure_reason: 'Do not honor', decline_code: 'do_not_honor' })
        : json({ customer_reference: 'cus_9' }),
    );
    const gateway = createHttpGateway({ url: 'https://pay.example.com', apiKey: 'secret' }, { fetch });
    const charge = await gateway.charge({
      customerId: 7,
      amountCents: 500,
      currency: 'CAD',
      paymentReference: 'pm_1',
      instrumentKind: 'card',
      idempotencyKey: 'retry:1:v1',
      description: 'x',
    });
    expect(charge).toEqual({
      status: 'failed',
      reference: 'ch_1',
      failureReason: 'Do not honor',
      declineCode: 'do_not_honor',
    });
    const headers = calls[0]!.init.headers as Record<string, string>;
    expect(headers).toMatchObject({ authorization: 'Bearer secret', 'idempotency-key': 'retry:1:v1' });
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({
      customer_id: 7,
      amount_cents: 500,
      currency: 'CAD',
      payment_reference: 'pm_1',
      instrument_kind: 'card',
      description: 'x',
    });
    expect(
      await gateway.updateCustomer({ customerId: 7, name: 'A', email: 'a@example.org', defaultPaymentReference: null }),
    ).toEqual({ customerReference: 'cus_9' });
    expect(calls[1]!.url).toBe('https://pay.example.com/customers/7');
  });

  it('authorizes with capture false and the idempotency key; a decline carries its reason', async () => {
    const { fetch, calls } = fakeFetch(() =>
      json({ status: 'declined', reference: 'au_1', decline_reason: 'Do not honor' }),
    );
    const gateway = createHttpGateway({ url: 'https://pay.example.com', apiKey: 'secret' }, { fetch });
    const result = await gateway.authorize({
      customerId: 7,
      amountCents: 500,
      currency: 'USD',
      paymentReference: 'pm_1',
      idempotencyKey: 'authorize:1:k',
      description: 'Order 1',
    });
    expect(result).toEqual({ status: 'declined', reference: 'au_1', declineReason: 'Do not honor', declineCode: null });
    expect(calls[0]!.url).toBe('https://pay.example.com/v1/authorizations');
    expect((calls[0]!.init.headers as Record<string, string>)['idempotency-key']).toBe('authorize:1:k');
    expect(JSON.parse(calls[0]!.init.body as string)).toEqual({
      customer_id: 7,
      amount_cents: 500,
      currency: 'USD',
      payment_reference: 'pm_1',
      description: 'Order 1',
      capture: false,
    });
  });

  it('a refused token → 400 card_token; an outage or a wrong answer → 503 (a charge: outcome unknown)', async () => {
    const refused = createHttpGateway(
      { url: 'https://pay.example.com', apiKey: null },
      { fetch: fakeFetch(() => json({ error: 'bad' }, 402)).fetch },
    );
    await expect(refused.redeemCardToken('tok_x')).rejects.toMatchObject({
      code: 'validation_failed',
      fields: { card_token: 'The gateway refused this token.' },
    });
    const down = createHttpGateway(
      { url: 'https://pay.example.com', apiKey: null },
      { fetch: fakeFetch(() => json({}, 502)).fetch },
    );
    await expect(down.voidCharge({ reference: 'ch_1', idempotencyKey: 'k' })).rejects.toMatchObject({
      code: 'unavailable',
    });
    const odd = createHttpGateway(
      { url: 'https://pay.example.com', apiKey: null },
      { fetch: fakeFetch(() => json({ status: 'maybe' })).fetch },
    );
    await expect(
      odd.charge({
        customerId: 1,
        amountCents: 1,
        currency: 'USD',
        paymentReference: 'p',
        instrumentKind: 'card',
        idempotencyKey: 'k',
        description: 'd',
      }),
    ).rejects.toBeInstanceOf(GatewayOutcomeUnknown);
  });

  it('looks a charge up by its idempotency key (404: never received), captures and refunds with keys', async () => {
    const { fetch, calls } = fakeFetch((url) =>
      url.includes('idempotency_key=lost')
        ? json({ error: 'no such charge' }, 404)
        : url.includes('/v1/charges?')
          ? json({ status: 'returned', reference: 'ch_9', failure_reason: 'R01' })
          : json({ status: 'succeeded', reference: 'x_1' }),
    );
    const gateway = createHttpGateway({ url: 'https://pay.example.com', apiKey: null }, { fetch });
    expect(await gateway.lookupCharge('lost')).toBeNull();
    expect(await gateway.lookupCharge('k 1')).toMatchObject({ status: 'returned', reference: 'ch_9' });
    expect(calls[1]!.url).toBe('https://pay.example.com/v1/charges?idempotency_key=k%201');
    expect(calls[1]!.init.method).toBe('GET');
    expect(
      await gateway.capture({ authorizationReference: 'au_1', amountCents: 100, idempotencyKey: 'cap:1' }),
    ).toEqual({ status: 'succeeded', reference: 'x_1', failureReason: null });
    expect(calls[2]!.url).toBe('https://pay.example.com/v1/authorizations/au_1/capture');
    await gateway.refund({ chargeReference: 'ch_1', amountCents: 50, idempotencyKey: 'ref:1', reason: 'r' });
    expect(JSON.parse(calls[3]!.init.body as string)).toEqual({
      charge_reference: 'ch_1',
      amount_cents: 50,
      reason: 'r',
    });
  });
});

describe('local gateway: test cards, memory and money moves (decision 116)', () => {
  const base = {
    customerId: 1,
    currency: 'USD' as const,
    instrumentKind: 'card' as const,
    description: 'test',
  };
  it('every test card answers its decline code; the timeout card throws, and its answer is remembered', async () => {
    const gateway = createLocalGateway({ clock: fixedClock('2026-11-22T12:00:00Z') });
    for (const [last4, card] of Object.entries(LOCAL_TEST_CARDS)) {
      if (card.outcome === 'slow' || card.outcome === 'timeout') continue;
      const r = await gateway.charge({
        ...base,
        amountCents: 1000,
        paymentReference: `pm_local_x_${last4}`,
        idempotencyKey: last4,
      });
      expect(r.declineCode, last4).toBe(card.outcome === 'success' ? null : card.outcome);
    }
    await expect(
      gateway.charge({ ...base, amountCents: 1000, paymentReference: 'pm_local_x_0101', idempotencyKey: 't' }),
    ).rejects.toBeInstanceOf(GatewayOutcomeUnknown);
    expect(await gateway.lookupCharge('t')).toMatchObject({ status: 'failed', declineCode: 'timeout' });
    expect(await gateway.lookupCharge('never')).toBeNull();
  });

  it('captures at most the hold, refunds at most what is left, voids a hold', async () => {
    const gateway = createLocalGateway({ clock: fixedClock('2026-11-22T12:00:00Z') });
    const hold = await gateway.authorize({
      ...base,
      amountCents: 5000,
      paymentReference: 'pm_local_x_4242',
      idempotencyKey: 'a',
    });
    expect(
      await gateway.capture({ authorizationReference: hold.reference, amountCents: 6000, idempotencyKey: 'c1' }),
    ).toMatchObject({ status: 'failed' });
    const cap = await gateway.capture({
      authorizationReference: hold.reference,
      amountCents: 5000,
      idempotencyKey: 'c2',
    });
    expect(cap.status).toBe('succeeded');
    const charge = await gateway.charge({
      ...base,
      amountCents: 3000,
      paymentReference: 'pm_local_x_4242',
      idempotencyKey: 'ch',
    });
    expect(
      await gateway.refund({ chargeReference: charge.reference, amountCents: 2000, idempotencyKey: 'r1', reason: 'x' }),
    ).toMatchObject({ status: 'succeeded' });
    expect(
      await gateway.refund({ chargeReference: charge.reference, amountCents: 2000, idempotencyKey: 'r2', reason: 'x' }),
    ).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('1000') });
    const hold2 = await gateway.authorize({
      ...base,
      amountCents: 100,
      paymentReference: 'pm_local_x_4242',
      idempotencyKey: 'a2',
    });
    await gateway.voidCharge({ reference: hold2.reference, idempotencyKey: 'v' });
    expect(
      await gateway.capture({ authorizationReference: hold2.reference, amountCents: 100, idempotencyKey: 'c3' }),
    ).toMatchObject({ status: 'failed', failureReason: 'The authorization is voided.' });
  });
});

describe("the gateway's settlement report (its own books; decision 146)", () => {
  function fakeFetch(answer: (url: string, init: RequestInit) => Response) {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return answer(url, init);
    }) as unknown as typeof globalThis.fetch;
    return { fetch, calls };
  }
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const card = {
    customerId: 1,
    currency: 'USD' as const,
    paymentReference: 'pm_local_x_4242',
    instrumentKind: 'card' as const,
    description: 'books',
  };

  it('the local gateway books what it settled, refunded, voided and charged back, in its table: a restart keeps them', async () => {
    const database = await createTestDatabase();
    try {
      const clock = fixedClock('2026-11-10T09:00:00Z');
      const gateway = createLocalGateway({ clock, database });
      const paid = await gateway.charge({ ...card, amountCents: 120_00, idempotencyKey: 'c1' });
      await gateway.charge({ ...card, amountCents: 120_00, idempotencyKey: 'c1' }); // the same key: one line
      await gateway.charge({ ...card, amountCents: 10_51, idempotencyKey: 'declined' });
      const refund = await gateway.refund({
        chargeReference: paid.reference,
        amountCents: 20_00,
        idempotencyKey: 'r1',
        reason: 'r',
      });
      // A bank debit: pending today, settled a day later; one that is voided while pending; one that comes back.
      const bank = { ...card, instrumentKind: 'bank' as const };
      await gateway.charge({ ...bank, paymentReference: 'bank_1_9999', amountCents: 30_00, idempotencyKey: 'b1' });
      const voided = await gateway.charge({
        ...bank,
        paymentReference: 'bank_1_9998',
        amountCents: 7_00,
        idempotencyKey: 'b2',
      });
      await gateway.voidCharge({ reference: voided.reference, idempotencyKey: 'v1' });
      const returned = await gateway.charge({
        ...bank,
        paymentReference: 'bank_1_4444',
        amountCents: 40_00,
        idempotencyKey: 'b3',
      });
      const hold = await gateway.authorize({
        customerId: 1,
        currency: 'USD',
        paymentReference: 'pm_local_x_4242',
        amountCents: 5_00,
        idempotencyKey: 'a1',
        description: 'hold',
      });
      await gateway.voidCharge({ reference: hold.reference, idempotencyKey: 'v2' }); // a released hold is not money

      const lines = (entries: Awaited<ReturnType<typeof gateway.settlementReport>>) =>
        entries
          .map((e) => [e.kind, e.chargeReference, e.amountCents, e.ourReference, e.at.toISOString()])
          .sort((a, b) => `${a[4]}${a[3]}`.localeCompare(`${b[4]}${b[3]}`));
      expect(lines(await gateway.settlementReport({ day: '2026-11-10', currency: 'USD' }))).toEqual([
        ['charge', paid.reference, 120_00, 'c1', '2026-11-10T09:00:00.000Z'],
        ['refund', paid.reference, 20_00, 'r1', '2026-11-10T09:00:00.000Z'],
        ['void', voided.reference, 7_00, 'v1', '2026-11-10T09:00:00.000Z'],
      ]);
      expect(await gateway.settlementReport({ day: '2026-11-10', currency: 'CAD' })).toEqual([]);
      expect((await gateway.settlementReport({ day: '2026-11-10', currency: 'USD' }))[1]!.gatewayTransactionId).toBe(
        refund.reference,
      );

      // Two days on, in a new process (a new gateway on the same database): the bank debits settled and one came back.
      clock.advance(2 * LOCAL_SETTLEMENT_MS);
      const restarted = createLocalGateway({ clock, database });
      expect(lines(await restarted.settlementReport({ day: '2026-11-11', currency: 'USD' }))).toEqual([
        ['charge', expect.stringMatching(/^ch_local_/), 30_00, 'b1', '2026-11-11T09:00:00.000Z'],
        ['charge', returned.reference, 40_00, 'b3', '2026-11-11T09:00:00.000Z'],
      ]);
      expect(lines(await restarted.settlementReport({ day: '2026-11-12', currency: 'USD' }))).toEqual([
        ['chargeback', returned.reference, 40_00, 'b3', '2026-11-12T09:00:00.000Z'],
      ]);
      expect((await restarted.settlementReport({ day: '2026-11-10', currency: 'USD' })).length).toBe(3);
      // The books are append-only.
      await expect(database.query('delete from local_gateway_books')).rejects.toThrow(/append-only/);
    } finally {
      await database.close();
    }
  });

  it('the HTTP gateway reads the report page by page; an outage or a wrong answer → 503', async () => {
    const line = (id: string, kind: string) => ({
      id,
      charge_reference: 'ch_1',
      our_reference: 'k',
      kind,
      amount_cents: 100,
      currency: 'USD',
      at: '2026-11-10T09:00:00Z',
    });
    const { fetch, calls } = fakeFetch((url) =>
      url.includes('starting_after=re_1')
        ? json({ items: [line('cb_1', 'chargeback')], has_more: false })
        : json({ items: [line('ch_1', 'charge'), line('re_1', 'refund')], has_more: true }),
    );
    const gateway = createHttpGateway({ url: 'https://pay.example.com', apiKey: 'k' }, { fetch });
    const report = await gateway.settlementReport({ day: '2026-11-10', currency: 'USD' });
    expect(report.map((e) => [e.gatewayTransactionId, e.kind, e.at.toISOString()])).toEqual([
      ['ch_1', 'charge', '2026-11-10T09:00:00.000Z'],
      ['re_1', 'refund', '2026-11-10T09:00:00.000Z'],
      ['cb_1', 'chargeback', '2026-11-10T09:00:00.000Z'],
    ]);
    expect(calls.map((c) => [c.init.method, c.url])).toEqual([
      ['GET', 'https://pay.example.com/v1/settlements?day=2026-11-10&currency=USD'],
      ['GET', 'https://pay.example.com/v1/settlements?day=2026-11-10&currency=USD&starting_after=re_1'],
    ]);
    for (const answer of [() => json({}, 502), () => json({ items: [{ id: 'x' }], has_more: false })]) {
      const down = createHttpGateway(
        { url: 'https://pay.example.com', apiKey: null },
        { fetch: fakeFetch(answer).fetch },
      );
      await expect(down.settlementReport({ day: '2026-11-10', currency: 'USD' })).rejects.toMatchObject({
        code: 'unavailable',
      });
    }
  });
});
