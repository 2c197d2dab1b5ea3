import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { listReady } from './support/lists';
import { keepScreenshot } from './support/screenshots';
import { waitForSignedIn } from './support/sign-in';
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

/*
 * Look-ups (#/lookups; spec §1, decision 161), as a distributor uses them while selling: sign in at /distributor, open
 * Look-ups from the navigation, see the terminal products with their prices, pick a bundle and see its yearly price
 * options, look up its own referral (REF-DEMO1, the demo distributor's) and one nobody has — told so in words. Every
 * tab at 1280 px: no cell clipped.
 */
describe.skipIf(noBrowser)('look-ups: a distributor looks up terminals, bundle prices and a referral (§1)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  /** Cells, headers and badges of the page's main whose text does not fit (the daily screens' density check). */
  const clippedCells = (page: Page) =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('main td, main th, main .mantine-Badge-label'))
        .filter((el) => el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`),
    );

  it('a distributor opens Look-ups from the navigation and finds terminals, bundle prices and referrals', async () => {
    const context = await browser.newContext({ baseURL: e2e.baseUrl, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/#/distributor');
    await main(page).getByRole('heading', { name: 'Distributor sign-in' }).waitFor();
    await main(page).getByLabel('E-mail').fill('distributor@example.com');
    await main(page).getByLabel('Password', { exact: true }).fill('distributor-demo');
    await main(page).getByRole('button', { name: 'Sign in', exact: true }).click();
    await waitForSignedIn(page, { name: 'Nora Quinn', email: 'distributor@example.com' });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Look-ups' }).click();
    await main(page).getByRole('heading', { name: 'Look-ups', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/lookups');
    // Billing items first, each with its category and price.
    await main(page)
      .getByRole('table', { name: /^Billing items — [1-9][\d,]* items?$/ })
      .waitFor();
    const clipped = (await clippedCells(page)).map((c) => `billing items: ${c}`);

    // Terminal products: the terminal and the Petro system, with their prices.
    await main(page).getByRole('tab', { name: 'Terminal products' }).click();
    const terminals = main(page).getByRole('table', { name: /^Terminal products — [1-9]\d* products?$/ });
    await terminals.waitFor();
    expect(new URL(page.url()).hash).toBe('#/lookups?tab=terminals');
    const terminalRows = await terminals.locator('tbody tr').allTextContents();
    expect(terminalRows.join(' | ')).toMatch(/Terminal product.*\$[\d,]+\.\d{2}/);
    clipped.push(...(await clippedCells(page)).map((c) => `terminal products: ${c}`));
    await keepScreenshot(page, 'lookups-1-terminal-products-1280');

    // Bundle prices: a bundle and the yearly plan's reference (5) → its options, each a 12-month price.
    await main(page).getByRole('tab', { name: 'Bundle prices' }).click();
    const choose = main(page).getByRole('search', { name: 'Choose a bundle' });
    await choose.getByLabel('Bundle').selectOption({ label: 'Starter POS bundle' });
    await choose.getByLabel('Reference id (optional)').fill('5');
    await choose.getByRole('button', { name: 'Show price options' }).click();
    const options = main(page).getByRole('table', {
      name: /^Price options of Starter POS bundle in USD — [1-9]\d* options?$/,
    });
    await options.waitFor();
    await listReady(page);
    expect(new URL(page.url()).hash).toMatch(/^#\/lookups\?tab=bundle-prices&bundle_id=\d+&reference_id=5$/);
    for (const row of await options.locator('tbody tr').allTextContents())
      expect(row).toMatch(/Reference 5.*12 months.*\$[\d,]+\.\d{2}/);
    clipped.push(...(await clippedCells(page)).map((c) => `bundle prices: ${c}`));
    await keepScreenshot(page, 'lookups-2-bundle-prices-1280');

    // Referral: the distributor's own referral by its code, then one nobody has.
    await main(page).getByRole('tab', { name: 'Referral' }).click();
    const lookUp = main(page).getByRole('search', { name: 'Look up a referral' });
    await lookUp.getByLabel('Referral id').fill('REF-DEMO1');
    await lookUp.getByRole('button', { name: 'Look up' }).click();
    const referral = main(page).getByRole('table', { name: 'Referral REF-DEMO1' });
    await referral.waitFor();
    expect(await referral.textContent()).toMatch(
      /Demo Distributor LLC referral.*Demo Distributor LLC \(agent \d+\).*\$50\.00/,
    );
    expect(new URL(page.url()).hash).toBe('#/lookups?tab=referral&ref=REF-DEMO1');
    clipped.push(...(await clippedCells(page)).map((c) => `referral: ${c}`));
    await keepScreenshot(page, 'lookups-3-referral-1280');

    await lookUp.getByLabel('Referral id').fill('REF-NO-SUCH-CODE');
    await lookUp.getByRole('button', { name: 'Look up' }).click();
    const missing = main(page).getByRole('alert').filter({ hasText: 'No referral REF-NO-SUCH-CODE' });
    await missing.waitFor();
    expect(await missing.textContent()).toContain('No active referral has the code or id REF-NO-SUCH-CODE.');
    expect(await referral.count()).toBe(0);
    await keepScreenshot(page, 'lookups-4-referral-missing-1280');

    expect(clipped).toEqual([]);
    // The only console error is the browser's own line for the 404 answer of the missing referral.
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    await context.close();
  });
});
