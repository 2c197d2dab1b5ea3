import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noBrowser, launchBrowser } from './support/browser';
import {
  fillStoreInfo,
  newMerchant,
  payUpfrontByCard,
  selectHardware,
  signInToOrders,
  startOrder,
} from './support/order-flow';
import { mainOf } from './support/staff-session';

/*
 * Issue 29 item 1 (decision 151), as a rep in Canada would take the payment step: a card holds the upfront total with
 * the province's tax in C$; switching the hardware to cash or check, then to installments, releases the hold and the
 * step says how the money will come instead.
 */

describe.skipIf(noBrowser)('the card hold on the payment step (decision 151)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('an Ontario sale: C$ held on the card with its HST line; cash or check and installments take no hold and say so', async () => {
    // Ontario: the sale is taxed with one HST line (13 %).
    const m = { ...newMerchant('CA'), city: 'Toronto', stateLabel: 'Ontario (ON)', zip: 'M5V 2T6' };
    const { page, errors } = await signInToOrders(browser, 'ram@example.com');
    await startOrder(page, { type: 'POS', country: 'CA' });
    await fillStoreInfo(page, m);
    await page.waitForURL(/#\/sale-summary\/\d+$/);
    await selectHardware(page, 1);
    await page.waitForURL(/#\/payment-plan-method\/\d+$/);
    const paymentStep = page.url();

    // Card: the save holds the total with Saskatchewan's GST + PST, in Canadian dollars.
    const before =
      (await mainOf(page)
        .getByText(/^Paid upfront: C\$/)
        .textContent()) ?? '';
    const subtotal = Number(/C\$([\d,]+\.\d\d)/.exec(before)![1]!.replaceAll(',', ''));
    await payUpfrontByCard(page, `${m.firstName} ${m.lastName}`);
    await page.waitForURL(/#\/charges\/\d+$/);
    await page.goto(paymentStep);
    const held = mainOf(page).getByRole('status', { name: 'Card authorized' });
    await held.waitFor();
    const amount = Number(
      /Authorized C\$([\d,]+\.\d\d) on Visa ending 4242/.exec((await held.textContent())!)![1]!.replaceAll(',', ''),
    );
    // The province's tax is on top of the hardware's price.
    expect(amount).toBeGreaterThan(subtotal);
    // The summary: the HST as its own line, and the hold is its total.
    await page.goto(paymentStep.replace('payment-plan-method', 'summary'));
    const totals = mainOf(page).getByRole('table', { name: 'Totals (CAD)' });
    await totals.getByRole('row', { name: /HST/ }).waitFor();
    const total = /Total\s*(C\$[\d,]+\.\d\d)/.exec((await totals.textContent()) ?? '')?.[1];
    await mainOf(page)
      .getByRole('status', { name: 'Card authorized' })
      .getByText(`Authorized ${total} on Visa ending 4242: captured when the order is complete.`)
      .waitFor();
    await page.goto(paymentStep);

    // Cash or check: no hold; the step says who records the money.
    const method = mainOf(page).getByRole('group', { name: 'Hardware payment method' });
    await method.getByRole('combobox', { name: 'Payment method' }).selectOption({ label: 'Cash or check' });
    await mainOf(page).getByRole('button', { name: 'Save and continue' }).click();
    await page.waitForURL(/#\/charges\/\d+$/);
    await page.goto(paymentStep);
    await mainOf(page)
      .getByRole('status', { name: 'No card hold' })
      .getByText(/the merchant pays C\$[\d,]+\.\d\d by cash or check; AR records the receipt/)
      .waitFor();

    // Installments: nothing upfront.
    await mainOf(page).getByRole('radio', { name: 'Installments (5 % interest)' }).check();
    await mainOf(page).getByRole('button', { name: 'Save and continue' }).click();
    await page.waitForURL(/#\/charges\/\d+$/);
    await page.goto(paymentStep);
    await mainOf(page)
      .getByRole('status', { name: 'No card hold' })
      .getByText('Installments: nothing is paid upfront; the billing run invoices each installment.')
      .waitFor();
    expect(errors).toEqual([]);
  });
});
