import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, signInAsStaff } from './support/staff-session';

/*
 * Month-end accounting (issue 28 item 5, decision 146), as AR closes a month: Billing & AR → Month-end accounting,
 * the trial balance of the month on the demo data balances, every tie-out holds, the other currency is one choice
 * away and stays in the address, and the general ledger downloads as CSV.
 */

const shots = process.env.E2E_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

describe.skipIf(noBrowser)('month-end accounting (issue 28)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('AR reads the month’s trial balance, sees every tie-out hold, switches currency and exports the general ledger', async () => {
    const { page, errors } = await signInAsStaff(browser, 'ar@example.com');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Month-end accounting' }).click();
    await page.waitForURL(/#\/accounting/);
    await main(page).getByRole('heading', { name: 'Month-end accounting', level: 1 }).waitFor();

    const table = main(page).getByRole('table', { name: /^Trial balance, / });
    await table.getByText('Accounts receivable').waitFor();
    const total = table.getByRole('row', { name: /Total of the month/ });
    const cells = await total.getByRole('cell').allTextContents();
    expect(cells[1], 'debits equal credits').toBe(cells[2]);
    expect(cells[1]).toMatch(/^\$[\d,]+\.\d{2}$/);
    const ties = main(page).getByRole('table', { name: 'Tie-outs' });
    await ties.getByText('Receivables equal the open invoices').waitFor();
    expect(await ties.getByText('Differs').count(), (await ties.textContent()) ?? '').toBe(0);
    await main(page).getByText('Every figure ties out: the journal and the books agree.').waitFor();
    await shot(page, 'accounting-usd');

    await main(page).getByRole('combobox', { name: 'Currency' }).selectOption('CAD');
    await page.waitForURL(/currency=CAD/);
    await main(page).getByRole('table', { name: /CAD/ }).waitFor();
    await page.reload();
    await main(page).getByRole('table', { name: /CAD/ }).getByText('Accounts receivable').waitFor();
    expect(await main(page).getByRole('combobox', { name: 'Currency' }).inputValue()).toBe('CAD');

    const download = page.waitForEvent('download');
    await main(page).getByRole('button', { name: 'Export general ledger (CSV)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^general-ledger-CAD-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.csv$/);
    await shot(page, 'accounting-cad');
    expect(errors).toEqual([]);
  }, 120_000);
});
