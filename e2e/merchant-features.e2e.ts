import {
  featureChange,
  formatMoney,
  paymentPlanList,
  storeFeatures,
  terminalValidation,
  type PaymentPlan,
} from '@pos/domain';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/auth-server';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { demoElmerId } from './support/demo-data';
import { mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * Issue 16 point 6 (decision 123), as the people involved would: support staff switch a feature on for a store on
 * /editplan and send the change to the merchant instead of saving it; the e-mail arrives in the Admin's Mailbox;
 * the merchant opens its link, sees the feature switched on, the new monthly amount and from when, and accepts;
 * staff then see the feature on, the change accepted and the new amount on the store's plan.
 */

interface Target {
  readonly customerId: number;
  readonly storeId: number;
  readonly plan: PaymentPlan;
  readonly feature: { id: number; name: string; priceCents: number };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** '2026-12-01' as the app shows a date: 'Dec 1, 2026'. */
const shown = (iso: string) => `${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`;

/**
 * A US demo store whose features are billed on an active monthly plan, with a feature off that support may switch
 * on (it has a USD price) — found through the API, from terminal 150 up so other journeys' stores are left alone.
 */
async function findTarget(context: BrowserContext, token: string): Promise<Target> {
  for (let n = 150; n < 400; n++) {
    const answer = terminalValidation.parse(
      await callApi(context, e2e.baseUrl, 'GET', `/api/customers/${token}/terminals/validate/${demoElmerId(n)}/NONE`),
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
    // The features' plan is the store's lowest-id active monthly or yearly plan: it must be the monthly one.
    const plan = plans.items.filter((p) => p.kind === 'monthly' || p.kind === 'yearly').sort((a, b) => a.id - b.id)[0];
    if (!plan || plan.kind !== 'monthly' || plan.currency !== 'USD') continue;
    const features = storeFeatures.parse(
      await callApi(
        context,
        e2e.baseUrl,
        'GET',
        `/api/customers/${t.customer_id}/${token}/features?custstoreid=${t.store_id}`,
      ),
    );
    const off = features.features.find((f) => !f.enabled && f.can_change && f.price_cents !== null);
    if (!off) continue;
    return {
      customerId: t.customer_id,
      storeId: t.store_id,
      plan,
      feature: { id: off.billing_item_id, name: off.name, priceCents: off.price_cents! },
    };
  }
  throw new Error('the demo data has no US store on a monthly plan with a feature to switch on');
}

describe.skipIf(noBrowser)('merchant feature change (issue 16)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('a merchant accepts a feature change from the e-mailed link', async () => {
    const staff = await signInAsStaff(browser, 'support@example.com');
    const target = await findTarget(staff.context, await sessionToken(staff.page));
    const { feature, plan } = target;
    const newAmount = formatMoney(plan.recurring_amount_cents + feature.priceCents, 'USD');

    // Staff switch the feature on and send the change to the merchant instead of saving it.
    await staff.page.goto(`/#/editplan?customer=${target.customerId}&store=${target.storeId}`);
    const features = main(staff.page).getByRole('table', { name: `Features of store ${target.storeId}` });
    await features.getByRole('checkbox', { name: feature.name, exact: true }).check();
    const prepared = staff.page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().includes('/featurechanges'),
    );
    await main(staff.page).getByRole('button', { name: 'Send to the merchant to accept' }).click();
    const response = await prepared;
    expect(response.status()).toBe(201);
    const change = featureChange.parse(((await response.json()) as { info: unknown }).info);
    await staff.page.getByText(/Nothing is switched until they accept/).waitFor();
    const sent = main(staff.page).getByRole('table', { name: 'Changes sent to the merchant' });
    await sent.getByRole('row').filter({ hasText: 'Waiting for the merchant' }).waitFor();
    // Nothing switched yet.
    expect(await features.getByRole('row').filter({ hasText: feature.name }).first().textContent()).toContain('Off');

    // The Admin's Mailbox shows the e-mail and its link.
    const admin = await signInAsStaff(browser, 'admin@example.com');
    const adminToken = await sessionToken(admin.page);
    let to = '';
    for (let i = 0; i < 100 && !to; i++) {
      const job = await callApi<{ state: string; output: { to?: string } | null }>(
        admin.context,
        e2e.baseUrl,
        'GET',
        `/api/jobs/${change.email_job_id}/${adminToken}`,
      );
      if (job.state === 'completed') to = job.output?.to ?? '';
      else await admin.page.waitForTimeout(200);
    }
    expect(to).not.toBe('');
    await admin.page.goto('/#/admin/mailbox');
    await main(admin.page).getByRole('heading', { name: 'Mailbox', level: 1 }).waitFor();
    await main(admin.page).getByRole('searchbox', { name: 'Recipient' }).fill(to);
    await main(admin.page)
      .getByRole('combobox', { name: 'Template' })
      .selectOption({ label: 'Feature change to accept (link)' });
    const row = main(admin.page)
      .getByRole('table', { name: /Messages, newest first/ })
      .getByRole('row')
      .filter({ hasText: to })
      .first();
    await row.waitFor();
    const subject = row.getByRole('button');
    const subjectText = ((await subject.textContent()) ?? '').trim();
    expect(subjectText).toMatch(/^Please review the feature change for /);
    await subject.click();
    const link = (await main(admin.page)
      .getByRole('region', { name: subjectText })
      .getByRole('link', { name: /#\/customer\/features\// })
      .getAttribute('href'))!;
    expect(link.startsWith(`${e2e.baseUrl}/#/customer/features/`)).toBe(true);
    expect(admin.errors).toEqual([]);
    await admin.context.close();

    // The merchant (no session) opens it: the feature switched on, the new monthly amount and from when; accepts.
    const context = await browser.newContext({ baseURL: e2e.baseUrl });
    const merchant = await context.newPage();
    await merchant.goto(link);
    await main(merchant)
      .getByRole('heading', { name: /^Feature change — / })
      .waitFor();
    const changes = main(merchant).getByRole('table', { name: 'Feature changes' });
    expect(await changes.getByRole('row').filter({ hasText: feature.name }).textContent()).toContain(
      `Switched on+${formatMoney(feature.priceCents, 'USD')}`,
    );
    const amounts = await main(merchant).getByRole('table', { name: 'Monthly amount' }).textContent();
    expect(amounts).toContain(`Monthly amount now${formatMoney(plan.recurring_amount_cents, 'USD')}`);
    expect(amounts).toContain(`New monthly amount${newAmount} from ${shown(change.effective_on)}`);
    await main(merchant).getByRole('button', { name: 'Accept the change' }).click();
    await main(merchant).getByRole('heading', { name: 'Thank you — the change is accepted' }).waitFor();
    await main(merchant).getByText(`Your monthly amount is ${newAmount}`, { exact: false }).waitFor();
    // Single use: the same link again.
    await merchant.goto('about:blank');
    await merchant.goto(link);
    await main(merchant)
      .getByText(/This link was already used/)
      .waitFor();
    await context.close();

    // Staff see the feature on, the change accepted, and the new amount on the store's plan.
    await staff.page.reload();
    const after = main(staff.page).getByRole('table', { name: `Features of store ${target.storeId}` });
    await expect
      .poll(async () => after.getByRole('checkbox', { name: feature.name, exact: true }).isChecked())
      .toBe(true);
    await main(staff.page)
      .getByRole('table', { name: 'Changes sent to the merchant' })
      .getByRole('row')
      .filter({ hasText: /Accepted .* from / })
      .waitFor();
    await staff.page.goto(`/#/customer?id=${target.customerId}&store=${target.storeId}`);
    await main(staff.page).getByRole('tab', { name: 'Plans' }).click();
    const plans = main(staff.page).getByRole('table', { name: `Payment plans of store ${target.storeId}` });
    await plans.getByRole('row').filter({ hasText: plan.plan_name }).filter({ hasText: newAmount }).first().waitFor();
    expect(staff.errors).toEqual([]);
    await staff.context.close();
  });
});
