import { readFileSync } from 'node:fs';
import { CUSTOMER_LISTING_CSV_COLUMNS } from '@pos/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, signInAsStaff } from './support/staff-session';

/*
 * Customer listing (#/customer-listing; issue 18 part 2, decision 130), as Marketing would use it: open it from the
 * navigation, filter to Canada, export the CSV (it streams, with "N of M rows" while it comes) and the downloaded
 * file holds only Canadian stores — as many as the list counted.
 */

/** RFC 4180 rows (quoted cells may hold commas, quotes and line ends). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

describe.skipIf(noBrowser)('customer listing: filter to Canada and export the CSV (issue 18)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('Marketing opens Customer listing, filters to Canada and downloads only Canadian rows', async () => {
    const { context, page, errors } = await signInAsStaff(browser, 'marketing@example.com');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('group', { name: 'Reports' }).getByRole('link', { name: 'Customer listing' }).click();
    await main(page).getByRole('heading', { name: 'Customer listing', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/customer-listing');
    await main(page)
      .getByRole('table', { name: /^Stores — [\d,]+\+? match/ })
      .waitFor();

    await main(page).getByLabel('Country').selectOption('Canada');
    const filtered = page.waitForResponse(
      (r) => /\/api\/reports\/customer-listing\/[^/?]+\?/.test(r.url()) && r.url().includes('country=CA'),
    );
    await main(page).getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/customer-listing?country=CA');
    const { info } = (await (await filtered).json()) as { info: { total: number; total_capped: boolean } };
    expect(info.total_capped).toBe(false);
    const total = info.total;
    expect(total).toBeGreaterThan(0);
    const table = main(page).getByRole('table', {
      name: `Stores — ${total.toLocaleString('en-US')} ${total === 1 ? 'match' : 'matches'}`,
    });
    await table.waitFor();
    // Every shown row is Canadian (once the filtered page replaced the previous one).
    await expect
      .poll(async () => (await table.getByRole('row').allTextContents()).slice(1).every((t) => t.includes('Canada')))
      .toBe(true);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      main(page).getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^customer-listing-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parseCsv(readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual([...CUSTOMER_LISTING_CSV_COLUMNS]);
    const country = CUSTOMER_LISTING_CSV_COLUMNS.indexOf('country');
    const currency = CUSTOMER_LISTING_CSV_COLUMNS.indexOf('currency');
    const data = rows.slice(1);
    expect(data).toHaveLength(total);
    for (const r of data) {
      expect(r[country]).toBe('CA');
      expect(r[currency]).toBe('CAD');
    }
    await page.getByText(/rows? saved as CSV/).waitFor();

    // Two provinces at once (§2's multi-select): only their stores, and the address says both.
    const states = main(page).getByRole('combobox', { name: 'State / province' });
    for (const name of ['Ontario (ON)', 'British Columbia (BC)']) {
      await states.click();
      await main(page).getByRole('listbox', { name: 'State / province' }).getByRole('option', { name }).click();
    }
    await states.press('Escape');
    await main(page).getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe('#/customer-listing?country=CA&state=ON%2CBC');
    await expect
      .poll(async () => {
        const places = (await main(page).getByRole('cell').allTextContents()).filter((t) => t.startsWith('Canada · '));
        return places.length > 0 && places.every((t) => /^Canada · (ON|BC)$/.test(t.trim()));
      })
      .toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
