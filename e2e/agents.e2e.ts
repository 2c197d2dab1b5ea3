import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, signInAsStaff } from './support/staff-session';

/*
 * Agents (#/view-agents, #/new-agent/{id}, #/view-agent-stores/{id}/{name}; issue 17 point 1, decision 124), as an
 * administrator works it: open Agents from the navigation, create a distributor (the e-mail is checked when it is
 * left), land on its stores page (none yet), find it in the list, then open a demo agent's stores with their status
 * and open balance.
 */
describe.skipIf(noBrowser)('agents: create an agent and see its stores (issue 17)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('an administrator creates an agent from the navigation and sees its stores', async () => {
    const { page, errors, context } = await signInAsStaff(browser, 'admin@example.com');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Agents' }).click();
    await main(page).getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/view-agents');
    const list = main(page).getByRole('table', { name: /^Agents — [\d,]+ match/ });
    await list.waitFor();

    // New agent: the form checks the e-mail (lowercased) when it is left.
    await main(page).getByRole('link', { name: 'New agent' }).click();
    await main(page).getByRole('heading', { name: 'New agent', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/new-agent/0');
    const suffix = Date.now().toString(36);
    const name = `Journey Distribution ${suffix}`;
    await main(page).getByLabel('Agent name').fill(name);
    const checked = page.waitForResponse((r) => /\/api\/customers\/agents\/checkemail\//.test(r.url()));
    await main(page).getByLabel('E-mail').fill(`Journey.${suffix}@Example.com`);
    await main(page).getByLabel('Contact name').click();
    const check = await checked;
    expect(check.request().postDataJSON()).toEqual({ email: `journey.${suffix}@example.com` });
    await main(page).getByText('This e-mail is free.').waitFor();
    await main(page).getByLabel('Contact name').fill('Jo Journey');
    await main(page).getByLabel('Agent type').selectOption('Distributor');
    await main(page).getByLabel('Sales channel').selectOption('Distributor');
    await main(page).getByLabel('Commission (%)').fill('7.5');
    await main(page).getByRole('button', { name: 'Create agent' }).click();

    // Its stores page: the agent's details, no store yet, and the editor's actions.
    await main(page)
      .getByRole('heading', { name: `Stores of ${name}`, level: 1 })
      .waitFor();
    expect(new URL(page.url()).hash).toMatch(/^#\/view-agent-stores\/\d+\//);
    await main(page).getByText('No stores are linked to this agent yet.').waitFor();
    await main(page).getByRole('button', { name: 'Invite to distributor login' }).waitFor();
    await main(page)
      .getByText(/contact Jo Journey/)
      .waitFor();

    // Back in the list, the text filter finds it with its commission.
    await main(page).getByRole('link', { name: 'Back to agents' }).click();
    await main(page).getByLabel('Name, e-mail or contact').fill(suffix);
    await main(page).getByRole('button', { name: 'Apply filters' }).click();
    const found = main(page).getByRole('table', { name: 'Agents — 1 match' });
    await found.waitFor();
    expect(await found.locator('tbody tr').first().textContent()).toContain('7.5%');

    // A demo agent with stores: each store with its status and open balance.
    await main(page).getByRole('button', { name: 'Clear filters' }).click();
    await main(page)
      .getByRole('table', { name: /^Agents — [\d,]+ match/ })
      .waitFor();
    const withStores = main(page)
      .locator('tbody tr')
      .filter({ has: page.locator('td:nth-child(7)', { hasNotText: /^0$/ }) })
      .first();
    const storesLink = withStores.getByRole('link', { name: /^Stores of / });
    const agentName = ((await storesLink.textContent()) ?? '').replace(/^Stores of /, '');
    await storesLink.click();
    await main(page)
      .getByRole('heading', { name: `Stores of ${agentName}`, level: 1 })
      .waitFor();
    const stores = main(page).getByRole('table', { name: /^Stores of .* — [\d,]+ stores?$/ });
    await stores.waitFor();
    const row = stores.locator('tbody tr').first();
    expect(await row.textContent()).toMatch(/(Active|Pending|Suspended|Closed).*C?\$[\d,]+\.\d{2}/);

    expect(errors).toEqual([]);
    await context.close();
  });
});
