import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * Issue 15 points 6–7 (decision 118) and issue 30 (decision 155), as the people involved would: staff send a store
 * with a past-due invoice the update-payment e-mail; the merchant opens the link from it (read from the Admin
 * Mailbox) on a phone (375 px), replaces the card on file with the test card 4242 4242 4242 4242 — nothing is charged,
 * the invoice stays open — then, as a separate choice, pays with the card now on file and the invoice is paid; the
 * link then says it was used. An AR user collects another store's past-due invoice from the collection page with a
 * new card. The demo seed has US customers with past-due invoices.
 */

/** Where to keep the merchant's screenshots (E2E_SCREENSHOTS), if anywhere. */
const shots = process.env.E2E_SCREENSHOTS;
async function shot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  // From the top: a full-page picture of a scrolled page draws the sticky header over the middle of it; and once the
  // loading spinner's minimum display is over.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
}

/**
 * Nothing sticks out sideways on the phone: no sideways scroll, and nothing of the page past the right edge of its
 * column (the box the h1 is in, inside the page's margins).
 */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client, outside } = await page.evaluate(() => {
    const column = document.querySelector('main h1')?.parentElement;
    const edge = column ? column.getBoundingClientRect().right : document.documentElement.clientWidth;
    const outside = Array.from(document.querySelectorAll('main *'))
      .filter((el) => el.getBoundingClientRect().right > edge + 0.5)
      .map((el) => `${el.tagName.toLowerCase()}: ${(el.textContent ?? '').trim().slice(0, 40)}`);
    return { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth, outside };
  });
  expect(scroll, 'the page scrolls sideways').toBeLessThanOrEqual(client);
  expect(outside, 'past the right edge of the page').toEqual([]);
}

interface InvoiceState {
  balance_cents: number;
  transactions: Array<{ id: number; status: string }>;
}

interface OverdueInvoice {
  id: number;
  invoice_number: string;
  customer_id: number;
  store_id: number | null;
  plan_id: number | null;
}

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

async function fillCard(page: Page, name: string) {
  await main(page).getByRole('textbox', { name: 'Name on card' }).fill(name);
  await main(page).getByRole('textbox', { name: 'Card number' }).fill('4242 4242 4242 4242');
  await main(page).getByRole('textbox', { name: 'Expiry month' }).fill('12');
  await main(page).getByRole('textbox', { name: 'Expiry year' }).fill('2030');
  await main(page).getByRole('textbox', { name: 'Security code' }).fill('123');
}

