import type { Browser, Page } from 'playwright-core';
import { e2e } from './browser';
import { demoAccount, headerOf, mainOf } from './staff-session';

/*
 * The order flow as a sales rep uses it (issue 7): sign in, New order, the five steps. Shared by the journeys.
 */

export interface Merchant {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  taxId: string;
  dba: string;
  address1: string;
  city: string;
  /** The state's or province's option label, e.g. 'Texas (TX)'. */
  stateLabel: string;
  zip: string;
}

export function newMerchant(country: 'US' | 'CA' = 'US'): Merchant {
  const n = `${Date.now()}`.slice(-7);
  return country === 'US'
    ? {
        firstName: 'Maya',
        lastName: `Reyes${n}`,
        email: `maya${n}@merchant.example`,
        phone: '5125550199',
        taxId: `74-${n}`,
        dba: `Reyes Corner Store ${n}`,
        address1: '400 Congress Ave',
        city: 'Austin',
        stateLabel: 'Texas (TX)',
        zip: '78701',
      }
    : {
        firstName: 'Luc',
        lastName: `Tremblay${n}`,
        email: `luc${n}@merchant.example`,
        phone: '3065550199',
        taxId: `CA-${n}`,
        dba: `Tremblay Depanneur ${n}`,
        address1: '1 Victoria Ave',
        city: 'Regina',
        stateLabel: 'Saskatchewan (SK)',
        zip: 'S4P 3Y2',
      };
}

/** Sign in through the demo chooser and land where the sign-in rules send the user (the order list for order roles). */
export async function signInToOrders(browser: Browser, email: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: e2e.baseUrl });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  const account = await demoAccount(email);
  await page.goto('/#/login');
  await page.getByRole('main').getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Choose a demo account' }).waitFor();
  await page.getByRole('button', { name: `Sign in as ${account.name} (${account.email})` }).click();
  await page.waitForURL(/#\/order$/);
  errors.length = 0;
  return { page, errors };
}

/** The header's milestone bar: every step's label and the current one. */
export async function milestones(page: Page): Promise<{ labels: string[]; current: string | null }> {
  const bar = headerOf(page).getByRole('navigation', { name: 'Order progress' });
  await bar.waitFor();
  const labels = (await bar.getByRole('listitem').allTextContents()).map((t) => t.replace(/^\d+/, '').trim());
  const current = bar.locator('[aria-current="step"]');
  return {
    labels,
    current: (await current.count()) ? (await current.textContent())!.replace(/^\d+/, '').trim() : null,
  };
}

