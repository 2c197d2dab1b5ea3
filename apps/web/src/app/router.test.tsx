import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render-app';
import { pages, type PageMap } from './router';

function PublicTestPage() {
  return <h1>Confirmation page</h1>;
}
function GuardedTestPage() {
  return <h1>Customer page</h1>;
}

describe('router', () => {
  it('sends the root path to the login page', async () => {
    renderApp('');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.hash).toBe('#/login');
    await waitFor(() => expect(document.title).toBe('Sign in · POS Back Office'));
  });

  it('sends an unknown path to the root, which ends at the login page', async () => {
    renderApp('#/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.hash).toBe('#/login');
  });

  it('does not register a route whose page does not exist yet', async () => {
    renderApp('#/order');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(window.location.hash).toBe('#/login');
  });

  it('loads a public page registered in the page map', async () => {
    const map: PageMap = { ...pages, confirmation: () => Promise.resolve({ default: PublicTestPage }) };
    renderApp('#/confirmation', map);
    expect(await screen.findByRole('heading', { name: 'Confirmation page' })).toBeTruthy();
  });

  it('keeps guarded pages closed until sessions and permissions are checked', async () => {
    const map: PageMap = { ...pages, customer: () => Promise.resolve({ default: GuardedTestPage }) };
    renderApp('#/customer', map);
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Customer page' })).toBeNull();
  });

  it('the login page has one Sign in button and a place for the sign-in error', async () => {
    renderApp('#/login');
    const main = await screen.findByRole('main');
    await within(main).findByRole('heading', { name: 'Sign in' });
    expect(screen.getAllByRole('button', { name: 'Sign in' })).toHaveLength(1);
    expect(within(main).getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });
});
