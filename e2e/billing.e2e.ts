import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, signInAsStaff } from './support/staff-session';

describe.skipIf(noBrowser)('billing runs (issue 14)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('an admin runs billing now from the navigation and watches the run finish with the invoices it created', async () => {
    const { page, errors } = await signInAsStaff(browser, 'admin@example.com');
    const adminNav = page.getByRole('navigation', { name: 'Main' }).getByRole('group', { name: 'Admin' });
    await adminNav.getByRole('link', { name: 'Billing runs' }).click();
    await main(page).getByRole('heading', { name: 'Billing runs', level: 1 }).waitFor();

    await main(page).getByRole('button', { name: 'Run billing now' }).click();
    const started = main(page)
      .getByRole('status')
      .filter({ hasText: /Billing run \d+ started\./ });
    await started.waitFor();
    const runId = /Billing run (\d+) started/.exec((await started.textContent()) ?? '')?.[1];
    expect(runId).toBeDefined();

    // The list polls while the run is under way: it ends Done, every due plan billed.
    const row = main(page).getByRole('table', { name: 'Recent runs' }).locator(`tr[data-run-id="${runId}"]`);
    await row.getByText('Done', { exact: true }).waitFor({ timeout: 60_000 });
    const cells = await row.getByRole('cell').allTextContents();
    // Run | As of | Status | Progress | Invoices created | Already billed | Licenses lapsed | Started by | Started | Finished
    const created = Number(cells[4]!.replace(/,/g, ''));
    expect(cells[7]).toBe('admin@example.com');
    expect(cells[3]).toMatch(/(\d[\d,]*) of \1 plans/);
    // The demo seed leaves one live monthly store in ten due this month (decision 113): the run bills them.
    expect(created).toBeGreaterThan(0);
    expect(await row.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');

    // Run again: nothing is billed twice.
    await main(page).getByRole('button', { name: 'Run billing now' }).click();
    const again = main(page)
      .getByRole('status')
      .filter({ hasText: new RegExp(`Billing run (?!${runId}\\b)\\d+ started\\.`) });
    await again.waitFor();
    const secondId = /Billing run (\d+) started/.exec((await again.textContent()) ?? '')?.[1];
    const second = main(page).getByRole('table', { name: 'Recent runs' }).locator(`tr[data-run-id="${secondId}"]`);
    await second.getByText('Done', { exact: true }).waitFor({ timeout: 60_000 });
    expect((await second.getByRole('cell').allTextContents())[4]).toBe('0');
    expect(errors).toEqual([]);
  });
});
