import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/* #/contract/reauthorize/{tok} (decision 091): the card goes to the gateway only; our API gets the token. */

const TOK = 'B'.repeat(43);
const TOKENIZE = '/gateway-local/v1/tokens';

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('#/contract/reauthorize/{tok}', () => {
  it('tokenizes the card with the gateway, sends only the token with the consent, then confirms', async () => {
    const tokenized: FakeRequest[] = [];
    const { calls } = fakeApi({
      [`GET /api/public/contracts/reauthorize/${TOK}`]: {
        order_id: 700123,
        unified_order_id: 'UO-20261124-700123',
        merchant_name: 'Ana Diaz',
        store_name: 'Ana Mart',
        country: 'US',
        currency: 'USD',
        current_method: 'Visa ending 4242',
        tokenize_url: TOKENIZE,
        expires_at: '2026-12-08T10:00:00.000Z',
      },
      [`POST ${TOKENIZE}`]: (r: FakeRequest) => {
        tokenized.push(r);
        return jsonResponse(201, {
          token: 'tok_local.abc.def',
          brand: 'mastercard',
          last4: '4444',
          exp_month: 12,
          exp_year: 2030,
        });
      },
      [`POST /api/public/contracts/reauthorize/${TOK}`]: {
        order_id: 700123,
        method: 'Mastercard ending 4444',
        authorized_at: '2026-11-24T10:00:00.000Z',
      },
    });
    const user = userEvent.setup();
    renderApp(`#/contract/reauthorize/${TOK}`);
    await screen.findByRole('heading', { name: 'Confirm the payment method — order UO-20261124-700123' });
    expect(screen.getByText(/on file: Visa ending 4242/)).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Name on card' }), 'Ana Diaz');
    await user.type(screen.getByRole('textbox', { name: 'Card number' }), '5555 5555 5555 4444');
    await user.type(screen.getByRole('textbox', { name: 'Expiry month' }), '12');
    await user.type(screen.getByRole('textbox', { name: 'Expiry year' }), '2030');
    await user.type(screen.getByRole('textbox', { name: 'Security code' }), '123');
    await user.click(screen.getByRole('button', { name: 'Confirm payment method' }));
    expect(await screen.findByText('Tick the box to authorize the payments.')).toBeTruthy();
    expect(tokenized).toHaveLength(0);
    await user.click(screen.getByRole('checkbox', { name: 'I authorize these payments for my order.' }));
    await user.click(screen.getByRole('button', { name: 'Confirm payment method' }));
    await screen.findByRole('heading', { name: 'Thank you' });
    expect(screen.getByRole('status').textContent).toContain(
      'The payment method for order UO-20261124-700123 is now Mastercard ending 4444',
    );
    expect(tokenized).toHaveLength(1);
    const post = calls.find((c) => c.method === 'POST' && c.path.startsWith('/api/public/contracts/reauthorize/'))!;
    expect(post.body).toEqual({
      kind: 'card',
      card_token: 'tok_local.abc.def',
      name_on_account: 'Ana Diaz',
      consent: true,
    });
    expect(JSON.stringify(calls.filter((c) => c.path.startsWith('/api')).map((c) => c.body))).not.toContain('5555');
  });
});
