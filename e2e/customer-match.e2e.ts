import { blankOrder, type CustomerSearchResult } from '@pos/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * Issue 27 item 2, decision 142: an agent-scoped user's order whose federal tax id is an existing customer the agent
 * may not see is not merged into that customer silently. The RDC user saves the draft; the order panel tells the RDC
 * user only that the tax id is an existing customer's (not whose), and tells staff which customer it is, with
 * "Confirm match" / "Onboard as new customer". Staff confirm; the panel says who confirmed.
 */

/** Where to keep screenshots of the walk (E2E_SCREENSHOTS), if anywhere. */
const shots = process.env.E2E_SCREENSHOTS;

async function getJson<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(`${e2e.baseUrl}${path}`);
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true);
  return ((await res.json()) as { info: T }).info;
}

/** A POST from the signed-in page (XSRF header as the app sends it). */
async function postJson<T>(page: Page, path: string, body: unknown): Promise<T> {
  const res = await page.evaluate(
    async ({ path, body }) => {
      const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
      const r = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': xsrf },
        body: JSON.stringify(body),
      });
      return { status: r.status, body: (await r.json()) as unknown };
    },
    { path, body },
  );
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return (res.body as { info: T }).info;
}

describe.skipIf(noBrowser)(
  'an agent’s order for an existing customer waits for a staff confirmation (issue 27)',
  () => {
    let browser: Browser;

    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(() => browser?.close());

    it('rdc@ saves a draft for a tax id that is another agent’s customer; Admin sees whose it is and confirms the match', async () => {
      const admin = await signInAsStaff(browser, 'admin@example.com');
      const adminToken = await sessionToken(admin.page);
      const found = await getJson<CustomerSearchResult>(admin.page, `/api/customers/${adminToken}/all?search=market`);
      const existing = found.items.find((c) => c.federal_tax_id);
      expect(existing, 'the demo data has customers with a federal tax id').toBeDefined();

      // The RDC user (agent-scoped: RDC Southwest has no customers) saves a draft for that tax id.
      const rdc = await signInAsStaff(browser, 'rdc@example.com');
      const rdcToken = await sessionToken(rdc.page);
      const json = blankOrder();
      json.CustomerInfo = {
        ...json.CustomerInfo,
        firstName: 'Iris',
        lastName: 'Stone',
        federalTaxId: existing!.federal_tax_id!,
      };
      json.StoreInfo = { ...json.StoreInfo, doingBusinessAs: 'Stone Grocery', storeName: 'Stone Grocery Oak' };
      const saved = await postJson<{ orderInfoId: number; unifiedOrderId: string }>(
        rdc.page,
        `/api/customers/orderinfo/new/${rdcToken}`,
        { json },
      );
      const orderId = saved.orderInfoId;

      // The RDC user's panel: the order waits, and nothing says whose customer the tax id is.
      await rdc.page.goto(`/#/order?id=${orderId}`);
      const rdcMatch = main(rdc.page).getByRole('region', { name: 'Existing customer match' });
      await rdcMatch.getByText('This tax id belongs to an existing customer.').waitFor();
      expect(await rdcMatch.textContent()).not.toContain(existing!.legal_name);
      expect(await rdcMatch.getByRole('button', { name: 'Confirm match' }).count()).toBe(0);
      if (shots) await rdc.page.screenshot({ path: `${shots}/customer-match-rdc.png`, fullPage: true });
      expect(rdc.errors).toEqual([]);
      await rdc.context.close();

      // Admin opens the order from its link: the customer is named, and Admin confirms.
      await admin.page.setViewportSize({ width: 1280, height: 900 });
      await admin.page.goto(`/#/order?id=${orderId}`);
      const match = main(admin.page).getByRole('region', { name: 'Existing customer match' });
      await match.getByText(existing!.legal_name, { exact: false }).waitFor();
      await match.getByText(/Waiting for a staff confirmation/).waitFor();
      if (shots) await admin.page.screenshot({ path: `${shots}/customer-match-admin.png`, fullPage: true });
      await match.getByRole('button', { name: 'Confirm match' }).click();
      await admin.page.getByText('Match confirmed').waitFor();
      await match.getByText(/Confirmed by admin@example.com/).waitFor();
      expect(await match.getByRole('button', { name: 'Confirm match' }).isDisabled()).toBe(true);
      expect(admin.errors).toEqual([]);
      await admin.context.close();
    });
  },
);
