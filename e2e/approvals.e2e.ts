import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { keepScreenshot } from './support/screenshots';
import { mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * Memos and approvals (issue 16 points 1 and 2, decisions 120 and 121), as two AR users work them: the first asks
 * for a $1,500.00 credit memo on an open invoice from the invoices screen; it waits in Approvals, where the first
 * user cannot approve their own request (over the $1,000 threshold); a second AR user opens Approvals from the
 * navigation and approves it with a reason; the first user's open queue loses the memo by itself, without a reload
 * (issue 30: live queues); the invoice's balance drops by $1,500.00.
 */

interface InvoiceRow {
  id: number;
  invoice_number: string;
  balance_cents: number;
  currency: string;
}

/** An open USD invoice of the demo data with at least $1,500.00 left to pay (read as the signed-in user). */
async function openInvoice(page: Page): Promise<InvoiceRow> {
  const token = await sessionToken(page);
  const items = await page.evaluate(async (tok) => {
    const res = await fetch(`/api/invoices/${tok}?status=N&currency=USD&sort=-total_cents&limit=100`);
    return ((await res.json()) as { info: { items: InvoiceRow[] } }).info.items;
  }, token);
  const found = items.find((i) => i.balance_cents >= 1500_00);
  if (!found) throw new Error('the demo data has no open USD invoice of $1,500.00 or more');
  return found;
}

/** The queue is oldest first: find today's request by its kind and requester (the filters of the screen). */
async function filterQueue(page: Page, requester: string) {
  const form = main(page).getByRole('search', { name: 'Filter approvals' });
  await form.getByRole('combobox', { name: 'Kind' }).selectOption({ label: 'Memo' });
  await form.getByRole('textbox', { name: 'Requester' }).fill(requester);
  await Promise.all([
    page.waitForResponse((r) => /\/api\/approvals\/[^/?]+\?.*requester=/.test(r.url()) && r.ok()),
    form.getByRole('button', { name: 'Apply' }).click(),
  ]);
}

const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function balanceShown(page: Page, number: string): Promise<string> {
  const panel = main(page).getByRole('region', { name: `Invoice ${number}` });
  await panel.getByRole('heading', { name: 'Lines' }).waitFor();
  const text = ((await panel.getByLabel('Balance').textContent()) ?? '').replace(/\s+/g, ' ');
  return /Balance\s*(\$[\d,]+\.\d{2})/.exec(text)![1]!;
}

describe.skipIf(noBrowser)('approvals: a credit memo over the threshold needs a second AR user (issue 16)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('a 1,500 credit memo waits in Approvals until a second AR user approves it and the invoice balance drops', async () => {
    // ── The first AR user asks for the memo from the invoice's panel ─────────────────────────────────────────
    const first = await signInAsStaff(browser, 'ar@example.com');
    const invoice = await openInvoice(first.page);
    await first.page.goto(`/#/view-invoices?id=${invoice.id}`);
    const before = await balanceShown(first.page, invoice.invoice_number);
    expect(before).toBe(dollars(invoice.balance_cents));
    const panel = main(first.page).getByRole('region', { name: `Invoice ${invoice.invoice_number}` });
    await panel.getByRole('button', { name: 'New memo…' }).click();
    const dialog = first.page.getByRole('dialog', { name: `New memo for invoice ${invoice.invoice_number}` });
    await dialog.getByRole('combobox', { name: 'Memo type' }).selectOption({ label: 'Credit' });
    await dialog.getByRole('textbox', { name: 'Amount' }).fill('1,500.00');
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('Service outage credit');
    await dialog.getByRole('textbox', { name: 'Note' }).fill('Agreed with the owner on the phone');
    const [created] = await Promise.all([
      first.page.waitForResponse((r) => /\/api\/memos\/[^/]+$/.test(r.url()) && r.request().method() === 'POST'),
      dialog.getByRole('button', { name: 'Send memo for approval' }).click(),
    ]);
    expect(created.status()).toBe(201);
    const memo = ((await created.json()) as { info: { id: number; status: string } }).info;
    expect(memo.status).toBe('P');
    await first.page
      .getByText(/Credit memo of \$1,500\.00 on invoice .* waits for approval by another AR approver\./)
      .waitFor();
    // Nothing moved yet.
    expect(await balanceShown(first.page, invoice.invoice_number)).toBe(before);

    // It waits in Approvals; its requester may not approve it.
    await first.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals' }).click();
    await main(first.page).getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    await filterQueue(first.page, 'ar@example.com');
    const firstTable = main(first.page).getByRole('table', { name: /^Approvals — \d+ waiting/ });
    const ownRow = firstTable.getByRole('row').filter({ hasText: `Credit memo ${memo.id}` });
    await ownRow.waitFor();
    expect(await ownRow.textContent()).toContain('ar@example.com');
    expect(await ownRow.textContent()).toContain('$1,500.00');
    await ownRow.getByText('You asked for it: another AR approver decides.').waitFor();
    expect(await ownRow.getByRole('button', { name: /^Approve / }).count()).toBe(0);
    expect(first.errors).toEqual([]);
    // The first user keeps the queue open: a mark on the page proves it is never reloaded (issue 30, live queues).
    await first.page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });

    // ── A second AR user approves it ────────────────────────────────────────────────────────────────────────
    const second = await signInAsStaff(browser, 'ar2@example.com');
    const nav = second.page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Approvals' }).click();
    await main(second.page).getByRole('heading', { name: 'Approvals', level: 1 }).waitFor();
    expect(new URL(second.page.url()).hash).toBe('#/approvals');
    await filterQueue(second.page, 'ar@example.com');
    const table = main(second.page).getByRole('table', { name: /^Approvals — \d+ waiting/ });
    const row = table.getByRole('row').filter({ hasText: `Credit memo ${memo.id}` });
    await row.waitFor();
    await row
      .getByRole('button', { name: `Approve Credit memo ${memo.id} on invoice ${invoice.invoice_number}` })
      .click();
    const decide = second.page.getByRole('dialog', { name: /^Approve Credit memo/ });
    await decide.getByRole('textbox', { name: 'Reason for the decision' }).fill('Outage confirmed in the log');
    const [decided] = await Promise.all([
      second.page.waitForResponse((r) => /\/api\/approvals\/decisions\//.test(r.url())),
      decide.getByRole('button', { name: 'Approve', exact: true }).click(),
    ]);
    expect(decided.status()).toBe(200);
    const results = ((await decided.json()) as { info: { results: { id: number; ok: boolean }[] } }).info.results;
    expect(results).toEqual([expect.objectContaining({ id: memo.id, ok: true })]);
    await second.page.getByText('Approved: 1 of 1').waitFor();
    // Who asked, who decided, when: listed on the screen; the item leaves the queue.
    const log = main(second.page).getByRole('region', { name: 'Decided here' });
    await log
      .getByText(
        new RegExp(`Credit memo ${memo.id} .*Approved by ar2@example\\.com at .* \\(asked by ar@example\\.com\\)`),
      )
      .waitFor();
    await row.waitFor({ state: 'detached' });

    // ── The first user's open queue changes by itself within seconds: the decided memo leaves it ─────────────
    await ownRow.waitFor({ state: 'detached', timeout: 20_000 });
    expect(await first.page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    await keepScreenshot(first.page, 'approvals-queue-updated-without-reload');

    // ── The invoice's balance dropped by $1,500.00 ─────────────────────────────────────────────────────────
    await second.page.goto(`/#/view-invoices?id=${invoice.id}`);
    expect(await balanceShown(second.page, invoice.invoice_number)).toBe(dollars(invoice.balance_cents - 1500_00));
    const credits = main(second.page).getByRole('table', { name: 'Credit memos' });
    // The memo on the invoice: approved, who asked and who decided.
    const memoRow =
      (await credits
        .getByRole('row')
        .filter({ hasText: `Memo ${memo.id}` })
        .textContent()) ?? '';
    expect(memoRow).toContain('Approved');
    expect(memoRow).toContain('ar@example.com');
    expect(memoRow).toContain('ar2@example.com');

    expect(second.errors).toEqual([]);
    await first.context.close();
    await second.context.close();
  });
});
