import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * The sales person page (issue 18 part 3, decision 129), as an Operations user reaches it: open a customer of one
 * of the demo data's sales persons (the rep who sold the most these 24 months, looked up through the sales report
 * call), follow the sales person's name in the customer header and see the rep's record, the monthly sales chart and
 * table, and the rep's customers linking back to the customer pages. (The #/reports tabs are the other half of
 * issue 18; the Orders and Sales tabs have component tests.)
 */

async function getJson<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(`${e2e.baseUrl}${path}`);
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true);
  return ((await res.json()) as { info: T }).info;
}

/** The rep who sold the most in the last 24 months, and one of their customers. */
async function topRepWithCustomer(page: Page) {
  const token = await sessionToken(page);
  const now = new Date();
  const month = (back: number) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
    return d.toISOString().slice(0, 7);
  };
  const report = await getJson<{ rows: { id: number | null; name: string; amount_cents: number }[] }>(
    page,
    `/api/reports/sales/${token}?from_month=${month(23)}&to_month=${month(0)}&limit=50`,
  );
  for (const rep of report.rows) {
    if (rep.id === null) continue;
    const customers = await getJson<{ items: { customer_id: number; legal_name: string }[] }>(
      page,
      `/api/reports/sales/reps/${rep.id}/customers/${token}?limit=1`,
    );
    if (customers.items[0]) return { rep: { id: rep.id, name: rep.name }, customer: customers.items[0] };
  }
  throw new Error('the demo data has no sales person with sales and customers');
}

describe.skipIf(noBrowser)('sales person page: from a customer to its sales person (issue 18)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it("Operations opens a customer's sales person and sees the monthly totals (chart and table) and the customers", async () => {
    const { page, errors } = await signInAsStaff(browser, 'ops@example.com');
    const { rep, customer } = await topRepWithCustomer(page);

    await page.goto(`/#/customer?id=${customer.customer_id}`);
    const header = main(page).getByRole('region', { name: customer.legal_name });
    await header.waitFor();
    await header.getByRole('link', { name: rep.name }).click();

    await main(page).getByRole('heading', { name: rep.name, level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/sales-person/${rep.id}`);
    const chart = main(page).getByRole('figure', { name: new RegExp(`^Monthly sales of ${rep.name} \\(`) });
    await chart.first().waitFor();
    await chart.first().locator('.recharts-surface').waitFor();
    const table = main(page).getByRole('table', { name: `Monthly sales of ${rep.name}` });
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBeGreaterThanOrEqual(24);
    const totals = await table.locator('tfoot tr').allTextContents();
    expect(totals.length).toBeGreaterThan(0);
    expect(totals.join(' ')).toMatch(/Total \((USD \(\$\)|CAD \(C\$\))\).*(\$|C\$)[\d,]+\.\d\d/);

    // The rep's customers link back to the customer pages.
    const customers = main(page).getByRole('table', { name: new RegExp(`^Customers of ${rep.name} — `) });
    await customers.getByRole('link', { name: customer.legal_name }).click();
    await main(page).getByRole('region', { name: customer.legal_name }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/customer?id=${customer.customer_id}`);

    expect(errors).toEqual([]);
  });
});