describe.skipIf(noBrowser)('merchant payment link and collection (issue 15)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('the merchant pays a past-due invoice from the e-mailed link (single use); AR collects another from the collection page', async () => {
    const admin = await signInAsStaff(browser, 'admin@example.com');
    const token = await sessionToken(admin.page);
    const overdue = (
      await getJson<{ items: OverdueInvoice[] }>(
        admin.page,
        `/api/invoices/${token}?overdue=true&currency=USD&limit=100&sort=-due_on`,
      )
    ).items.filter((i) => i.store_id !== null);
    // Not one whose charge is still in progress (a pending bank debit of the seed): that one cannot be paid now.
    const chargeable: OverdueInvoice[] = [];
    for (const inv of overdue) {
      const page = await getJson<{ transactions: Array<{ status: string }> }>(
        admin.page,
        `/api/invoices/${inv.id}/${token}`,
      );
      if (!page.transactions.some((t) => t.status === 'P')) chargeable.push(inv);
      if (chargeable.length >= 12) break;
    }
    expect(chargeable.length).toBeGreaterThan(1);

    // A past-due invoice whose store has a terminal: staff send its store the update-payment e-mail.
    let sent: { to: string; storeId: number } | null = null;
    let paid: OverdueInvoice | null = null;
    for (const inv of chargeable) {
      const terminals = await getJson<{ items: Array<{ elmer_id: string; retired_at: string | null }> }>(
        admin.page,
        `/api/customers/${inv.customer_id}/${token}/customerterminals?storeid=${inv.store_id}`,
      );
      const terminal = terminals.items.find((t) => t.retired_at === null);
      if (!terminal) continue;
      const { jobId } = await postJson<{ jobId: string }>(
        admin.page,
        `/api/customers/notifications/updatepayment/${token}`,
        { elmer_id: terminal.elmer_id },
      );
      for (let i = 0; i < 100; i++) {
        const job = await getJson<{ state: string; output: { to: string; storeId: number } | null }>(
          admin.page,
          `/api/jobs/${jobId}/${token}`,
        );
        if (job.state === 'completed') {
          sent = job.output;
          break;
        }
        expect(['created', 'retry', 'active']).toContain(job.state);
        await admin.page.waitForTimeout(200);
      }
      paid = inv;
      break;
    }
    expect(sent, 'no past-due invoice of a store with a terminal').not.toBeNull();

    // The Admin's Mailbox shows the e-mail and its link.
    await admin.page.goto('/#/admin/mailbox');
    await main(admin.page).getByRole('heading', { name: 'Mailbox', level: 1 }).waitFor();
    await main(admin.page).getByRole('searchbox', { name: 'Recipient' }).fill(sent!.to);
    await main(admin.page)
      .getByRole('combobox', { name: 'Template' })
      .selectOption({ label: 'Payment-method update link' });
    const row = main(admin.page)
      .getByRole('table', { name: /Messages, newest first/ })
      .getByRole('row')
      .filter({ hasText: sent!.to })
      .first();
    await row.waitFor();
    const subject = row.getByRole('button');
    const subjectText = ((await subject.textContent()) ?? '').trim();
    await subject.click();
    const link = (await main(admin.page)
      .getByRole('region', { name: subjectText })
      .getByRole('link', { name: /#\/customer\/payment\// })
      .getAttribute('href'))!;
    expect(link.startsWith(`${e2e.baseUrl}/#/customer/payment/`)).toBe(true);
    expect(admin.errors).toEqual([]);
    const invoiceState = () => getJson<InvoiceState>(admin.page, `/api/invoices/${paid!.id}/${token}`);
    const before = await invoiceState();
    expect(before.balance_cents).toBeGreaterThan(0);

    // The merchant (no session) opens it on a phone: what is owed, and two separate choices.
    const context = await browser.newContext({ baseURL: e2e.baseUrl, viewport: { width: 375, height: 812 } });
    const merchant = await context.newPage();
    await merchant.goto(link);
    await main(merchant)
      .getByRole('heading', { name: /^Update your payment method — / })
      .waitFor();
    const owed = main(merchant).getByRole('table', { name: 'What you owe' });
    await owed.getByRole('row').filter({ hasText: paid!.invoice_number }).waitFor();
    const totalText = /Total owed\s*(\$[\d,]+\.\d{2})/.exec((await owed.textContent()) ?? '')?.[1];
    expect(totalText, 'the total owed').toBeDefined();
    const payNow = main(merchant).getByRole('button', { name: `Pay ${totalText} now` });
    await payNow.waitFor();
    await expectNoSidewaysScroll(merchant);
    await shot(merchant, 'merchant-payment-1-choices-375');

    // 1. Replace the card on file: nothing is charged.
    await main(merchant)
      .getByRole('button', { name: /^(Replace the (card|bank account) on file|Add a card or bank account)$/ })
      .click();
    await fillCard(merchant, 'Pat Merchant');
    await expectNoSidewaysScroll(merchant);
    await shot(merchant, 'merchant-payment-2-replace-form-375');
    await main(merchant).getByRole('button', { name: 'Save as my payment method' }).click();
    const replaced = main(merchant).getByRole('status').filter({ hasText: 'Payment method replaced' });
    await replaced.waitFor();
    expect(await replaced.textContent()).toMatch(/Visa.*4242 is now your payment method\. Nothing was charged\./);
    await main(merchant)
      .getByText(/^On file: Visa.*4242$/)
      .waitFor();
    expect(await owed.textContent()).toContain(`Total owed${totalText}`);
    await payNow.waitFor();
    await expectNoSidewaysScroll(merchant);
    await shot(merchant, 'merchant-payment-3-replaced-375');
    // The invoice: the same balance, no new charge.
    const afterReplace = await invoiceState();
    expect(afterReplace.balance_cents).toBe(before.balance_cents);
    expect(afterReplace.transactions.map((t) => t.id)).toEqual(before.transactions.map((t) => t.id));

    // 2. Pay, separately, with the card now on file.
    await payNow.click();
    const onFile = main(merchant).getByRole('radio', { name: /Visa.*4242 \(on file\)/ });
    expect(await onFile.isChecked()).toBe(true);
    await expectNoSidewaysScroll(merchant);
    await shot(merchant, 'merchant-payment-4-pay-form-375');
    await main(merchant)
      .getByRole('button', { name: `Pay ${totalText}` })
      .click();
    await main(merchant).getByRole('heading', { name: 'Thank you' }).waitFor();
    const result = main(merchant).getByRole('table', { name: 'Payment result' });
    expect(await result.getByRole('row').filter({ hasText: paid!.invoice_number }).textContent()).toContain('Paid');
    await expectNoSidewaysScroll(merchant);
    await shot(merchant, 'merchant-payment-5-paid-375');
    const afterPay = await invoiceState();
    expect(afterPay.balance_cents).toBe(0);
    expect(afterPay.transactions.filter((t) => t.status === 'S')).toHaveLength(
      before.transactions.filter((t) => t.status === 'S').length + 1,
    );
    expect(admin.errors).toEqual([]);
    await admin.context.close();

    // The link is used up: the same link again.
    await merchant.goto('about:blank');
    await merchant.goto(link);
    await main(merchant)
      .getByText(/This link was already used/)
      .waitFor();
    await context.close();

    // AR collects another store's past-due invoice from the collection page, with a new card.
    const other = chargeable.find((i) => i.store_id !== sent!.storeId && i.plan_id !== null);
    expect(other).toBeDefined();
    const ar = await signInAsStaff(browser, 'ar@example.com');
    await ar.page.goto(`/#/customer/payment/${other!.plan_id}/collection`);
    await main(ar.page)
      .getByRole('heading', { name: /^Collect payment — / })
      .waitFor();
    const pastDue = main(ar.page).getByRole('table', { name: 'Past-due invoices' });
    await pastDue.getByRole('row').filter({ hasText: other!.invoice_number }).waitFor();
    await main(ar.page).getByRole('combobox', { name: 'Charge' }).selectOption({ label: 'A new card' });
    await fillCard(ar.page, 'Pat Collector');
    await main(ar.page)
      .getByRole('button', { name: /^Collect now/ })
      .click();
    const collected = main(ar.page).getByRole('table', { name: 'Collection result' });
    await collected.waitFor({ timeout: 60_000 });
    expect(await collected.getByRole('row').filter({ hasText: other!.invoice_number }).textContent()).toContain('Paid');
    // The page reloads: the invoice is no longer past due.
    await expect.poll(async () => pastDue.getByRole('row').filter({ hasText: other!.invoice_number }).count()).toBe(0);
    expect(ar.errors).toEqual([]);
    await ar.context.close();
  });
});
