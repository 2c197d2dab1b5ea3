import { orderMilestones } from '@pos/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeSession } from '../test/factories';
import { renderApp } from '../test/render-app';
import { setCountry, setMilestone } from '../lib/header-state';
import { setFlag, setSession } from '../lib/session';
import { pages, type PageMap } from './router';

function PublicTestPage() {
  return <h1>Confirmation page</h1>;
}
const withPublicPage: PageMap = { ...pages, confirmation: () => Promise.resolve({ default: PublicTestPage }) };

async function header() {
  return within(await screen.findByRole('banner'));
}

describe('header', () => {
  it('has the logo linking to the order list', async () => {
    renderApp('#/login');
    const link = (await header()).getByRole('link', { name: 'POS Back Office' });
    expect(link.getAttribute('href')).toBe('#/order');
  });

  it('shows Signout only for a session that is not a distributor token', async () => {
    renderApp('#/login');
    const banner = await header();
    expect(banner.queryByRole('button', { name: 'Signout' })).toBeNull();

    act(() => setSession(makeSession()));
    expect(await banner.findByRole('button', { name: 'Signout' })).toBeTruthy();

    act(() => setFlag('distributor_token', true));
    await waitFor(() => expect(banner.queryByRole('button', { name: 'Signout' })).toBeNull());
  });

  it('says who is signed in and as what', async () => {
    renderApp('#/login');
    const banner = await header();
    act(() => setSession(makeSession({ name: 'Ram Patel', email: 'ram@example.com', role: 'RAM' })));
    const who = await banner.findByText('Ram Patel', { exact: false });
    expect(who.textContent).toBe('Signed in as Ram Patel · RAM');
  });

  it('Sign in goes to the login page', async () => {
    renderApp('#/confirmation', withPublicPage);
    await screen.findByRole('heading', { name: 'Confirmation page' });
    await userEvent.click((await header()).getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.hash).toBe('#/login');
  });

  it('has no Sign in of its own on the two sign-in pages', async () => {
    renderApp('#/distributor');
    const banner = await header();
    await screen.findByRole('heading', { name: 'Distributor sign-in' });
    expect(banner.queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(screen.getAllByRole('button', { name: 'Sign in' })).toHaveLength(1);
  });

  it('shows the Canadian flag when the country is CA', async () => {
    renderApp('#/login');
    const banner = await header();
    expect(banner.queryByRole('img', { name: 'Canada' })).toBeNull();
    act(() => setCountry('CA'));
    expect(await banner.findByRole('img', { name: 'Canada' })).toBeTruthy();
    act(() => setCountry('US'));
    await waitFor(() => expect(banner.queryByRole('img', { name: 'Canada' })).toBeNull());
  });

  it('shows the milestone bar only when a milestone is current', async () => {
    renderApp('#/login');
    const banner = await header();
    const milestones = orderMilestones({ orderType: 'P', fromNewOrder: false });
    act(() => setMilestone({ milestones, current: -1 }));
    expect(banner.queryByRole('navigation', { name: 'Order progress' })).toBeNull();

    act(() => setMilestone({ milestones, current: 1 }));
    const bar = await banner.findByRole('navigation', { name: 'Order progress' });
    const steps = within(bar).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual([
      '1Store information',
      '2SELECT HARDWARE',
      '3PAYMENT (PLAN / METHOD)',
      '4Recurring charges',
    ]);
    expect(steps[1]?.getAttribute('aria-current')).toBe('step');
  });
});
