import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/* #/customer/payment/{tok} (decision 118): what is owed; the card goes to the gateway only, our API gets the token. */

const TOK = 'C'.repeat(43);
const TOKENIZE = '/gateway-local/v1/tokens';
const VIEW = {
  purpose: 'payment_update',
  store_name: 'Corner Deli',
  currency: 'CAD',
  invoices: [
    { invoice_number: 'INV-1', issued_on: '2026-10-01', due_on: '2026-10-15', open_cents: 100_00 },
    { invoice_number: 'INV-2', issued_on: '2026-11-01', due_on: '2026-11-15', open_cents: 25_50 },
  ],
  total_owed_cents: 125_50,
  current_method: 'Visa ending 0002',
  tokenize_url: TOKENIZE,
  expires_at: '2026-12-01T00:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('#/customer/payment/{tok}', () => {
  it('shows what is owed in C$, tokenizes the card with the gateway, pays with the token and an Idempotency-Key', async () => {
    const tokenized: FakeRequest[] = [];
    const { calls, fetchMock } = fakeApi({
      [`GET /api/public/payment/${TOK}`]: VIEW,
      [`POST ${TOKENIZE}`]: (r: FakeRequest) => {
        tokenized.push(r);
        return jsonResponse(201, {
          token: 'tok_local.abc.def',
          brand: 'visa',
          last4: '4242',
          exp_month: 12,
          exp_year: 2030,
        });
      },
      [`POST /api/public/payment/${TOK}`]: {
        method: 'Visa ending 4242',
        currency: 'CAD',
        invoices: [
          { invoice_number: 'INV-1', amount_cents: 100_00, outcome: 'paid', message: 'Paid.' },
          { invoice_number: 'INV-2', amount_cents: 25_50, outcome: 'failed', message: 'Insufficient funds' },
        ],
        paid_cents: 100_00,
        retries_queued: 0,
        link_used: true,
      },
    });
    const user = userEvent.setup();
    renderApp(`#/customer/payment/${TOK}`);
    await screen.findByRole('heading', { name: 'Pay your balance — Corner Deli' });
    const owed = screen.getByRole('table', { name: 'What you owe' });
    expect(owed.textContent).toContain('C$100.00');
    expect(owed.textContent).toMatch(/Total owed\s*C\$125\.50/);
    expect(screen.getByText('On file: Visa ending 0002')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Name on card' }), 'Pat Merchant');
    await user.type(screen.getByRole('textbox', { name: 'Card number' }), '4242 4242 4242 4242');
    await user.type(screen.getByRole('textbox', { name: 'Expiry month' }), '12');
    await user.type(screen.getByRole('textbox', { name: 'Expiry year' }), '2030');
    await user.type(screen.getByRole('textbox', { name: 'Security code' }), '123');
    await user.click(screen.getByRole('button', { name: 'Pay C$125.50' }));
    await screen.findByRole('heading', { name: 'Thank you' });
    const result = screen.getByRole('table', { name: 'Payment result' });
    expect(result.textContent).toContain('Paid');
    expect(result.textContent).toContain('Declined — Insufficient funds');
    expect(tokenized).toHaveLength(1);
    const post = calls.find((c) => c.method === 'POST' && c.path === `/api/public/payment/${TOK}`)!;
    expect(post.body).toEqual({
      kind: 'card',
      card_token: 'tok_local.abc.def',
      name_on_account: 'Pat Merchant',
      make_default: true,
    });
    const init = fetchMock.mock.calls.find(
      ([u, i]) => String(u).includes(`/api/public/payment/${TOK}`) && i?.method === 'POST',
    )![1]!;
    expect(new Headers(init.headers).get('Idempotency-Key')).toBeTruthy();
    expect(JSON.stringify(calls.filter((c) => c.path.startsWith('/api')).map((c) => c.body))).not.toContain(
      '4242 4242',
    );
  });

  it('a try that took no money (declined, or a payment already in progress) says so and offers to try again', async () => {
    let posts = 0;
    fakeApi({
      [`GET /api/public/payment/${TOK}`]: VIEW,
      [`POST ${TOKENIZE}`]: jsonResponse(201, {
        token: 'tok_local.abc.def',
        brand: 'visa',
        last4: '4242',
        exp_month: 12,
        exp_year: 2030,
      }),
      [`POST /api/public/payment/${TOK}`]: () => {
        posts++;
        return jsonResponse(200, {
          info: {
            method: 'Visa ending 4242',
            currency: 'CAD',
            invoices: [
              {
                invoice_number: 'INV-1',
                amount_cents: 100_00,
                outcome: 'skipped',
                message: 'A payment of this invoice is already in progress.',
              },
              { invoice_number: 'INV-2', amount_cents: 25_50, outcome: 'failed', message: 'Insufficient funds' },
            ],
            paid_cents: 0,
            retries_queued: 0,
            link_used: false,
          },
        });
      },
    });
    const user = userEvent.setup();
    renderApp(`#/customer/payment/${TOK}`);
    await screen.findByRole('heading', { name: 'Pay your balance — Corner Deli' });
    await user.type(screen.getByRole('textbox', { name: 'Name on card' }), 'Pat Merchant');
    await user.type(screen.getByRole('textbox', { name: 'Card number' }), '4242 4242 4242 4242');
    await user.type(screen.getByRole('textbox', { name: 'Expiry month' }), '12');
    await user.type(screen.getByRole('textbox', { name: 'Expiry year' }), '2030');
    await user.type(screen.getByRole('textbox', { name: 'Security code' }), '123');
    await user.click(screen.getByRole('button', { name: 'Pay C$125.50' }));
    const result = await screen.findByRole('table', { name: 'Payment result' });
    expect(result.textContent).toContain('Not charged — A payment of this invoice is already in progress.');
    expect(screen.getByText('Nothing was taken this time: you can try again with this link.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Pay C$125.50' })).toBeTruthy();
    expect(posts).toBe(1);
  });

  it('a used link says so, with how to get a new one', async () => {
    fakeApi({
      [`GET /api/public/payment/${TOK}`]: errorResponse(
        410,
        'link_expired',
        'This link was already used. Ask our billing team for a new link: call us.',
      ),
    });
    renderApp(`#/customer/payment/${TOK}`);
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This link was already used. Ask our billing team',
    );
  });
});
