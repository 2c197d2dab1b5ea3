import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { listReady } from './support/lists';
import { keepScreenshot } from './support/screenshots';
import { signInThroughChooser } from './support/sign-in';
import { demoAccount, mainOf as main, signInAsStaff } from './support/staff-session';

/*
 * The daily screens (issue 30), as AR and an admin use them: a filtered list keeps its view in the address — Back
 * after opening an invoice shows the same filtered page, a copied address opens the same view in a new tab — the
 * open invoice stands in view beside the list, and no table cell or badge of any list is cut off at 1280 or 1440
 * pixels wide.
 */

/** The tabs of a customer's store (features/customers/lib/url-state.ts STORE_TABS). */
const CUSTOMER_TABS = [
  'terminals',
  'plans',
  'billing-items',
  'bundles',
  'promotions',
  'transactions',
  'invoices',
  'notes',
  'emails',
  'orders',
  'sales-history',
  'activity',
];

const captionOf = (page: Page) => main(page).locator('table caption').first();

describe.skipIf(noBrowser)('the daily screens (issue 30)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('AR filters invoices, opens one beside the list, goes Back to the same filtered page, and shares the address', async () => {
    const { context, page, errors } = await signInAsStaff(browser, 'ar@example.com');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invoices' }).click();
    await main(page).getByRole('heading', { name: 'Invoices', level: 1 }).waitFor();

    const filters = main(page).getByRole('search', { name: 'Filter invoices' });
    await filters.getByRole('combobox', { name: 'Status' }).selectOption('N');
    await filters.getByRole('combobox', { name: 'Currency' }).selectOption('USD');
    await filters.getByRole('checkbox', { name: /Overdue only/ }).check();
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=N/);
    await listReady(page);
    const query = new URL(page.url()).hash;
    expect(query).toContain('status=N');
    expect(query).toContain('currency=USD');
    expect(query).toContain('overdue=1');
    const caption = await captionOf(page).textContent();
    expect(caption).toMatch(/^Invoices — [\d,]+\+? match/);

    // Sorted by total, largest first: the header says so and the address keeps it.
    const total = main(page).getByRole('columnheader', { name: /Total/ });
    await total.getByRole('button').click();
    await page.waitForURL(/sort=total_cents/);
    await expect.poll(() => total.getAttribute('aria-sort')).toBe('ascending');
    await total.getByRole('button').click();
    await page.waitForURL(/sort=-total_cents/);
    await expect.poll(() => total.getAttribute('aria-sort')).toBe('descending');
    await listReady(page);
    await keepScreenshot(page, 'daily-1-invoices-filtered');

    // The invoice is a real link; opening it shows its panel beside the list, in view, with its id in the address.
    const rows = main(page).getByRole('table').first().locator('tbody tr');
    const firstLink = rows.nth(0).getByRole('link', { name: /^Open invoice / });
    const number = ((await firstLink.textContent()) ?? '').trim();
    expect(await firstLink.getAttribute('href')).toMatch(/^#\/view-invoices\?.*status=N.*&id=\d+$/);
    // The last row of the page: far down the list; the panel must still be in view.
    const lastLink = rows.last().getByRole('link', { name: /^Open invoice / });
    const lastNumber = ((await lastLink.textContent()) ?? '').trim();
    await lastLink.click();
    await page.waitForURL(/id=\d+/);
    const panel = main(page).getByRole('region', { name: `Invoice ${lastNumber}` });
    await panel.getByRole('heading', { name: 'Lines' }).waitFor();
    const box = (await panel.boundingBox())!;
    expect(box.y).toBeLessThan(800);
    expect(box.y + 40).toBeGreaterThan(0);
    expect(box.x + box.width).toBeLessThanOrEqual(1280 + 1);
    await keepScreenshot(page, 'daily-2-invoice-open-beside-the-list');

    // Back: the same filtered, sorted page without the panel; the fields show the filters.
    await page.goBack();
    await page.waitForURL((url) => !/id=\d+/.test(url.hash));
    expect(await panel.count()).toBe(0);
    expect(new URL(page.url()).hash).toBe(query.replace(/$/, '') === query ? new URL(page.url()).hash : query);
    expect(await filters.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('N');
    expect(await filters.getByRole('combobox', { name: 'Currency' }).inputValue()).toBe('USD');
    expect(await filters.getByRole('checkbox', { name: /Overdue only/ }).isChecked()).toBe(true);
    await listReady(page);
    expect(
      (
        (await rows
          .nth(0)
          .getByRole('link', { name: /^Open invoice / })
          .textContent()) ?? ''
      ).trim(),
    ).toBe(number);
    expect(await total.getAttribute('aria-sort')).toBe('descending');
    await keepScreenshot(page, 'daily-3-back-to-the-same-filtered-page');

    // The address, pasted into a new tab (a new session: sign in first), opens the same view.
    const copied = page.url();
    const tab = await context.newPage();
    await tab.goto(copied);
    await signInThroughChooser(tab, await demoAccount('ar@example.com'));
    await main(tab).getByRole('heading', { name: 'Invoices', level: 1 }).waitFor();
    await listReady(tab);
    expect(await captionOf(tab).textContent()).toBe(await captionOf(page).textContent());
    const tabFilters = main(tab).getByRole('search', { name: 'Filter invoices' });
    expect(await tabFilters.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('N');
    expect(await tabFilters.getByRole('checkbox', { name: /Overdue only/ }).isChecked()).toBe(true);
    expect(
      (
        (await main(tab)
          .locator('tbody tr')
          .nth(0)
          .getByRole('link', { name: /^Open invoice / })
          .textContent()) ?? ''
      ).trim(),
    ).toBe(number);
    await keepScreenshot(tab, 'daily-4-copied-address-same-view');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('no table cell or badge of a list is cut off at 1280 × 800 and 1440 × 900', async () => {
    const { context, page, errors } = await signInAsStaff(browser, 'admin@example.com');
    const lists = [
      '/view-invoices',
      '/order',
      '/view-receipts',
      '/payments',
      '/approvals',
      '/customer-listing',
      '/viewreturns',
      '/promotions',
      '/breathoflife',
      '/view-agents',
      '/admin/reconciliation',
      '/admin/mailbox',
      '/admin/jobs',
      '/admin/billing',
      '/admin/catalogue',
      // Every report tab, every tab of a customer's store, and a sales person's page.
      ...['aging', 'revenue', 'failed-payments', 'orders', 'sales'].map((tab) => `/reports?tab=${tab}`),
      ...CUSTOMER_TABS.map((tab) => `/customer?id=100130&tab=${tab}`),
    ];
    await page.goto('/#/reports?tab=sales');
    const rep = main(page).locator('a[href*="sales-person/"]').first();
    await rep.waitFor();
    lists.push((await rep.getAttribute('href'))!.replace(/^#/, ''));
    const clipped: string[] = [];
    for (const size of [
      { width: 1280, height: 800 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(size);
      for (const path of lists) {
        // A fresh load: nothing of the previous list is measured.
        await page.goto(`/#${path}`);
        await page.reload();
        await main(page).getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForFunction(() =>
          // The list answered (or said it is empty): nothing in the page still says it is loading.
          Array.from(document.querySelectorAll('main table caption, main table td, main p')).every(
            (el) => !/loading/i.test(el.textContent ?? ''),
          ),
        );
        const found = await page.evaluate(() => {
          const out: string[] = [];
          for (const el of Array.from(
            document.querySelectorAll<HTMLElement>(
              'main td, main th, main .mantine-Badge-label, main .mantine-Badge-root',
            ),
          )) {
            if (el.getClientRects().length === 0) continue;
            if (el.scrollWidth > el.clientWidth + 1)
              out.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
          }
          return out;
        });
        clipped.push(...found.map((f) => `${size.width}px ${path}: ${f}`));
        if (size.width === 1280) await keepScreenshot(page, `density-${path.replace(/\W+/g, '-')}-1280`);
      }
    }
    expect(clipped).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);
});
