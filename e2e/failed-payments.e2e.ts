import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, signInAsStaff } from './support/staff-session';

/*
 * Failed payments (#/payments; issue 15 point 5, decision 117), as an AR user works it: open Failed payments from
 * the navigation, read the recovery panel and the list (the demo seed has failed charges), select a failed payment
 * and ask for "Retry now" on one paid by card. The request is a queue call (transactions/sns) that answers a job id:
 * the screen says "Retry requested…" naming that job, follows it, and once the charging worker (decision 116) has
 * charged the card again says it is paid; the failed payment leaves the list.
 */
describe.skipIf(noBrowser)('failed payments: list → recovery → Retry now (issue 15)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('an AR user opens Failed payments from the navigation, sees the recovery and the list, and retries a payment', async () => {
    const { page, errors, context } = await signInAsStaff(browser, 'ar@example.com');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Failed payments' }).click();
    await main(page).getByRole('heading', { name: 'Failed payments', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/payments');
    expect(await nav.getByRole('link', { name: 'Failed payments' }).getAttribute('aria-current')).toBe('page');

    // The recovery panel: this month's figures (or that nothing failed this month).
    const recovery = main(page).getByRole('region', { name: /^Recovery/ });
    await recovery
      .getByText(/Recovery rate|No payment failed in /)
      .first()
      .waitFor();

    // The list: failed charges of the demo data, each with its amount and decline.
    const table = main(page).getByRole('table', { name: /^Failed payments — [\d,]+\+? match/ });
    await table.waitFor();
    const rows = table.locator('tbody tr').filter({ has: page.getByRole('checkbox') });
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThan(0);
    expect(await rows.first().textContent()).toMatch(/C?\$[\d,]+\.\d{2}/);

    // Select it: the bulk bar counts it.
    // One paid by card (the local gateway's card charges answer at once; a bank debit stays pending a day).
    const first = rows.filter({ hasText: /(Visa|Mastercard|American Express|Discover|Card) ending \d{4}/ }).first();
    await first.getByRole('checkbox').check();
    await main(page).getByRole('button', { name: 'Retry now (1)' }).waitFor();

    // Retry now on the row: the queue call answers 202 with a job id, and the screen says so.
    const jobPoll = page.waitForResponse((r) => /\/api\/jobs\/[0-9a-f-]{36}\//.test(r.url()));
    // The first list read after the click is the refresh once the job is done.
    const refreshed = page.waitForResponse((r) => /\/api\/payments\/failed\//.test(r.url()) && r.ok(), {
      timeout: 60_000,
    });
    const [response] = await Promise.all([
      page.waitForResponse((r) => /\/api\/customers\/transactions\/sns\//.test(r.url())),
      first.getByRole('button', { name: /^Retry now: / }).click(),
    ]);
    expect(response.status()).toBe(202);
    const posted = response.request().postDataJSON() as { action: string; transaction_ids: number[] };
    expect(posted.action).toBe('reprocess');
    expect(posted.transaction_ids).toHaveLength(1);
    const { jobId } = ((await response.json()) as { info: { jobId: string } }).info;
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    const toast = page.getByRole('alert').filter({ hasText: 'Retry requested…' });
    await toast.waitFor();
    // The toast says what happens next in words, not the job's id (issue 30).
    expect(await toast.textContent()).toContain('The list refreshes when it is done.');
    expect(await toast.textContent()).not.toContain(jobId);

    // The job exists on the server (the screen follows it: GET /api/jobs/{jobId}/{token}).
    const poll = await jobPoll;
    expect(poll.url()).toContain(`/api/jobs/${jobId}/`);
    expect(poll.status()).toBe(200);

    // The charging worker (decision 116) charges the card again: the screen says it is paid, and the failed payment
    // leaves the list (it is now R, reprocessed).
    const outcome = page.getByRole('alert').filter({ hasText: 'Retry finished' });
    await outcome.waitFor({ timeout: 60_000 });
    expect(await outcome.textContent()).toContain(`#${posted.transaction_ids[0]}: Charged again: paid`);
    const after = ((await (await refreshed).json()) as { info: { items: { transaction_id: number }[] } }).info;
    expect(after.items.map((i) => i.transaction_id)).not.toContain(posted.transaction_ids[0]);

    expect(errors).toEqual([]);
    await context.close();
  });
});
