import { screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/*
 * #/customer/payment/{tok} (decisions 118, 155): what is owed; replacing the card on file and paying are two separate
 * choices — replacing charges nothing, paying is its own action with the card on file or a new card. The card goes to
 * the gateway only, our API gets the token.
 */

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
  current_method_kind: 'card',
  tokenize_url: TOKENIZE,
  expires_at: '2026-12-01T00:00:00.000Z',
};
const TOKEN = { token: 'tok_local.abc.def', brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 };
const PAID = {
  method: 'Visa ending 0002',
  currency: 'CAD',
  invoices: [
    { invoice_number: 'INV-1', amount_cents: 100_00, outcome: 'paid', message: 'Paid.' },
    { invoice_number: 'INV-2', amount_cents: 25_50, outcome: 'failed', message: 'Insufficient funds' },
  ],
  paid_cents: 100_00,
  retries_queued: 0,
  link_used: true,
};

afterEach(() => vi.unstubAllGlobals());

async function fillCard(user: UserEvent) {
  await user.type(screen.getByRole('textbox', { name: 'Name on card' }), 'Pat Merchant');
  await user.type(screen.getByRole('textbox', { name: 'Card number' }), '4242 4242 4242 4242');
  await user.type(screen.getByRole('textbox', { name: 'Expiry month' }), '12');
  await user.type(screen.getByRole('textbox', { name: 'Expiry year' }), '2030');
  await user.type(screen.getByRole('textbox', { name: 'Security code' }), '123');
}

function idempotencyKeyOf(fetchMock: ReturnType<typeof fakeApi>['fetchMock'], path: string) {
  const init = fetchMock.mock.calls.find(
    ([u, i]) => new URL(String(u), 'http://x').pathname === path && i?.method === 'POST',
  )![1]!;
  return new Headers(init.headers).get('Idempotency-Key');
}

