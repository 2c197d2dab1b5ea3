import { paymentPlanList, terminalValidation, type PaymentPlan } from '@pos/domain';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/auth-server';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { demoElmerId } from './support/demo-data';
import { mainOf as main, sessionToken as tokenOf, signInAsStaff, type StaffSession } from './support/staff-session';

/*
 * The account tabs and edit pages in a real browser on the demo data (issue 6; decisions 065–069), as
 * support@example.com: retire a terminal with a reason and find it in Activity; update a license expiry;
 * save a test card on /editpayment and see it masked.
 */

interface Target {
  readonly customerId: number;
  readonly storeId: number;
  readonly elmerId: string;
  readonly plan: PaymentPlan;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** '2031-06-30' as the app shows a date: 'Jun 30, 2031'. */
const shown = (iso: string) => `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;

describe.skipIf(noBrowser)('customer account tabs and edit pages (issue 6)', () => {
  let browser: Browser;
  let session: StaffSession;
  let target: Target;

  /**
   * A demo store with an active terminal and an active monthly or yearly plan, found the way a test may (the
   * API): terminals by their seeded ids (demo-data.ts), from 5 up so other journeys' terminal 1 is left alone.
   * The terminal validation call answers which customer and store a terminal id belongs to.
   */
  async function findTarget(context: BrowserContext, token: string): Promise<Target> {
    for (let n = 5; n < 200; n++) {
      const elmerId = demoElmerId(n);
      const answer = terminalValidation.parse(
        await callApi(
          context,
          e2e.baseUrl,
          'GET',
          `/api/customers/${token}/terminals/validate/${elmerId}/NO-SUCH-SERIAL`,
        ),
      );
      const t = answer.terminal;
      if (!t || t.status !== 'active') continue;
      const plans = paymentPlanList.parse(
        await callApi(
          context,
          e2e.baseUrl,
          'GET',
          `/api/customers/${t.customer_id}/${token}/customerpaymentplans?storeid=${t.store_id}&status=active&limit=100`,
        ),
      );
      const plan = plans.items.find(
        (p) => (p.kind === 'monthly' || p.kind === 'yearly') && p.license_expires_on !== null,
      );
      if (plan) return { customerId: t.customer_id, storeId: t.store_id, elmerId, plan };
    }
    throw new Error('the demo data has no store with an active terminal and an active licensed plan');
  }

  beforeAll(async () => {
    browser = await launchBrowser();
    session = await signInAsStaff(browser, 'support@example.com');
    target = await findTarget(session.context, await tokenOf(session.page));
  });
  afterAll(async () => {
    await session?.context.close();
    await browser?.close();
  });

  it('retires a terminal with a reason: the row shows it retired and Activity lists the retirement', async () => {
    const { page, errors } = session;
    await page.goto(`/#/customer?id=${target.customerId}&store=${target.storeId}`);
    await main(page).getByRole('tab', { name: 'Terminals' }).click();
    const table = main(page).getByRole('table', { name: `Terminals of store ${target.storeId}` });
    const row = table
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: target.elmerId, exact: true }) });
    await row.getByText('Active', { exact: true }).waitFor();

    await row.getByRole('button', { name: `Retire terminal ${target.elmerId}` }).click();
    const dialog = page.getByRole('dialog', { name: `Retire terminal ${target.elmerId}?` });
    const reason = dialog.getByRole('combobox', { name: 'Reason' });
    // The reasons come from the server (domain data); wait for them, then take the first.
    await reason.locator('option').nth(1).waitFor({ state: 'attached' });
    const reasonLabel = (await reason.locator('option').nth(1).textContent()) ?? '';
    expect(reasonLabel.length).toBeGreaterThan(0);
    await reason.selectOption({ label: reasonLabel });
    await dialog.getByRole('button', { name: 'Retire terminal' }).click();
    await dialog.waitFor({ state: 'detached' });

    await row.getByText('Retired', { exact: true }).waitFor();
    await row.getByText(reasonLabel, { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: /Retire/ }).count()).toBe(0);

    await main(page).getByRole('tab', { name: 'Activity' }).click();
    const entry = main(page).getByText(`Retire · terminal ${target.elmerId}`);
    await entry.first().waitFor();
    expect(errors).toEqual([]);
  });

  it('updates a license expiry in the Plans tab and shows the new date', async () => {
    const { page, errors } = session;
    const { plan } = target;
    const newDate = `${Number((plan.license_expires_on ?? '2030-01-01').slice(0, 4)) + 1}-06-30`;
    await page.goto(`/#/customer?id=${target.customerId}&store=${target.storeId}`);
    await main(page).getByRole('tab', { name: 'Plans' }).click();
    const table = main(page).getByRole('table', { name: `Payment plans of store ${target.storeId}` });
    const buttonName = `Update license expiry of plan ${plan.plan_name} (${plan.id})`;
    const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: buttonName }) });
    await row.getByText(shown(plan.license_expires_on!), { exact: true }).waitFor();

    await row.getByRole('button', { name: buttonName }).click();
    const dialog = page.getByRole('dialog', { name: `License expiry of ${plan.plan_name}` });
    await dialog.getByLabel('License expires on').fill(newDate);
    await dialog.getByRole('button', { name: 'Save license expiry' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row.getByText(shown(newDate), { exact: true }).waitFor();
    expect(errors).toEqual([]);
  });

  it('saves a test card on Edit payment: the number goes only to the gateway and the card shows masked', async () => {
    const { page, errors } = session;
    const apiBodies: string[] = [];
    const gatewayCalls: string[] = [];
    const record = (request: { url(): string; postData(): string | null }) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/')) apiBodies.push(`${url.pathname}${url.search} ${request.postData() ?? ''}`);
      if (url.pathname.startsWith('/gateway-local/')) gatewayCalls.push(request.postData() ?? '');
    };
    page.on('request', record);

    await page.goto(`/#/customer?id=${target.customerId}&store=${target.storeId}`);
    await main(page).getByRole('link', { name: 'Edit payment method' }).click();
    await main(page).getByRole('heading', { name: 'Edit payment method', level: 1 }).waitFor();
    const form = main(page).getByRole('form', { name: 'Card' });
    await form.getByLabel('Name on card').fill('Dana Test');
    await form.getByLabel('Card number').fill('4242 4242 4242 4242');
    await form.getByLabel('Expiry month').fill('12');
    await form.getByLabel('Expiry year').fill(String(new Date().getFullYear() + 3));
    await form.getByLabel('Security code').fill('123');
    await form.getByRole('button', { name: 'Save card' }).click();

    await main(page).getByRole('status').filter({ hasText: 'Visa ending 4242' }).waitFor();
    const onFile = main(page).getByRole('table', { name: 'Payment methods on file' });
    await onFile.getByRole('rowheader', { name: 'Visa ending 4242' }).first().waitFor();
    expect(await form.getByLabel('Card number').inputValue()).toBe('');
    page.off('request', record);

    expect(gatewayCalls).toHaveLength(1);
    expect(gatewayCalls[0]).toContain('4242424242424242');
    expect(apiBodies.some((b) => b.includes('/paymentinstruments') && b.includes('card_token'))).toBe(true);
    for (const body of apiBodies) expect(body).not.toMatch(/4242\s?4242\s?4242\s?4242/);
    expect(errors).toEqual([]);
  });
});
