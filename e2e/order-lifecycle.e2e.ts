import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import {
  fillStoreInfo,
  milestones,
  type Merchant,
  monthlyCharges,
  newMerchant,
  payUpfrontByBank,
  payUpfrontByCard,
  selectHardware,
  signInToOrders,
  startOrder,
  submitOrder,
  TEST_CARDS,
} from './support/order-flow';
import { changeStatus, chooseOrderStatuses, openOrder } from './support/order-queue';
import { pdfTextLines } from './support/pdf-text';
import { demoAccount, headerOf, mainOf, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * Issue 7 end to end, as the people involved would: a rep sells a POS system to a new US merchant through every step,
 * the merchant signs the contract from the e-mailed link (read from the Mailbox), AR and operations move the order
 * through their queues, operations completes it, and the customer page shows the new store and its terminals.
 */

const POS_MILESTONES = ['ORDER', 'SELECT HARDWARE', 'PAYMENT (PLAN / METHOD)', 'Recurring charges'];

/** The newest contract link e-mailed to `to`, as the Admin Mailbox shows it. */
async function contractLinkFromMailbox(browser: Browser, to: string): Promise<string> {
  const { page, context } = await signInAsStaff(browser, 'admin@example.com');
  await page.goto('/#/admin/mailbox');
  await mainOf(page).getByRole('heading', { name: 'Mailbox', level: 1 }).waitFor();
  await mainOf(page).getByRole('searchbox', { name: 'Recipient' }).fill(to);
  await mainOf(page).getByRole('combobox', { name: 'Template' }).selectOption({ label: 'Contract signing link' });
  const row = mainOf(page)
    .getByRole('table', { name: /Messages, newest first/ })
    .getByRole('row')
    .filter({ hasText: to })
    .first();
  await row.waitFor();
  const subject = row.getByRole('button');
  const subjectText = (await subject.textContent()) ?? '';
  await subject.click();
  const link = mainOf(page)
    .getByRole('region', { name: subjectText })
    .getByRole('link', { name: /#\/contract\// });
  const href = (await link.getAttribute('href'))!;
  await context.close();
  return href;
}

/** The merchant opens the e-mailed link (no session) and signs with the typed name. */
async function merchantSigns(browser: Browser, m: Merchant, unified: string): Promise<void> {
  const link = await contractLinkFromMailbox(browser, m.email);
  const context = await browser.newContext();
  const merchant = await context.newPage();
  await merchant.goto(link);
  await mainOf(merchant)
    .getByRole('heading', { name: `Your contract — order ${unified}` })
    .waitFor();
  await mainOf(merchant).getByRole('textbox', { name: 'Full name' }).fill(`${m.firstName} ${m.lastName}`);
  await mainOf(merchant).getByRole('button', { name: 'Use my typed name as my signature' }).click();
  await mainOf(merchant)
    .getByRole('checkbox', { name: /agree to sign it electronically/ })
    .check();
  await mainOf(merchant).getByRole('button', { name: 'Sign contract' }).click();
  await merchant.waitForURL(/#\/confirmation$/);
  await context.close();
}

/**
 * A rep sells one terminal to `m`, paying the hardware with `pay` on the payment step, to the summary; answers the
 * rep's session (left on the summary, the order not yet submitted). `atStoreInfo` runs on the store-information step
 * before it is filled in.
 */
async function sellOneTerminal(
  browser: Browser,
  m: Merchant,
  pay: (page: Page) => Promise<void>,
  atStoreInfo?: (page: Page) => Promise<void>,
) {
  const rep = await signInToOrders(browser, 'ram@example.com');
  await startOrder(rep.page, { type: 'POS', country: 'US' });
  if (atStoreInfo) await atStoreInfo(rep.page);
  await fillStoreInfo(rep.page, m);
  await rep.page.waitForURL(/#\/sale-summary\/\d+$/);
  await selectHardware(rep.page, 1);
  await rep.page.waitForURL(/#\/payment-plan-method\/\d+$/);
  await pay(rep.page);
  await rep.page.waitForURL(/#\/charges\/\d+$/);
  await monthlyCharges(rep.page, '59.00');
  await rep.page.waitForURL(/#\/summary\/\d+$/);
  return rep;
}

/** AR approves a signed order and hands it to support; Operations books the installation. Answers Operations' panel. */
async function approveToInstallation(browser: Browser, unified: string, arNote: string) {
  const ar = await signInToOrders(browser, 'ar@example.com');
  let panel = await openOrder(ar.page, unified, 'Any status');
  await changeStatus(ar.page, panel, 'AR Submitted', arNote);
  await changeStatus(ar.page, panel, 'Submitted to Support', 'Ready for installation.');
  const ops = await signInToOrders(browser, 'ops@example.com');
  panel = await openOrder(ops.page, unified, 'Any status');
  await changeStatus(ops.page, panel, 'Installation', 'Install booked.');
  return { ar, ops, panel };
}

/** A 1 × 1 PNG (a store picture the browser can preview) and a one-page PDF (a business license). */
const STOREFRONT_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const LICENSE_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** The Store files panel: what the file is, the file, Upload — and the file listed with its Download link. */
async function uploadStoreFile(
  page: Page,
  kind: 'Store picture' | 'Business license',
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<void> {
  const panel = mainOf(page).getByRole('region', { name: 'Store files' });
  await panel.getByRole('combobox', { name: 'Kind of file' }).selectOption({ label: kind });
  await panel.getByLabel('File', { exact: true }).setInputFiles(file);
  await panel.getByText(`${file.name} (`).waitFor();
  await panel.getByRole('button', { name: 'Upload', exact: true }).click();
  await panel.getByRole('link', { name: `Download ${file.name}` }).waitFor();
}

async function expectMilestone(page: Page, current: string | null, labels = POS_MILESTONES): Promise<void> {
  await headerOf(page).getByRole('navigation', { name: 'Order progress' }).waitFor();
  expect(await milestones(page)).toEqual({ labels, current });
}

// Whole sales from the first step to Complete, across four roles: up to a minute each on a busy 2-core machine.
describe.skipIf(noBrowser)('orders end to end (issue 7)', { timeout: 150_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('a rep sells a POS system, the merchant signs from the Mailbox link, AR and operations move it to Complete, the customer page shows the store and terminals', async () => {
    const m = newMerchant('US');
    const rep = await signInToOrders(browser, 'ram@example.com');
    const page = rep.page;

    await startOrder(page, { type: 'POS', country: 'US' });
    await expectMilestone(page, 'ORDER');
    await fillStoreInfo(page, m);
    await page.waitForURL(/#\/sale-summary\/\d+$/);
    await expectMilestone(page, 'SELECT HARDWARE');
    // A bundle beside the terminals (not NRS Pay's: that one waits for NRS Pay's approval).
    const bundleRow = mainOf(page)
      .getByRole('table', { name: 'Bundles' })
      .locator('tbody tr')
      .filter({ hasNotText: /NRS Pay/ })
      .first();
    await bundleRow.waitFor();
    const bundleName = ((await bundleRow.locator('td').first().textContent()) ?? '').trim();
    await bundleRow.getByRole('spinbutton').fill('1');
    await selectHardware(page, 2);
    await page.waitForURL(/#\/payment-plan-method\/\d+$/);
    await expectMilestone(page, 'PAYMENT (PLAN / METHOD)');
    // The card is held for the upfront total with tax when the step is saved (issue 29, decision 151): a card with
    // insufficient funds is refused in words and the rep stays to enter another one.
    await payUpfrontByCard(page, `${m.firstName} ${m.lastName}`, TEST_CARDS.insufficientFunds);
    const declined = mainOf(page).getByRole('status', { name: 'Card declined' });
    await declined.getByText('Visa ending 9995 was declined: Insufficient funds.').waitFor();
    expect(page.url()).toMatch(/#\/payment-plan-method\/\d+$/);
    await payUpfrontByCard(page, `${m.firstName} ${m.lastName}`);
    await page.waitForURL(/#\/charges\/\d+$/);
    await expectMilestone(page, 'Recurring charges');
    await monthlyCharges(page, '59.00');
    await page.waitForURL(/#\/summary\/\d+$/);
    // The summary: every milestone done, totals in US dollars with Texas tax.
    await expectMilestone(page, null);
    const totals = mainOf(page).getByRole('table', { name: 'Totals (USD)' });
    await totals.getByRole('row', { name: /^(Tax|Sales tax)/ }).waitFor();
    expect(await totals.textContent()).toMatch(/\$[\d,]+\.\d\d/);
    expect(await mainOf(page).getByRole('group', { name: 'Payment' }).textContent()).toContain('Visa ending 4242');
    // The hold: the summary's total with tax, on the card.
    const total = /Total\s*(\$[\d,]+\.\d\d)/.exec((await totals.textContent()) ?? '')?.[1];
    const hold = mainOf(page).getByRole('status', { name: 'Card authorized' });
    await hold.getByText(`Authorized ${total} on Visa ending 4242: captured when the order is complete.`).waitFor();
    const unified = await submitOrder(page);
    expect(await mainOf(page).getByRole('status').filter({ hasText: 'Order submitted' }).textContent()).toContain(
      m.email,
    );
    expect(rep.errors).toEqual([]);

    // The merchant opens the link from the e-mail (no session) and signs with the typed name.
    const link = await contractLinkFromMailbox(browser, m.email);
    expect(link.startsWith(`${e2e.baseUrl}/#/contract/`)).toBe(true);
    const merchant = await (await browser.newContext()).newPage();
    await merchant.goto(link);
    await mainOf(merchant)
      .getByRole('heading', { name: `Your contract — order ${unified}` })
      .waitFor();
    const pdfHref = await mainOf(merchant).getByRole('link', { name: 'Open the contract (PDF)' }).getAttribute('href');
    const pdf = await merchant.request.get(`${e2e.baseUrl}${pdfHref}`);
    expect([pdf.status(), pdf.headers()['content-type']]).toEqual([200, 'application/pdf']);
    await mainOf(merchant).getByRole('textbox', { name: 'Full name' }).fill(`${m.firstName} ${m.lastName}`);
    await mainOf(merchant).getByRole('button', { name: 'Use my typed name as my signature' }).click();
    await mainOf(merchant)
      .getByRole('checkbox', { name: /agree to sign it electronically/ })
      .check();
    await mainOf(merchant).getByRole('button', { name: 'Sign contract' }).click();
    await merchant.waitForURL(/#\/confirmation$/);
    await mainOf(merchant)
      .getByText(`Your contract for order ${unified} was signed by ${m.firstName} ${m.lastName}`)
      .waitFor();
    // The link was single-use.
    await merchant.goto(link);
    await merchant.reload();
    await mainOf(merchant).getByText('This link has expired or was already used').waitFor();

    // AR: the signed order is in its queue; it approves and hands it to support.
    const ar = await signInToOrders(browser, 'ar@example.com');
    await mainOf(ar.page).getByText('Your queue: Pending AR Approval').waitFor();
    await mainOf(ar.page)
      .getByRole('link', { name: `Open order ${unified}` })
      .waitFor();
    let panel = await openOrder(ar.page, unified, 'Any status');
    await changeStatus(ar.page, panel, 'AR Submitted', 'Payment checked.');
    await changeStatus(ar.page, panel, 'Submitted to Support', 'Ready for installation.');

    // Operations: schedules the installation, installs and completes.
    const ops = await signInToOrders(browser, 'ops@example.com');
    panel = await openOrder(ops.page, unified, 'Any status');
    await changeStatus(ops.page, panel, 'Installation', 'Install booked.');
    // Complete means installed (decision 150): Operations enters the serial number of each of the two terminals.
    const serials = [1, 2].map((n) => `SN-E2E-${Date.now()}-${n}`);
    await changeStatus(ops.page, panel, 'Complete', 'Installed and trained.', serials);
    // The hold paid the sale: the panel says what was captured, for which invoice (decisions 148, 151).
    await panel
      .getByRole('status', { name: 'Card captured' })
      .getByText(
        new RegExp(
          `^Captured ${total!.replace(/[$.]/g, '\\$&')} on Visa ending 4242 for invoice INV-\\d{4}-\\d{7}\\.$`,
        ),
      )
      .waitFor();
    expect(ar.errors).toEqual([]);
    expect(ops.errors).toEqual([]);

    // The customer page shows the new store and its two terminals, installed under the serials entered.
    await ops.page.goto('/#/customer');
    await mainOf(ops.page).getByRole('searchbox', { name: 'Search customers' }).fill(m.dba);
    await mainOf(ops.page).getByRole('button', { name: 'Search', exact: true }).click();
    await mainOf(ops.page)
      .getByRole('table', { name: /Matching stores/ })
      .getByRole('link', { name: `${m.dba} #1`, exact: true })
      .click();
    await mainOf(ops.page)
      .getByRole('heading', { name: `${m.dba} LLC`, level: 1 })
      .waitFor();
    await mainOf(ops.page).getByRole('tab', { name: 'Terminals' }).click();
    const terminals = mainOf(ops.page).getByRole('table', { name: /Terminals/ });
    await terminals.waitFor();
    for (const serial of serials) await terminals.getByRole('row').filter({ hasText: serial }).waitFor();
    expect(
      await terminals
        .getByRole('row')
        .filter({ hasText: /PENDING-/ })
        .count(),
    ).toBe(0);

    // The sale is invoiced at Complete (decision 148): the store's S invoice for the total, paid by the captured hold.
    await mainOf(ops.page).getByRole('tab', { name: 'Invoices' }).click();
    const invoiceRows = mainOf(ops.page)
      .getByRole('table', { name: /^Invoices of store/ })
      .getByRole('row')
      .filter({ hasText: total! });
    await invoiceRows.first().waitFor();
    expect(await invoiceRows.first().textContent()).toMatch(/Paid/i);
    const saleNumber = ((await invoiceRows.first().getByRole('rowheader').textContent()) ?? '').trim();

    // The customer came out whole (decision 150): the bundle sold, the rep who sold it, the license's expiry.
    const storeRow = mainOf(ops.page)
      .getByRole('table', { name: /Select a store by its name/ })
      .getByRole('row')
      .filter({ hasText: `${m.dba} #1` });
    const repAccount = await demoAccount('ram@example.com');
    expect(await storeRow.textContent()).toContain(repAccount.name);
    // The license column (the last): the monthly plan's expiry, a month after Complete.
    expect(await storeRow.locator('td').last().textContent()).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
    await mainOf(ops.page).getByRole('tab', { name: 'Bundles' }).click();
    await mainOf(ops.page)
      .getByRole('table', { name: /^Bundles of store/ })
      .getByRole('row')
      .filter({ hasText: bundleName })
      .first()
      .waitFor();

    // AR opens the S invoice's PDF: its lines — the terminals, the tax as its own line — and the total paid.
    await ar.page.goto('/#/view-invoices');
    const list = mainOf(ar.page).getByRole('search', { name: 'Filter invoices' });
    await list.getByRole('textbox', { name: 'Merchant or DBA' }).fill(m.dba);
    await list.getByRole('button', { name: 'Apply' }).click();
    await mainOf(ar.page)
      .getByRole('link', { name: `Open invoice ${saleNumber}` })
      .click();
    const invoicePanel = mainOf(ar.page).getByRole('region', { name: `Invoice ${saleNumber}` });
    await invoicePanel.getByRole('heading', { name: 'Lines' }).waitFor();
    // The journal: the sale with its tax payable, and the capture that paid it.
    const journal = invoicePanel.getByRole('table', { name: 'Journal entries of the invoice' });
    await journal.getByText('Charge captured').waitFor();
    expect(await journal.textContent()).toMatch(/Invoice issued.*2200 Sales tax payable.*Charge captured/s);
    const [download] = await Promise.all([
      ar.page.waitForEvent('download'),
      invoicePanel.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    const text = pdfTextLines(readFileSync((await download.path())!)).join('\n');
    // (The bundle sold has only a monthly price: it is billed with the service, not on the sale.)
    expect(text).toMatch(/x .*NRS POS Terminal/);
    expect(text).toMatch(/Sales tax \(TX\) 6\.25%/);
    expect(text).toContain(total!);
    expect(text).toContain('Total (USD)');
  });

  it('an order canceled after the merchant signed: Operations cancels it at installation, the card hold is released and the panel says so', async () => {
    const m = newMerchant('US');
    const rep = await sellOneTerminal(browser, m, (page) => payUpfrontByCard(page, `${m.firstName} ${m.lastName}`));
    const held = mainOf(rep.page).getByRole('status', { name: 'Card authorized' });
    await held.waitFor();
    const amount = /Authorized (\$[\d,]+\.\d\d) on Visa ending 4242/.exec((await held.textContent()) ?? '')![1]!;
    const unified = await submitOrder(rep.page);
    await merchantSigns(browser, m, unified);

    const { ar, ops, panel } = await approveToInstallation(browser, unified, 'Payment checked.');
    // The merchant withdraws before the installation: POS Canceled, with its reason.
    const change = panel.getByRole('region', { name: 'Change status' });
    await change.getByRole('combobox', { name: 'New status' }).selectOption({ label: 'POS Canceled' });
    const reason = change.getByRole('combobox', { name: 'Reason' });
    await expect.poll(async () => reason.locator('option').count()).toBeGreaterThan(1);
    await reason.selectOption({ index: 1 });
    await change.getByRole('textbox', { name: 'Status note' }).fill('The merchant withdrew after signing.');
    await change.getByRole('button', { name: 'Change status' }).click();
    await ops.page.getByText('Now POS Canceled.').first().waitFor();
    // The hold authorized the sale, not a fee (decision 148): released, nothing charged.
    await panel
      .getByRole('status', { name: 'Hold released' })
      .getByText(`Released: the hold of ${amount} on Visa ending 4242 was voided; nothing was charged.`)
      .waitFor();
    expect([...rep.errors, ...ar.errors, ...ops.errors]).toEqual([]);
  });

  it('a sale paid by bank account: no card hold, the step says how the money comes; at Complete the S invoice is due and the payment sweep debits the account', async () => {
    const m = newMerchant('US');
    const rep = await sellOneTerminal(browser, m, (page) => payUpfrontByBank(page, `${m.dba} LLC`));
    const noHold = mainOf(rep.page).getByRole('status', { name: 'No card hold' });
    await noHold.waitFor();
    const amount = /debited (\$[\d,]+\.\d\d) when the order is complete/.exec((await noHold.textContent()) ?? '')![1]!;
    const unified = await submitOrder(rep.page);
    await merchantSigns(browser, m, unified);

    const { ar, ops, panel } = await approveToInstallation(browser, unified, 'Bank account checked.');
    await changeStatus(ops.page, panel, 'Complete', 'Installed.', [`SN-E2E-BANK-${Date.now()}`]);

    // The Admin runs the payment sweep now (it runs every 10 minutes by itself): auto-pay debits the bank account.
    const admin = await signInAsStaff(browser, 'admin@example.com');
    await admin.page.goto('/#/admin/jobs');
    const runNow = mainOf(admin.page).getByRole('region', { name: 'Run a scheduled job now' });
    await runNow
      .getByRole('combobox', { name: 'Scheduled job' })
      .selectOption({ label: 'Payment sweep (pending charges, holds, retries, auto-pay)' });
    await runNow.getByRole('button', { name: 'Run now' }).click();
    await admin.page
      .getByText(/^Payment sweep .* is queued/)
      .first()
      .waitFor();

    // The customer's S invoice has its bank debit: pending until the bank settles it (next day).
    await ops.page.goto('/#/customer');
    await mainOf(ops.page).getByRole('searchbox', { name: 'Search customers' }).fill(m.dba);
    await mainOf(ops.page).getByRole('button', { name: 'Search', exact: true }).click();
    await mainOf(ops.page)
      .getByRole('table', { name: /Matching stores/ })
      .getByRole('link', { name: `${m.dba} #1`, exact: true })
      .click();
    await mainOf(ops.page).getByRole('tab', { name: 'Transactions' }).click();
    const debit = mainOf(ops.page)
      .getByRole('table', { name: /Transactions/ })
      .getByRole('row')
      .filter({ hasText: amount });
    await expect
      .poll(
        async () => {
          if ((await debit.count()) > 0) return true;
          await mainOf(ops.page).getByRole('tab', { name: 'Invoices' }).click();
          await mainOf(ops.page).getByRole('tab', { name: 'Transactions' }).click();
          return false;
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(true);
    expect(await debit.first().textContent()).toMatch(/Pending/i);
    expect([...rep.errors, ...ar.errors, ...ops.errors, ...admin.errors]).toEqual([]);
    await admin.context.close();
  });

  it('a rep uploads a store picture and a business license in the order flow and they show on the store (a new merchant: kept with the order until Complete, decision 160)', async () => {
    const m = newMerchant('US');
    const rep = await sellOneTerminal(
      browser,
      m,
      (page) => payUpfrontByCard(page, `${m.firstName} ${m.lastName}`),
      async (page) => {
        // A new merchant has no store yet: the step says where the files go.
        const panel = mainOf(page).getByRole('region', { name: 'Store files' });
        await panel.getByText(/move to the new store when the order is complete/).waitFor();
        await uploadStoreFile(page, 'Store picture', {
          name: 'storefront.png',
          mimeType: 'image/png',
          buffer: STOREFRONT_PNG,
        });
        await uploadStoreFile(page, 'Business license', {
          name: 'license.pdf',
          mimeType: 'application/pdf',
          buffer: LICENSE_PDF,
        });
        await panel.getByRole('img', { name: 'storefront.png' }).waitFor();
      },
    );
    const unified = await submitOrder(rep.page);
    await merchantSigns(browser, m, unified);
    const { ar, ops, panel } = await approveToInstallation(browser, unified, 'Payment checked.');
    await changeStatus(ops.page, panel, 'Complete', 'Installed.', [`SN-E2E-FILES-${Date.now()}`]);

    // The customer page: the new store's Store files panel lists both, with who uploaded them.
    await ops.page.goto('/#/customer');
    await mainOf(ops.page).getByRole('searchbox', { name: 'Search customers' }).fill(m.dba);
    await mainOf(ops.page).getByRole('button', { name: 'Search', exact: true }).click();
    await mainOf(ops.page)
      .getByRole('table', { name: /Matching stores/ })
      .getByRole('link', { name: `${m.dba} #1`, exact: true })
      .click();
    const files = mainOf(ops.page).getByRole('region', { name: 'Store files' });
    const repAccount = await demoAccount('ram@example.com');
    for (const [name, kind] of [
      ['storefront.png', 'Store picture'],
      ['license.pdf', 'Business license'],
    ] as const) {
      const row = files.getByRole('row').filter({ hasText: name });
      await row.waitFor();
      expect(await row.textContent()).toContain(kind);
      expect(await row.textContent()).toContain(repAccount.email);
    }
    await files.getByRole('img', { name: 'storefront.png' }).waitFor();
    expect([...rep.errors, ...ar.errors, ...ops.errors]).toEqual([]);
  });

  it('a non-POS order shows two milestones; a Canadian order takes an A1A 1A1 postal code and shows C$ (never CA$)', async () => {
    const rep = await signInToOrders(browser, 'ram@example.com');
    const page = rep.page;
    await startOrder(page, { type: 'Non-POS', country: 'US' });
    await expectMilestone(page, 'ORDER', ['ORDER', 'Recurring charges']);

    await page.goto('/#/order');
    const m = newMerchant('CA');
    await startOrder(page, { type: 'POS', country: 'CA' });
    await headerOf(page).getByRole('img', { name: 'Canada' }).waitFor();
    const postal = mainOf(page)
      .getByRole('group', { name: 'Legal (home) address' })
      .getByRole('textbox', { name: 'Postal code' });
    await postal.fill('12345');
    expect(await postal.inputValue()).toBe('');
    await postal.fill('s4p');
    await postal.blur();
    await mainOf(page).getByText('Canadian postal code must look like A1A 1A1.').waitFor();
    await fillStoreInfo(page, m);
    await page.waitForURL(/#\/sale-summary\/\d+$/);
    const products = mainOf(page).getByRole('table', { name: 'Hardware and products' });
    await products.waitFor();
    expect(await products.textContent()).toContain('C$');
    await selectHardware(page, 1);
    await page.waitForURL(/#\/payment-plan-method\/\d+$/);
    await mainOf(page)
      .getByText(/Paid upfront: C\$/)
      .waitFor();

    // The order list and the order's panel show the draft's total in C$ too.
    await page.goto('/#/order');
    const filters = mainOf(page).getByRole('search', { name: 'Filter orders' });
    await chooseOrderStatuses(filters, []);
    await filters.getByRole('textbox', { name: 'Search text' }).fill(m.dba);
    await filters.getByRole('button', { name: 'Apply', exact: true }).click();
    const row = mainOf(page).getByRole('row').filter({ hasText: m.dba }).first();
    await row.getByText(/^C\$[\d,]+\.\d\d$/).waitFor();
    await row.getByRole('link', { name: /^Open order / }).click();
    await mainOf(page)
      .getByRole('region', { name: 'Order summary' })
      .getByText(/^C\$[\d,]+\.\d\d$/)
      .waitFor();
    expect(await mainOf(page).textContent()).not.toContain('CA$');
    expect(rep.errors).toEqual([]);
  });

  it('RAM Support assigns an agent to a waiting order from its panel and uploads the paper contract the merchant signed', async () => {
    const { page, errors } = await signInToOrders(browser, 'ramsupport@example.com');
    await mainOf(page).getByText('Your queue: Pending Contract Sign').waitFor();
    const rows = mainOf(page)
      .getByRole('table', { name: /^Orders — \d+ match/ })
      .getByRole('row')
      .filter({ hasText: 'Pending Contract Sign' });
    await rows.first().waitFor();
    const open = rows.first().getByRole('link', { name: /^Open order / });
    const unified = (await open.getAttribute('aria-label'))!.replace('Open order ', '');
    await open.click();
    const panel = mainOf(page).getByRole('region', { name: `Order ${unified}` });
    await panel.waitFor();

    // An agent, found by the first letters of a demo distributor's name.
    const token = await sessionToken(page);
    const agents = (await (
      await page.request.get(`${e2e.baseUrl}/api/customers/getagents/${token}?types=Distributor`)
    ).json()) as { info: { agents: { name: string }[] } };
    const name = agents.info.agents[0]!.name;
    const agent = panel.getByRole('region', { name: 'Agent', exact: true });
    await agent.getByRole('textbox', { name: 'Find an agent' }).fill(name.slice(0, 4));
    const select = agent.getByRole('combobox', { name: 'Agent' });
    await expect
      .poll(async () => (await select.locator('option').allTextContents()).some((t) => t.startsWith(name)))
      .toBe(true);
    const option = (await select.locator('option').allTextContents()).find((t) => t.startsWith(name))!;
    await select.selectOption({ label: option });
    await agent.getByRole('button', { name: /^(Assign|Switch) agent$/ }).click();
    await page.getByText(`${name} now has order ${unified}.`).waitFor();
    await agent.getByText(name, { exact: true }).waitFor();

    // The paper contract.
    const contract = panel.getByRole('region', { name: 'Contract' });
    await contract.getByRole('link', { name: 'Upload signed contract' }).click();
    await page.waitForURL(/#\/upload-contract\?order=\d+$/);
    await mainOf(page)
      .getByLabel(/Signed contract/)
      .setInputFiles({
        name: 'signed.pdf',
        mimeType: 'application/pdf',
        buffer: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
      });
    await mainOf(page).getByRole('button', { name: 'Upload contract' }).click();
    await mainOf(page).getByRole('status').filter({ hasText: 'moved on to its approval queue' }).waitFor();
    expect(errors).toEqual([]);
  });

  it('an admin adds two terminals to an existing store: the add-on order summary, then the draft order', async () => {
    const { page, errors } = await signInAsStaff(browser, 'admin@example.com');
    const token = await sessionToken(page);
    const found = (await (
      await page.request.get(`${e2e.baseUrl}/api/customers/${token}/all?search=mart&limit=1`)
    ).json()) as { info: { items: { customer_id: number; store_id: number }[] } };
    const { customer_id: customerId, store_id: storeId } = found.info.items[0]!;
    await page.goto(`/#/customer?id=${customerId}&store=${storeId}`);
    await mainOf(page).getByRole('link', { name: 'Add items' }).click();
    await page.waitForURL(new RegExp(`#/additional-items/${customerId}/${storeId}$`));
    await mainOf(page).getByRole('table', { name: 'Hardware and products' }).getByRole('spinbutton').first().fill('2');
    const summary = mainOf(page).getByRole('table', { name: 'Add-terminal order summary' });
    await summary.getByRole('row').filter({ hasText: /^.+2/ }).first().waitFor();
    await mainOf(page).getByRole('button', { name: 'Create add-on order' }).click();
    await page.waitForURL(/#\/additional-items\/order\/\d+\/1$/);
    await mainOf(page).getByText('status Draft', { exact: false }).waitFor();
    expect(await mainOf(page).getByRole('table', { name: 'Add-terminal order summary' }).textContent()).toMatch(/\$/);
    expect(errors).toEqual([]);
  });
});
