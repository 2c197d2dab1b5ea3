import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/* #/customer/payment/instrument/{tok} (decisions 118, 155): the retry of failed payments is said before saving. */

const TOK = 'I'.repeat(43);
const TOKENIZE = '/gateway-local/v1/tokens';

afterEach(() => vi.unstubAllGlobals());

describe('#/customer/payment/instrument/{tok}', () => {
  it('says before saving that the failed payments are retried with the new method, then how many were', async () => {
    const { calls } = fakeApi({
      [`GET /api/public/payment/instrument/${TOK}`]: {
        purpose: 'payment_instrument',
        store_name: 'Corner Deli',
        currency: 'USD',
        invoices: [{ invoice_number: 'INV-1', issued_on: '2026-10-01', due_on: '2026-10-15', open_cents: 40_00 }],
        total_owed_cents: 40_00,
        current_method: null,
        current_method_kind: null,
        tokenize_url: TOKENIZE,
        expires_at: '2026-12-01T00:00:00.000Z',
      },
      [`POST ${TOKENIZE}`]: jsonResponse(201, {
        token: 'tok_local.abc.def',
        brand: 'visa',
        last4: '4242',
        exp_month: 12,
        exp_year: 2030,
      }),
      [`POST /api/public/payment/instrument/${TOK}`]: {
        method: 'Visa ending 4242',
        currency: 'USD',
        invoices: [],
        paid_cents: 0,
        retries_queued: 1,
        link_used: true,
      },
    });
    const user = userEvent.setup();
    renderApp(`#/customer/payment/instrument/${TOK}`);
    await screen.findByRole('heading', { name: 'Update your payment method — Corner Deli' });
    expect(screen.getByText('Saving it also retries your failed payments with it right away.')).toBeTruthy();
    await user.type(screen.getByRole('textbox', { name: 'Name on card' }), 'Pat Merchant');
    await user.type(screen.getByRole('textbox', { name: 'Card number' }), '4242 4242 4242 4242');
    await user.type(screen.getByRole('textbox', { name: 'Expiry month' }), '12');
    await user.type(screen.getByRole('textbox', { name: 'Expiry year' }), '2030');
    await user.type(screen.getByRole('textbox', { name: 'Security code' }), '123');
    await user.click(screen.getByRole('button', { name: 'Save payment method' }));
    await screen.findByRole('heading', { name: 'Payment method saved' });
    expect(screen.getByText('We will retry 1 unpaid invoice with it now.')).toBeTruthy();
    const post = calls.find((c) => c.method === 'POST' && c.path === `/api/public/payment/instrument/${TOK}`)!;
    expect(post.body).toEqual({
      kind: 'card',
      card_token: 'tok_local.abc.def',
      name_on_account: 'Pat Merchant',
      make_default: true,
    });
  });
});