describe('#/customer/payment/{tok}', () => {
  it('offers two separate choices; replacing the card charges nothing and leaves what is owed', async () => {
    let views = 0;
    const { calls, fetchMock } = fakeApi({
      [`GET /api/public/payment/${TOK}`]: () =>
        views++ === 0 ? VIEW : { ...VIEW, current_method: 'Visa ending 4242' },
      [`POST ${TOKENIZE}`]: jsonResponse(201, TOKEN),
      [`POST /api/public/payment/${TOK}/method`]: {
        method: 'Visa ending 4242',
        currency: 'CAD',
        total_owed_cents: 125_50,
        link_used: false,
      },
    });
    const user = userEvent.setup();
    renderApp(`#/customer/payment/${TOK}`);
    await screen.findByRole('heading', { name: 'Update your payment method — Corner Deli' });
    const owed = screen.getByRole('table', { name: 'What you owe' });
    expect(owed.textContent).toContain('C$100.00');
    expect(owed.textContent).toMatch(/Total owed\s*C\$125\.50/);
    expect(screen.getByText('On file: Visa ending 0002')).toBeTruthy();
    // Nothing is asked for before the merchant chooses.
    expect(screen.queryByRole('textbox', { name: 'Card number' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Pay C$125.50 now' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Replace the card on file' }));
    const form = screen.getByRole('form', { name: 'Replace the card on file' });
    expect(form.textContent).toContain('Nothing is charged now.');
    await fillCard(user);
    await user.click(within(form).getByRole('button', { name: 'Save as my payment method' }));

    const replaced = await screen.findByText('Visa ending 4242 is now your payment method. Nothing was charged.');
    expect(replaced.closest('[role="status"]')?.textContent).toContain('Payment method replaced');
    expect(await screen.findByText('On file: Visa ending 4242')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'What you owe' }).textContent).toMatch(/Total owed\s*C\$125\.50/);
    // Paying is still offered, as its own action.
    expect(screen.getByRole('button', { name: 'Pay C$125.50 now' })).toBeTruthy();
    const posts = calls.filter((c) => c.method === 'POST' && c.path.startsWith('/api'));
    expect(posts).toEqual([
      expect.objectContaining({
        path: `/api/public/payment/${TOK}/method`,
        body: { kind: 'card', card_token: 'tok_local.abc.def', name_on_account: 'Pat Merchant', make_default: true },
      }),
    ]);
    expect(idempotencyKeyOf(fetchMock, `/api/public/payment/${TOK}/method`)).toBeTruthy();
    expect(JSON.stringify(posts.map((c) => c.body))).not.toContain('4242 4242');
  });

  it('paying is its own action: with the card on file, an Idempotency-Key, the result per invoice', async () => {
    const { calls, fetchMock } = fakeApi({
      [`GET /api/public/payment/${TOK}`]: VIEW,
      [`POST /api/public/payment/${TOK}`]: PAID,
    });
    const user = userEvent.setup();
    renderApp(`#/customer/payment/${TOK}`);
    await user.click(await screen.findByRole('button', { name: 'Pay C$125.50 now' }));
    const form = screen.getByRole('form', { name: 'Pay C$125.50 now' });
    expect(within(form).getByRole('radio', { name: 'Visa ending 0002 (on file)' })).toHaveProperty('checked', true);
    expect(within(form).queryByRole('textbox', { name: 'Card number' })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Pay C$125.50' }));
    await screen.findByRole('heading', { name: 'Thank you' });
    const result = screen.getByRole('table', { name: 'Payment result' });
    expect(result.textContent).toContain('Paid');
    expect(result.textContent).toContain('Declined — Insufficient funds');
    expect(screen.getByText('Some invoices are not paid yet; our billing team will contact you.')).toBeTruthy();
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toEqual([expect.objectContaining({ path: `/api/public/payment/${TOK}`, body: { kind: 'on_file' } })]);
    expect(idempotencyKeyOf(fetchMock, `/api/public/payment/${TOK}`)).toBeTruthy();
  });

  it('paying with a new card: tokenized at the gateway, kept on file only while the box is ticked', async () => {
    const tokenized: FakeRequest[] = [];
    const { calls } = fakeApi({
      [`GET /api/public/payment/${TOK}`]: VIEW,
      [`POST ${TOKENIZE}`]: (r: FakeRequest) => {
        tokenized.push(r);
        return jsonResponse(201, TOKEN);
      },
      [`POST /api/public/payment/${TOK}`]: { ...PAID, method: 'Visa ending 4242' },
    });
    const user = userEvent.setup();
    renderApp(`#/customer/payment/${TOK}`);
    await user.click(await screen.findByRole('button', { name: 'Pay C$125.50 now' }));
    await user.click(screen.getByRole('radio', { name: 'A new card or bank account' }));
    await fillCard(user);
    const keep = screen.getByRole('checkbox', { name: 'Keep it on file for future payments' });
    expect(keep).toHaveProperty('checked', true);
    await user.click(keep);
    await user.click(screen.getByRole('button', { name: 'Pay C$125.50' }));
    await screen.findByRole('heading', { name: 'Thank you' });
    expect(screen.queryByText(/is now your payment method/)).toBeNull();
    expect(tokenized).toHaveLength(1);
    const post = calls.find((c) => c.method === 'POST' && c.path === `/api/public/payment/${TOK}`)!;
    expect(post.body).toEqual({
      kind: 'card',
      card_token: 'tok_local.abc.def',
      name_on_account: 'Pat Merchant',
      make_default: false,
    });
    expect(JSON.stringify(calls.filter((c) => c.path.startsWith('/api')).map((c) => c.body))).not.toContain(
      '4242 4242',
    );
  });

  it('a try that took no money (declined, or a payment already in progress) says so and offers to try again', async () => {
    let posts = 0;
    fakeApi({
      [`GET /api/public/payment/${TOK}`]: VIEW,
      [`POST /api/public/payment/${TOK}`]: () => {
        posts++;
        return jsonResponse(200, {
          info: {
            method: 'Visa ending 0002',
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
    await user.click(await screen.findByRole('button', { name: 'Pay C$125.50 now' }));
    await user.click(screen.getByRole('button', { name: 'Pay C$125.50' }));
    const result = await screen.findByRole('table', { name: 'Payment result' });
    expect(result.textContent).toContain('Not charged — A payment of this invoice is already in progress.');
    expect(screen.getByText('Nothing was taken this time: you can try again with this link.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Pay C$125.50' })).toBeTruthy();
    expect(posts).toBe(1);
  });

  it('with nothing owed only the replacement is offered; it says nothing was charged', async () => {
    const { calls } = fakeApi({
      [`GET /api/public/payment/${TOK}`]: { ...VIEW, invoices: [], total_owed_cents: 0 },
      [`POST ${TOKENIZE}`]: jsonResponse(201, TOKEN),
      [`POST /api/public/payment/${TOK}/method`]: {
        method: 'Visa ending 4242',
        currency: 'CAD',
        total_owed_cents: 0,
        link_used: true,
      },
    });
    const user = userEvent.setup();
    renderApp(`#/customer/payment/${TOK}`);
    await screen.findByText('Nothing is owed right now.');
    expect(screen.queryByRole('button', { name: /^Pay / })).toBeNull();
    await fillCard(user);
    await user.click(screen.getByRole('button', { name: 'Save as my payment method' }));
    await screen.findByRole('heading', { name: 'Payment method replaced' });
    expect(screen.getByText('Visa ending 4242 is now your payment method. Nothing was charged.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      TOKENIZE,
      `/api/public/payment/${TOK}/method`,
    ]);
    // The link is used up: the page is not read again.
    expect(calls.filter((c) => c.method === 'GET')).toHaveLength(1);
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

  it('a link cut short (the server cannot read it) says so — not "Check what you entered" on a page without fields', async () => {
    fakeApi({
      [`GET /api/public/payment/${TOK}`]: errorResponse(400, 'validation', 'Invalid request.'),
    });
    renderApp(`#/customer/payment/${TOK}`);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This link is not complete. Open it again from the e-mail');
    expect(alert.textContent).not.toContain('what you entered');
  });
});
