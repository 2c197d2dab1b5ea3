import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * Reports (issue 18 part 1, decision 128), as an AR user works the aging report: open Reports from the navigation,
 * see the aging totals per currency, click the 31–60 days figure and see the invoices behind it — each 31 to 60 days
 * past due, each linking to its customer. The demo data's suspended stores leave failed invoices open 1–3 months
 * (apps/server/src/db/seed/billing.ts); the currency with a 31–60 figure is looked up through the API first.
 */

interface AgingTotalsRow {
  currency: string;
  days_31_60_cents: number;
}

async function currencyWith3160(page: Page): Promise<string> {
  const token = await sessionToken(page);
  const res = await page.request.get(`${e2e.baseUrl}/api/reports/aging/${token}`);
  expect(res.ok(), `aging: ${res.status()}`).toBe(true);
  const totals = ((await res.json()) as { info: { totals: AgingTotalsRow[] } }).info.totals;
  const row = totals.find((t) => t.days_31_60_cents > 0);
  if (!row) throw new Error('the demo data has no open invoice 31–60 days past due');
  return row.currency;
}

describe.skipIf(noBrowser)('reports: AR aging → the invoices 31–60 days past due (issue 18)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('AR opens Reports, sees the aging report and drills into the 31–60 days figure', async () => {
    const { context, page, errors } = await signInAsStaff(browser, 'ar@example.com');
    const currency = await currencyWith3160(page);

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Reports', exact: true }).click();
    await main(page).getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/reports');
    expect(await main(page).getByRole('tab', { name: 'AR aging' }).getAttribute('aria-selected')).toBe('true');

    const totals = main(page).getByRole('table', { name: 'Totals per currency' });
    await totals.waitFor();
    await main(page)
      .getByRole('table', { name: /^By customer — / })
      .waitFor();

    await totals.getByRole('link', { name: new RegExp(`: ${currency} invoices 31–60 days past due$`) }).click();
    await main(page).getByRole('heading', { name: 'Invoices 31–60 days past due', level: 2 }).waitFor();
    const list = main(page).getByRole('table', { name: `Invoices 31–60 days past due — ${currency}` });
    const rows = list.locator('tbody tr');
    await rows.first().waitFor();
    const count = await rows.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const cells = await rows.nth(i).locator('td').allTextContents();
      const days = Number(cells[3]);
      expect(days).toBeGreaterThanOrEqual(31);
      expect(days).toBeLessThanOrEqual(60);
      expect(cells[4]).toMatch(currency === 'CAD' ? /^C\$/ : /^\$/);
    }
    // The customer's cell (the invoice number, the row's header, is a link to the invoice for AR).
    const customer = rows.first().locator('td').first().getByRole('link');
    expect(await customer.getAttribute('href')).toMatch(/^#\/customer\?id=\d+$/);

    // The customer link opens the customer's page.
    await customer.click();
    await page.waitForURL(/#\/customer\?id=\d+$/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
