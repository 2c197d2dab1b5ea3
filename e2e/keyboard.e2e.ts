import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { waitForSignedIn } from './support/sign-in';
import { demoAccount, headerOf as header, mainOf as main } from './support/staff-session';

/*
 * The back office by keyboard only (issue 19 part 7, decision 136): Tab, Shift+Tab, Enter, Space and Escape — no
 * mouse. Sign in, collapse and reopen the navigation, open Customers, search and open a customer, open and close the
 * global search dialog, add a note. Every focus stop is visible (a focus ring) and Tab never leaves the page or
 * stays put. The axe audits of every page run here too (support/a11y.ts).
 */
describe.skipIf(noBrowser)('keyboard only (issue 19)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  /**
   * What has the focus: a short description, and whether it shows a focus indicator — a focus ring (outline or
   * shadow), or for a text field Mantine's primary-coloured border.
   */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return { what: 'body', detail: '', visible: false };
      const style = getComputedStyle(el);
      const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      const probe = document.body.appendChild(document.createElement('span'));
      probe.style.color = 'var(--mantine-primary-color-filled)';
      const primary = getComputedStyle(probe).color;
      probe.remove();
      const field = el.matches('input, textarea, select') && style.borderTopColor === primary;
      const what = `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
      const detail = `${el.outerHTML.slice(0, 160)} outline ${style.outlineStyle} ${style.outlineWidth}, shadow ${style.boxShadow}, border ${style.borderTopColor} (primary ${primary})`;
      return { what, detail, visible: el.matches(':focus-visible') && (ring || field) };
    });

  /** Press Tab until `target` has the focus (at most `max` times); each stop is visible and differs from the last. */
  async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
    let previous = '';
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      // Mantine fades a field's border to the focus colour (100 ms).
      await page.waitForTimeout(150);
      const now = await focused(page);
      // Past the last stop the focus leaves the document once (the browser's own controls), then starts again at
      // the top; twice in a row means the page has nothing focusable.
      if (now.what === 'body') {
        expect(previous, 'Tab finds nothing to focus').not.toBe('body');
        previous = 'body';
        continue;
      }
      expect(now.visible, `the focus on ${now.detail} is visible`).toBe(true);
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
      // A stop is allowed to repeat only if it is a different element with the same name; the same one means stuck.
      const same = await page.evaluate(() => document.activeElement?.hasAttribute('data-kb-last') ?? false);
      expect(same, `Tab stays on ${previous}`).toBe(false);
      await page.evaluate(() => {
        document.querySelector('[data-kb-last]')?.removeAttribute('data-kb-last');
        document.activeElement?.setAttribute('data-kb-last', '');
      });
      previous = now.what;
    }
    throw new Error(`Tab did not reach the target within ${max} presses (last: ${previous})`);
  }

  it('support signs in, navigates, opens a customer, uses a dialog and adds a note without a mouse', async () => {
    const context = await browser.newContext({ baseURL: e2e.baseUrl });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const account = await demoAccount('support@example.com');

    // Sign in: Tab to the Sign in button, Enter; on the chooser, Tab to the account, Space.
    await page.goto('/#/login');
    const signIn = main(page).getByRole('button', { name: 'Sign in', exact: true });
    await signIn.waitFor();
    await tabTo(page, signIn);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Choose a demo account' }).waitFor();
    await tabTo(page, page.getByRole('button', { name: `Sign in as ${account.name} (${account.email})` }));
    await page.keyboard.press('Space');
    await waitForSignedIn(page, account);

    // The navigation: collapse and reopen it with the header's toggle, then open Customers.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link').first().waitFor();
    const toggle = header(page).getByRole('button', { name: 'Navigation' });
    await tabTo(page, toggle);
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('Space');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await tabTo(page, nav.getByRole('link', { name: 'Customers', exact: true }));
    await page.keyboard.press('Enter');
    await main(page).getByRole('heading', { name: 'Customers', level: 1 }).waitFor();

    // Search a customer by its number and open the first result.
    const box = main(page).getByRole('searchbox', { name: 'Search customers' });
    await tabTo(page, box);
    await page.keyboard.type('100130');
    await page.keyboard.press('Enter');
    const results = main(page).getByRole('table', { name: /Matching stores/ });
    const firstStore = results.getByRole('link').first();
    await firstStore.waitFor();
    await tabTo(page, firstStore);
    await page.keyboard.press('Enter');
    await main(page).getByRole('region').getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toMatch(/^#\/customer\?id=100130\b/);

    // A dialog: the global search opens from its header button, Escape closes it and the focus comes back.
    const searchButton = header(page).getByRole('button', { name: 'Search everywhere' });
    await tabTo(page, searchButton);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Search everywhere' });
    await dialog.waitFor();
    expect(
      await page
        .getByRole('textbox', { name: 'Search customers, stores, terminals and orders' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect((await focused(page)).what).not.toBe('body');

    // A form: the Notes tab's note, submitted with Space on its button.
    await page.goto('/#/customer?id=100130&tab=notes');
    const note = main(page).getByRole('textbox', { name: 'Note' });
    await note.waitFor();
    const text = `Typed without a mouse (${Date.now()}).`;
    await tabTo(page, note, 120);
    await page.keyboard.type(text);
    await tabTo(page, main(page).getByRole('button', { name: 'Add note' }), 5);
    await page.keyboard.press('Space');
    await main(page).getByRole('list', { name: 'Notes' }).getByText(text).waitFor();
    expect(await note.inputValue()).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });
});
