import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/* The merchant's contract page (decision 082): what it asks before signing, and a dead link. */

const TOK = 'A'.repeat(43);
const VIEW = {
  order_id: 700123,
  unified_order_id: 'UO-20261124-700123',
  contract_id: 9,
  version_no: 2,
  status: 'sent',
  merchant_name: 'Luc Tremblay',
  store_name: 'Tremblay Depanneur',
  country: 'CA',
  currency: 'CAD',
  lines: [{ section: 'hardware', description: 'POS terminal', quantity: 2, amount_cents: 299800 }],
  total_cents: 299800,
  pdf_url: `/api/public/contracts/${TOK}/pdf`,
  expires_at: '2026-12-08T10:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('#/contract/{tok}', () => {
  it('shows the lines in C$, and asks for the name, a signature and the consent before sending anything', async () => {
    const { calls } = fakeApi({ [`GET /api/public/contracts/${TOK}`]: VIEW });
    const user = userEvent.setup();
    renderApp(`#/contract/${TOK}`);
    await screen.findByRole('heading', { name: 'Your contract — order UO-20261124-700123' });
    expect(screen.getByRole('table', { name: 'What you are signing for' }).textContent).toContain('C$2,998.00');
    expect(screen.getByRole('link', { name: 'Open the contract (PDF)' }).getAttribute('href')).toBe(VIEW.pdf_url);
    await user.click(screen.getByRole('button', { name: 'Sign contract' }));
    expect(await screen.findByText('Type your full name.')).toBeTruthy();
    expect(screen.getByText('Draw your signature in the box, or use your typed name.')).toBeTruthy();
    expect(screen.getByText('Tick the box to agree to sign electronically.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('a used or expired link says to ask the sales representative for a new one', async () => {
    fakeApi({
      [`GET /api/public/contracts/${TOK}`]: jsonResponse(410, { error: { code: 'link_expired', message: 'gone' } }),
    });
    renderApp(`#/contract/${TOK}`);
    expect(
      await screen.findByText(
        /This link has expired or was already used — ask your sales representative for a new one/,
      ),
    ).toBeTruthy();
  });
});
