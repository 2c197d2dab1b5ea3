import { jobStatusInfo, type JobStatusInfo } from '@pos/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from './support/auth-server';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { demoElmerId } from './support/demo-data';
import { headerOf as header, mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

describe.skipIf(noBrowser)('admin tools: job monitor and Mailbox (issue 5)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  const signedIn = (email: string) => signInAsStaff(browser, email);

  it('an admin sends an update-payment link from the job monitor and finds the e-mail with its link in the Mailbox', async () => {
    const { context, page, errors } = await signedIn('admin@example.com');
    const adminNav = page.getByRole('navigation', { name: 'Main' }).getByRole('group', { name: 'Admin' });

    // Job monitor → 'Send update-payment link' for a demo terminal.
    await adminNav.getByRole('link', { name: 'Job monitor' }).click();
    await main(page).getByRole('heading', { name: 'Job monitor', level: 1 }).waitFor();
    const panel = main(page).getByRole('region', { name: 'Send update-payment link' });
    await panel.getByRole('textbox', { name: 'Terminal id' }).fill(demoElmerId(1));
    await panel.getByRole('button', { name: 'Send link' }).click();
    const status = panel.getByRole('status');
    await status.getByText(UUID).waitFor();
    const jobId = UUID.exec((await status.textContent()) ?? '')?.[0];
    expect(jobId).toBeDefined();

    // The monitor refreshes itself: the job shows up and completes.
    const jobRow = main(page)
      .getByRole('table', { name: 'Recent jobs, newest first' })
      .getByRole('row')
      .filter({ hasText: jobId! });
    await jobRow.getByText('completed', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await jobRow.getByText('Payment-method update link').count()).toBe(1);

    // Who the worker wrote to (the store's billing contact): the job's own record says.
    const token = await sessionToken(page);
    const job: JobStatusInfo = jobStatusInfo.parse(
      await callApi(context, e2e.baseUrl, 'GET', `/api/jobs/${jobId}/${token}`),
    );
    const to = (job.output as { to?: string } | null)?.to;
    expect(to, 'the job output names the recipient').toMatch(/@/);

    // Mailbox → filter by recipient and template → the new message → its link.
    await adminNav.getByRole('link', { name: 'Mailbox' }).click();
    await main(page).getByRole('heading', { name: 'Mailbox', level: 1 }).waitFor();
    await main(page).getByRole('searchbox', { name: 'Recipient' }).fill(to!);
    await main(page).getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Payment-method update link' });
    const messages = main(page).getByRole('table', { name: /Messages, newest first/ });
    const row = messages.getByRole('row').filter({ hasText: to! }).filter({ hasText: 'payment_update_link' }).first();
    await row.waitFor();
    const subject = row.getByRole('button');
    const subjectText = (await subject.textContent()) ?? '';
    expect(subjectText).toContain('Update the payment method');
    await subject.click();

    const detail = main(page).getByRole('region', { name: subjectText });
    await detail.getByRole('heading', { name: subjectText }).waitFor();
    expect(await detail.getByText(to!, { exact: true }).count()).toBe(1);
    const link = detail.getByRole('link', { name: /#\/customer\/payment\// });
    await link.waitFor();
    const href = await link.getAttribute('href');
    expect(href).toMatch(new RegExp(`^${e2e.baseUrl.replace(/[.:/]/g, '\\$&')}/#/customer/payment/[A-Za-z0-9_-]{43}$`));
    expect(await link.textContent()).toBe(href);

    // The HTML body, sandboxed, carries the same link.
    const body = detail.getByTitle('Message body');
    expect(await body.getAttribute('sandbox')).toBe('');
    const bodyLinks = body.contentFrame().getByRole('link');
    await bodyLinks.first().waitFor();
    expect(await bodyLinks.evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')))).toContain(href);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a non-admin sees 'Access denied' at #/admin/mailbox and no Admin links in the navigation", async () => {
    const { context, page } = await signedIn('support@example.com');
    await header(page).getByRole('button', { name: 'Signout' }).waitFor();
    await page.goto('/#/admin/mailbox');
    await main(page).getByRole('heading', { name: 'Access denied' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Customers' }).waitFor();
    expect(await nav.getByRole('group', { name: 'Admin' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Mailbox' }).count()).toBe(0);
    expect(await header(page).getByRole('link', { name: 'Mailbox' }).count()).toBe(0);
    expect(await main(page).getByRole('heading', { name: 'Mailbox' }).count()).toBe(0);
    await context.close();
  });
});
