import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { signInToOrders as signInLanding } from './support/order-flow';
import { mainOf as main } from './support/staff-session';

/*
 * The order list /order in a real browser on the demo data (issue 7, decision 080): the AR team lands on its
 * queue, opens an order, adds a note and moves the order on; the history shows the change. Each run moves one
 * demo order out of Pending AR Approval (the demo seed has several).
 */
describe.skipIf(noBrowser)('orders: the /order list, its queue and the details panel (issue 7)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('ar@example.com lands on its queue, opens an order, adds a note, changes its status and sees the history row', async () => {
    // Sign-in rule 2: an order-queue role lands on /order.
    const { page, errors } = await signInLanding(browser, 'ar@example.com');
    await main(page).getByText('Your queue: Pending AR Approval').waitFor();
    const table = main(page).getByRole('table', { name: /^Orders — \d+ match/ });
    await table.waitFor();
    const rows = table.getByRole('row').filter({ hasText: 'Pending AR Approval' });
    expect(await rows.count(), 'the demo data has orders in the AR queue').toBeGreaterThan(0);

    const open = rows.first().getByRole('link', { name: /^Open order / });
    const label = (await open.getAttribute('aria-label'))!.replace('Open order ', '');
    await open.click();
    const panel = main(page).getByRole('region', { name: `Order ${label}` });
    await panel.waitFor();
    await panel.getByRole('region', { name: 'Order summary' }).getByText('Pending AR Approval').waitFor();

    const note = `E2E note ${Date.now()}`;
    const notes = panel.getByRole('region', { name: 'Notes' });
    await notes.getByRole('textbox', { name: 'Note', exact: true }).fill(note);
    await notes.getByRole('button', { name: 'Add note' }).click();
    await notes.getByText(note).waitFor();

    const change = panel.getByRole('region', { name: 'Change status' });
    await change.getByRole('combobox', { name: 'New status' }).selectOption({ label: 'AR Submitted' });
    await change.getByRole('textbox', { name: 'Status note' }).fill('Checked by e2e.');
    await change.getByRole('button', { name: 'Change status' }).click();
    await page.getByText('Now AR Submitted.').waitFor();

    const history = panel.getByRole('region', { name: 'Status history' });
    const row = history.getByRole('row').filter({ hasText: 'Checked by e2e.' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Pending AR Approval');
    expect(await row.textContent()).toContain('AR Submitted');
    expect(await row.textContent()).toContain('ar@example.com');
    expect(errors).toEqual([]);
  });
});