/** #/neworder → choose type and country → Start order → the store-information step. Returns the order id. */
export async function startOrder(
  page: Page,
  options: { type: 'POS' | 'Non-POS'; country: 'US' | 'CA' },
): Promise<number> {
  await mainOf(page).getByRole('link', { name: 'New order' }).click();
  await mainOf(page).getByRole('heading', { name: 'New order', level: 1 }).waitFor();
  await mainOf(page)
    .getByRole('radio', {
      name: options.type === 'POS' ? 'POS (hardware and software)' : 'Non-POS (service plan only)',
    })
    .check();
  await mainOf(page)
    .getByRole('radio', { name: options.country === 'US' ? 'United States' : 'Canada' })
    .check();
  await mainOf(page).getByRole('button', { name: 'Start order' }).click();
  await page.waitForURL(/#\/store-info\/\d+$/);
  return Number(/store-info\/(\d+)/.exec(page.url())![1]);
}

/** Fill the store-information step for `m` (store at the legal address) and save. */
export async function fillStoreInfo(page: Page, m: Merchant): Promise<void> {
  const main = mainOf(page);
  const merchant = main.getByRole('group', { name: 'Merchant' });
  await merchant.getByRole('textbox', { name: 'Legal business name' }).fill(`${m.dba} LLC`);
  await merchant.getByRole('textbox', { name: 'Federal tax id' }).fill(m.taxId);
  await merchant.getByRole('textbox', { name: 'First name' }).fill(m.firstName);
  await merchant.getByRole('textbox', { name: 'Last name' }).fill(m.lastName);
  await merchant.getByRole('textbox', { name: 'E-mail' }).fill(m.email);
  await merchant.getByRole('textbox', { name: 'Phone' }).fill(m.phone);
  const home = main.getByRole('group', { name: 'Legal (home) address' });
  await home.getByRole('textbox', { name: 'Address line 1' }).fill(m.address1);
  await home.getByRole('textbox', { name: 'City' }).fill(m.city);
  await home.getByRole('combobox', { name: /State|Province/ }).selectOption({ label: m.stateLabel });
  await home.getByRole('textbox', { name: /ZIP code|Postal code/ }).fill(m.zip);
  const store = main.getByRole('group', { name: 'Store' });
  await store.getByRole('textbox', { name: 'Doing business as' }).fill(m.dba);
  await store.getByRole('textbox', { name: 'Store name' }).fill(`${m.dba} #1`);
  await store.getByRole('textbox', { name: 'Store phone' }).fill(m.phone);
  await main.getByRole('button', { name: 'Save and continue' }).click();
}

/** SELECT HARDWARE: `terminals` of the first product (the terminal) and save. */
export async function selectHardware(page: Page, terminals: number): Promise<void> {
  const main = mainOf(page);
  const table = main.getByRole('table', { name: 'Hardware and products' });
  await table.waitFor();
  await table.getByRole('spinbutton').first().fill(String(terminals));
  await main.getByText(`Terminals on this order: ${terminals}`).waitFor();
  await main.getByRole('button', { name: 'Save and continue' }).click();
}

/** The local gateway's test cards (decision 059): 4242 is approved, 9995 declined for insufficient funds. */
export const TEST_CARDS = { approved: '4242 4242 4242 4242', insufficientFunds: '4000 0000 0000 9995' } as const;

/**
 * PAYMENT (PLAN / METHOD): upfront, a test card through the gateway, save — the save holds the upfront total with tax
 * on the card (decision 151). An approved card moves on to the next step; a declined one stays on this step.
 */
export async function payUpfrontByCard(page: Page, name: string, number: string = TEST_CARDS.approved): Promise<void> {
  const main = mainOf(page);
  const method = main.getByRole('group', { name: 'Hardware payment method' });
  await method.getByRole('combobox', { name: 'Payment method' }).selectOption({ label: 'Credit or debit card' });
  await method.getByRole('textbox', { name: 'Name on card' }).fill(name);
  await method.getByRole('textbox', { name: 'Card number' }).fill(number);
  await method.getByRole('textbox', { name: 'Expiry month' }).fill('12');
  await method.getByRole('textbox', { name: 'Expiry year' }).fill('2030');
  await method.getByRole('textbox', { name: 'Security code' }).fill('123');
  await main.getByRole('button', { name: 'Save and continue' }).click();
}

/** PAYMENT (PLAN / METHOD): upfront, by a US bank account (ACH; no card hold), save. */
export async function payUpfrontByBank(page: Page, name: string): Promise<void> {
  const main = mainOf(page);
  const method = main.getByRole('group', { name: 'Hardware payment method' });
  await method.getByRole('combobox', { name: 'Payment method' }).selectOption({ label: 'Bank account (ACH)' });
  await method.getByRole('textbox', { name: 'Name on account' }).fill(name);
  await method.getByRole('textbox', { name: 'Bank name' }).fill('Chase');
  await method.getByRole('textbox', { name: 'Routing number' }).fill('021000021');
  await method.getByRole('textbox', { name: 'Account number' }).fill('000123456789');
  await main.getByRole('button', { name: 'Save and continue' }).click();
}

/** Recurring charges: a monthly amount, charged to the hardware method (POS) — save. */
export async function monthlyCharges(page: Page, amount: string): Promise<void> {
  const main = mainOf(page);
  await main.getByRole('textbox', { name: 'Monthly amount' }).fill(amount);
  await main.getByRole('button', { name: 'Save and continue' }).click();
}

/** Summary → Submit order → the unified order id from the confirmation. */
export async function submitOrder(page: Page): Promise<string> {
  const main = mainOf(page);
  await main.getByRole('button', { name: 'Submit order' }).click();
  const done = main.getByRole('status').filter({ hasText: 'Order submitted' });
  await done.waitFor();
  return /Order (UO-\d+-\d+)/.exec((await done.textContent()) ?? '')![1]!;
}
