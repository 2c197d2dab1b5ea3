import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/* #/customer/features/{tok} (decision 123): the change, the monthly amounts in the store's currency, accept/decline. */

const TOK = 'F'.repeat(43);
const VIEW = {
  store_name: 'Corner Deli',
  changes: [
    { billing_item_id: 201, name: 'Advanced Data', action: 'add', monthly_cents: 15_00 },
    { billing_item_id: 207, name: 'No Ads', action: 'remove', monthly_cents: 9_00 },
  ],
  current_monthly_cents: 79_00,
  new_monthly_cents: 85_00,
  currency: 'CAD',
  effective_on: '2026-12-01',
  status: 'sent',
  decided_at: null,
  expires_at: '2026-12-06T12:00:00.000Z',
  version: 1,
};

describe('#/customer/features/{tok}', () => {
  it('shows the features switched on and off and the monthly amount in C$; accepting sends the version', async () => {
    const posts: FakeRequest[] = [];
    fakeApi({
      [`GET /api/public/features/${TOK}`]: VIEW,
      [`POST /api/public/features/${TOK}`]: (r: FakeRequest) => {
        posts.push(r);
        return { ...VIEW, status: 'accepted', decided_at: '2026-11-22T12:00:00.000Z', version: 2 };
      },
    });
    const user = userEvent.setup();
    renderApp(`#/customer/features/${TOK}`);
    await screen.findByRole('heading', { name: 'Feature change — Corner Deli' });
    const changes = screen.getByRole('table', { name: 'Feature changes' });
    expect(changes.textContent).toContain('Advanced DataSwitched on+C$15.00');
    expect(changes.textContent).toContain('No AdsSwitched off−C$9.00');
    const amounts = screen.getByRole('table', { name: 'Monthly amount' });
    expect(amounts.textContent).toMatch(/Monthly amount nowC\$79\.00/);
    expect(amounts.textContent).toMatch(/New monthly amountC\$85\.00 from Dec(ember)? 1, 2026/);
    await user.click(screen.getByRole('button', { name: 'Accept the change' }));
    await screen.findByRole('heading', { name: 'Thank you — the change is accepted' });
    expect(screen.getByText(/Your monthly amount is C\$85\.00 from/)).toBeTruthy();
    expect(posts.map((p) => p.body)).toEqual([{ decision: 'accept', version: 1 }]);
  });

  it('a refused decision says why and keeps the page; declining says nothing changes', async () => {
    let first = true;
    fakeApi({
      [`GET /api/public/features/${TOK}`]: VIEW,
      [`POST /api/public/features/${TOK}`]: (r: FakeRequest) => {
        if (first) {
          first = false;
          return errorResponse(409, 'conflict', "The store's features, prices or plan changed since this offer.");
        }
        expect(r.body).toEqual({ decision: 'decline', version: 1 });
        return { ...VIEW, status: 'declined', decided_at: '2026-11-22T12:00:00.000Z', version: 2 };
      },
    });
    const user = userEvent.setup();
    renderApp(`#/customer/features/${TOK}`);
    await user.click(await screen.findByRole('button', { name: 'Accept the change' }));
    expect((await screen.findByRole('alert')).textContent).toContain('changed since this offer');
    await user.click(screen.getByRole('button', { name: 'Decline' }));
    await screen.findByRole('heading', { name: 'You declined the change' });
    await waitFor(() => expect(screen.getByText(/nothing changes\. Your monthly amount stays C\$79\.00/)).toBeTruthy());
  });

  it('a used link shows only the message', async () => {
    fakeApi({
      [`GET /api/public/features/${TOK}`]: errorResponse(410, 'link_expired', 'This link was already used. Ask us.'),
    });
    renderApp(`#/customer/features/${TOK}`);
    expect((await screen.findByRole('alert')).textContent).toContain('This link was already used.');
    expect(screen.queryByRole('button', { name: 'Accept the change' })).toBeNull();
  });
});
